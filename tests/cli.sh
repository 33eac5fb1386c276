#!/bin/sh
# tests/cli.sh BINARY -- tests of the `cryptopim` command-line tool.
#
# Prints `PASS name` / `FAIL name: why` / `SKIP name: why` lines with
# tests/lib.sh and ends with its `finish` (run.sh checks).  Compares against the `openssl`
# and coreutils `sha256sum` binaries when they exist (else SKIP).  Everything
# it creates lives under one mktemp -d folder, removed at the end.
. "$(dirname "$0")/lib.sh"
B=$1
if [ -z "$B" ] || [ ! -x "$B" ]; then
    fail cli_binary "'$B' is not an executable (usage: sh tests/cli.sh build/cryptopim)"
    finish
fi
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
T=$(mktemp -d) || { fail cli_tmpdir "mktemp -d failed"; finish; }
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP

have() { command -v "$1" >/dev/null 2>&1; }

K128=000102030405060708090a0b0c0d0e0f
K192=000102030405060708090a0b0c0d0e0f1011121314151617
K256=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
IV=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
IVWRAP=ffffffffffffffffffffffffffffffff # the counter wraps after one block
ALGS="aes-128-ecb aes-192-ecb aes-256-ecb aes-128-ctr aes-192-ctr aes-256-ctr"

key_of() {
    case $1 in
    aes-128-*) echo $K128 ;;
    aes-192-*) echo $K192 ;;
    *) echo $K256 ;;
    esac
}

# ---- help, version, list -------------------------------------------------------
if "$B" --help >"$T/out" 2>&1 && grep -q '^usage: cryptopim' "$T/out"; then
    pass cli_help
else
    fail cli_help "--help did not print usage with exit 0"
fi
ok=1
for c in enc dec sha256sum list speed; do
    "$B" $c --help >"$T/out" 2>&1 && grep -q "^usage: cryptopim .*$c" "$T/out" || {
        ok=0
        why="$c --help"
    }
done
[ $ok = 1 ] && pass cli_cmd_help || fail cli_cmd_help "$why did not print its usage"
if "$B" --version | grep -Eq '^cryptopim [0-9]+\.[0-9]+'; then
    pass cli_version
else
    fail cli_version "--version printed '$("$B" --version 2>&1)'"
fi
"$B" frobnicate >/dev/null 2>"$T/err"
rc=$?
[ $rc = 2 ] && grep -q '^cryptopim: ' "$T/err" && pass cli_unknown_command ||
    fail cli_unknown_command "exit $rc, stderr '$(cat "$T/err")'"

"$B" list >"$T/list" 2>"$T/err"
rc=$?
if [ $rc = 0 ] && awk '$2 != "available" && $2 != "unavailable" { bad = 1 } END { exit bad }' \
    "$T/list" && awk '$1 == "cpu" && $2 == "available" { ok = 1 } END { exit !ok }' "$T/list"; then
    pass cli_list
else
    fail cli_list "exit $rc; output: $(cat "$T/list" "$T/err" | tr '\n' '|')"
fi
BACKENDS=$(awk '$2 == "available" { print $1 }' "$T/list")
UNAVAILABLE=$(awk '$2 == "unavailable" { print $1; exit }' "$T/list")
[ -n "$BACKENDS" ] || BACKENDS=cpu

# ---- enc/dec against openssl, every backend, every algorithm -----------------------
D=$T/data
mkdir -p "$D"
for n in 0 1 15 16 17 32 4096 1048576 1048579; do
    head -c $n /dev/urandom >"$D/r$n"
done

if ! have openssl; then
    skip cli_encdec_openssl "no openssl binary"
