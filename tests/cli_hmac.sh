#!/bin/sh
# tests/cli_hmac.sh BINARY -- `cryptopim hmac` and `cryptopim pbkdf2` against
# OpenSSL 3's CLI, byte for byte:
#  - hmac vs `openssl dgst -sha256 -mac HMAC -macopt hexkey:K` on seeded
#    random keys (1 to 150 bytes; 65 and 150 are hashed first) and files
#    (empty, 1 byte, around block edges, 100 KiB), several files at once,
#    standard input, -K and --key-file, on every available backend;
#  - pbkdf2 vs `openssl kdf ... PBKDF2` with random passwords, salts (empty
#    too), iteration counts and key lengths (not multiples of 32);
#  - bad input: a clear error, exit 2 (usage) or 1, no key or password in
#    any output.
# PASS/FAIL/SKIP lines with tests/lib.sh; ends with its `finish`.
. "$(dirname "$0")/lib.sh"
B=$1
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
T=$(mktemp -d) || { fail cli_hmac_tmpdir "mktemp -d failed"; finish; }
trap 'rm -rf "$T"' EXIT
if ! command -v openssl >/dev/null 2>&1 || ! openssl kdf -help >/dev/null 2>&1; then
    skip cli_hmac_openssl "no openssl 3 CLI here"
    finish
fi

# seeded bytes: hex of N bytes from seed S (awk's LCG, no /dev/urandom)
hexbytes() {
    awk -v n="$1" -v s="$2" 'BEGIN { x = s; for (i = 0; i < n; i++) {
        x = (x * 1103515245 + 12345) % 2147483648; printf "%02x", int(x / 65536) % 256 }
        print "" }'
}
tofile() { # hex -> binary file
    printf '%s' "$1" | sed 's/../\\x&/g' | xargs -0 printf "%b" >"$2"
}

for n in 0 1 55 56 63 64 65 119 1000; do
    tofile "$(hexbytes $n $((n + 7)))" "$T/f$n"
done
head -c 102400 /dev/zero | tr '\0' 'q' >"$T/f100k"
FILES="$T/f0 $T/f1 $T/f55 $T/f56 $T/f63 $T/f64 $T/f65 $T/f119 $T/f1000 $T/f100k"

backends=$("$B" list | awk '$2 == "available" {print $1}')
for be in $backends; do
    ok=1
    for kl in 1 5 32 64 65 150; do # (openssl's CLI refuses an empty key)
        K=$(hexbytes $kl $((kl + 99)))
        want=$(cd "$T" && openssl dgst -sha256 -mac HMAC -macopt "hexkey:$K" $(echo "$FILES" | sed "s|$T/||g") 2>&1)
        got=$(cd "$T" && "$B" hmac -K "$K" --backend "$be" $(echo "$FILES" | sed "s|$T/||g") 2>&1)
        if [ "$got" != "$want" ]; then
            fail "cli_hmac_files_$be" "key of $kl bytes: got [$got] want [$want]"
            ok=0
            break
        fi
    done
    [ $ok -eq 1 ] && pass "cli_hmac_files_$be"
done

# standard input and --key-file (hex text with whitespace)
K=$(hexbytes 20 3)
printf '%s\n' "$K" | sed 's/......../& /g' >"$T/key"
want=$(openssl dgst -sha256 -mac HMAC -macopt "hexkey:$K" <"$T/f1000")
got=$("$B" hmac --key-file "$T/key" <"$T/f1000")
if [ "$got" = "$want" ]; then pass cli_hmac_stdin_key_file; else
    fail cli_hmac_stdin_key_file "got [$got] want [$want]"; fi

# pbkdf2
ok=1
for i in 1 2 3 4 5 6; do
    pl=$((i * 13 % 40 + 1))
    sl=$((i * 7 % 30))
    it=$((i * i * 37 % 3000 + 1))
    kl=$((i * 29 % 90 + 1))
    P=$(hexbytes $pl $((i + 500)) | sed 's/[^0-9a-f]//g' | cut -c1-$pl) # printable password
    printf '%s' "$P" >"$T/pw"
    S=$(hexbytes $sl $((i + 900)))
    if [ $sl -eq 0 ]; then sopt="salt:"; else sopt="hexsalt:$S"; fi
    want=$(openssl kdf -keylen $kl -kdfopt digest:SHA256 -kdfopt "pass:$P" -kdfopt "$sopt" \
        -kdfopt iter:$it PBKDF2)
    for be in $backends; do
        got=$("$B" pbkdf2 --pass-file "$T/pw" --salt "$S" --iter $it --keylen $kl --backend "$be" 2>&1)
        if [ "$got" != "$want" ]; then
            fail cli_pbkdf2_openssl "$be pass $pl salt $sl iter $it keylen $kl: got [$got] want [$want]"
            ok=0
        fi
    done
