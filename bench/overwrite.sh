#!/bin/sh
# bench/overwrite.sh CLI [MIB [RUNS [DIR...]]] -- overwriting an existing
# file: `cryptopim enc -o OUT` against `openssl enc -out OUT`, side by side
# in one run (measured wall time), on each folder DIR (default: /dev/shm, a
# tmpfs, and the system's temporary folder, usually the root file system).
#
# For each folder, RUNS rounds (default 5); in each round both programs
# encrypt the same MIB MiB (default 256) with AES-128-CTR over an existing
# file of that size, in alternating order.  Prints CSV on standard output:
#   fs,folder,program,run,seconds,clock   (clock: always `measured`, wall time)
# then one summary line per folder on standard error:
#   overwrite FS: cryptopim median S s, openssl median S s, ratio R (measured)
# A ratio <= 1.0 means cryptopim overwrites at least as fast as openssl.
set -u
cli=$1
mib=${2:-256}
runs=${3:-5}
shift $(($# < 3 ? $# : 3))
[ $# -gt 0 ] || set -- /dev/shm "${TMPDIR:-/tmp}"
command -v openssl >/dev/null || { echo "overwrite: no openssl on PATH" >&2; exit 2; }
K=000102030405060708090a0b0c0d0e0f
IV=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "fs,folder,program,run,seconds,clock"
for dir in "$@"; do
    w=$(mktemp -d "$dir/cryptopim-overwrite.XXXXXX") || exit 2
    fs=$(stat -f -c %T "$w")
    head -c $((mib * 1048576)) /dev/urandom >"$w/in"
    cp "$w/in" "$w/out.cryptopim"
    cp "$w/in" "$w/out.openssl"
    : >"$w/t.cryptopim"
    : >"$w/t.openssl"
    r=1
    while [ $r -le "$runs" ]; do
        if [ $((r % 2)) = 1 ]; then order="cryptopim openssl"; else order="openssl cryptopim"; fi
        for p in $order; do
            t0=$(now)
            if [ $p = cryptopim ]; then
                "$cli" enc -a aes-128-ctr -K $K --iv $IV -i "$w/in" -o "$w/out.cryptopim"
            else
                openssl enc -aes-128-ctr -K $K -iv $IV -in "$w/in" -out "$w/out.openssl"
            fi || { echo "overwrite: $p failed" >&2; rm -rf "$w"; exit 1; }
            t=$(echo "$(now) $t0" | awk '{ printf "%.4f", $1 - $2 }')
            echo "$fs,$dir,$p,$r,$t,measured"
            echo "$t" >>"$w/t.$p"
        done
        r=$((r + 1))
    done
    cmp -s "$w/out.cryptopim" "$w/out.openssl" || { echo "overwrite: outputs differ" >&2; rm -rf "$w"; exit 1; }
    mc=$(median <"$w/t.cryptopim")
    mo=$(median <"$w/t.openssl")
    echo "overwrite $fs ($mib MiB, $runs runs): cryptopim median $mc s, openssl median $mo s," \
        "ratio $(echo "$mc $mo" | awk '{ printf "%.2f", $1 / $2 }') (measured wall time)" >&2
    rm -rf "$w"
done