else
    for be in $BACKENDS; do
        for alg in $ALGS; do
            name="cli_encdec_${be}_$alg"
            key=$(key_of $alg)
            case $alg in
            *-ctr) sizes="0 1 15 16 17 1048579"; ivopt="--iv $IV"; oiv="-iv $IV" ;;
            *) sizes="0 16 32 4096 1048576"; ivopt=; oiv= ;;
            esac
            why=
            for n in $sizes; do
                in=$D/r$n
                openssl enc -$alg -K $key $oiv -nosalt -nopad -in "$in" -out "$T/ref" 2>/dev/null ||
                    { why="openssl failed on $n bytes"; break; }
                if ! "$B" enc -a $alg -K $key $ivopt --backend $be -i "$in" -o "$T/c" 2>"$T/err"; then
                    # a backend that does not provide this mode says so: skip it
                    grep -q 'not supported' "$T/err" && { why=unsupported; break; }
                    why="enc failed on $n bytes: $(cat "$T/err")"
                    break
                fi
                cmp -s "$T/ref" "$T/c" || { why="enc differs from openssl on $n bytes"; break; }
                "$B" dec -a $alg -K $key $ivopt --backend $be -i "$T/c" -o "$T/p" 2>"$T/err" ||
                    { why="dec failed on $n bytes: $(cat "$T/err")"; break; }
                cmp -s "$in" "$T/p" || { why="round trip differs on $n bytes"; break; }
                openssl enc -d -$alg -K $key $oiv -nosalt -nopad -in "$T/c" -out "$T/p2" 2>/dev/null
                cmp -s "$in" "$T/p2" || { why="openssl cannot decrypt ours on $n bytes"; break; }
            done
            if [ "$why" = unsupported ]; then
                skip "$name" "backend does not provide $alg"
            elif [ -z "$why" ]; then
                pass "$name"
            else
                fail "$name" "$why"
            fi
        done
        # stdin/stdout, with small chunks so CTR crosses chunk borders
        name="cli_stream_$be"
        why=
        for alg in aes-128-ctr aes-256-ecb; do
            key=$(key_of $alg)
            case $alg in
            *-ctr) ivopt="--iv $IV"; oiv="-iv $IV"; in=$D/r1048579 ;;
            *) ivopt=; oiv=; in=$D/r1048576 ;;
            esac
            openssl enc -$alg -K $key $oiv -nosalt -nopad -in "$in" -out "$T/ref" 2>/dev/null
            CRYPTOPIM_CHUNK=4096 "$B" enc -a $alg -K $key $ivopt --backend $be <"$in" >"$T/c" \
                2>"$T/err" || { grep -q 'not supported' "$T/err" || why="$alg: $(cat "$T/err")"; continue; }
            cmp -s "$T/ref" "$T/c" || why="$why $alg differs"
            cat "$T/c" | "$B" dec -a $alg -K $key $ivopt --backend $be -i - -o - >"$T/p" 2>&1
            cmp -s "$in" "$T/p" || why="$why $alg round trip differs"
        done
        [ -z "$why" ] && pass "$name" || fail "$name" "$why"
        # CTR counter blocks whose low bytes carry at different block counts
        name="cli_ctr_carry_$be"
        why=
        for iv in f0f1f2f3f4f5f6f70000000000000000 0000000000000000fffffffffffff000 \
            00000000000000000000000000000001; do
            openssl enc -aes-128-ctr -K $K128 -iv $iv -nosalt -nopad -in "$D/r1048579" -out "$T/ref"
            "$B" enc -a aes-128-ctr -K $K128 --iv $iv --backend $be -i "$D/r1048579" -o "$T/c" \
                2>"$T/err" || { grep -q 'not supported' "$T/err" || why="$why $(cat "$T/err")"; continue; }
            cmp -s "$T/ref" "$T/c" || why="$why iv $iv: $(cmp "$T/ref" "$T/c" 2>&1 | sed 's/.*: //');"
        done
        [ -z "$why" ] && pass "$name" || fail "$name" "differs from openssl:$why"
    done

    # CTR: the 128-bit counter wraps like openssl's
    openssl enc -aes-128-ctr -K $K128 -iv $IVWRAP -nosalt -nopad -in "$D/r4096" -out "$T/ref"
    "$B" enc -a aes-128-ctr -K $K128 --iv $IVWRAP -i "$D/r4096" -o "$T/c" 2>"$T/err"
    cmp -s "$T/ref" "$T/c" && pass cli_ctr_counter_wrap || fail cli_ctr_counter_wrap \
        "differs from openssl when the counter wraps $(cat "$T/err")"

    # --key-file: hex text, whitespace and newlines tolerated
    printf '0001 0203 0405 0607\n\t08090a0b0c0d0e0f\r\n\n' >"$T/key"
    openssl enc -aes-128-ctr -K $K128 -iv $IV -nosalt -nopad -in "$D/r17" -out "$T/ref"
    "$B" enc -a aes-128-ctr --key-file "$T/key" --iv $IV -i "$D/r17" -o "$T/c" 2>"$T/err"
    cmp -s "$T/ref" "$T/c" && pass cli_key_file || fail cli_key_file "$(cat "$T/err")"

    # an existing OUT is replaced, and may be the input itself
    cp "$D/r4096" "$T/same"
    openssl enc -aes-128-ecb -K $K128 -nosalt -nopad -in "$T/same" -out "$T/ref"
    "$B" enc -a aes-128-ecb -K $K128 -i "$T/same" -o "$T/same" 2>"$T/err"
    cmp -s "$T/ref" "$T/same" && pass cli_out_is_in || fail cli_out_is_in "$(cat "$T/err")"
fi

# ---- XTS against OpenSSL's EVP XTS per data unit (tests/xts_ref.c) ----------------
# `openssl enc` refuses XTS, so the reference is a small EVP program built next
# to the binary (build/tests/xts-ref; only when OpenSSL's headers were there).
KX256=$K256                                   # AES-128-XTS: key1 || key2
KX512=${K256}202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f
XREF=$(dirname "$B")/tests/xts-ref
head -c 1049000 /dev/urandom >"$D/r1049000" # 2048 x 512 + 424: a short last sector
head -c 33 /dev/urandom >"$D/r33"
if [ ! -x "$XREF" ]; then
    skip cli_xts_evp "no $XREF (built only with OpenSSL's headers)"
