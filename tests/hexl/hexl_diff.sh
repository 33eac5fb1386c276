#!/bin/sh
# tests/hexl/hexl_diff.sh WORK HEXL_INCLUDE LINK... -- the differential test
# against Intel HEXL: the real HEXL 1.2.6 built from the pinned source
# (THIRDPARTY, default ../shared/thirdparty beside the project) in WORK, as
# a static library without its tests and benchmarks (which would download
# googletest and benchmark) and with Debian's CpuFeatures package (HEXL
# downloads cpu_features when it does not find it, so without the package
# this test skips rather than build); then tests/hexl/hexl_diff.cpp built
# against it and against cryptopim's libhexl (HEXL_INCLUDE, LINK: libhexl.a,
# libcryptopim.a, ...), run on the same inputs, and their outputs compared
# case by case:
#   - every result with output mod factor 1 (and every element-wise result
#     but EltwiseReduceMod's lazy one) must be bit-exact;
#   - the lazy outputs (forward NTT factor 4, inverse NTT factor 2,
#     EltwiseReduceMod factor 2) must be congruent mod q to HEXL's and in
#     HEXL's range; bit-exact or congruent is counted (docs/HEXL.md says
#     why they are not bit-exact);
#   - a value outside HEXL's output range fails (RANGE lines);
#   - then libhexl's element-wise cases once per tier of its kernels
#     (CRYPTOPIM_HEXL_ELTWISE = portable, avx2, avx512, ifma; a tier the CPU
#     lacks runs the widest one below it) must give the lines of the whole
#     run exactly.
# WORK keeps HEXL's build between runs.  Skips with a message without the
# tarball, cmake, g++ or CpuFeatures (Debian: libcpu-features-dev).
# PASS/FAIL/SKIP lines with tests/lib.sh; ends with its `finish`.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
work=$1 inc=$2
shift 2
tp=${THIRDPARTY:-$here/../../../shared/thirdparty}
tar=$tp/hexl-1.2.6.tar.gz
CXX=${CXX:-g++}
if [ ! -f "$tar" ]; then
    skip hexl_diff "no $tar (the pinned HEXL source; set THIRDPARTY)"
    finish
fi
if ! command -v cmake >/dev/null || ! command -v "$CXX" >/dev/null; then
    skip hexl_diff "needs cmake and $CXX"
    finish
