#!/bin/sh
# tests/cli_sha256sum.sh BINARY -- `cryptopim sha256sum` against coreutils
# sha256sum: every check file of the corpus in tests/sha256sum/ under many
# option sets, the hash output forms, option scanning and misuse, standard
# input.  Each case runs both programs and compares stdout byte for byte,
# stderr with `sha256sum` replaced by `cryptopim` (and the --help hint by
# `cryptopim sha256sum --help`), and the exit status.  Then a few cases on
# the pim backend, and a provoked DPU fault that must be an error naming the
# backend, not a mismatch.  Prints PASS/FAIL/SKIP lines (tests/run.sh
# protocol) through tests/lib.sh.
. "$(dirname "$0")/lib.sh"
B=$1
if [ -z "$B" ] || [ ! -x "$B" ]; then
    fail cli_sha256sum_binary "'$B' is not an executable"
    finish
fi
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
D=$(cd "$(dirname "$0")/sha256sum" && pwd) || {
    fail cli_sha256sum_corpus "tests/sha256sum/ not found"
    finish
}
if ! command -v sha256sum >/dev/null 2>&1; then
    skip cli_sha256sum_coreutils "no coreutils sha256sum binary"
    finish
fi
T=$(mktemp -d) || {
    fail cli_sha256sum_tmpdir "mktemp -d failed"
    finish
}
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
mkdir "$T/w" && cd "$T/w" || finish

# The files the corpus names (hashes in the corpus: sha256 of "abc", of "",
# of "x"); "missing*", "gone*", "it's gone", ... are left absent on purpose.
printf abc >a
: >empty
printf x >"with space"
printf x >'back\slash'
printf abc >"$(printf 'nl\nname')"
printf abc >"$(printf 'cr\rname')"
mkdir subdir

BE="" # extra options for ours: the backend
why=""
# same STDIN ARGS...: runs both programs, sets $why on a difference.
same() {
    in=$1
    shift
    sha256sum "$@" <"$in" >"$T/ref.out" 2>"$T/ref.err"
    refrc=$?
    "$B" sha256sum $BE "$@" <"$in" >"$T/got.out" 2>"$T/got.err"
    rc=$?
    sed -e 's/^sha256sum:/cryptopim:/' \
        -e "s/^Try 'sha256sum --help'/Try 'cryptopim sha256sum --help'/" \
        "$T/ref.err" >"$T/ref.err2"
    if [ $refrc != $rc ]; then
        why="[$*] exit $rc, coreutils $refrc; stderr: $(head -c 300 "$T/got.err" | tr '\n' '|')"
    elif ! cmp -s "$T/ref.out" "$T/got.out"; then
        why="[$*] stdout: $(diff "$T/ref.out" "$T/got.out" | head -c 300 | tr '\n' '|')"
    elif ! cmp -s "$T/ref.err2" "$T/got.err"; then
        why="[$*] stderr: $(diff "$T/ref.err2" "$T/got.err" | head -c 300 | tr '\n' '|')"
    else
        return 0
    fi
    return 1
}
report() { # NAME: PASS if $why is empty
    if [ -z "$why" ]; then pass $1; else fail $1 "$why"; fi
    why=""
}

