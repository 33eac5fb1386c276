#!/bin/sh
# bench/provider_speed.sh MODULE_DIR [ALG...] -- `openssl speed -evp` on
# OpenSSL's default provider and on the cryptopim provider side by side in
# one run (measured wall time, one core: speed runs one process).
#
# For each ALG (default: the provider's ciphers and SHA-256 as docs/PROVIDER.md's
# "Speed" table has them) and each size of SIZES (default "16384 1048576"),
# REPS rounds (default 3); each round runs the default provider, then the
# provider preferred over it (-propquery ?provider=cryptopim), SECS seconds
# each (default 2).  Prints CSV on standard output:
#   alg,bytes,run,default_bps,cryptopim_bps,ratio,clock   (clock: measured)
# then one summary line per ALG and size on standard error:
#   provider ALG BYTES: ratio median R (min A, max B); default M GB/s, cryptopim N GB/s (medians, measured)
# A ratio above 1.0 means the provider is faster.  Exits non-zero when a run
# gives no result (an algorithm the provider or OpenSSL lacks, a bad MODULE_DIR).
set -u
[ $# -ge 1 ] || { echo "usage: bench/provider_speed.sh MODULE_DIR [ALG...]" >&2; exit 2; }
dir=$1
shift
[ $# -gt 0 ] || set -- aes-128-ctr aes-128-ecb aes-128-xts aes-256-xts aes-128-gcm aes-256-gcm sha256
reps=${REPS:-3}
secs=${SECS:-2}
sizes=${SIZES:-"16384 1048576"}
command -v openssl >/dev/null || { echo "provider_speed: no openssl on PATH" >&2; exit 2; }
[ -f "$dir/cryptopim.so" ] || { echo "provider_speed: no $dir/cryptopim.so" >&2; exit 2; }
dir=$(cd "$dir" && pwd)
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# rate ALG BYTES [PROVIDER OPTIONS...]: bytes per second of one `speed -mr` run
# (its +F line: +F:count:name:rate); empty when it gave none.  The provider
# options come first: speed fetches the algorithm when it reads -evp.
rate() {
    a=$1 n=$2
    shift 2
    openssl speed "$@" -evp "$a" -bytes "$n" -seconds "$secs" -mr 2>/dev/null |
        awk -F: '/^\+F:/ { print $4; exit }'
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "alg,bytes,run,default_bps,cryptopim_bps,ratio,clock"
rc=0
for alg in "$@"; do
    for n in $sizes; do
        : >"$tmp/rows"
        r=1
        while [ "$r" -le "$reps" ]; do
            d=$(rate "$alg" "$n")
            c=$(rate "$alg" "$n" -provider-path "$dir" -provider default -provider cryptopim \
                -propquery '?provider=cryptopim')
            if [ -z "$d" ] || [ -z "$c" ]; then
                echo "provider_speed: $alg at $n bytes gave no result (default '${d}', cryptopim '${c}')" >&2
                rc=1
                break
            fi
            ratio=$(awk -v d="$d" -v c="$c" 'BEGIN { printf "%.4f", c / d }')
            echo "$alg,$n,$r,$d,$c,$ratio,measured"
            echo "$d $c $ratio" >>"$tmp/rows"
            r=$((r + 1))
        done
        [ -s "$tmp/rows" ] || continue
        awk '{ print $3 }' "$tmp/rows" | sort -g >"$tmp/r"
        printf 'provider %s %s: ratio median %s (min %s, max %s); default %s GB/s, cryptopim %s GB/s (medians, measured)\n' \
            "$alg" "$n" "$(median <"$tmp/r")" "$(head -n 1 "$tmp/r")" "$(tail -n 1 "$tmp/r")" \
            "$(awk '{ print $1 / 1e9 }' "$tmp/rows" | median)" \
            "$(awk '{ print $2 / 1e9 }' "$tmp/rows" | median)" >&2
    done
done
exit $rc
