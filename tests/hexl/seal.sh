#!/bin/sh
# tests/hexl/seal.sh WORK HEXL_CMAKE_DIR [BACKEND [FILTER]] -- Microsoft SEAL
# 4.4.3, built from the pinned source (THIRDPARTY, default
# ../shared/thirdparty beside the project) with SEAL_USE_INTEL_HEXL=ON
# against cryptopim's libhexl (find_package(HEXL) in HEXL_CMAKE_DIR), runs
# its own test suite `sealtest` with CRYPTOPIM_HEXL_BACKEND=BACKEND (default
# auto), FILTER a gtest filter (default all).  One verdict per gtest suite
# (FAIL names the failed tests).  WORK holds the unpacked source and the
# build (kept between runs: a rebuild only recompiles what changed).
# Skips with a message without the tarball, cmake or googletest.
# PASS/FAIL/SKIP lines with tests/lib.sh; ends with its `finish`.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
. "$here/gtest.sh"
work=$1 hexl_dir=$2 backend=${3:-auto} filter=${4:-*}
tp=${THIRDPARTY:-$here/../../../shared/thirdparty}
tar=$tp/SEAL-4.4.3.tar.gz
tag=seal_$backend
if [ ! -f "$tar" ]; then
    skip $tag "no $tar (the pinned SEAL source; set THIRDPARTY)"
    finish
fi
if ! command -v cmake >/dev/null || [ ! -f /usr/include/gtest/gtest.h ]; then
    skip $tag "needs cmake and googletest (Debian: cmake libgtest-dev)"
    finish
fi
mkdir -p "$work" || { fail $tag "cannot create $work"; finish; }
[ -d "$work/SEAL-4.4.3" ] || tar xzf "$tar" -C "$work" || {
    fail $tag "cannot unpack $tar"
    finish
}
b=$work/build-hexl
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
if ! cmake -S "$work/SEAL-4.4.3" -B "$b" -DCMAKE_BUILD_TYPE=Release -DSEAL_USE_INTEL_HEXL=ON \
    -DSEAL_BUILD_DEPS=OFF -DHEXL_DIR="$hexl_dir" -DSEAL_BUILD_TESTS=ON -DSEAL_BUILD_EXAMPLES=ON \
    -DSEAL_USE_MSGSL=OFF -DSEAL_USE_ZLIB=OFF -DSEAL_USE_ZSTD=OFF >"$work/configure.log" 2>&1; then
    fail ${tag}_build "cmake: $(tail -c 600 "$work/configure.log")"
    finish
fi
if ! cmake --build "$b" -j "$jobs" --target sealtest sealexamples >"$work/build.log" 2>&1; then
    fail ${tag}_build "$(grep -m3 -A3 'error' "$work/build.log" | head -c 800)"
    finish
fi
log=$work/sealtest-$backend.log
CRYPTOPIM_HEXL_BACKEND=$backend "$b/bin/sealtest" --gtest_filter="$filter" >"$log" 2>&1
rc=$?
gtest_verdicts "$log" "$tag" $rc
finish
