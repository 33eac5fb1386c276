#!/bin/sh
# tests/provider/clients.sh MODULE_DIR -- real OpenSSL applications on the
# provider: TLS 1.3 over loopback (openssl s_server / s_client, AES-128-GCM
# and AES-256-GCM suites) with the provider on one side, then on both, a
# 64 MiB transfer checked end to end; Python's hashlib.sha256 and hmac
# through an OPENSSL_CONF whose default_properties prefer the provider.
# TLS 1.2's AES-GCM records too.
# CRYPTOPIM_PROVIDER_STATS (docs/PROVIDER.md) shows that each really ran
# there.  Everything is bounded (timeout), on 127.0.0.1, and stops itself.
. "$(dirname "$0")/../lib.sh"
dir=$1
if ! command -v openssl >/dev/null 2>&1 || ! command -v timeout >/dev/null 2>&1; then
    skip provider_clients "no openssl or timeout command"
    finish
fi
if [ ! -f "$dir/cryptopim.so" ]; then
    fail provider_clients "no $dir/cryptopim.so"
    finish
fi
dir=$(cd "$dir" && pwd)
tmp=$(mktemp -d)
srv_pid=
cleanup() {
    [ -n "$srv_pid" ] && kill "$srv_pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
PROV="-provider-path $dir -provider default -provider cryptopim -propquery ?provider=cryptopim"

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
    -subj /CN=localhost -keyout "$tmp/key.pem" -out "$tmp/cert.pem" 2>/dev/null || {
    fail provider_tls "cannot make a test certificate"
    finish
}

# listening(PORT): the port is in LISTEN state on 127.0.0.1
listening() {
    grep -qi " 0100007F:$(printf '%04X' "$1") 00000000:0000 0A" /proc/net/tcp 2>/dev/null
}

# stats_count FILE FIELD: the largest FIELD= value the provider wrote to FILE
stats_count() {
    [ -f "$1" ] || { echo 0; return; }
    tr ' ' '\n' <"$1" | sed -n "s/^$2=//p" | sort -n | tail -1
}

# tls NAME SUITE MIB SERVER_PROV CLIENT_PROV: one connection; the server
# (s_server -WWW) sends a file of MIB MiB to the client (an HTTP/1.0 GET),
# which must receive it whole; a side with PROV=1 loads the provider
mkdir "$tmp/www"
tls() {
    name=$1 suite=$2 mib=$3 sprov=$4 cprov=$5
    head -c $((mib * 1048576)) /dev/urandom >"$tmp/www/data"
    rm -f "$tmp/recv" "$tmp/s.stats" "$tmp/c.stats"
    sopt= copt=
    # a TLS 1.3 suite (TLS_...), else a TLS 1.2 cipher (libssl's tlsaad / explicit-IV records)
    case $suite in
    TLS_*) proto="-tls1_3 -ciphersuites $suite" ;;
    *) proto="-tls1_2 -cipher $suite" ;;
    esac
    [ "$sprov" = 1 ] && sopt=$PROV
    [ "$cprov" = 1 ] && copt=$PROV
    port=
    for try in 1 2 3 4 5; do
        p=$((20000 + ($$ * 7 + try * 1031 + $(od -An -tu2 -N2 /dev/urandom)) % 40000))
        (cd "$tmp/www" && CRYPTOPIM_PROVIDER_STATS=$tmp/s.stats exec timeout 120 openssl \
            s_server -quiet -WWW -naccept 1 -accept "127.0.0.1:$p" -cert "$tmp/cert.pem" \
            -key "$tmp/key.pem" $proto $sopt >"$tmp/s.out" 2>"$tmp/s.err") &
        srv_pid=$!
        i=0
        while [ $i -lt 100 ] && ! listening "$p" && kill -0 "$srv_pid" 2>/dev/null; do
            sleep 0.1
            i=$((i + 1))
        done
        if listening "$p"; then
            port=$p
            break
        fi
        kill "$srv_pid" 2>/dev/null
        wait "$srv_pid" 2>/dev/null
        srv_pid=
    done
    if [ -z "$port" ]; then
        fail "$name" "s_server did not listen: $(head -c 300 "$tmp/s.err")"
        return
    fi
    printf 'GET /data HTTP/1.0\r\n\r\n' | CRYPTOPIM_PROVIDER_STATS=$tmp/c.stats timeout 120 \
        openssl s_client -quiet -connect "127.0.0.1:$port" $proto $copt >"$tmp/c.out" 2>"$tmp/c.err"
    crc=$?
    # the reply: "HTTP/1.0 200 ok", a Content-type line, an empty line, the file
    sed -n '1,/^\r*$/p' "$tmp/c.out" | wc -c >"$tmp/hdr"
    tail -c +$(($(cat "$tmp/hdr") + 1)) "$tmp/c.out" >"$tmp/recv"
    wait "$srv_pid"
    src=$?
    srv_pid=
    scount=$(stats_count "$tmp/s.stats" cipher)
    ccount=$(stats_count "$tmp/c.stats" cipher)
    if [ $crc -ne 0 ] || [ $src -ne 0 ]; then
        fail "$name" "client exit $crc, server exit $src: $(head -c 300 "$tmp/c.err")"
    elif ! cmp -s "$tmp/www/data" "$tmp/recv"; then
        fail "$name" "the client received $(wc -c <"$tmp/recv") bytes, not the $mib MiB sent"
    elif [ "$sprov" = 1 ] && [ "${scount:-0}" -lt 2 ]; then
        fail "$name" "the server's provider did no cipher operation"
    elif [ "$cprov" = 1 ] && [ "${ccount:-0}" -lt 2 ]; then
        fail "$name" "the client's provider did no cipher operation"
    elif [ "$sprov" != 1 ] && [ -f "$tmp/s.stats" ]; then
        fail "$name" "the server loaded the provider"
    else
        pass "$name"
        echo "# $name: server cipher ops ${scount:-none}, client ${ccount:-none}"
    fi
}

