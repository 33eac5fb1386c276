#!/bin/sh
# emu/examples/run_all.sh [build-dir] -- builds every example with its own
# Makefile, through emu/upmem_env.sh, exactly as a user would, and runs it.
# Each host program prints `PASS example_<name>` or `FAIL ...`. Run from the
# checkout root (make test does).
BUILD=${1:-$(pwd)/build}
. ./emu/upmem_env.sh
UPMEM_EMU_BUILD=$BUILD
export UPMEM_EMU_BUILD
status=0
for dir in emu/examples/*/; do
    name=$(basename "$dir")
    out=$BUILD/emu/examples/$name
    log=$(mktemp)
    if ! make -C "$dir" BUILDDIR="$out" clean all >"$log" 2>&1; then
        echo "FAIL example_$name: its Makefile failed:"
        tail -n 20 "$log" | sed 's/^/    /'
        status=1
    elif ! (cd "$dir" && make -s BUILDDIR="$out" test); then
        echo "FAIL example_$name: the host program exited with an error"
        status=1
    fi
    rm -f "$log"
done
exit $status
