#!/bin/sh
# tests/cli_ntt.sh BINARY -- `cryptopim ntt`:
#  - mul against a schoolbook negacyclic product computed by awk (q = 12289:
#    every product and sum stays exact in awk's doubles), on every available
#    backend that has the NTT, text and --binary files giving the same
#    numbers;
#  - X^(N-1) * X = -1 with two moduli (word and double-word);
#  - inverse(forward(A)) = A, forward's output equal across backends;
#  - bad input: a clear error, exit 2, and no output file (an existing one
#    untouched): coefficient >= q, a count that is not whole polynomials,
#    polynomial counts that differ, not a number, q not prime, q not
#    1 mod 2N, N not a power of two, a missing -q.
# PASS/FAIL/SKIP lines with tests/lib.sh; ends with its `finish`.
. "$(dirname "$0")/lib.sh"
B=$1
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
T=$(mktemp -d) || { fail cli_ntt_tmpdir "mktemp -d failed"; finish; }
trap 'rm -rf "$T"' EXIT

N=1024
Q=12289
W=2147352577
D=4611686018425815041

# seeded coefficients below q: N numbers, one per line
coeffs() { # seed q
    awk -v n=$N -v s="$1" -v q="$2" 'BEGIN { x = s; for (i = 0; i < n; i++) {
        x = (x * 1103515245 + 12345) % 2147483648; print int(x / 16) % q } }'
}
coeffs 1 $Q >"$T/a"
coeffs 2 $Q >"$T/b"
# schoolbook a * b mod (X^N + 1, q)
awk -v n=$N -v q=$Q 'NR == FNR { a[FNR - 1] = $1; next } { b[FNR - 1] = $1 }
    END { for (i = 0; i < n; i++) if (a[i]) for (j = 0; j < n; j++) {
            k = i + j; t = a[i] * b[j]
            if (k < n) c[k] = (c[k] + t) % q; else c[k - n] = (c[k - n] - t) % q }
          for (k = 0; k < n; k++) print (c[k] % q + q) % q }' "$T/a" "$T/b" >"$T/want"

# text -> little-endian uint64 binary, and back (od)
tobin() {
    LC_ALL=C awk '{ v = $1; for (k = 0; k < 8; k++) { printf "%c", v % 256; v = int(v / 256) } }' \
        "$1" >"$2"
}
frombin() { od -An -v -tu8 "$1" | tr -s ' ' '\n' | sed '/^$/d'; }

tested=0
for be in $("$B" list | awk '$2 == "available" {print $1}'); do
    if ! "$B" ntt mul -n $N -q $Q --backend "$be" "$T/a" "$T/b" -o "$T/got.$be" 2>"$T/err"; then
        if grep -q "not support" "$T/err"; then continue; fi
        fail "cli_ntt_mul_$be" "$(cat "$T/err")"
        continue
    fi
    tested=$((tested + 1))
    if cmp -s "$T/got.$be" "$T/want"; then pass "cli_ntt_mul_$be"; else
        fail "cli_ntt_mul_$be" "differs from the schoolbook product"; fi
    # inverse(forward(a)) = a; forward equal to the first backend's
    "$B" ntt forward -n $N -q $Q --backend "$be" "$T/a" -o "$T/f.$be" &&
        "$B" ntt inverse -n $N -q $Q --backend "$be" "$T/f.$be" -o "$T/r.$be"
    if cmp -s "$T/r.$be" "$T/a" && cmp -s "$T/f.$be" "$(ls "$T"/f.* | head -1)"; then
        pass "cli_ntt_roundtrip_$be"
    else
        fail "cli_ntt_roundtrip_$be" "inverse(forward(a)) != a, or forward differs across backends"
    fi
done
[ $tested -gt 0 ] || fail cli_ntt_backends "no backend ran ntt mul"

# --binary: the same numbers
tobin "$T/a" "$T/a.bin" && tobin "$T/b" "$T/b.bin"
if "$B" ntt mul --binary -n $N -q $Q "$T/a.bin" "$T/b.bin" -o "$T/got.bin" &&
    [ "$(wc -c <"$T/got.bin")" -eq $((8 * N)) ] && frombin "$T/got.bin" | cmp -s - "$T/want"; then
    pass cli_ntt_binary
else
    fail cli_ntt_binary "binary product differs from the text one"
fi

# X^(N-1) * X = -1 in both limbs (q = W, then D); standard output
awk -v n=$N 'BEGIN { for (j = 0; j < 2; j++) for (k = 0; k < n; k++) print (k == n - 1) }' >"$T/xn1"
awk -v n=$N 'BEGIN { for (j = 0; j < 2; j++) for (k = 0; k < n; k++) print (k == 1) }' >"$T/x"
awk -v n=$N -v w=$W -v d=$D 'BEGIN { for (j = 0; j < 2; j++) for (k = 0; k < n; k++)
    print (k ? 0 : (j ? "4611686018425815040" : w - 1)) }' >"$T/minus1"
if "$B" ntt mul -n $N -q $W,$D "$T/xn1" "$T/x" >"$T/got" && cmp -s "$T/got" "$T/minus1"; then
    pass cli_ntt_known_product
else
    fail cli_ntt_known_product "X^(N-1) * X is not -1"
fi

# ---- errors: exit 2, the message, no output (and an existing OUT untouched) ----
bad() { # name expected-message args...
    name=$1 msg=$2
    shift 2
    rm -f "$T/out"
    "$B" ntt "$@" -o "$T/out" >/dev/null 2>"$T/err"
    st=$?
    if [ $st -ne 2 ]; then
        fail "cli_ntt_error_$name" "exit $st, want 2"
    elif ! grep -q "$msg" "$T/err"; then
        fail "cli_ntt_error_$name" "message [$(cat "$T/err")] lacks [$msg]"
    elif [ -e "$T/out" ]; then
        fail "cli_ntt_error_$name" "an output file was written"
    else
        pass "cli_ntt_error_$name"
    fi
}
sed '5s/.*/12289/' "$T/a" >"$T/big"
head -n 1023 "$T/a" >"$T/short"
cat "$T/a" "$T/a" >"$T/two"
sed '7s/.*/12x/' "$T/a" >"$T/nan"
bad coeff "coefficient 4 of polynomial 0, limb 0 is 12289, not below q = 12289" \
    mul -n $N -q $Q "$T/a" "$T/big"
bad count "not a whole number of polynomials" mul -n $N -q $Q "$T/short" "$T/b"
bad counts "has 2 polynomials" mul -n $N -q $Q "$T/two" "$T/b"
bad nan "number 7 is not a decimal number" forward -n $N -q $Q "$T/nan"
bad not_prime "6145 is not prime" mul -n $N -q $Q,6145 "$T/two" "$T/two"
bad not_1_mod_2n "not 1 mod 2N" mul -n 2048 -q 2147483647 "$T/a" "$T/b"
bad n "power of two" mul -n 1000 -q $Q "$T/a" "$T/b"
bad no_q "required" mul -n $N "$T/a" "$T/b"
bad binary_len "whole number of 8-byte words" forward --binary -n $N -q $Q "$T/a"
# an existing OUT keeps its content
echo keep >"$T/keep"
"$B" ntt mul -n $N -q $Q "$T/a" "$T/big" -o "$T/keep" 2>/dev/null
if [ "$(cat "$T/keep")" = keep ]; then pass cli_ntt_error_keeps_out; else
    fail cli_ntt_error_keeps_out "OUT changed by a failed run"; fi

finish
