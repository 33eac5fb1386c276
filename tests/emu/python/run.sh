#!/bin/sh
# tests/emu/python/run.sh BUILD -- runs tests/emu/python/test_python.py in
# the environment a user has after `. emu/upmem_env.sh` with that build
# folder (UPMEM_HOME, PYTHONPATH, PATH). Run from the checkout root.
. ./tests/lib.sh
UPMEM_EMU_BUILD=${1:-$(pwd)/build}
export UPMEM_EMU_BUILD
. ./emu/upmem_env.sh
if ! command -v python3 >/dev/null 2>&1; then
    skip emu_python "python3 is not installed (.ci/run installs it)"
    finish
fi
shift 2>/dev/null
exec python3 tests/emu/python/test_python.py "$@"
