#!/bin/sh
# tests/hexl/seal_driver.sh WORK HEXL_INCLUDE BACKEND LINK... -- SEAL's API
# on libhexl (tests/hexl/seal_driver.cpp: BFV multiply+relinearize, CKKS
# multiply, NTT batches of SEAL's ciphertexts in a cryptopim::BatchRegion)
# with CRYPTOPIM_HEXL_BACKEND=BACKEND, on the SEAL that tests/hexl/seal.sh
# built in WORK (run it first: make test-seal does).  Skips with a message
# where that build is missing.  PASS/FAIL/SKIP lines with tests/lib.sh.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
. "$here/seal_prog.sh"
work=$1 inc=$2 backend=$3
shift 3
if ! ls "$work"/build-hexl/lib/libseal-*.a >/dev/null 2>&1; then
    skip seal_driver_$backend "no SEAL build in $work (tests/hexl/seal.sh makes it)"
    finish
fi
prog=$work/seal-driver
if ! seal_prog "$work" "$here/seal_driver.cpp" "$prog" "$inc" "$@"; then
    fail seal_driver_${backend}_build "does not compile (above)"
    finish
fi
log=$work/seal-driver-$backend.log
CRYPTOPIM_HEXL_BACKEND=$backend "$prog" >"$log" 2>&1
rc=$?
cat "$log"
grep -q '^PASS' "$log" || fail seal_driver_$backend "no verdict (exit $rc): $(tail -c 400 "$log")"
[ "$rc" = 0 ] || grep -q '^FAIL' "$log" || fail seal_driver_$backend "exit $rc: $(tail -c 400 "$log")"
finish