else
    for be in $BACKENDS; do
        name="cli_xts_$be"
        why=
        # ALG SECTOR_SIZE START FILE
        for c in "aes-128-xts 512 0 r1049000" "aes-256-xts 4096 123456789 r1049000" \
            "aes-128-xts 512 18446744073709551615 r4096" "aes-256-xts 17 5 r33" \
            "aes-128-xts 512 3 r17" "aes-256-xts 512 0 r0"; do
            set -- $c
            case $1 in aes-128-xts) key=$KX256 ;; *) key=$KX512 ;; esac
            opt="--sector-size $2 --sector $3"
            [ $2 = 512 ] && [ $3 = 0 ] && opt= # the defaults
            "$XREF" enc $key $2 $3 "$D/$4" "$T/ref" || { why="xts-ref failed"; break; }
            if ! "$B" enc -a $1 -K $key $opt --backend $be -i "$D/$4" -o "$T/c" 2>"$T/err"; then
                grep -q 'not supported' "$T/err" && { why=unsupported; break; }
                why="enc $c failed: $(cat "$T/err")"
                break
            fi
            cmp -s "$T/ref" "$T/c" || { why="enc $c differs from OpenSSL EVP"; break; }
            "$B" dec -a $1 -K $key $opt --backend $be -i "$T/c" -o "$T/p" 2>"$T/err" ||
                { why="dec $c failed: $(cat "$T/err")"; break; }
            cmp -s "$D/$4" "$T/p" || { why="round trip of $c differs"; break; }
        done
        # stdin/stdout in 4 KiB chunks: the sector number runs on across calls
        if [ -z "$why" ]; then
            "$XREF" enc $KX512 512 77 "$D/r1049000" "$T/ref"
            CRYPTOPIM_CHUNK=4096 "$B" enc -a aes-256-xts -K $KX512 --sector 77 --backend $be \
                <"$D/r1049000" >"$T/c" 2>"$T/err" || why="stream: $(cat "$T/err")"
            [ -n "$why" ] || cmp -s "$T/ref" "$T/c" || why="stream differs from OpenSSL EVP"
        fi
        if [ "$why" = unsupported ]; then
            skip "$name" "backend does not provide XTS"
        elif [ -z "$why" ]; then
            pass "$name"
        else
            fail "$name" "$why"
        fi
    done
fi

