#!/bin/sh
# ct_valgrind.sh PROG -- the ctgrind-style constant-time test:
# PROG (tests/ct/ct_valgrind.c) runs the host AES/GHASH under valgrind's
# memcheck with the key and data marked undefined, so any branch or address
# that depends on them is an error (exit 42 here).
#  - negative control: the T-table code must be caught, in every mode;
#  - the constant-time code must pass, every mode and key size, at each
#    width valgrind can run (the 64-bit code forced, and AVX2; valgrind
#    does not run AVX-512, whose lanes do the same operations as the
#    64-bit ones: aes_ct_core.h).
# Skips when valgrind (or its headers at build time) is missing.
. "$(dirname "$0")/../lib.sh"
prog=$1
if ! command -v valgrind >/dev/null 2>&1; then
    skip ct_valgrind "valgrind is not installed (Debian package valgrind)"
    finish
fi
vg() {
    valgrind -q --tool=memcheck --error-exitcode=42 --track-origins=no "$prog" "$@" >"$tmp" 2>&1
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
vg ct ct64 ecb
rc=$?
if [ "$rc" = 77 ]; then
    skip ct_valgrind "built without <valgrind/memcheck.h> (package valgrind)"
    finish
fi
for mode in ecb ctr xts gcm; do
    vg table best "$mode"
    rc=$?
    if [ "$rc" = 42 ] && grep -q "uninitialised" "$tmp"; then
        pass "ct_valgrind_control_table_$mode"
    else
        fail "ct_valgrind_control_table_$mode" "the T-table code was not caught (exit $rc)"
        cat "$tmp"
    fi
done
for width in ct64 avx2; do
    vg ct "$width" all
    rc=$?
    ran=$(head -n 1 "$tmp")
    if [ "$width" = avx2 ] && [ "$ran" != ct64-avx2 ]; then
        skip "ct_valgrind_$width" "valgrind's CPU has no AVX2 (ran $ran)"
    elif [ "$rc" = 0 ]; then
        pass "ct_valgrind_$width"
    else
        fail "ct_valgrind_$width" "memcheck found a secret-dependent branch or address (exit $rc):"
        cat "$tmp"
    fi
done
finish
