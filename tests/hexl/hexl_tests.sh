#!/bin/sh
# tests/hexl/hexl_tests.sh WORK HEXL_INCLUDE LINK... -- Intel HEXL 1.2.6's own
# unit tests, built from the pinned source (THIRDPARTY, default
# ../shared/thirdparty beside the project) against cryptopim's libhexl:
# the number theory, every element-wise operation and the NTT (test-*.cpp
# that do not need HEXL's AVX-512 kernels), HEXL's public-API compile test,
# and its gtest main.  The internal entry points those tests include come
# from tests/hexl/shim/ (HEXL's "Native" kernels mapped onto our functions;
# its reference transforms written independently).  WORK is a scratch
# folder; LINK are the libraries to link (libhexl.a, libcryptopim.a, ...).
# Skips with a message without the tarball, g++ or gtest (Debian
# libgtest-dev).  One verdict per gtest test suite.  PASS/FAIL/SKIP lines
# with tests/lib.sh; ends with its `finish`.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
. "$here/gtest.sh"
work=$1 inc=$2
shift 2
tp=${THIRDPARTY:-$here/../../../shared/thirdparty}
tar=$tp/hexl-1.2.6.tar.gz
CXX=${CXX:-g++}
if [ ! -f "$tar" ]; then
    skip hexl_own_tests "no $tar (the pinned HEXL source; set THIRDPARTY)"
    finish
fi
if ! command -v "$CXX" >/dev/null || [ ! -f /usr/include/gtest/gtest.h ]; then
    skip hexl_own_tests "needs $CXX and googletest (Debian: g++ libgtest-dev)"
    finish
fi
mkdir -p "$work" || { fail hexl_own_tests "cannot create $work"; finish; }
src=$work/hexl-1.2.6
[ -d "$src/test" ] || tar xzf "$tar" -C "$work" hexl-1.2.6/test || {
    fail hexl_own_tests "cannot unpack $tar"
    finish
}
flags="-std=c++17 -O1 -w -I$here/shim -I$inc -I$src/test/include"
objs=
for t in main test-number-theory test-eltwise-add-mod test-eltwise-sub-mod test-eltwise-mult-mod \
    test-eltwise-fma-mod test-eltwise-reduce-mod test-eltwise-cmp-add test-eltwise-cmp-sub-mod \
    test-ntt; do
    o=$work/$t.o
    if [ ! -f "$o" ] || [ "$src/test/$t.cpp" -nt "$o" ] || [ -n "$(find "$here/shim" "$inc" -newer "$o" -name '*.hpp' | head -1)" ]; then
        if ! $CXX $flags -c "$src/test/$t.cpp" -o "$o" 2>"$work/$t.log"; then
            fail hexl_own_build_$t "$(head -c 600 "$work/$t.log")"
            continue
        fi
    fi
    objs="$objs $o"
done
# HEXL's public-API test: hexl/hexl.hpp compiles alone and links
if $CXX $flags "$src/test/test-public-api.cpp" -o "$work/public-api" "$@" 2>"$work/api.log" &&
    "$work/public-api"; then
    pass hexl_own_public_api
else
    fail hexl_own_public_api "$(head -c 600 "$work/api.log")"
fi
if ! $CXX -o "$work/hexl-tests" $objs "$@" -lgtest -lpthread 2>"$work/link.log"; then
    fail hexl_own_link "$(head -c 600 "$work/link.log")"
    finish
fi
"$work/hexl-tests" --gtest_brief=0 >"$work/run.log" 2>&1
rc=$?
gtest_verdicts "$work/run.log" hexl_own $rc
finish