# ---- bad input: exit 2, one message on stderr, no output left, no key echoed ------
W=$T/bad
mkdir -p "$W"
head -c 17 /dev/urandom >"$T/r17"
head -c 33 /dev/urandom >"$T/r33"
printf 'zz01\n' >"$T/badkey"
# bad NAME [ENV=V] -- ARGS...: runs `cryptopim ARGS -o $W/out` in an empty folder
bad() {
    name=cli_bad_$1
    shift
    envs=
    while [ "$1" != -- ]; do
        envs="$envs $1"
        shift
    done
    shift
    rm -rf "$W" && mkdir -p "$W"
    # stdin is a pipe, so that enc cannot see the input's size in advance
    (cd "$W" && cat "${bad_in:-/dev/null}" | env $envs "$B" "$@" -o "$W/out" >"$T/bad.out" \
        2>"$T/bad.err")
    rc=$?
    left=$(ls -A "$W")
    if [ $rc != 2 ]; then
        fail $name "exit status $rc, expected 2 ($(cat "$T/bad.err"))"
    elif ! grep -q '^cryptopim: ' "$T/bad.err" || [ "$(wc -l <"$T/bad.err")" -ne 1 ]; then
        fail $name "expected one 'cryptopim: ...' line on stderr, got '$(cat "$T/bad.err")'"
    elif [ -n "$left" ]; then
        fail $name "left files behind: $left"
    elif grep -qi -e "$K128" -e "0405060708090a0b" "$T/bad.err"; then
        fail $name "key material in the error message"
    else
        pass $name
    fi
}
bad unknown_alg -- enc -a aes-128-cbc -K $K128 -i "$T/r17"
head -c 520 /dev/urandom >"$T/r520"
bad xts_weak_key -- enc -a aes-128-xts -K $K128$K128 -i "$T/r33"
bad xts_key_128_for_256 -- enc -a aes-256-xts -K $K256 -i "$T/r33"
bad xts_sector_size_15 -- enc -a aes-128-xts -K $K256 --sector-size 15 -i "$T/r33"
bad xts_sector_size_huge -- enc -a aes-128-xts -K $K256 --sector-size 16777217 -i "$T/r33"
bad xts_sector_not_number -- enc -a aes-128-xts -K $K256 --sector -1 -i "$T/r33"
bad xts_sector_for_ecb -- enc -a aes-128-ecb -K $K128 --sector 1 -i "$T/r33"
bad_in=$T/r520
bad xts_short_last_sector -- enc -a aes-128-xts -K $K256
bad_in=
bad xts_short_last_sector_file -- enc -a aes-128-xts -K $K256 -i "$T/r520"
bad missing_alg -- enc -K $K128 -i "$T/r17"
bad key_short -- enc -a aes-128-ecb -K 000102030405060708090a0b0c0d0e -i "$T/r33"
bad key_long -- enc -a aes-128-ctr -K ${K128}00 --iv $IV -i "$T/r17"
bad key_192_for_256 -- enc -a aes-256-ctr -K $K192 --iv $IV -i "$T/r17"
bad key_not_hex -- enc -a aes-128-ctr -K ${K128%??}zz --iv $IV -i "$T/r17"
bad key_odd -- enc -a aes-128-ctr -K ${K128}0 --iv $IV -i "$T/r17"
bad key_missing -- enc -a aes-128-ctr --iv $IV -i "$T/r17"
bad key_both -- enc -a aes-128-ctr -K $K128 --key-file "$T/key" --iv $IV -i "$T/r17"
bad key_file_missing -- enc -a aes-128-ctr --key-file "$T/nokey" --iv $IV -i "$T/r17"
bad key_file_not_hex -- enc -a aes-128-ctr --key-file "$T/badkey" --iv $IV -i "$T/r17"
bad iv_missing_ctr -- enc -a aes-128-ctr -K $K128 -i "$T/r17"
bad iv_for_ecb -- enc -a aes-128-ecb -K $K128 --iv $IV -i "$T/r33"
bad iv_short -- dec -a aes-128-ctr -K $K128 --iv f0f1 -i "$T/r17"
bad iv_not_hex -- dec -a aes-128-ctr -K $K128 --iv ${IV%??}xx -i "$T/r17"
bad ecb_not_multiple -- enc -a aes-128-ecb -K $K128 -i "$T/r17"
bad ecb_not_multiple_dec -- dec -a aes-192-ecb -K $K192 -i "$T/r33"
# 33 bytes through 16-byte chunks: two chunks are written before the error
bad_in=$T/r33
bad ecb_not_multiple_stream CRYPTOPIM_CHUNK=16 -- enc -a aes-128-ecb -K $K128 -i -
bad_in=
bad input_missing -- enc -a aes-128-ctr -K $K128 --iv $IV -i "$T/nosuch"
bad input_is_dir -- enc -a aes-128-ctr -K $K128 --iv $IV -i "$T"
bad unknown_backend -- enc -a aes-128-ctr -K $K128 --iv $IV --backend nosuch -i "$T/r17"
bad unknown_option -- enc -a aes-128-ctr -K $K128 --iv $IV --frob -i "$T/r17"
bad dpus_and_ranks -- enc -a aes-128-ctr -K $K128 --iv $IV --dpus 4 --ranks 1 -i "$T/r17"
bad tasklets_range -- enc -a aes-128-ctr -K $K128 --iv $IV --tasklets 25 -i "$T/r17"
bad mode_unknown -- enc -a aes-128-ctr -K $K128 --iv $IV --mode fast -i "$T/r17"
if [ -n "$UNAVAILABLE" ]; then
    bad unavailable_backend -- enc -a aes-128-ctr -K $K128 --iv $IV --backend $UNAVAILABLE \
        -i "$T/r17"
else
    skip cli_bad_unavailable_backend "every backend is available here"
fi
# unwritable output: a folder that does not exist
"$B" enc -a aes-128-ctr -K $K128 --iv $IV -i "$T/r17" -o "$T/nodir/out" 2>"$T/err"
rc=$?
[ $rc = 2 ] && grep -q 'cannot write' "$T/err" && pass cli_bad_output_dir ||
    fail cli_bad_output_dir "exit $rc, stderr '$(cat "$T/err")'"
# a failed write stops the pipeline even while the input never ends: the reader
# thread, blocked on the endless pipe, is woken (exit 2 at once, not a hang)
if [ -w /dev/full ]; then
    (yes | timeout 60 "$B" enc -a aes-128-ctr -K $K128 --iv $IV >/dev/full 2>"$T/err")
    rc=$?
    [ $rc = 2 ] && grep -q 'cannot write standard output' "$T/err" && pass cli_write_error_stops ||
        fail cli_write_error_stops "exit $rc (124: it hung), $(cat "$T/err")"
else
    skip cli_write_error_stops "no /dev/full"
fi
# an existing OUT survives a failed run untouched
printf keep >"$T/keep"
"$B" enc -a aes-128-ecb -K $K128 -i "$T/r17" -o "$T/keep" 2>/dev/null
[ "$(cat "$T/keep")" = keep ] && [ "$(ls -A "$T" | grep -c cryptopim-tmp)" = 0 ] &&
    pass cli_bad_keeps_old_output || fail cli_bad_keeps_old_output "OUT was changed or a temp left"