fi
cpuf=
for f in /usr/lib/*/cmake/CpuFeatures/CpuFeaturesConfig.cmake /usr/lib/cmake/CpuFeatures/CpuFeaturesConfig.cmake; do
    [ -f "$f" ] && cpuf=$f
done
if [ -z "$cpuf" ]; then
    skip hexl_diff "needs CpuFeatures for Intel HEXL's build (Debian: libcpu-features-dev)"
    finish
fi
mkdir -p "$work" || { fail hexl_diff "cannot create $work"; finish; }
src=$work/hexl-1.2.6
[ -f "$src/CMakeLists.txt" ] || tar xzf "$tar" -C "$work" || {
    fail hexl_diff "cannot unpack $tar"
    finish
}
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
real=$work/real
if ! { [ -f "$real/lib/libhexl.a" ] ||
    { cmake -S "$src" -B "$work/build-real" -DCMAKE_BUILD_TYPE=Release -DHEXL_TESTING=OFF \
        -DHEXL_BENCHMARK=OFF -DHEXL_SHARED_LIB=OFF -DCMAKE_INSTALL_PREFIX="$real" \
        -DCMAKE_INSTALL_LIBDIR=lib >"$work/configure.log" 2>&1 &&
        cmake --build "$work/build-real" -j "$jobs" >"$work/build.log" 2>&1 &&
        cmake --install "$work/build-real" >"$work/install.log" 2>&1; }; }; then
    fail hexl_diff_build "Intel HEXL: $(tail -c 600 "$work/build.log" "$work/configure.log" 2>/dev/null)"
    finish
fi
flags="-std=c++17 -O2 -Wall -Wextra -Werror"
if ! $CXX $flags -I"$real/include" -o "$work/diff-real" "$here/hexl_diff.cpp" "$real/lib/libhexl.a" \
    -lcpu_features 2>"$work/diff-real.log"; then
    fail hexl_diff_build "against Intel HEXL: $(head -c 600 "$work/diff-real.log")"
    finish
fi
if ! $CXX $flags -I"$inc" -o "$work/diff-ours" "$here/hexl_diff.cpp" "$@" 2>"$work/diff-ours.log"; then
    fail hexl_diff_build "against libhexl: $(head -c 600 "$work/diff-ours.log")"
    finish
fi
"$work/diff-real" >"$work/real.txt" 2>&1 || { fail hexl_diff_run "Intel HEXL's side: $(tail -c 300 "$work/real.txt")"; finish; }
CRYPTOPIM_HEXL_BACKEND=${CRYPTOPIM_HEXL_BACKEND:-auto} "$work/diff-ours" >"$work/ours.txt" 2>&1 ||
    { fail hexl_diff_run "libhexl's side: $(tail -c 300 "$work/ours.txt")"; finish; }
# one verdict per function: a case line is "op n=.. q=.. in=.. out=.. RAW REDUCED"
awk -v R="$work/real.txt" '
    BEGIN { while ((getline l < R) > 0) { split(l, f, " "); if (f[1] == "RANGE") { realrange = realrange "; " l; continue }
            k = f[1] " " f[2] " " f[3] " " f[4] " " f[5]; raw[k] = f[6]; red[k] = f[7]; n++ } }
    $1 == "RANGE" { bad[$2] = bad[$2] "; out of range: " $0; next }
    { k = $1 " " $2 " " $3 " " $4 " " $5; op = $1; ops[op] = 1; seen[k] = 1
      lazy = (op == "forward" && $5 == "out=4") || (op == "inverse" && $5 == "out=2") || (op == "reduce" && $5 == "out=2")
      if (!(k in raw)) bad[op] = bad[op] "; not run by HEXL: " k
      else if ($6 == raw[k]) exact[op]++
      else if (lazy && $7 == red[k]) cong[op]++
      else bad[op] = bad[op] "; differs: " k }
    END { for (k in raw) if (!(k in seen)) { split(k, f, " "); bad[f[1]] = bad[f[1]] "; not run here: " k; ops[f[1]] = 1 }
          if (realrange != "") print "NOTE Intel HEXL itself out of range" realrange
          for (op in ops) print (bad[op] == "" ? "OK" : "BAD"), op, exact[op] + 0, cong[op] + 0, substr(bad[op], 3) }
' "$work/ours.txt" >"$work/verdicts.txt"
if [ ! -s "$work/verdicts.txt" ]; then
    fail hexl_diff "no cases compared"
    finish
fi
while read -r v op ex co rest; do
    case $v in
    OK)
        echo "# hexl_diff_$op: $ex cases bit-exact, $co lazy outputs congruent"
        pass "hexl_diff_$op"
        ;;
    BAD) fail "hexl_diff_$op" "$(printf '%s' "$rest" | head -c 800)" ;;
    NOTE) echo "# $op $ex $co $rest" ;;
    esac
done <"$work/verdicts.txt"
grep -v '^forward \|^inverse ' "$work/ours.txt" >"$work/ours-eltwise.txt"
for tier in portable avx2 avx512 ifma; do
    if ! CRYPTOPIM_HEXL_ELTWISE=$tier "$work/diff-ours" eltwise >"$work/ours-$tier.txt" 2>&1; then
        fail "hexl_diff_tier_$tier" "$(tail -c 300 "$work/ours-$tier.txt")"
    elif cmp -s "$work/ours-$tier.txt" "$work/ours-eltwise.txt"; then
        echo "# hexl_diff_tier_$tier: $(wc -l <"$work/ours-$tier.txt") element-wise cases as in the whole run"
        pass "hexl_diff_tier_$tier"
    else
        fail "hexl_diff_tier_$tier" "differs from the whole run: $(diff "$work/ours-eltwise.txt" "$work/ours-$tier.txt" | head -c 400)"
    fi
done
finish
