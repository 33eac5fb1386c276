#!/bin/bash
# tests/emu/host/modeled_time.sh BUILD_DIR -- the modeled clock through the
# environment, as a user turns it on for an unchanged program:
# `. emu/upmem_env.sh --modeled-time` (bash: a sourced file takes
# arguments), then a PrIM-timed host program (prim_timer/app.c) built with
# dpu-pkg-config prints modeled step times (it checks them against
# <dpu_emu.h> itself). Run from the checkout root (make test does).
. ./tests/lib.sh
BUILD=${1:-$(pwd)/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset UPMEM_PROFILE UPMEM_PROFILE_BASE
. ./emu/upmem_env.sh --modeled-time
if [ "${UPMEM_PROFILE_BASE:-}" = hostTime=modeled ]; then
    pass emu_env_modeled_time_sets_profile
else
    fail emu_env_modeled_time_sets_profile "UPMEM_PROFILE_BASE=${UPMEM_PROFILE_BASE:-}"
fi
UPMEM_EMU_BUILD=$BUILD
export UPMEM_EMU_BUILD
# shellcheck disable=SC2046 # the flags are a word list
if ! ${CC:-cc} -O2 -o "$tmp/app" tests/emu/host/prim_timer/app.c \
    $(dpu-pkg-config --cflags --libs dpu) >"$tmp/log" 2>&1; then
    fail emu_env_modeled_time_prim_timer "build: $(head -c 400 "$tmp/log")"
elif "$tmp/app" "$BUILD/tests/emu/host/basic.dpu" >"$tmp/out" 2>&1; then
    sed 's/^/# /' "$tmp/out"
    pass emu_env_modeled_time_prim_timer
else
    sed 's/^/# /' "$tmp/out"
    fail emu_env_modeled_time_prim_timer "the PrIM timer did not print the modeled times"
fi
# PrIM's ENERGY=1 build: <dpu_probe.h> with modeled energy (the program
# compares the probe with <dpu_emu.h>); and the same source without it
for energy in 1 0; do
    # shellcheck disable=SC2046 # the flags are a word list
    if ! ${CC:-cc} -O2 -DENERGY=$energy -o "$tmp/energy$energy" tests/emu/host/prim_energy/app.c \
        $(dpu-pkg-config --cflags --libs dpu) >"$tmp/log" 2>&1; then
        fail emu_env_prim_energy_$energy "build: $(head -c 400 "$tmp/log")"
    elif UPMEM_PROFILE=hostClock=none "$tmp/energy$energy" "$BUILD/tests/emu/host/basic.dpu" \
        >"$tmp/out" 2>&1 && grep -q ' OK$' "$tmp/out" &&
        { [ $energy = 0 ] || grep -q 'DPU Energy (J): [0-9.e-]* (modeled)' "$tmp/out"; }; then
        sed 's/^/# /' "$tmp/out"
        pass emu_env_prim_energy_$energy
    else
        sed 's/^/# /' "$tmp/out"
        fail emu_env_prim_energy_$energy "the ENERGY=$energy program failed"
    fi
done
# for comparison, not checked: the same program without the environment
# times the simulation (measured wall time of this host)
unset UPMEM_PROFILE_BASE
"$tmp/app" "$BUILD/tests/emu/host/basic.dpu" 2>&1 | sed 's/^/# without --modeled-time (measured): /'
finish