# ---- -o OUT: written like openssl's -out, never left half-written ------------------
O=$T/outs
mkdir -p "$O"
ENC="$B enc -a aes-128-ctr -K $K128 --iv $IV"
$ENC -i "$D/r4096" -o "$O/ref" 2>"$T/err" || fail cli_out_ref "$(cat "$T/err")"
# inode:links:owner:mode of a file
ident() { stat -c '%i:%h:%u:%g:%a' "$1"; }
# what a replaced single-link file keeps (its inode number may change: the
# output is renamed over it)
attrs() { stat -c '%h:%u:%g:%a' "$1"; }
no_temp() { [ -z "$(find "$O" -name '.cryptopim-tmp-*')" ]; }

$ENC -i "$D/r4096" -o /dev/null 2>"$T/err" && [ -c /dev/null ] && [ ! -s "$T/err" ] &&
    pass cli_out_char_device || fail cli_out_char_device "$(cat "$T/err"; ls -l /dev/null)"

# a FIFO is written to, not renamed over: its reader gets every byte
mkfifo "$O/fifo"
timeout 20 cat "$O/fifo" >"$O/fifo.got" &
reader=$!
timeout 20 $ENC -i "$D/r4096" -o "$O/fifo" 2>"$T/err"
rc=$?
wait $reader
[ $rc = 0 ] && [ -p "$O/fifo" ] && cmp -s "$O/ref" "$O/fifo.got" && pass cli_out_fifo ||
    fail cli_out_fifo "exit $rc, $(cat "$T/err"), $(ls -l "$O/fifo" "$O/fifo.got")"

# /dev/stdout onto a regular file and onto a pipe
$ENC -i "$D/r4096" -o /dev/stdout >"$O/stdout.got" 2>"$T/err" &&
    cmp -s "$O/ref" "$O/stdout.got" && $ENC -i "$D/r4096" -o /dev/stdout 2>>"$T/err" |
    cat >"$O/pipe.got" && cmp -s "$O/ref" "$O/pipe.got" && pass cli_out_dev_stdout ||
    fail cli_out_dev_stdout "$(cat "$T/err")"

# as another user (the reported failure: the temporary file went to /dev)
if [ "$(id -u)" = 0 ] && have setpriv; then
    setpriv --reuid=65534 --regid=65534 --clear-groups sh -c \
        "$ENC -o /dev/null && $ENC -o /dev/stdout | cat >/dev/null" <"$D/r4096" 2>"$T/err" &&
        pass cli_out_devices_unprivileged || fail cli_out_devices_unprivileged "$(cat "$T/err")"
else
    skip cli_out_devices_unprivileged "needs root and setpriv to switch users"
fi

# a symbolic link is followed: the link stays, its target gets the content
printf old >"$O/target"
ln -s target "$O/link"
$ENC -i "$D/r4096" -o "$O/link" 2>"$T/err"
[ -L "$O/link" ] && [ "$(readlink "$O/link")" = target ] && cmp -s "$O/ref" "$O/target" &&
    pass cli_out_symlink_kept || fail cli_out_symlink_kept "$(cat "$T/err"; ls -l "$O")"
ln -s nothere "$O/dangling"
$ENC -i "$D/r4096" -o "$O/dangling" 2>"$T/err"
rc=$?
[ $rc = 2 ] && [ -L "$O/dangling" ] && [ ! -e "$O/nothere" ] && grep -q 'symbolic link' "$T/err" &&
    pass cli_out_dangling_symlink_refused ||
    fail cli_out_dangling_symlink_refused "exit $rc, $(cat "$T/err")"

# a hard link stays one file: same inode, both names see the new content
printf old >"$O/h1"
ln "$O/h1" "$O/h2"
before=$(ident "$O/h1")
$ENC -i "$D/r4096" -o "$O/h2" 2>"$T/err"
[ "$(ident "$O/h1")" = "$before" ] && [ "$(ident "$O/h2")" = "$before" ] &&
    cmp -s "$O/ref" "$O/h1" && pass cli_out_hardlink_kept ||
    fail cli_out_hardlink_kept "$before -> $(ident "$O/h1") / $(ident "$O/h2") $(cat "$T/err")"

# owner, group and mode stay (as root: a file of another user; else our own)
printf 'old content, longer than nothing' >"$O/owned"
chmod 0640 "$O/owned"
[ "$(id -u)" = 0 ] && chown 65534:65534 "$O/owned"
before=$(attrs "$O/owned")
$ENC -i "$D/r4096" -o "$O/owned" 2>"$T/err"
[ "$(attrs "$O/owned")" = "$before" ] && cmp -s "$O/ref" "$O/owned" && pass cli_out_owner_mode_kept ||
    fail cli_out_owner_mode_kept "$before -> $(attrs "$O/owned") $(cat "$T/err")"
