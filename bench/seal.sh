#!/bin/sh
# bench/seal.sh WORK HEXL_CMAKE_DIR REAL_HEXL_CMAKE_DIR [OUT.csv] -- SEAL's own
# benchmark `sealbench` side by side in one run: Microsoft SEAL 4.4.3 from
# the pinned source (THIRDPARTY, default ../shared/thirdparty beside the
# project) built three ways -- on cryptopim's libhexl (HEXL_CMAKE_DIR,
# backend CRYPTOPIM_HEXL_BACKEND, default auto), on the real Intel HEXL
# (REAL_HEXL_CMAKE_DIR: tests/hexl/hexl_diff.sh builds it) and without
# HEXL -- each run on one core (taskset, when there), rows NTT
# forward/inverse, BFV multiply + relinearize, CKKS multiply at
# N = 4096 .. 32768, REPS repetitions (default 3) of each, median taken.
# Writes CSV (clock: measured, microseconds of CPU time per operation as
# Google Benchmark reports it) with the ratios computed in the same run:
#   row,n,log_q,cryptopim_us,hexl_us,seal_us,vs_hexl,vs_seal,clock
# vs_hexl = hexl_us / cryptopim_us (>= 1: cryptopim's libhexl is as fast or
# faster), vs_seal = seal_us / cryptopim_us.  Needs cmake and Google
# Benchmark (Debian: libbenchmark-dev).
set -eu
work=$1 ours=$2 real=$3 out=${4:-/dev/stdout}
reps=${REPS:-3}
here=$(cd "$(dirname "$0")" && pwd)
tp=${THIRDPARTY:-$here/../../shared/thirdparty}
tar=$tp/SEAL-4.4.3.tar.gz
[ -f "$tar" ] || { echo "bench/seal.sh: no $tar (set THIRDPARTY)" >&2; exit 2; }
[ -f /usr/include/benchmark/benchmark.h ] || { echo "bench/seal.sh: needs Google Benchmark (Debian: libbenchmark-dev)" >&2; exit 2; }
mkdir -p "$work"
[ -d "$work/SEAL-4.4.3" ] || tar xzf "$tar" -C "$work"
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
build() { # KIND CMAKE-ARGS...
    kind=$1
    shift
    cmake -S "$work/SEAL-4.4.3" -B "$work/build-$kind" -DCMAKE_BUILD_TYPE=Release -DSEAL_BUILD_BENCH=ON \
        -DSEAL_BUILD_DEPS=OFF -DSEAL_USE_MSGSL=OFF -DSEAL_USE_ZLIB=OFF -DSEAL_USE_ZSTD=OFF "$@" \
        >"$work/configure-$kind.log" 2>&1 &&
        cmake --build "$work/build-$kind" -j "$jobs" --target sealbench >"$work/build-$kind.log" 2>&1 ||
        { echo "bench/seal.sh: building SEAL ($kind) failed, see $work/build-$kind.log" >&2; exit 1; }
}
build ours -DSEAL_USE_INTEL_HEXL=ON -DHEXL_DIR="$ours"
build hexl -DSEAL_USE_INTEL_HEXL=ON -DHEXL_DIR="$real"
build seal -DSEAL_USE_INTEL_HEXL=OFF
pin=
command -v taskset >/dev/null && pin="taskset -c 0"
# sealbench's names: "n=N / log(q)=B / CATEGORY / NAME/iterations:K"
filter='n=(4096|8192|16384|32768) / log\(q\)=[0-9]+ / (UTIL / NTT(Forward|Inverse)|BFV / Evaluate(MulCt|RelinInplace)|CKKS / EvaluateMulCt)/'
for kind in ours hexl seal; do
    : >"$work/runs-$kind.csv"
    r=0
    while [ $r -lt "$reps" ]; do
        # shellcheck disable=SC2086
        CRYPTOPIM_HEXL_BACKEND=${CRYPTOPIM_HEXL_BACKEND:-auto} $pin "$work/build-$kind/bin/sealbench" \
            --benchmark_filter="$filter" --benchmark_format=csv 2>/dev/null |
            grep '^"n=' >>"$work/runs-$kind.csv" || true
        r=$((r + 1))
    done
done
# median CPU time per row and kind, then the ratios
{
    echo "row,n,log_q,cryptopim_us,hexl_us,seal_us,vs_hexl,vs_seal,clock"
    awk -F, -v W="$work" '
    function med(a, k,   n, i, j, t, v) { n = split(a, v, " "); for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
    FNR == 1 { kind = FILENAME; sub(/.*runs-/, "", kind); sub(/\.csv$/, "", kind) }
    { name = $1; gsub(/"/, "", name); sub(/\/iterations:.*/, "", name); unit = $5; gsub(/"/, "", unit); t = $4
      if (unit == "ns") t /= 1000; else if (unit == "ms") t *= 1000
      times[name, kind] = times[name, kind] " " t; names[name] = 1 }
    END { for (nm in names) { split(nm, p, " / "); n = p[1]; sub(/n=/, "", n); lq = p[2]; sub(/log\(q\)=/, "", lq)
              o = med(times[nm, "ours"]); h = med(times[nm, "hexl"]); s = med(times[nm, "seal"])
              printf "%s / %s,%s,%s,%.2f,%.2f,%.2f,%.2f,%.2f,measured\n", p[3], p[4], n, lq, o, h, s, o ? h / o : 0, o ? s / o : 0 } }
' "$work/runs-ours.csv" "$work/runs-hexl.csv" "$work/runs-seal.csv" | sort -t, -k1,1 -k2,2n
} >"$out"
