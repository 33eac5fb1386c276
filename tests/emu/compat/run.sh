#!/bin/sh
# tests/emu/compat/run.sh BUILD -- host programs of our own in the styles
# public UPMEM programs use, built and run as a user would after
# `. emu/upmem_env.sh` (compiler wrapper and dpu-pkg-config on PATH, the
# SDK-shaped tree as UPMEM_HOME):
#   runtime_compile  the host compiles the DPU program at run time
#                    (system() of the wrapper), then dpu_load
#   dlopen           the host code in a dlopen()ed shared object linked
#                    with the shared libdpu ($UPMEM_HOME/lib)
#   ranks            dpu_alloc_ranks and dpu_management.h / dpu_memory.h
# Each program prints its PASS/FAIL line. Run from the checkout root.
. ./tests/lib.sh
UPMEM_EMU_BUILD=${1:-$(pwd)/build}
export UPMEM_EMU_BUILD
. ./emu/upmem_env.sh
src=$(pwd)/tests/emu/compat
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
CC=${CC:-cc}
FLAGS="-std=c11 -Wall -Wextra -Werror -O2"

# run NAME CMD...: runs a built program, whose output carries the verdict
run() {
    name=$1
    shift
    if ! "$@" >"$T/out" 2>&1; then
        cat "$T/out"
        grep -q "^FAIL $name" "$T/out" || fail "$name" "exited with an error"
    else
        cat "$T/out"
        grep -q "^PASS $name" "$T/out" || fail "$name" "printed no PASS line"
    fi
}

# shellcheck disable=SC2046,SC2086
if $CC $FLAGS -o "$T/runtime_compile" "$src/runtime_compile.c" $(dpu-pkg-config --cflags --libs dpu); then
    run compat_runtime_compile "$T/runtime_compile" "$src/kernel.c" "$T"
else
    fail compat_runtime_compile "the host program does not build"
fi

if dpu-upmem-dpurte-clang -O2 -DNR_TASKLETS=16 -o "$T/kernel.dpu" "$src/kernel.c"; then
    # shellcheck disable=SC2086
    if $CC $FLAGS -fPIC -shared -o "$T/plugin.so" "$src/plugin.c" \
        -I"$UPMEM_HOME/include/dpu" -L"$UPMEM_HOME/lib" -ldpu &&
        $CC $FLAGS -o "$T/dlopen_host" "$src/dlopen_host.c" -ldl; then
        run compat_dlopen "$T/dlopen_host" "$T/plugin.so" "$T/kernel.dpu"
    else
        fail compat_dlopen "the plugin or its host does not build"
    fi
    # shellcheck disable=SC2046,SC2086
    if $CC $FLAGS -o "$T/ranks" "$src/ranks.c" $(dpu-pkg-config --cflags --libs dpu); then
        run compat_ranks "$T/ranks" "$T/kernel.dpu"
    else
        fail compat_ranks "the host program does not build"
    fi
else
    fail compat_dlopen "the kernel does not build"
    fail compat_ranks "the kernel does not build"
fi
finish