# a shorter output shrinks the file to its length
$ENC -i "$D/r17" -o "$O/owned" 2>"$T/err"
$ENC -i "$D/r17" -o "$O/ref17" 2>>"$T/err"
cmp -s "$O/ref17" "$O/owned" && [ "$(attrs "$O/owned")" = "$before" ] && pass cli_out_shrinks ||
    fail cli_out_shrinks "$(cat "$T/err")"

# a read-only file is refused, even for root (which the permission bits do not stop)
printf old >"$O/ro"
chmod 0444 "$O/ro"
before=$(ident "$O/ro")
$ENC -i "$D/r4096" -o "$O/ro" 2>"$T/err"
rc=$?
[ $rc = 2 ] && [ "$(cat "$O/ro")" = old ] && [ "$(ident "$O/ro")" = "$before" ] &&
    grep -q 'read-only' "$T/err" && no_temp && pass cli_out_readonly_refused ||
    fail cli_out_readonly_refused "exit $rc, $before -> $(ident "$O/ro"), $(cat "$T/err")"

# failures after output was produced leave the old content, inode, links and no temp file
printf old >"$O/f1"
ln "$O/f1" "$O/f2"
ln -s f1 "$O/flink"
before=$(ident "$O/f1")
why=
for out in f1 f2 flink; do
    head -c 33 /dev/urandom | CRYPTOPIM_CHUNK=16 "$B" enc -a aes-128-ecb -K $K128 -o "$O/$out" \
        2>"$T/err"
    rc=$?
    [ $rc = 2 ] && [ "$(cat "$O/f1")" = old ] && [ "$(ident "$O/f1")" = "$before" ] && no_temp ||
        why="$why $out: exit $rc, $(ident "$O/f1"), $(cat "$T/err");"
done
[ -L "$O/flink" ] || why="$why the link was replaced"
[ -z "$why" ] && pass cli_out_failure_keeps_old || fail cli_out_failure_keeps_old "$why"

# OUT is checked before any input is read: a folder fails at once, with stdin still open
mkfifo "$O/in.fifo"
exec 3<>"$O/in.fifo"
timeout 10 $ENC -o "$O" <"$O/in.fifo" 2>"$T/err"
rc=$?
exec 3>&-
[ $rc = 2 ] && grep -q 'Is a directory' "$T/err" && pass cli_out_dir_checked_first ||
    fail cli_out_dir_checked_first "exit $rc (124: it waited for the input), $(cat "$T/err")"

# ---- signals: an interrupted enc leaves no temporary file ----------------------------
# sig_run SIG [WRAPPER...]: runs enc on a FIFO that stays open (so enc is blocked
# reading, with output already in its temporary file), sends SIG, closes the input;
# sets rc to enc's exit status and left to any temporary file left.
sig_run() {
    sig=$1
    shift
    rm -f "$O/sig.fifo" "$O/sig.out" "$O"/.cryptopim-tmp-*
    mkfifo "$O/sig.fifo"
    exec 3<>"$O/sig.fifo"
    # (3>&-: enc must not hold the FIFO's write end itself, or it never sees its end)
    (cd "$O" && CRYPTOPIM_CHUNK=4096 exec "$@" $ENC -i sig.fifo -o sig.out 2>/dev/null 3>&-) &
    pid=$!
    head -c 65536 /dev/urandom >&3
    n=0
    while no_temp && [ $n -lt 100 ]; do
        sleep 0.05
        n=$((n + 1))
    done
    sleep 0.2 # let it process what it was given and block in read()
    kill -s $sig $pid 2>/dev/null
    sleep 0.2
    exec 3>&-
    wait $pid
    rc=$?
    left=$(find "$O" -name '.cryptopim-tmp-*')
}
ulimit -c 0 2>/dev/null # SIGQUIT, SIGXCPU, SIGXFSZ dump core by default
why=
for sig in HUP INT QUIT TERM PIPE ALRM USR1 USR2 XCPU XFSZ VTALRM PROF; do
    # a background job inherits SIGINT/SIGQUIT ignored from this shell: reset them
    sig_run $sig env --default-signal=INT,QUIT
    got=$([ $rc -gt 128 ] && kill -l $rc)
    [ "$got" = $sig ] && [ -z "$left" ] && [ ! -e "$O/sig.out" ] ||
        why="$why $sig: exit $rc ($got), left '$left';"
done
[ -z "$why" ] && pass cli_signal_cleanup || fail cli_signal_cleanup "$why"
# an inherited ignore (nohup) is kept: SIGHUP does not end it, and it finishes
sig_run HUP nohup
[ $rc = 0 ] && [ -z "$left" ] && [ -s "$O/sig.out" ] && pass cli_signal_nohup_kept ||
    fail cli_signal_nohup_kept "exit $rc, left '$left'"
rm -f "$O"/nohup.out

