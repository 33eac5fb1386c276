#!/bin/sh
# tests/provider/openssl_cli.sh MODULE_DIR -- the provider through the
# `openssl` command (enc, dgst, mac, kdf, list, speed), byte for byte against
# OpenSSL's default provider; loading by -provider, by an openssl.cnf
# section and the backend's environment variable; bad input is an error.
. "$(dirname "$0")/../lib.sh"
dir=$1
if ! command -v openssl >/dev/null 2>&1; then
    skip provider_cli "no openssl command"
    finish
fi
if [ ! -f "$dir/cryptopim.so" ]; then
    fail provider_cli "no $dir/cryptopim.so"
    finish
fi
dir=$(cd "$dir" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the mandatory query: every algorithm must come from cryptopim
P="-provider-path $dir -provider cryptopim -propquery provider=cryptopim"
hex() { od -An -tx1 -N "$1" /dev/urandom | tr -d ' \n'; }

enc_bad=0
# enc: ECB (padding on and off) and CTR, every key size, odd lengths
for len in 0 1 16 17 100003; do
    head -c "$len" /dev/urandom >"$tmp/in"
    for alg in aes-128-ecb aes-192-ecb aes-256-ecb aes-128-ctr aes-192-ctr aes-256-ctr; do
        bits=${alg#aes-}
        bits=${bits%%-*}
        k=$(hex $((bits / 8)))
        iv="-iv $(hex 16)"
        case $alg in *ecb) iv="" ;; esac
        for pad in "" -nopad; do
            [ -n "$pad" ] && [ $((len % 16)) -ne 0 ] && case $alg in *ecb) continue ;; esac
            openssl enc -"$alg" $pad -K "$k" $iv -in "$tmp/in" -out "$tmp/ref" 2>/dev/null
            if ! openssl enc -"$alg" $pad -K "$k" $iv -in "$tmp/in" -out "$tmp/out" $P; then
                fail "provider_cli_enc_${alg}_${len}$pad" "openssl enc failed"
                enc_bad=1
            elif ! cmp -s "$tmp/ref" "$tmp/out"; then
                fail "provider_cli_enc_${alg}_${len}$pad" "differs from the default provider"
                enc_bad=1
            elif ! openssl enc -d -"$alg" $pad -K "$k" $iv -in "$tmp/out" -out "$tmp/back" $P ||
                ! cmp -s "$tmp/in" "$tmp/back"; then
                fail "provider_cli_enc_${alg}_${len}$pad" "decryption does not give the input"
                enc_bad=1
            fi
        done
    done
done
[ $enc_bad = 0 ] && pass provider_cli_enc

# dgst, mac (HMAC), kdf (PBKDF2)
head -c 300001 /dev/urandom >"$tmp/in"
a=$(openssl dgst -sha256 -r <"$tmp/in")
b=$(openssl dgst -sha256 -r $P <"$tmp/in")
[ "$a" = "$b" ] && pass provider_cli_dgst || fail provider_cli_dgst "$a / $b"
k=$(hex 37)
a=$(openssl mac -digest SHA256 -macopt hexkey:"$k" -in "$tmp/in" HMAC)
b=$(openssl mac -digest SHA256 -macopt hexkey:"$k" -in "$tmp/in" $P HMAC)
[ -n "$a" ] && [ "$a" = "$b" ] && pass provider_cli_mac || fail provider_cli_mac "$a / $b"
# dgst -hmac is an EVP_PKEY signature (the default provider's), on our SHA-256
a=$(openssl dgst -sha256 -hmac secret <"$tmp/in")
b=$(CRYPTOPIM_PROVIDER_STATS=$tmp/hmac.stats openssl dgst -sha256 -hmac secret \
    -provider-path "$dir" -provider default -provider cryptopim -propquery "?provider=cryptopim" \
    <"$tmp/in")
if [ "$a" = "$b" ] && grep -q "mac=[1-9]" "$tmp/hmac.stats"; then
    pass provider_cli_dgst_hmac
else
    fail provider_cli_dgst_hmac "$a / $b / $(cat "$tmp/hmac.stats" 2>/dev/null)"
fi
kdf() {
    openssl kdf -keylen 77 -kdfopt digest:SHA256 -kdfopt pass:"pass word" \
        -kdfopt hexsalt:00a1b2c3d4 -kdfopt iter:1000 "$@" PBKDF2
}
a=$(kdf)
b=$(kdf $P)
[ -n "$a" ] && [ "$a" = "$b" ] && pass provider_cli_kdf || fail provider_cli_kdf "$a / $b"
# PBKDF2 with OpenSSL's default digest (SHA-1): passed through to the
# default provider when it is loaded, else an error naming it
a=$(openssl kdf -keylen 16 -kdfopt pass:p -kdfopt salt:s PBKDF2)
b=$(openssl kdf -keylen 16 -kdfopt pass:p -kdfopt salt:s -provider-path "$dir" -provider default \
    -provider cryptopim -propquery "?provider=cryptopim" PBKDF2)
