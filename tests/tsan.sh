#!/bin/sh
# tests/tsan.sh BUILD-TSAN-DIR -- the CLI with threads under
# ThreadSanitizer (make test-tsan; the build-tsan/ tree, SAN=thread):
#
#   - the CLI's pipeline threads: `enc`/`dec` (tools/iopipe.c: reader, writer)
#     on files of several chunks and through a pipe, `sha256sum`
#     (tools/sums_hash.c: the hasher) on many files, a streamed large file,
#     standard input and -c;
#   - the library's host threads (src/core/parallel.c) under the CLI
#     (--threads=2: AES, SHA-256 and the NTT on the cpu backend);
#   - the pim backend on a small virtual machine in each host mode (the
#     virtual UPMEM's per-rank queues and DPU pool, emu/host/queue.c, pool.c).
# (The unit and emu-host tests that start threads are run by the Makefile.)
#
# Each command's output is checked (against its round trip or coreutils),
# and TSan's reports fail it: TSAN_OPTIONS (from the Makefile) gives them
# exit code 66, and the reports are printed with the failure.  Sizes are
# small: TSan makes the virtual DPU's interpreter some 5-10x slower.
. "$(dirname "$0")/lib.sh"
D=$1
B=$D/cryptopim
if [ ! -x "$B" ]; then
    fail tsan_binary "'$B' is not an executable (make tsan-build)"
    finish
fi
# not a test that cannot fail: the binary must carry TSan's runtime
if nm "$B" 2>/dev/null | grep -q __tsan_init; then
    pass tsan_binary_instrumented
else
    fail tsan_binary_instrumented "$B has no TSan runtime (not a SAN=thread build)"
fi
case $D in /*) ;; *) D=$(pwd)/$D ;; esac
B=$D/cryptopim
T=$(mktemp -d) || { fail tsan_tmpdir "mktemp -d failed"; finish; }
trap 'rm -rf "$T"' EXIT
have() { command -v "$1" >/dev/null 2>&1; }

# run NAME CMD...: runs CMD (its stdout to $T/out), a failure on a non-zero
# exit, with TSan's report (stderr) shown.  Returns CMD's status.
run() {
    _n=$1
    shift
    if "$@" >"$T/out" 2>"$T/err"; then
        return 0
    else
        _rc=$?
        fail "$_n" "exit $_rc: $(grep -m 12 -e 'WARNING: ThreadSanitizer' -e '#[0-9] ' -e 'SUMMARY' \
            -e . "$T/err" | head -n 12 | tr '\n' '|')"
        return $_rc
    fi
}

K=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
K2=202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f
IV=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
head -c 3000017 /dev/urandom >"$T/big"
for f in 0 1 55 64 1000 70000; do head -c $f /dev/urandom >"$T/m$f"; done

# ---- enc/dec: reader and writer threads, the library's threads ----
# 64 KiB chunks: the 3 MB file is 46 chunks through the 4 buffers.
for a in aes-256-ctr aes-256-xts aes-256-gcm; do
    n=tsan_encdec_${a}_file
    case $a in
    *xts) k="-K $K$K2" ;; # XTS: two keys, the tweak from the sector number
    *) k="-K $K --iv $IV" ;;
    esac
    if run $n env CRYPTOPIM_CHUNK=65536 "$B" enc -a $a $k --threads=2 -i "$T/big" -o "$T/c" &&
        run $n env CRYPTOPIM_CHUNK=65536 "$B" dec -a $a $k --threads=2 -i "$T/c" -o "$T/p"; then
        if cmp -s "$T/big" "$T/p"; then pass $n; else fail $n "round trip differs"; fi
    fi
done
# standard input to standard output, through pipes on both sides
n=tsan_encdec_pipe
if cat "$T/big" | CRYPTOPIM_CHUNK=65536 "$B" enc -a aes-256-ctr -K $K --iv $IV --threads=2 \
    2>"$T/err" | CRYPTOPIM_CHUNK=65536 "$B" dec -a aes-256-ctr -K $K --iv $IV 2>>"$T/err" \
    >"$T/p"; then
    if ! cmp -s "$T/big" "$T/p"; then
        fail $n "round trip differs"
    elif [ -s "$T/err" ]; then
        fail $n "$(head -n 12 "$T/err" | tr '\n' '|')"
    else
        pass $n
    fi
else
    fail $n "$(head -n 12 "$T/err" | tr '\n' '|')"
fi

# ---- sha256sum: the hasher thread ----
if have sha256sum; then
    (cd "$T" && sha256sum m0 m1 m55 m64 m1000 m70000 big) >"$T/sref"
    for be in cpu auto; do
        n=tsan_sha256sum_${be}_files
        # small slabs: many groups and streamed rounds through the queue
        if run $n sh -c "cd '$T' && CRYPTOPIM_BATCH_BYTES=65536 '$B' sha256sum --backend $be \
            --threads=2 m0 m1 m55 m64 m1000 m70000 big"; then
            if cmp -s "$T/sref" "$T/out"; then pass $n; else fail $n "differs from coreutils"; fi
        fi
    done
    n=tsan_sha256sum_stdin
    sha256sum <"$T/big" >"$T/sref1"
    if run $n sh -c "cat '$T/big' | '$B' sha256sum --threads=2"; then
        if cmp -s "$T/sref1" "$T/out"; then pass $n; else fail $n "differs from coreutils"; fi
    fi
    n=tsan_sha256sum_check
    if run $n sh -c "cd '$T' && '$B' sha256sum -c sref"; then pass $n; fi
else
    skip tsan_sha256sum "no coreutils sha256sum"
fi

# ---- the NTT on host threads: 3 polynomials x 2 moduli, N = 1024 ----
n=tsan_ntt_threads
awk 'BEGIN { x = 7; for (i = 0; i < 6 * 1024; i++) {
    x = (x * 1103515245 + 12345) % 2147483648; print int(x / 16) % 12289 } }' >"$T/poly"
if run $n "$B" ntt forward -n 1024 -q 12289,2147352577 --threads=2 "$T/poly" -o "$T/f" &&
    run $n "$B" ntt inverse -n 1024 -q 12289,2147352577 --threads=2 "$T/f" -o "$T/r"; then
    if cmp -s "$T/poly" "$T/r"; then pass $n; else fail $n "inverse(forward(a)) differs"; fi
fi

# ---- the pim backend on a small virtual machine, each host mode ----
if ! "$B" list 2>/dev/null | grep -q '^pim *available'; then
    skip tsan_pim "pim backend not available"
else
    head -c 20000 "$T/big" >"$T/small"
    (cd "$T" && sha256sum m0 m1 m55 m1000) >"$T/sref2"
    for mode in sync async-xfer async-exec; do
        n=tsan_pim_$mode
        # encrypted on the DPUs, decrypted on the CPU: a cross-check too
        P="--backend pim --mode $mode --ranks=2 --pim-profile=nrDpusPerRank=2 --tasklets=2"
        if run $n "$B" enc -a aes-128-ctr -K ${K%????????????????????????????????} --iv $IV $P \
            -i "$T/small" -o "$T/c" &&
            run $n "$B" dec -a aes-128-ctr -K ${K%????????????????????????????????} --iv $IV \
                -i "$T/c" -o "$T/p" &&
            run $n sh -c "cd '$T' && '$B' sha256sum $P m0 m1 m55 m1000"; then
            if ! cmp -s "$T/small" "$T/p"; then
                fail $n "round trip differs"
            elif ! cmp -s "$T/sref2" "$T/out"; then
                fail $n "sha256sum differs from coreutils"
            else
                pass $n
            fi
        fi
    done
fi

finish
