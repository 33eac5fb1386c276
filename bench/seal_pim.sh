#!/bin/sh
# bench/seal_pim.sh WORK HEXL_INCLUDE OUT LINK... -- `make bench-seal-pim`:
# SEAL's operations on the DPUs (modeled) beside SEAL on one CPU core
# (measured), with bench/seal_pim.cpp on the SEAL that tests/hexl/seal.sh
# built in WORK.  Writes OUT/seal-ops.csv (per operation at N = 4096..32768:
# `auto` measured; pim modeled on the virtual UPMEM's default machine, the
# CryptoPIM study's and DRAMatic's) and OUT/seal-dramatic.csv (32,768
# ciphertexts at N = 4096 through the batch entry point at 6 ranks of
# DRAMatic's machine and 40 of the study's, and SEAL on the CPU), and the
# load (uptime) before and after in OUT/seal-load.txt.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../tests/hexl/seal_prog.sh"
work=$1 inc=$2 out=$3
shift 3
prog=$work/seal-pim
seal_prog "$work" "$here/seal_pim.cpp" "$prog" "$inc" "$@" || exit 1
mkdir -p "$out" || exit 1
uptime >"$out/seal-load.txt"
# one process per backend and machine: SEAL keeps one NTT object per (N, q)
# for the process's life, built on the backend of its first use
{
    # pim: the operations simulated at N = 4096 (8192 on the study's
    # machine), the one-limb NTT at every N (SEAL_PIM_NMAX raises them)
    "$prog" ops auto &&
        "$prog" ops pim default ${SEAL_PIM_NMAX:-4096} | tail -n +2 &&
        "$prog" ops pim study ${SEAL_PIM_NMAX:-8192} | tail -n +2 &&
        "$prog" ops pim dramatic ${SEAL_PIM_NMAX:-4096} | tail -n +2
} >"$out/seal-ops.csv" || { echo "bench-seal-pim: ops failed" >&2; exit 1; }
{
    "$prog" dramatic-cpu &&
        "$prog" dramatic dramatic 6 | tail -n +2 &&
        "$prog" dramatic study 40 | tail -n +2
} >"$out/seal-dramatic.csv" || { echo "bench-seal-pim: dramatic failed" >&2; exit 1; }
uptime >>"$out/seal-load.txt"
echo "bench-seal-pim: $out/seal-ops.csv $out/seal-dramatic.csv (load: $out/seal-load.txt)"
