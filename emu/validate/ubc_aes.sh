#!/bin/sh
# emu/validate/ubc_aes.sh -- the modeled clock against hardware measurements
# of public code: UBC-ECE-Sasha/PIM-encryption's AES-128 DPU program at commit
# 8bd4491, measured on real UPMEM hardware by its authors (initial-results.md
# of that repository, commit 4dfd46a: perfcounter_get around lines 22-32 or
# 23-31 of dpu/dpu.c, instructions and cycles, 1 tasklet, SDK 2020.1.0).
#
# Usage: sh emu/validate/ubc_aes.sh UBC_DIR [OUT_DIR]
#   UBC_DIR  a git clone of github.com/UBC-ECE-Sasha/PIM-encryption (read
#            only: the sources are taken with `git show 8bd4491:...`)
#   OUT_DIR  default build/ubc_aes: the instrumented sources, the programs
# Run from the checkout after `make` (build/emu/vdpu-run). Prints one
# markdown row per published measurement: hardware figure, modeled figure
# (the virtual DPU's perfcounter, the same window), ratio; then the mean
# absolute percentage error. Exit 0, or 1 if a build or run failed, 2 bad use.
#
# The instrumentation is what the authors describe: perfcounter_config(mode,
# true) before the first measured line, perfcounter_get() after the last,
# nothing else changed; the DMA rows change TRANSFER_SIZE only.
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: sh emu/validate/ubc_aes.sh UBC_DIR [OUT_DIR]" >&2
    exit 2
fi
ubc=$1 out=${2:-build/ubc_aes} rev=8bd4491
if ! git -C "$ubc" cat-file -e "$rev:dpu/dpu.c" 2>/dev/null; then
    echo "ubc_aes.sh: $ubc is not a clone of PIM-encryption holding commit $rev" >&2
    exit 2
fi
if [ ! -x build/emu/vdpu-run ] || [ ! -x emu/bin/dpu-upmem-dpurte-clang ]; then
    echo "ubc_aes.sh: run from the checkout after make (no build/emu/vdpu-run)" >&2
    exit 2
fi
mkdir -p "$out/dpu" "$out/include" || exit 2
for f in dpu/aes_core.c dpu/dpu.c include/aes_core.h include/aes_local.h include/common.h; do
    git -C "$ubc" show "$rev:$f" >"$out/$f" || exit 2
done
cc=emu/bin/dpu-upmem-dpurte-clang
bad=0
# measure NAME FIRST LAST MODE [cflags...]: the perfcounter from before line
# FIRST to after line LAST of dpu/dpu.c; prints the counter's value
measure() {
    name=$1 first=$2 last=$3 mode=$4
    shift 4
    awk -v s="$first" -v e="$last" -v m="$mode" '
        NR == 1 { print "#include <defs.h>\n#include <stdint.h>\n#include <perfcounter.h>\n__host uint32_t ubc_perf;" }
        NR == s { print "perfcounter_config(" m ", true);" }
        { print }
        NR == e { print "ubc_perf = (uint32_t)perfcounter_get();" }' "$src" >"$out/$name.c"
    if ! $cc -O2 -DNR_TASKLETS=1 -I"$out/include" "$@" -o "$out/$name" "$out/$name.c" \
        "$out/dpu/aes_core.c" >"$out/$name.log" 2>&1; then
        echo "ubc_aes.sh: $name: build failed (see $out/$name.log)" >&2
        bad=1
        echo 0
        return
    fi
    v=$(build/emu/vdpu-run --u32 ubc_perf "$out/$name" 2>>"$out/$name.log" |
        awk 'index($0, "ubc_perf") { print $NF }')
    if [ -z "$v" ]; then
        echo "ubc_aes.sh: $name: run failed (see $out/$name.log)" >&2
        bad=1
        v=0
    fi
    echo "$v"
}
rows=$out/rows.tsv
: >"$rows"
# row LABEL HARDWARE UNIT MODELED
row() {
    printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$rows"
}
src=$out/dpu/dpu.c
for dir in enc dec; do
    flag=
    [ $dir = dec ] && flag=-DDECRYPT
    i=$(measure ${dir}_i 22 32 COUNT_INSTRUCTIONS $flag)
    c=$(measure ${dir}_c 22 32 COUNT_CYCLES $flag)
    ni=$(measure ${dir}_nodma_i 23 31 COUNT_INSTRUCTIONS $flag)
    nc=$(measure ${dir}_nodma_c 23 31 COUNT_CYCLES $flag)
    if [ $dir = enc ]; then
        row "encryption, 2048 B, lines 22-32" 103000 instructions "$i"
        row "encryption, 2048 B, lines 22-32" 1130000 cycles "$c"
        row "encryption, lines 23-31 (no DMA)" 102000 instructions "$ni"
        row "encryption, lines 23-31 (no DMA)" 1120000 cycles "$nc"
    else
        row "decryption, 2048 B, lines 22-32" 103000 instructions "$i"
        row "decryption, 2048 B, lines 22-32" 1120000 cycles "$c"
        row "decryption, lines 23-31 (no DMA)" 99300 instructions "$ni"
        row "decryption, lines 23-31 (no DMA)" 1100000 cycles "$nc"
    fi
done
for s in 2048:1200 1024:656 512:400 256:272; do
    n=${s%%:*} hw=${s#*:}
    sed "s/^#define TRANSFER_SIZE 2048$/#define TRANSFER_SIZE $n/" "$out/dpu/dpu.c" >"$out/dpu_$n.c"
    src=$out/dpu_$n.c
    row "one mram_read of $n B (line 22)" "$hw" cycles "$(measure dma$n 22 22 COUNT_CYCLES)"
done
echo "| public code: UBC-ECE-Sasha/PIM-encryption @ $rev, 1 tasklet | hardware (initial-results.md) | virtual UPMEM (modeled) | ratio |"
echo "|---|---|---|---|"
awk -F '\t' '{
        r = $4 / $2; e = r > 1 ? r - 1 : 1 - r; s += e; n++
        printf "| %s | %s %s | %s | %.3f |\n", $1, $2, $3, $4, r
    } END { if (n) printf "\nmean absolute percentage error over %d rows: %.1f %%\n", n, 100 * s / n }' "$rows"
exit $bad
