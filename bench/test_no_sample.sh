#!/bin/sh
# bench/test_no_sample.sh CLI -- what `make bench`'s shortcuts promise, on
# --quick runs under UPMEM_PROFILE=hostClock=none (no measured host work in
# the modeled clock: every modeled row deterministic), compared with
# bench/check_modeled.sh --exact:
#   bench_no_sample_equals_sampled  `ranks` and `resident` (1 rank) with
#       every DPU simulated on its own data and every output checked
#       (--no-sample) give the modeled rows of the sampled runs (one DPU
#       simulated per rank and launch, identical runs reused), byte for byte
#   bench_resident_parts_merged  resident run as make bench runs it, in
#       parts (CRYPTOPIM_RESIDENT_PART) merged by bench/merge_resident.sh,
#       gives the rows of one process, in the same order
# PASS/FAIL lines (tests/lib.sh).
. "$(dirname "$0")/../tests/lib.sh"
cli=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export UPMEM_PROFILE=hostClock=none
mkdir "$out/s" "$out/f"

# run DIR LOG ARGS...: a quick run of ranks and resident (1 rank)
run() {
    dir=$1 log=$2
    shift 2
    CRYPTOPIM_RESIDENT_RANKS=1 "$cli" bench --experiment ranks,resident --quick --out "$dir" "$@" \
        2>"$log"
}
if ! run "$out/s" "$out/s.log"; then
    fail bench_no_sample_equals_sampled "sampled run: $(tail -n 2 "$out/s.log" | tr '\n' ' ')"
elif ! run "$out/f" "$out/f.log" --no-sample; then
    fail bench_no_sample_equals_sampled "unsampled run: $(tail -n 2 "$out/f.log" | tr '\n' ' ')"
elif ! grep -q "in place, 64 DPUs: every DPU's MRAM and digests checked" "$out/f.log" ||
    ! grep -q "through the bus: every call's output checked" "$out/f.log"; then
    fail bench_no_sample_equals_sampled "the unsampled resident run did not check its outputs"
elif sh "$(dirname "$0")/check_modeled.sh" --exact "$out/s" "$out/f" >"$out/check" 2>&1; then
    pass bench_no_sample_equals_sampled
else
    fail bench_no_sample_equals_sampled "$(grep -v '^check: .*passes' "$out/check" | head -n 3 | tr '\n' ' ')"
fi

# the parts as bench.mk runs them (the points from 0 and from 1 on)
parts="host in-place bus.0 bus.1+"
bad=
for p in $parts; do
    mkdir "$out/p-$p"
    CRYPTOPIM_RESIDENT_PART=$p "$cli" bench --experiment resident --quick --out "$out/p-$p" \
        2>"$out/p-$p.log" || bad="$bad $p"
done
mkdir "$out/m" "$out/one"
if [ -n "$bad" ]; then
    fail bench_resident_parts_merged "parts failed:$bad"
elif ! "$cli" bench --experiment resident --quick --out "$out/one" 2>"$out/one.log"; then
    fail bench_resident_parts_merged "one process: $(tail -n 2 "$out/one.log" | tr '\n' ' ')"
elif ! sh "$(dirname "$0")/merge_resident.sh" "$out/p-host/resident.csv" \
    "$out/p-in-place/resident.csv" "$out/p-bus.0/resident.csv" "$out/p-bus.1+/resident.csv" \
    >"$out/m/resident.csv"; then
    fail bench_resident_parts_merged "merge_resident.sh failed"
elif [ "$(cut -d, -f1-10 "$out/m/resident.csv")" != "$(cut -d, -f1-10 "$out/one/resident.csv")" ]; then
    fail bench_resident_parts_merged "rows not those of one process, or not in its order"
elif sh "$(dirname "$0")/check_modeled.sh" --exact "$out/one" "$out/m" >"$out/check" 2>&1; then
    pass bench_resident_parts_merged
else
    fail bench_resident_parts_merged "$(grep -v '^check: .*passes' "$out/check" | head -n 3 | tr '\n' ' ')"
fi
finish
