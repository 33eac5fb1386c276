#!/bin/sh
# bench/hexl_eltwise.sh REAL_HEXL_PREFIX HEXL_INCLUDE LINK... -- the
# element-wise functions SEAL calls (bench/hexl_eltwise.cpp), on
# cryptopim's libhexl (HEXL_INCLUDE, LINK: libhexl.a, libcryptopim.a, ...)
# and on the real Intel HEXL 1.2.6 (REAL_HEXL_PREFIX: its install tree,
# built by tests/hexl/hexl_diff.sh), side by side in one run on one core
# (taskset, when there: core BENCH_CPU, default 0): the two programs alternate REPS times (default 3)
# and the best time of each row is kept.  Writes CSV to OUT (default
# stdout; clock: measured, nanoseconds of wall time per call):
#   op,bits,n,cryptopim_ns,hexl_ns,vs_hexl,clock
# vs_hexl = hexl_ns / cryptopim_ns (>= 1: as fast or faster).
# CRYPTOPIM_HEXL_ELTWISE picks the tier of libhexl's side.
set -eu
real=$1 inc=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-/dev/stdout}
reps=${REPS:-3}
CXX=${CXX:-g++}
work=$(mktemp -d "${TMPDIR:-/tmp}/hexl_eltwise.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
[ -f "$real/lib/libhexl.a" ] || { echo "bench/hexl_eltwise.sh: no Intel HEXL in $real (run tests/hexl/hexl_diff.sh)" >&2; exit 2; }
flags="-std=c++17 -O2 -Wall -Wextra -Werror"
$CXX $flags -I"$inc" -o "$work/ours" "$here/hexl_eltwise.cpp" "$@"
$CXX $flags -I"$real/include" -o "$work/real" "$here/hexl_eltwise.cpp" "$real/lib/libhexl.a" -lcpu_features
pin=
command -v taskset >/dev/null && pin="taskset -c ${BENCH_CPU:-0}"
r=0
while [ $r -lt "$reps" ]; do
    $pin "$work/ours" >>"$work/ours.txt"
    $pin "$work/real" >>"$work/real.txt"
    r=$((r + 1))
done
{
    echo "op,bits,n,cryptopim_ns,hexl_ns,vs_hexl,clock"
    awk -v R="$work/real.txt" '
        BEGIN { while ((getline l < R) > 0) { split(l, f, " "); k = f[1] "," f[2] "," f[3]
                if (!(k in h) || f[4] + 0 < h[k]) h[k] = f[4] + 0 } }
        { k = $1 "," $2 "," $3; if (!(k in o)) order[++n] = k; if (!(k in o) || $4 + 0 < o[k]) o[k] = $4 + 0 }
        END { for (i = 1; i <= n; i++) { k = order[i]
              printf "%s,%.1f,%.1f,%.2f,measured\n", k, o[k], h[k], h[k] / o[k] } }
    ' "$work/ours.txt"
} >"$out"