# ---- arguments that may be keys are never echoed ----------------------------------
KEYLIKE=00112233445566778899aabbccddeeff
why=
for args in "-a aes-128-ctr $KEYLIKE" "-a aes-128-ctr --key$KEYLIKE" "-a $KEYLIKE" \
    "-a aes-128-ctr --threads $KEYLIKE" "-a aes-128-ctr --mode $KEYLIKE" \
    "-a aes-128-ctr -K $K128 --iv $IV --backend $KEYLIKE"; do
    "$B" enc $args -i "$D/r17" -o "$O/x" 2>"$T/err"
    rc=$?
    { [ $rc = 2 ] && ! grep -qi 8899aabb "$T/err"; } || why="$why [$args]: exit $rc $(cat "$T/err");"
done
for cmd in list speed bench; do
    "$B" $cmd $KEYLIKE --$KEYLIKE >/dev/null 2>"$T/err"
    rc=$?
    { [ $rc = 2 ] && ! grep -qi 8899aabb "$T/err"; } || why="$why [$cmd]: exit $rc $(cat "$T/err");"
done
"$B" enc -a aes-128-ctr -K $K128 --iv $IV stray 2>"$T/err"
grep -q 'unexpected operand (argument 8;' "$T/err" || why="$why operand not cited: $(cat "$T/err")"
[ -z "$why" ] && pass cli_no_key_echo || fail cli_no_key_echo "$why"

# bench: an output folder that cannot be made is exit 2, before any experiment runs
"$B" bench --experiment roofline --quick --out "$T/nodir/results" >/dev/null 2>"$T/err"
rc=$?
[ $rc = 2 ] && grep -q 'cannot create the output folder' "$T/err" && pass cli_bench_bad_out ||
    fail cli_bench_bad_out "exit $rc, $(cat "$T/err")"

# bench: a list of experiments names each item; an unknown or empty one is exit 2 naming it
why=
for list in "roofline,nope" "roofline,,weak" "all,weak" "roofline,"; do
    "$B" bench --experiment "$list" --quick --out "$T/blist" >/dev/null 2>"$T/err"
    rc=$?
    { [ $rc = 2 ] && grep -q "unknown experiment" "$T/err"; } || why="$why [$list]: exit $rc $(cat "$T/err");"
    [ "$list" = "roofline,nope" ] && ! grep -q "'nope'\|nope" "$T/err" && why="$why [$list] not named;"
done
[ -z "$why" ] && [ ! -e "$T/blist/roofline.csv" ] && pass cli_bench_list_usage ||
    fail cli_bench_list_usage "$why"

# ---- sha256sum ----------------------------------------------------------------------
S=$T/sums
mkdir -p "$S"
: >"$S/empty"
printf 'abc' >"$S/abc"
head -c 100000 /dev/urandom >"$S/rand"
head -c 70000 /dev/urandom >"$S/with space"
printf x >"$S/back\\slash"
if ! have sha256sum; then
    skip cli_sha256sum "no coreutils sha256sum binary"
