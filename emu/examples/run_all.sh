#!/bin/sh
# emu/examples/run_all.sh [build-dir] -- builds every example with its own
# Makefile (or, for a CMake project, CMakeLists.txt: cmake configure + build
# in the build folder), through emu/upmem_env.sh, exactly as a user would,
# and runs it. Each host program prints `PASS example_<name>` or `FAIL ...`;
# one that prints neither fails too. An example whose tool is missing (cmake,
# a C++ compiler for a C++ host) is reported skipped. Verdicts and the final
# `DONE` through tests/lib.sh.  Run from the checkout root (make test does).
. ./tests/lib.sh
BUILD=${1:-$(pwd)/build}
UPMEM_EMU_BUILD=$BUILD
export UPMEM_EMU_BUILD
. ./emu/upmem_env.sh
for dir in emu/examples/*/; do
    name=$(basename "$dir")
    out=$BUILD/emu/examples/$name
    if [ ! -f "$dir/Makefile" ] && [ -f "$dir/CMakeLists.txt" ]; then
        if ! command -v cmake >/dev/null 2>&1; then
            skip "example_$name" "cmake is not installed (.ci/run installs it)"
            continue
        fi
        log=$(mktemp)
        rm -rf "$out"
        if ! { cmake -S "$dir" -B "$out" && cmake --build "$out"; } >"$log" 2>&1; then
            fail "example_$name" "cmake failed:"
            tail -n 20 "$log" | sed 's/^/    /'
        elif ! "$out/host_app" >"$log" 2>&1; then
            cat "$log"
            fail "example_$name" "the host program exited with an error"
        else
            cat "$log"
            grep -q "^PASS example_$name" "$log" || fail "example_$name" "the host program printed no PASS line"
        fi
        rm -f "$log"
        continue
    fi
    if ls "$dir"host/*.cpp >/dev/null 2>&1 && ! command -v "${CXX:-g++}" >/dev/null 2>&1; then
        skip "example_$name" "no C++ compiler (${CXX:-g++}; .ci/run installs g++)"
        continue
    fi
    log=$(mktemp)
    if ! make -C "$dir" BUILDDIR="$out" clean all >"$log" 2>&1; then
        fail "example_$name" "its Makefile failed:"
        tail -n 20 "$log" | sed 's/^/    /'
    elif ! (cd "$dir" && make -s BUILDDIR="$out" test) >"$log" 2>&1; then
        cat "$log"
        fail "example_$name" "the host program exited with an error"
    else
        cat "$log"
        grep -q "^PASS example_$name" "$log" || fail "example_$name" "the host program printed no PASS line"
    fi
    rm -f "$log"
done
finish