if [ ! -r /proc/net/tcp ]; then
    skip provider_tls "no /proc/net/tcp to see the server listen"
else
    tls provider_tls_aes128gcm_server TLS_AES_128_GCM_SHA256 1 1 0
    tls provider_tls_aes256gcm_client TLS_AES_256_GCM_SHA384 1 0 1
    tls provider_tls_aes256gcm_both TLS_AES_256_GCM_SHA384 1 1 1
    tls provider_tls_aes128gcm_both_64mib TLS_AES_128_GCM_SHA256 64 1 1
    tls provider_tls12_aes128gcm_both ECDHE-ECDSA-AES128-GCM-SHA256 1 1 1
    tls provider_tls12_aes256gcm_server ECDHE-ECDSA-AES256-GCM-SHA384 1 1 0
fi

# Python's hashlib and hmac with the provider preferred by default_properties
if ! command -v python3 >/dev/null 2>&1 ||
    ! python3 -c 'import ssl, sys; sys.exit(ssl.OPENSSL_VERSION_INFO[0] < 3)' 2>/dev/null; then
    skip provider_python "no python3 on OpenSSL 3"
else
    cat >"$tmp/py.cnf" <<CNF
openssl_conf = conf
[conf]
providers = provs
alg_section = algs
[provs]
default = dflt
cryptopim = cp
[dflt]
activate = 1
[cp]
module = $dir/cryptopim.so
activate = 1
[algs]
default_properties = ?provider=cryptopim
CNF
    script='import hashlib, hmac
data = bytes(range(256)) * 4099
print(hashlib.sha256(data).hexdigest())
h = hashlib.sha256()
for i in range(0, len(data), 1000):
    h.update(data[i:i + 1000])
print(h.hexdigest())
print(hmac.new(b"key" * 30, data, "sha256").hexdigest())
print(hmac.digest(b"k", data, "sha256").hex())'
    want=$(python3 -c "$script" 2>&1)
    got=$(OPENSSL_CONF=$tmp/py.cnf CRYPTOPIM_PROVIDER_STATS=$tmp/py.stats python3 -c "$script" 2>&1)
    n=$(stats_count "$tmp/py.stats" digest)
    if [ "$want" != "$got" ]; then
        fail provider_python "digests differ: $got"
    elif [ "${n:-0}" -lt 4 ]; then
        fail provider_python "the provider did ${n:-no} digest operations"
    else
        pass provider_python
        echo "# provider_python: $n digest operations on the provider"
    fi
fi
finish
