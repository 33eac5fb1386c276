#!/bin/sh
# tests/hexl/seal_examples.sh WORK HEXL_CMAKE_DIR [BACKEND] -- SEAL's example
# flows (BFV basics, BGV basics, CKKS basics: tests/hexl/seal_flows/) on
# Microsoft SEAL 4.4.3 built from the pinned source (THIRDPARTY, default
# ../shared/thirdparty beside the project) twice: with SEAL_USE_INTEL_HEXL=ON
# against cryptopim's libhexl (find_package(HEXL) in HEXL_CMAKE_DIR;
# CRYPTOPIM_HEXL_BACKEND=BACKEND, default auto) and without HEXL (SEAL's own
# NTT and arithmetic).  With SEAL's random generator seeded the same, the
# two must print the same decrypted values to the last bit (CKKS's
# approximation errors included), and each flow its own check "OK".
# WORK holds the unpacked source and both builds (kept between runs; the
# libhexl build is the one tests/hexl/seal.sh makes, so do not run the two
# at the same time on one WORK).  Skips with a message without the tarball
# or cmake.  PASS/FAIL/SKIP lines with tests/lib.sh; ends with its `finish`.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
work=$1 hexl_dir=$2 backend=${3:-auto}
tp=${THIRDPARTY:-$here/../../../shared/thirdparty}
tar=$tp/SEAL-4.4.3.tar.gz
if [ ! -f "$tar" ]; then
    skip seal_examples "no $tar (the pinned SEAL source; set THIRDPARTY)"
    finish
fi
if ! command -v cmake >/dev/null; then
    skip seal_examples "needs cmake"
    finish
fi
mkdir -p "$work" || { fail seal_examples "cannot create $work"; finish; }
[ -d "$work/SEAL-4.4.3" ] || tar xzf "$tar" -C "$work" || {
    fail seal_examples "cannot unpack $tar"
    finish
}
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
common="-DCMAKE_BUILD_TYPE=Release -DSEAL_BUILD_DEPS=OFF -DSEAL_USE_MSGSL=OFF -DSEAL_USE_ZLIB=OFF -DSEAL_USE_ZSTD=OFF"
# build KIND CMAKE-ARGS...: SEAL's library in $work/build-KIND, then the
# flows against it in $work/flows-KIND
build() {
    kind=$1
    shift
    b=$work/build-$kind
    # shellcheck disable=SC2086
    if ! cmake -S "$work/SEAL-4.4.3" -B "$b" $common "$@" >"$work/configure-$kind.log" 2>&1 ||
        ! cmake --build "$b" -j "$jobs" --target seal >"$work/build-$kind.log" 2>&1; then
        fail seal_examples_build_$kind "$(tail -c 600 "$work/build-$kind.log" "$work/configure-$kind.log" 2>/dev/null)"
        return 1
    fi
    if ! cmake -S "$here/seal_flows" -B "$work/flows-$kind" -DSEAL_DIR="$b/cmake" -DHEXL_DIR="$hexl_dir" \
        -DCMAKE_BUILD_TYPE=Release >"$work/flows-$kind.log" 2>&1 ||
        ! cmake --build "$work/flows-$kind" >>"$work/flows-$kind.log" 2>&1; then
        fail seal_examples_build_$kind "the flows: $(tail -c 600 "$work/flows-$kind.log")"
        return 1
    fi
}
# the libhexl build: tests/hexl/seal.sh's flags (its build is reused)
build hexl -DSEAL_USE_INTEL_HEXL=ON -DHEXL_DIR="$hexl_dir" -DSEAL_BUILD_TESTS=ON \
    -DSEAL_BUILD_EXAMPLES=ON || finish
build nohexl -DSEAL_USE_INTEL_HEXL=OFF || finish
CRYPTOPIM_HEXL_BACKEND=$backend "$work/flows-hexl/seal_flows" >"$work/flows-hexl-$backend.out" 2>&1
rc1=$?
"$work/flows-nohexl/seal_flows" >"$work/flows-nohexl.out" 2>&1
rc2=$?
if [ $rc1 -ne 0 ] || [ $rc2 -ne 0 ]; then
    fail seal_examples_run "exit $rc1 (libhexl, $backend), $rc2 (no HEXL): $(tail -n 2 "$work/flows-hexl-$backend.out" "$work/flows-nohexl.out")"
    finish
fi
for f in bfv bgv ckks; do
    grep "^$f " "$work/flows-hexl-$backend.out" >"$work/$f.hexl"
    grep "^$f " "$work/flows-nohexl.out" >"$work/$f.nohexl"
    if ! grep -q "^FLOW $f OK" "$work/flows-hexl-$backend.out"; then
        fail seal_example_$f "wrong result with libhexl ($backend): $(grep "^FLOW $f" "$work/flows-hexl-$backend.out")"
    elif ! grep -q "^FLOW $f OK" "$work/flows-nohexl.out"; then
        fail seal_example_$f "wrong result without HEXL: $(grep "^FLOW $f" "$work/flows-nohexl.out")"
    elif [ ! -s "$work/$f.hexl" ]; then
        fail seal_example_$f "printed no decrypted value"
    elif ! cmp -s "$work/$f.hexl" "$work/$f.nohexl"; then
        fail seal_example_$f "decrypted values differ from SEAL without HEXL: $(diff "$work/$f.nohexl" "$work/$f.hexl" | head -n 4)"
    else
        echo "# seal_example_$f: $(wc -l <"$work/$f.hexl") lines of decrypted values identical"
        pass seal_example_$f
    fi
done
finish