[ -n "$a" ] && [ "$a" = "$b" ] && pass provider_cli_kdf_sha1 || fail provider_cli_kdf_sha1 "$a / $b"
if openssl kdf -keylen 16 -kdfopt pass:p -kdfopt salt:s $P PBKDF2 >"$tmp/o" 2>"$tmp/e"; then
    fail provider_cli_kdf_sha1_alone "PBKDF2-SHA1 without any provider that has SHA-1"
elif grep -q "SHA-1" "$tmp/e"; then
    pass provider_cli_kdf_sha1_alone
else
    fail provider_cli_kdf_sha1_alone "unclear error: $(head -c 300 "$tmp/e")"
fi

# bad input: a corrupt padded block is "bad decrypt", exit status non-zero
head -c 100 /dev/urandom >"$tmp/in"
k=$(hex 16)
openssl enc -aes-128-ecb -K "$k" -in "$tmp/in" -out "$tmp/ct" $P
head -c 96 "$tmp/ct" >"$tmp/ct2"
head -c 16 /dev/zero >>"$tmp/ct2"
if openssl enc -d -aes-128-ecb -K "$k" -in "$tmp/ct2" -out "$tmp/o" $P 2>"$tmp/e"; then
    fail provider_cli_bad_decrypt "a corrupt last block decrypted"
elif grep -q "bad decrypt" "$tmp/e"; then
    pass provider_cli_bad_decrypt
else
    fail provider_cli_bad_decrypt "no 'bad decrypt': $(head -c 300 "$tmp/e")"
fi

# openssl.cnf: a section loads it (with default), backend key; `list` shows it
cat >"$tmp/openssl.cnf" <<CNF
openssl_conf = conf
[conf]
providers = provs
[provs]
default = dflt
cryptopim = cp
[dflt]
activate = 1
[cp]
module = $dir/cryptopim.so
activate = 1
backend = cpu
CNF
if OPENSSL_CONF=$tmp/openssl.cnf openssl list -providers 2>&1 | grep -q "cryptopim"; then
    a=$(openssl dgst -sha256 -r <"$tmp/in")
    b=$(OPENSSL_CONF=$tmp/openssl.cnf openssl dgst -sha256 -r -propquery provider=cryptopim <"$tmp/in")
    [ "$a" = "$b" ] && pass provider_cli_cnf || fail provider_cli_cnf "digest $a / $b"
else
    fail provider_cli_cnf "openssl list -providers does not show cryptopim"
fi
# a bad backend in the environment refuses to load, naming it
if CRYPTOPIM_PROVIDER_BACKEND=nosuch openssl dgst -sha256 $P <"$tmp/in" >"$tmp/o" 2>"$tmp/e"; then
    fail provider_cli_env_backend "loaded with backend nosuch"
elif grep -q "nosuch" "$tmp/e"; then
    pass provider_cli_env_backend
else
    fail provider_cli_env_backend "unclear error: $(head -c 300 "$tmp/e")"
fi
b=$(CRYPTOPIM_PROVIDER_BACKEND=cpu openssl dgst -sha256 -r $P <"$tmp/in")
[ "$a" = "$b" ] && pass provider_cli_env_cpu || fail provider_cli_env_cpu "$a / $b"

# openssl speed -evp runs on it (one short run: it only has to work).  The
# provider options come first: speed fetches the cipher when it reads -evp.
if CRYPTOPIM_PROVIDER_STATS=$tmp/speed.stats openssl speed -provider-path "$dir" \
    -provider default -provider cryptopim -propquery "?provider=cryptopim" \
    -evp aes-128-gcm -bytes 16384 -seconds 1 >"$tmp/o" 2>&1 &&
    grep -q "^AES-128-GCM" "$tmp/o" && grep -q "cipher=[1-9]" "$tmp/speed.stats"; then
    pass provider_cli_speed
else
    fail provider_cli_speed "$(tail -c 300 "$tmp/o") $(cat "$tmp/speed.stats" 2>/dev/null)"
fi

# bench/provider_speed.sh (the side-by-side benchmark of docs/PROVIDER.md):
# one short round gives a CSV row with a positive ratio; an algorithm that
# gives no result is an error, not a silent gap in the table
bench=$(dirname "$0")/../../bench/provider_speed.sh
if REPS=1 SECS=1 SIZES=16384 sh "$bench" "$dir" aes-128-ctr >"$tmp/b.csv" 2>"$tmp/b.err" &&
    awk -F, '$1 == "aes-128-ctr" && $2 == 16384 && $6 > 0 && $7 == "measured" { ok = 1 } END { exit !ok }'         "$tmp/b.csv" && grep -q "^provider aes-128-ctr 16384: ratio median" "$tmp/b.err" &&
    ! REPS=1 SECS=1 SIZES=16 sh "$bench" "$dir" aes-128-none >/dev/null 2>&1; then
    pass provider_bench_speed
else
    fail provider_bench_speed "$(cat "$tmp/b.csv" "$tmp/b.err" 2>/dev/null | tail -c 300)"
fi
finish
