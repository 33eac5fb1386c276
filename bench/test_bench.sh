#!/bin/sh
# bench/test_bench.sh MICRO DPU_DIR CLI -- quick runs of the experiment suite
# (tiny sizes): every DPU output and transfer is checked inside the programs;
# here we check that they succeed and write their CSVs.  PASS/FAIL lines for
# tests/run.sh.
micro=$1 dpudir=$2 cli=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if "$micro" --quick --xfer-kib 64 --out "$out" --dpu-dir "$dpudir" 2>"$out/log" &&
    [ -s "$out/validation.csv" ] && [ -s "$out/micro_arith.csv" ]; then
    echo "PASS bench_micro_quick"
else
    echo "FAIL bench_micro_quick: $(tail -n 3 "$out/log" | tr '\n' ' ')"
fi
for e in roofline tasklets strong weak ranks; do
    if "$cli" bench --experiment $e --quick --out "$out" 2>"$out/log.$e" && [ -s "$out/$e.csv" ]; then
        echo "PASS bench_${e}_quick"
    else
        echo "FAIL bench_${e}_quick: $(tail -n 3 "$out/log.$e" | tr '\n' ' ')"
    fi
done