# ---- every check file x every option set -----------------------------------------
OPTSETS="-c|-c --strict|-c -w|-c --quiet|-c --status|-c --ignore-missing|\
-c --ignore-missing --strict|-c --ignore-missing --quiet|-c -w --strict|-c --status -w|\
-c -w --status|-c --quiet --status --strict|-cw|--check --warn --ignore-missing"
n=0
for f in "$D"/*.sum; do
    n=$((n + 1))
    base=$(basename "$f" .sum)
    old_ifs=$IFS
    IFS='|'
    for opts in $OPTSETS; do
        IFS=$old_ifs
        [ -n "$why" ] || same /dev/null $opts "$f" || true
        IFS='|'
    done
    IFS=$old_ifs
    report "cli_sha256sum_check_$(echo "$base" | tr -c 'a-z0-9\n' '_')"
done
[ $n -ge 20 ] && pass cli_sha256sum_corpus_size ||
    fail cli_sha256sum_corpus_size "only $n check files in $D"

# ---- check files from standard input, and several in one run ----------------------
same "$D/ok.sum" -c || true
[ -n "$why" ] || same "$D/mixed.sum" -c - || true
[ -n "$why" ] || same "$D/crlf.sum" -c --quiet - "$D/ok.sum" || true
report cli_sha256sum_check_stdin
# a line naming "-" hashes standard input, except when the list is stdin
same a -c "$D/stdin-dash.sum" || true
[ -n "$why" ] || same "$D/stdin-dash.sum" -c || true
report cli_sha256sum_check_dash
# the reversed/standard choice carries over to the next check file
same /dev/null -c "$D/reversed.sum" "$D/ok.sum" || true
[ -n "$why" ] || same /dev/null -c "$D/ok.sum" "$D/nonexistent.sum" "$D/mixed.sum" || true
[ -n "$why" ] || same /dev/null -c "$D/directory.sum" subdir "$D/empty.sum" || true
report cli_sha256sum_check_many

# ---- hash output: markers, tags, -z records, escaping, errors ---------------------
NAMES="a empty missing subdir"
for opts in "" "-b" "-t" "--tag" "-z" "--tag -z" "-bz" "-t --tag" "--binary --zero" "--ta"; do
    [ -n "$why" ] || same /dev/null $opts $NAMES "with space" 'back\slash' \
        "$(printf 'nl\nname')" "$(printf 'cr\rname')" "it's gone" "a:b" || true
done
report cli_sha256sum_hash_forms
same a || true
[ -n "$why" ] || same a - || true
[ -n "$why" ] || same a --tag -z - a || true
[ -n "$why" ] || same a -- - a || true
report cli_sha256sum_hash_stdin

# ---- option scanning and misuse (usage errors exit 1, as coreutils) ---------------
for args in "-c --tag a" "--tag -c a" "--tag -t a" "-cz a" "-c -z a" "-bc a" "-ct a" \
    "--status a" "--ignore-missing a" "-w a" "--quiet a" "--strict a" "--warn --quiet a" \
    "--check=x a" "--s a" "--st a" "--che $D/ok.sum" "--frob a" "-x a" "-cwq a" \
    "-c --binary a" "a -c" "-- -c" "--tag=1 a" "--zero=0 a" "--t a" "--ta a"; do
    [ -n "$why" ] || same /dev/null $args || true
done
report cli_sha256sum_options
# the backend options (no coreutils counterpart), abbreviated too
"$B" sha256sum --back=cpu --thr 2 --tag a >"$T/got.out" 2>"$T/got.err" &&
    sha256sum --tag a | cmp -s - "$T/got.out" && pass cli_sha256sum_backend_options ||
    fail cli_sha256sum_backend_options "$(cat "$T/got.err")"
"$B" sha256sum a --backend >/dev/null 2>"$T/got.err"
rc=$?
[ $rc = 1 ] && grep -q "option '--backend' requires an argument" "$T/got.err" &&
    pass cli_sha256sum_backend_no_value ||
    fail cli_sha256sum_backend_no_value "exit $rc: $(cat "$T/got.err")"

# ---- large files: streamed (STREAM_MIN = 1 MiB) in constant memory ------------------
# several files above 1 MiB (17 of them: more than the 16 streams of one batch),
# around chunk borders, mixed with small ones, from standard input, and -c
head -c 3000000 /dev/urandom >big3m
for i in $(seq 1 17); do head -c $((1048577 + i * 100003)) big3m >"bigs$i"; done
same /dev/null a big3m bigs1 bigs2 bigs3 bigs4 bigs5 bigs6 bigs7 bigs8 bigs9 bigs10 bigs11 \
    bigs12 bigs13 bigs14 bigs15 bigs16 bigs17 empty || true
same big3m || true
same big3m - a bigs5 || true
sha256sum big3m bigs1 bigs17 a >"$T/bigs.sum"
same /dev/null -c "$T/bigs.sum" || true
same /dev/null big3m missing-file bigs2 || true
report cli_sha256sum_streamed
# constant memory: a 1 GiB sparse file under a 300 MB address-space limit
# (a whole-file read would need 1 GiB; ulimit -v counts mappings, which the
# virtual UPMEM's MRAM would exceed, so the cpu backend)
if ldd "$B" 2>/dev/null | grep -q 'libasan'; then
    # ASan reserves terabytes of shadow address space at start-up (and its
    # shadow memory and quarantine count in the RSS)
    skip cli_sha256sum_constant_memory "an ASan build cannot start under ulimit -v"
    skip cli_sha256sum_rss "an ASan build's RSS includes its shadow memory"
elif truncate -s 1G sparse 2>/dev/null; then
    got=$( (ulimit -v 300000 && "$B" sha256sum --backend cpu sparse) 2>&1)
    want="49bc20df15e412a64472421e13fe86ff1c5165e18b2afccf160d4dc19fe68a14  sparse"
    [ "$got" = "$want" ] && pass cli_sha256sum_constant_memory ||
        fail cli_sha256sum_constant_memory "under ulimit -v 300000: $got"
    # and its resident set: at most 64 MiB (the slabs are 4 MiB in all) on the
    # default backend, with a few small files in the same run
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f %M -o "$T/rss" "$B" sha256sum a sparse empty >"$T/got.out" 2>"$T/got.err"
        rss=$(tail -n 1 "$T/rss")
        sha256sum a sparse empty | cmp -s - "$T/got.out" && [ "$rss" -le 65536 ] 2>/dev/null &&
            pass cli_sha256sum_rss ||
            fail cli_sha256sum_rss "max RSS '$rss' KiB (limit 65536); $(head -c 300 "$T/got.err")"
    else
        skip cli_sha256sum_rss "no /usr/bin/time (GNU time) to read the maximum RSS"
    fi
    rm -f sparse
else
    skip cli_sha256sum_constant_memory "no sparse files here"
    skip cli_sha256sum_rss "no sparse files here"
fi

# ---- the pim backend (the virtual UPMEM is slow: a few cases) ---------------------
if "$B" list 2>/dev/null | grep -q '^pim *available'; then
    BE="--backend pim"
    same /dev/null -c "$D/ok.sum" || true
    [ -n "$why" ] || same /dev/null -c --strict "$D/mixed.sum" || true
    [ -n "$why" ] || same /dev/null --tag a empty "with space" || true
    # streamed on the DPUs (files above the 1 MiB of a whole read), in rounds of
    # a 256 KiB slab, mixed with small files, and -c
    export CRYPTOPIM_BATCH_BYTES=262144
    [ -n "$why" ] || same /dev/null a bigs1 big3m empty || true
    [ -n "$why" ] || same /dev/null -c "$T/bigs.sum" || true
    unset CRYPTOPIM_BATCH_BYTES
    BE=""
    report cli_sha256sum_pim
    # a DPU fault (instruction watchdog of the virtual UPMEM): an error that
    # names the backend, exit non-zero, and no FAILED line / mismatch count
    # (a file large enough that the DPUs, not the host, hash it)
    head -c 2000000 /dev/urandom >big
    { sha256sum big && cat "$D/ok.sum"; } >"$T/big.sum"
    UPMEM_PROFILE=maxInstructions=1000 "$B" sha256sum --backend pim -c "$T/big.sum" \
        >"$T/got.out" 2>"$T/got.err"
    rc=$?
    if [ $rc = 0 ]; then
        skip cli_sha256sum_pim_fault "maxInstructions=1000 did not provoke a fault"
    elif [ $rc != 1 ] || [ -s "$T/got.out" ] || grep -q 'did NOT match' "$T/got.err" ||
        ! grep -q "on backend 'pim' failed: .*fault" "$T/got.err"; then
        fail cli_sha256sum_pim_fault "exit $rc, stdout '$(head -c 200 "$T/got.out" |
            tr '\n' '|')', stderr '$(tr '\n' '|' <"$T/got.err")'"
    else
        pass cli_sha256sum_pim_fault
    fi
else
    skip cli_sha256sum_pim "pim backend not available"
fi
finish