else
    cd "$S" || exit 0
    FILES="empty abc rand"
    sha256sum $FILES "with space" "back\\slash" >"$T/ref" 2>/dev/null
    for be in $BACKENDS; do
        name=cli_sha256sum_$be
        "$B" sha256sum --backend $be $FILES "with space" "back\\slash" >"$T/got" 2>"$T/err"
        rc=$?
        if [ $rc = 2 ] && grep -q 'does not provide SHA-256' "$T/err"; then
            skip $name "backend does not provide SHA-256"
        elif [ $rc != 0 ] || ! cmp -s "$T/ref" "$T/got"; then
            fail $name "exit $rc, differs from coreutils: $(diff "$T/ref" "$T/got" | head -3) $(cat "$T/err")"
        else
            pass $name
        fi
    done

    # a missing file: reported like coreutils, the rest still hashed, exit 1
    sha256sum empty missing rand >"$T/ref" 2>"$T/referr"
    "$B" sha256sum empty missing rand >"$T/got" 2>"$T/err"
    rc=$?
    if [ $rc = 1 ] && cmp -s "$T/ref" "$T/got" &&
        [ "$(sed 's/^sha256sum:/cryptopim:/' "$T/referr")" = "$(cat "$T/err")" ]; then
        pass cli_sha256sum_missing
    else
        fail cli_sha256sum_missing "exit $rc; stderr '$(cat "$T/err")'; $(diff "$T/ref" "$T/got" | head -3)"
    fi

    # standard input, `-`, and no FILE at all
    printf 'abc' | sha256sum >"$T/ref"
    printf 'abc' | "$B" sha256sum >"$T/got" 2>&1
    printf 'abc' | "$B" sha256sum - >"$T/got2" 2>&1
    cmp -s "$T/ref" "$T/got" && cmp -s "$T/ref" "$T/got2" && pass cli_sha256sum_stdin ||
        fail cli_sha256sum_stdin "$(cat "$T/got")"

    # a tiny memory budget: every file alone, one larger than the budget
    sha256sum $FILES >"$T/ref"
    CRYPTOPIM_BATCH_BYTES=4096 "$B" sha256sum $FILES >"$T/got" 2>&1
    cmp -s "$T/ref" "$T/got" && pass cli_sha256sum_budget ||
        fail cli_sha256sum_budget "$(diff "$T/ref" "$T/got" | head -3)"

    # binary marker and --tag
    sha256sum -b abc >"$T/ref"
    sha256sum --tag abc >>"$T/ref"
    "$B" sha256sum -b abc >"$T/got" 2>&1
    "$B" sha256sum --tag abc >>"$T/got" 2>&1
    cmp -s "$T/ref" "$T/got" && pass cli_sha256sum_markers ||
        fail cli_sha256sum_markers "$(diff "$T/ref" "$T/got" | head -4)"

    # -c: all OK
    sha256sum $FILES "with space" "back\\slash" >"$T/list"
    sha256sum -b abc >>"$T/list"
    sha256sum --tag rand >>"$T/list"
    sha256sum -c "$T/list" >"$T/ref" 2>"$T/referr"
    "$B" sha256sum -c "$T/list" >"$T/got" 2>"$T/err"
    rc=$?
    [ $rc = 0 ] && cmp -s "$T/ref" "$T/got" && [ ! -s "$T/err" ] && pass cli_sha256sum_check_ok ||
        fail cli_sha256sum_check_ok "exit $rc; $(diff "$T/ref" "$T/got" | head -3) $(cat "$T/err")"

    # -c: one FAILED, one missing, one improperly formatted line
    cp rand rand2
    sha256sum abc rand2 >"$T/list2"
    printf 'this is not a checksum line\n' >>"$T/list2"
    echo "$(sha256sum abc | cut -c1-64)  gone" >>"$T/list2"
    printf 'y' >>rand2
    sha256sum -c "$T/list2" >"$T/ref" 2>"$T/referr"
    refrc=$?
    "$B" sha256sum -c "$T/list2" >"$T/got" 2>"$T/err"
    rc=$?
    if [ $rc = 1 ] && [ $refrc = 1 ] && cmp -s "$T/ref" "$T/got" &&
        [ "$(sed 's/^sha256sum:/cryptopim:/' "$T/referr")" = "$(cat "$T/err")" ] &&
        grep -q 'WARNING: 1 computed checksum did NOT match' "$T/err"; then
        pass cli_sha256sum_check_failed
    else
        fail cli_sha256sum_check_failed "exit $rc; stdout diff: $(diff "$T/ref" "$T/got" | tr '\n' '|'); stderr: $(cat "$T/err" | tr '\n' '|')"
    fi

    # -c: a checklist with no valid line, and a missing checklist
    printf 'nothing here\n' >"$T/list3"
    "$B" sha256sum -c "$T/list3" >/dev/null 2>"$T/err"
    rc=$?
    "$B" sha256sum -c "$T/nolist" >/dev/null 2>>"$T/err"
    rc2=$?
    [ $rc = 1 ] && [ $rc2 = 1 ] && grep -q 'no properly formatted' "$T/err" &&
        grep -q 'nolist: No such file' "$T/err" && pass cli_sha256sum_check_badlist ||
        fail cli_sha256sum_check_badlist "exit $rc/$rc2: $(cat "$T/err")"

    "$B" sha256sum --backend nosuch abc >/dev/null 2>"$T/err"
    rc=$?
    [ $rc = 2 ] && grep -q "unknown backend" "$T/err" && pass cli_sha256sum_bad_backend ||
        fail cli_sha256sum_bad_backend "exit $rc: $(cat "$T/err")"
    cd / || exit 0
fi

# ---- speed -----------------------------------------------------------------------------
"$B" speed --quick --csv >"$T/speed" 2>"$T/err"
rc=$?
if [ $rc = 0 ] && [ "$(head -n 1 "$T/speed")" = "op,backend,bytes,threads,clock,seconds,gbps" ] &&
    [ "$(wc -l <"$T/speed")" -ge 4 ] &&
    awk -F, 'NR > 1 && (NF != 7 || ($5 != "measured" && $5 != "modeled") || $6 <= 0) { bad = 1 }
             END { exit bad }' "$T/speed"; then
    pass cli_speed_csv
else
    fail cli_speed_csv "exit $rc: $(head -n 3 "$T/speed" | tr '\n' '|') $(cat "$T/err")"
fi
"$B" speed --quick --backend cpu --compare >"$T/speed" 2>"$T/err"
rc=$?
if [ $rc = 0 ] && grep -q '^op  *backend .*clock' "$T/speed" && grep -q ' measured ' "$T/speed"; then
    pass cli_speed_compare
else
    fail cli_speed_compare "exit $rc (1 = a library's output differs): $(cat "$T/err")"
fi
"$B" speed --quick --backend nosuch >/dev/null 2>"$T/err"
rc=$?
[ $rc = 2 ] && pass cli_speed_bad_backend || fail cli_speed_bad_backend "exit $rc"
finish
