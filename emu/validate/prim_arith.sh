#!/bin/sh
# emu/validate/prim_arith.sh -- PrIM's Arithmetic-Throughput microbenchmark,
# unchanged, on the virtual UPMEM with PrIM's own run.sh settings (1 DPU, 16
# tasklets, BL=10, -w 0 -e 1 -i 1048576: the input size matters, as the
# divisions divide by it), against the published throughput (PrIM, Gomez-Luna
# et al., IEEE Access 2022, Fig. 4, as upmem-perf-facts records it).
#
# Usage: sh emu/validate/prim_arith.sh PRIM_DIR [OUT_DIR]
#   PRIM_DIR  a copy of CMU-SAFARI/prim-benchmarks (holding Microbenchmarks/),
#             or its Microbenchmarks folder; nothing is written there
#   OUT_DIR   default build/prim_arith: copies, build and run logs
# Run from the checkout after `make` (build/libdpu.a). Prints one markdown
# row per operation (MOPS = elements x 350 MHz / the program's DPU cycles,
# modeled) and the mean absolute percentage error. Exit 0, 1 if a program
# failed to build, run or pass its own check, 2 bad usage.
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: sh emu/validate/prim_arith.sh PRIM_DIR [OUT_DIR]" >&2
    exit 2
fi
prim=$1
[ -d "$prim/Microbenchmarks" ] && prim=$prim/Microbenchmarks
if [ ! -d "$prim/Arithmetic-Throughput" ]; then
    echo "prim_arith.sh: no PrIM Microbenchmarks/Arithmetic-Throughput in $1" >&2
    exit 2
fi
prim=$(cd "$prim" && pwd)
out=${2:-build/prim_arith}
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
if [ ! -f emu/upmem_env.sh ] || [ ! -f build/libdpu.a ]; then
    echo "prim_arith.sh: run from the checkout after make (no build/libdpu.a)" >&2
    exit 2
fi
UPMEM_EMU_HOME=$(pwd)
export UPMEM_EMU_HOME
. "$UPMEM_EMU_HOME/emu/upmem_env.sh"
# the modeled clock of PrIM's 350 MHz machine; no host time inside its timers
UPMEM_PROFILE_BASE=hostTime=modeled,machine=prim
UPMEM_PROFILE=hostClock=none
export UPMEM_PROFILE_BASE UPMEM_PROFILE
n=1048576 bad=0
rows=$out/rows.tsv
: >"$rows"
# TYPE OP published-MOPS
for spec in INT32:ADD:58.56 INT32:MUL:10.27 INT32:DIV:11.27 INT64:ADD:50.16 INT64:MUL:2.56 \
    INT64:DIV:1.40 FLOAT:ADD:4.91 FLOAT:MUL:1.91 FLOAT:DIV:0.34 DOUBLE:ADD:3.32 \
    DOUBLE:MUL:0.53 DOUBLE:DIV:0.16; do
    t=${spec%%:*} rest=${spec#*:}
    op=${rest%%:*} pub=${rest#*:}
    src=$out/$op-$t
    rm -rf "$src" && cp -R "$prim/Arithmetic-Throughput" "$src" || exit 2
    echo "prim_arith: $op $t" >&2
    if ! (cd "$src" && make NR_DPUS=1 NR_TASKLETS=16 BL=10 OP=$op TYPE=$t >build.log 2>&1) ||
        ! (cd "$src" && ./bin/host_code -w 0 -e 1 -i $n >run.log 2>&1) ||
        ! grep -q "Outputs are equal" "$src/run.log"; then
        echo "prim_arith.sh: $op $t failed (see $src)" >&2
        bad=1
        continue
    fi
    cyc=$(awk '/DPU cycles  =/ { print $4; exit }' "$src/run.log")
    printf '%s %s\t%s\t%s\n' "$t" "$op" "$pub" "$cyc" >>"$rows"
done
echo "| PrIM Arithmetic-Throughput, 16 tasklets, -i $n | published (MOPS) | virtual UPMEM (MOPS, modeled) | ratio |"
echo "|---|---|---|---|"
awk -F '\t' -v n=$n '{
        m = n * 350 / $3; r = m / $2; e = r > 1 ? r - 1 : 1 - r; s += e; k++
        printf "| %s | %s | %.4g | %.3f |\n", $1, $2, m, r
    } END { if (k) printf "\nmean absolute percentage error over %d rows: %.1f %%\n", k, 100 * s / k }' "$rows"
exit $bad
