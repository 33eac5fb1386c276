#!/bin/sh
# bench/test_bench.sh VALIDATE DPU_DIR CLI -- quick runs of the experiment suite
# (tiny sizes): every DPU output and transfer is checked inside the programs;
# here we check that they succeed and write their CSVs and (with gnuplot)
# their plots without a gnuplot warning, and that --replot redraws every
# plot from the CSVs alone.  PASS/FAIL lines for tests/run.sh (tests/lib.sh).
. "$(dirname "$0")/../tests/lib.sh"
micro=$1 dpudir=$2 cli=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
gnuplot=
command -v gnuplot >/dev/null 2>&1 && gnuplot=1

# png NAME LOG: the plot exists and gnuplot said nothing in LOG (gnuplot
# warnings, e.g. a series without points, go to stderr)
png() {
    [ -z "$gnuplot" ] && return 0
    [ -s "$out/$1.png" ] && ! grep -qi -e warning -e 'gnuplot>' "$2"
}

if "$micro" --quick --xfer-kib 64 --out "$out" --dpu-dir "$dpudir" 2>"$out/log" &&
    [ -s "$out/validation.csv" ] && [ -s "$out/micro_arith.csv" ] &&
    png micro_arith "$out/log" && png micro_xfer "$out/log"; then
    pass bench_micro_quick
else
    fail bench_micro_quick "$(tail -n 3 "$out/log" | tr '\n' ' ')"
fi
for e in roofline tasklets strong weak ranks servers ntt tsme; do
    if "$cli" bench --experiment $e --quick --out "$out" 2>"$out/log.$e" && [ -s "$out/$e.csv" ] &&
        png $e "$out/log.$e"; then
        pass bench_${e}_quick
    else
        fail bench_${e}_quick "$(tail -n 3 "$out/log.$e" | tr '\n' ' ')"
    fi
done

if [ -z "$gnuplot" ]; then
    skip bench_replot "gnuplot is not installed"
    finish
fi
pngs="roofline tasklets strong weak ranks ntt tsme micro_arith micro_mram micro_stream micro_xfer"
for p in $pngs; do rm -f "$out/$p.png"; done
if "$cli" bench --replot "$out" 2>"$out/log.replot" &&
    "$micro" --replot "$out" 2>>"$out/log.replot"; then
    missing=
    for p in $pngs; do png $p "$out/log.replot" || missing="$missing $p"; done
    if [ -z "$missing" ]; then
        pass bench_replot
    else
        warn=$(grep -i -m 2 warning "$out/log.replot" | tr '\n' ' ')
        fail bench_replot "not redrawn or gnuplot warned:$missing $warn"
    fi
else
    fail bench_replot "$(tail -n 3 "$out/log.replot" | tr '\n' ' ')"
fi
finish
