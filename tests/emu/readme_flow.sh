#!/bin/sh
# tests/emu/readme_flow.sh -- the README's "Your own UPMEM programs" steps
# from a fresh build tree: a plain `make` builds what they need (its
# dry run in a fresh tree lists dpu.pc and the SDK-shaped tree, checked
# first); that part is then built in the fresh tree (`make emu`: libdpu,
# dpu.pc, build/upmem -- building the whole project there again would only
# repeat the main build), `. emu/upmem_env.sh` is sourced for it, and an
# ordinary CMake project using pkg_check_modules(DPU dpu) (a copy of
# emu/examples/cmake_checksum) and an UPMEM_HOME-based one (cmake_sdk) are
# configured, built and run outside the checkout, as a user would.
# Usage: sh tests/emu/readme_flow.sh   (from the checkout root)
. ./tests/lib.sh
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
B=$T/build

if MAKEFLAGS='' make -n BUILD="$B" all >"$T/dry" 2>&1 &&
    grep -q "$B/pkgconfig/dpu.pc" "$T/dry" && grep -q "$B/upmem/share/upmem/version" "$T/dry"; then
    pass readme_plain_make_builds_dpu_pc
else
    fail readme_plain_make_builds_dpu_pc "make -n all in a fresh tree does not build dpu.pc and build/upmem"
fi

if ! MAKEFLAGS='' make -s -j2 BUILD="$B" emu >"$T/log" 2>&1; then
    fail readme_fresh_build "make emu in a fresh build tree failed: $(tail -n 5 "$T/log")"
    finish
fi
pass readme_fresh_build

if ! command -v cmake >/dev/null 2>&1; then
    skip readme_cmake_pkg_config "cmake is not installed (.ci/run installs it)"
    finish
fi
cp -R emu/examples/cmake_checksum "$T/proj"
cp -R emu/examples/cmake_sdk "$T/proj_sdk"
# the README's steps, in a shell of their own
if UPMEM_EMU_BUILD=$B sh -c ". ./emu/upmem_env.sh && cd '$T/proj' && cmake -S . -B build -DNR_DPUS=8 && cmake --build build && ./build/host_app" >"$T/log" 2>&1 &&
    grep -q '^PASS example_cmake_checksum' "$T/log"; then
    pass readme_cmake_pkg_config
else
    fail readme_cmake_pkg_config "$(tail -n 8 "$T/log")"
fi
if UPMEM_EMU_BUILD=$B sh -c ". ./emu/upmem_env.sh && test \"\$UPMEM_HOME\" = '$B/upmem' && cd '$T/proj_sdk' && cmake -S . -B build && cmake --build build && ./build/host_app" >"$T/log" 2>&1 &&
    grep -q '^PASS example_cmake_sdk' "$T/log"; then
    pass readme_cmake_upmem_home
else
    fail readme_cmake_upmem_home "$(tail -n 8 "$T/log")"
fi
finish