done
[ $ok -eq 1 ] && pass cli_pbkdf2_openssl

# a password file with a final newline: the newline is not part of it
printf 'password\n' >"$T/pwnl"
got=$("$B" pbkdf2 --pass-file "$T/pwnl" --salt 73616c74 --iter 1 --keylen 32)
want=$(openssl kdf -keylen 32 -kdfopt digest:SHA256 -kdfopt pass:password -kdfopt salt:salt \
    -kdfopt iter:1 PBKDF2)
if [ "$got" = "$want" ]; then pass cli_pbkdf2_newline; else
    fail cli_pbkdf2_newline "got [$got] want [$want]"; fi

# speed's HMAC / PBKDF2 rows: CSV rows for cpu (measured) and pim (modeled
# only), the cryptsetup-style line in the table
"$B" speed --quick --kdf-only --csv --backend cpu --backend pim >"$T/speed" 2>"$T/err"
rc=$?
if [ $rc = 0 ] && grep -q '^hmac-batch,cpu,65536,[0-9]*,measured,' "$T/speed" &&
    grep -q '^pbkdf2-batch,pim,1280,[0-9]*,modeled,' "$T/speed" &&
    grep -q '^pbkdf2-1chain,pim,200,1,modeled,' "$T/speed" &&
    ! grep -q '^[a-z0-9-]*,pim,.*,measured,' "$T/speed" &&
    awk -F, 'NR > 1 && (NF != 7 || $6 <= 0) { bad = 1 } END { exit bad }' "$T/speed"; then
    pass cli_speed_kdf_csv
else
    fail cli_speed_kdf_csv "exit $rc: $(tr '\n' '|' <"$T/speed") $(cat "$T/err")"
fi
"$B" speed --quick --kdf-only --backend shani --compare >"$T/speed" 2>"$T/err"
rc=$?
if [ $rc = 0 ] &&
    grep -q '^PBKDF2-sha256  *[0-9][0-9]* iterations per second for 256-bit key  (shani, measured' \
        "$T/speed"; then
    pass cli_speed_kdf_cryptsetup_line
else
    fail cli_speed_kdf_cryptsetup_line "exit $rc: $(tr '\n' '|' <"$T/speed") $(cat "$T/err")"
fi

# bad input: exit status, a message, never the secret
SECRET=00112233445566778899aabbccddeeff
printf 'hunter2-secret' >"$T/pw"
bad() { # name, want status, command...
    name=$1 st=$2
    shift 2
    out=$("$@" 2>&1)
    rc=$?
    if [ $rc -ne "$st" ]; then
        fail "$name" "exit $rc, want $st ($out)"
    elif [ -z "$out" ]; then
        fail "$name" "no error message"
    elif printf '%s' "$out" | grep -q -e "$SECRET" -e hunter2; then
        fail "$name" "the secret was printed: $out"
    else
        pass "$name"
    fi
}
bad cli_hmac_no_key 2 "$B" hmac "$T/f1"
bad cli_hmac_bad_hex 2 "$B" hmac -K "${SECRET}zz" "$T/f1"
bad cli_hmac_both_keys 2 "$B" hmac -K "$SECRET" --key-file "$T/key" "$T/f1"
bad cli_hmac_missing_file 1 "$B" hmac -K "$SECRET" "$T/nonexistent"
printf 'not hex %s' "$SECRET" >"$T/badkey"
bad cli_hmac_bad_key_file 1 "$B" hmac --key-file "$T/badkey" "$T/f1"
bad cli_pbkdf2_zero_iter 2 "$B" pbkdf2 --pass-file "$T/pw" --salt 00 --iter 0 --keylen 8
bad cli_pbkdf2_bad_salt 2 "$B" pbkdf2 --pass-file "$T/pw" --salt 0g --iter 1 --keylen 8
bad cli_pbkdf2_no_keylen 2 "$B" pbkdf2 --pass-file "$T/pw" --salt 00 --iter 1
bad cli_pbkdf2_missing_pass 1 "$B" pbkdf2 --pass-file "$T/nonexistent" --salt 00 --iter 1 --keylen 8
bad cli_pbkdf2_operand 2 "$B" pbkdf2 hunter2-secret --salt 00 --iter 1 --keylen 8
finish
