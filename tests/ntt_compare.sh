#!/bin/sh
# tests/ntt_compare.sh NTT_COMPARE DPU_DIR -- a quick run of the NTT layout
# comparison (tests/emu/ntt_compare.c: the four-step and the 1D radix-2 DPU
# kernels on one virtual DPU, N = 1024 and 4096, 16 tasklets, forward and
# inverse): the program checks both kernels' outputs against its host
# transform (exit status); here, that it succeeds, writes one CSV row per
# kernel and case, on the modeled clock, and (with gnuplot) its plot.
. "$(dirname "$0")/lib.sh"
cmp=$1 dpudir=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if "$cmp" "$dpudir" --quick --out "$out" 2>"$out/log"; then
    rows=$(grep -c ',modeled$' "$out/ntt-layout.csv")
    kinds=$(cut -d, -f1 "$out/ntt-layout.csv" | sort -u | tr '\n' ' ')
    if [ "$rows" = 8 ] && [ "$kinds" = "four-step kernel radix2-1d " ]; then
        pass ntt_compare_quick
    else
        fail ntt_compare_quick "want 8 modeled rows of both kernels, got $rows ($kinds)"
    fi
else
    fail ntt_compare_quick "$(tail -n 3 "$out/log" | tr '\n' ' ')"
fi
if ! command -v gnuplot >/dev/null 2>&1; then
    skip ntt_compare_plot "gnuplot is not installed"
elif [ -s "$out/ntt-layout.png" ] && ! grep -qi -e warning -e 'gnuplot>' "$out/log"; then
    pass ntt_compare_plot
else
    fail ntt_compare_plot "no plot, or gnuplot warned: $(grep -i -m 2 warning "$out/log" | tr '\n' ' ')"
fi
finish
