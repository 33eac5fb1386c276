#!/bin/sh
# tests/cli_gcm.sh BINARY [GCM_REF] -- `cryptopim enc/dec -a aes-*-gcm`
# against OpenSSL's EVP GCM through tests/gcm_ref.c (GCM_REF; when
# it is not given, the comparisons are skipped), on every AES backend:
# all key sizes, empty to multi-chunk inputs, 96-bit and other IV lengths,
# with and without AAD; ciphertext || tag layout; dec of a tampered file
# (ciphertext, tag, AAD, IV) exits non-zero and leaves nothing at OUT (and an
# existing OUT as it was); a CAVP record with an 8-bit IV; usage errors.
# Prints PASS/FAIL/SKIP lines with tests/lib.sh; ends with its `finish`.
. "$(dirname "$0")/lib.sh"
B=$1
R=$2
if [ -z "$B" ] || [ ! -x "$B" ]; then
    fail cli_gcm_binary "'$B' is not an executable (usage: sh tests/cli_gcm.sh build/cryptopim [build/tests/gcm_ref])"
    finish
fi
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
case $R in /* | "") ;; *) R=$(pwd)/$R ;; esac
T=$(mktemp -d) || { fail cli_gcm_tmpdir "mktemp -d failed"; finish; }
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP

K128=000102030405060708090a0b0c0d0e0f
K192=000102030405060708090a0b0c0d0e0f1011121314151617
K256=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
IV96=cafebabefacedbaddecaf888
IV8=b6
IV480=9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b

key_of() {
    case $1 in
    aes-128-*) echo $K128 ;;
    aes-192-*) echo $K192 ;;
    *) echo $K256 ;;
    esac
}

# hex text -> bytes (POSIX awk and printf)
unhex() {
    printf "$(echo "$1" | awk '{ h = "0123456789abcdef"; s = tolower($0)
        for (i = 1; i < length(s); i += 2)
            printf "\\%03o", (index(h, substr(s, i, 1)) - 1) * 16 + index(h, substr(s, i + 1, 1)) - 1 }')"
}
hexof() { od -An -tx1 -v "$1" | tr -d ' \n'; }

backends=""
for b in cpu aesni shani auto pim; do
    "$B" list 2>/dev/null | grep -q "^$b *available" && backends="$backends $b"
done

for n in 0 1 15 16 17 1000 70001; do head -c $n /dev/urandom >"$T/m$n"; done
head -c 37 /dev/urandom >"$T/aad"
: >"$T/empty"

# ---- against OpenSSL's EVP --------------------------------------------------------
if [ -z "$R" ] || [ ! -x "$R" ]; then
    skip cli_gcm_vs_openssl "no OpenSSL reference (tests/gcm_ref.c needs OpenSSL's headers)"
else
    for be in $backends; do
        ok=1
        why=""
        for alg in aes-128-gcm aes-192-gcm aes-256-gcm; do
            K=$(key_of $alg)
            for iv in $IV96 $IV8 $IV480; do
                for aad in - "$T/aad"; do
                    # the pim backend on a subset (each call launches DPUs)
                    sizes="0 1 15 16 17 1000 70001"
                    if [ $be = pim ]; then
                        sizes="0 17 70001"
                        [ $iv != $IV96 ] && sizes="1000"
                        [ $iv != $IV96 ] && [ "$aad" = - ] && sizes=""
                    fi
                    # the code of aesni / cpu again
                    [ $be = auto ] || [ $be = shani ] && sizes="0 17 1000"
                    for n in $sizes; do
                        a=""
                        [ "$aad" != - ] && a="--aad-file $aad"
                        "$R" enc $K $iv $aad "$T/m$n" "$T/ref" 2>"$T/err" || {
                            ok=0
                            why="gcm_ref enc failed: $(cat "$T/err")"
                        }
                        "$B" enc -a $alg -K $K --iv $iv $a -i "$T/m$n" -o "$T/got" --backend $be 2>"$T/err" ||
                            { ok=0; why="$alg enc failed on $n bytes: $(cat "$T/err")"; }
                        cmp -s "$T/ref" "$T/got" || {
                            ok=0
                            why="$alg iv ${#iv} hex aad $aad: $n bytes differ from OpenSSL"
                        }
                        "$B" dec -a $alg -K $K --iv $iv $a -i "$T/ref" -o "$T/back" --backend $be 2>"$T/err" &&
                            cmp -s "$T/back" "$T/m$n" || {
                            ok=0
                            why="$alg: dec of OpenSSL's $n-byte output failed: $(cat "$T/err")"
                        }
                        rm -f "$T/ref" "$T/got" "$T/back"
                    done
                done
            done
        done
        [ $ok = 1 ] && pass cli_gcm_vs_openssl_$be || fail cli_gcm_vs_openssl_$be "$why"
    done
    # the CAVP record with an 8-bit IV (gcmEncryptExtIV128 [IVlen = 8] Count 0), which
    # tests/vectors/gen_gcm_vectors.py cannot check with Python's API: EVP and ours
    unhex 8cfa255530c6fbc19d51bd4aeb39c91b >"$T/pt8"
    want=4822cb98bd5f5d921ee19285c90323758a40670ebac98cf4e9cc1bf8f803167d
    "$R" enc 15b2d414826453f9e1c7dd0b69d8d1eb b6 - "$T/pt8" "$T/r8" &&
        "$B" enc -a aes-128-gcm -K 15b2d414826453f9e1c7dd0b69d8d1eb --iv b6 -i "$T/pt8" -o "$T/c8" &&
        [ "$(hexof "$T/r8")" = $want ] && [ "$(hexof "$T/c8")" = $want ] &&
        pass cli_gcm_cavp_ivlen8 || fail cli_gcm_cavp_ivlen8 "EVP $(hexof "$T/r8"), ours $(hexof "$T/c8"), want $want"
fi

# ---- layout and round trip without a reference ---------------------------------------
"$B" enc -a aes-128-gcm -K $K128 --iv $IV96 -i "$T/m1000" -o "$T/c" 2>"$T/err" &&
    [ "$(wc -c <"$T/c" | tr -d ' ')" = 1016 ] &&
    "$B" dec -a aes-128-gcm -K $K128 --iv $IV96 -i "$T/c" -o "$T/p" && cmp -s "$T/p" "$T/m1000" &&
    pass cli_gcm_layout || fail cli_gcm_layout "not 1000 + 16 bytes, or no round trip: $(cat "$T/err")"
# standard input to standard output
"$B" enc -a aes-256-gcm -K $K256 --iv $IV96 <"$T/m17" | "$B" dec -a aes-256-gcm -K $K256 --iv $IV96 >"$T/p" &&
    cmp -s "$T/p" "$T/m17" && pass cli_gcm_pipes || fail cli_gcm_pipes "stdin/stdout round trip failed"

# ---- tampering: refused, nothing written ------------------------------------------
# flip one byte of a file at an offset: a copy with byte OFF xor 1
flip() {
    head -c "$2" "$1" >"$3"
    tail -c +"$(($2 + 1))" "$1" | head -c 1 | od -An -tu1 | awk '{ printf "%c", ($1 == 0 ? 1 : ($1 % 2 ? $1 - 1 : $1 + 1)) }' >>"$3"
    tail -c +"$(($2 + 2))" "$1" >>"$3"
}
for be in $backends; do
    ok=1
    why=""
    "$B" enc -a aes-192-gcm -K $K192 --iv $IV96 --aad-file "$T/aad" -i "$T/m1000" -o "$T/c" --backend $be
    flip "$T/c" 500 "$T/c_ct"
    flip "$T/c" 1010 "$T/c_tag"
    head -c 36 "$T/aad" >"$T/aad_short"
    for case in ct tag aad iv; do
        in="$T/c"
        aadf="$T/aad"
        iv=$IV96
        case $case in
        ct) in="$T/c_ct" ;;
        tag) in="$T/c_tag" ;;
        aad) aadf="$T/aad_short" ;;
        iv) iv=cafebabefacedbaddecaf889 ;;
        esac
        rm -f "$T/out"
        "$B" dec -a aes-192-gcm -K $K192 --iv $iv --aad-file "$aadf" -i "$in" -o "$T/out" --backend $be 2>"$T/err"
        rc=$?
        if [ $rc = 0 ] || [ -e "$T/out" ] || ! grep -q 'authentication failed' "$T/err"; then
            ok=0
            why="tampered $case: exit $rc, OUT $( [ -e "$T/out" ] && echo exists || echo absent), $(cat "$T/err")"
        fi
        # an existing OUT keeps its content; standard output gets nothing
        echo keep >"$T/old"
        "$B" dec -a aes-192-gcm -K $K192 --iv $iv --aad-file "$aadf" -i "$in" -o "$T/old" --backend $be 2>/dev/null
        [ "$(cat "$T/old")" = keep ] || { ok=0; why="tampered $case: an existing OUT was changed"; }
        "$B" dec -a aes-192-gcm -K $K192 --iv $iv --aad-file "$aadf" -i "$in" --backend $be 2>/dev/null >"$T/so"
        [ -s "$T/so" ] && { ok=0; why="tampered $case: bytes on standard output"; }
    done
    [ $ok = 1 ] && pass cli_gcm_tampered_$be || fail cli_gcm_tampered_$be "$why"
done

# ---- usage errors -------------------------------------------------------------------
bad() { # NAME ARGS...: exit 2 and one error line
    name=$1
    shift
    "$B" "$@" -i "$T/m16" -o "$T/u" >/dev/null 2>"$T/err"
    rc=$?
    [ $rc = 2 ] && [ "$(wc -l <"$T/err" | tr -d ' ')" = 1 ] && [ ! -e "$T/u" ] && pass "$name" ||
        fail "$name" "exit $rc, stderr '$(cat "$T/err")'"
}
bad cli_gcm_needs_iv enc -a aes-128-gcm -K $K128
bad cli_gcm_bad_iv enc -a aes-128-gcm -K $K128 --iv 0
bad cli_gcm_aad_not_ctr enc -a aes-128-ctr -K $K128 --iv f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff --aad-file "$T/aad"
bad cli_gcm_missing_aad enc -a aes-128-gcm -K $K128 --iv $IV96 --aad-file "$T/nonexistent"
"$B" dec -a aes-128-gcm -K $K128 --iv $IV96 -i "$T/m15" -o "$T/u" 2>"$T/err"
rc=$?
[ $rc = 2 ] && [ ! -e "$T/u" ] && grep -q 'shorter than the 16-byte' "$T/err" && pass cli_gcm_dec_short ||
    fail cli_gcm_dec_short "exit $rc, $(cat "$T/err")"
finish
