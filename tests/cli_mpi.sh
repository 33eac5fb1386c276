#!/bin/sh
# tests/cli_mpi.sh MPI_BINARY CLI_BINARY -- cryptopim-mpi (
# docs/MPI.md) under `mpirun --oversubscribe -np 2..4` on this machine
# (loopback only: the self and shared-memory transports): enc/dec in every
# mode byte-identical to the single-process `cryptopim` (itself checked
# against OpenSSL by tests/cli.sh and cli_gcm.sh), with ranges that are not
# even (sizes not a multiple of the process count, a partial last block or
# XTS unit, several chunks per process), GCM decrypted on another process
# count than it was encrypted on, the pim backend (each process its own
# virtual machine); sha256sum, -c, -z and standard input against
# coreutils; and the faults: a
# tampered GCM file, a bad input length, a DPU fault on one process (the
# pim backend's failAt hook), and a process killed by SIGKILL -- each fails
# the command with a message from rank 0 and leaves nothing at OUT (nor a
# temporary file next to it); a rank given another key file, IV, input,
# --sector or ntt input than rank 0 (the argument check, mpi/argcheck.h),
# and bad environment knobs, each refused with a message naming it and no
# output; the -K warning; `ntt` batches == `cryptopim ntt` (cpu and pim,
# text and binary) and a bad coefficient refused.  Skipped when mpirun or
# the binary is absent.
# Each mpirun costs ~1-2 s of start-up: the cases are few and small.
. "$(dirname "$0")/lib.sh"
M=$1
B=$2
if ! command -v mpirun >/dev/null 2>&1; then
    skip cli_mpi "mpirun not found (Debian: openmpi-bin libopenmpi-dev)"
    finish
fi
if [ -z "$M" ] || [ ! -x "$M" ] || [ ! -x "$B" ]; then
    skip cli_mpi "cryptopim-mpi not built ('$M'; the Makefile builds it when mpicc is found)"
    finish
fi
case $M in /*) ;; *) M=$(pwd)/$M ;; esac
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
T=$(mktemp -d) || { fail cli_mpi_tmpdir "mktemp -d failed"; finish; }
trap 'rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP
cd "$T" || { fail cli_mpi_tmpdir "cd"; finish; }

# CI runs as root; loopback transports only; no hwloc binding on a shared box.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_hwloc_base_binding_policy=none
export OMPI_MCA_rmaps_base_oversubscribe=1
run() { # run NP ARGS...: mpirun, its noise to err.txt
    np=$1
    shift
    mpirun --oversubscribe -np "$np" "$@" 2>err.txt
}

K=000102030405060708090a0b0c0d0e0f
KX=${K}f0e0d0c0b0a090807060504030201000
IV=00112233445566778899aabbccddeeff
head -c 300007 /dev/urandom >in.bin
head -c 300000 in.bin >in16.bin
echo "additional data" >aad
# chunks of 16 KiB: several per process
export CRYPTOPIM_CHUNK=16384

# same NAME NP CMD ARGS...: cryptopim-mpi on NP processes == cryptopim
# (-o o.mpi / o.ref appended)
same() {
    name=$1 np=$2
    shift 2
    if ! run "$np" "$M" "$@" -o o.mpi --backend cpu; then
        fail "$name" "exited non-zero: $(head -3 err.txt)"
    elif ! "$B" "$@" -o o.ref --backend cpu || ! cmp -s o.mpi o.ref; then
        fail "$name" "$1 on $np processes differs from cryptopim $1"
    else
        pass "$name"
    fi
}
same mpi_ctr 3 enc -a aes-128-ctr -K $K --iv $IV -i in.bin
same mpi_ecb_dec 2 dec -a aes-128-ecb -K $K -i in16.bin
"$B" enc -a aes-128-xts -K $KX --sector-size 4096 --sector 9 -i in.bin -o x.ref
same mpi_xts_dec 4 dec -a aes-128-xts -K $KX --sector-size 4096 --sector 9 -i x.ref
# GCM: encrypted on 2 processes, decrypted on 3 (other ranges, same tag)
same mpi_gcm 2 enc -a aes-128-gcm -K $K --iv 0011223344556677 --aad-file aad -i in.bin
cp o.mpi c.mpi
if run 3 "$M" dec -a aes-128-gcm -K $K --iv 0011223344556677 --aad-file aad -i c.mpi -o p.mpi \
    && cmp -s p.mpi in.bin; then
    pass mpi_gcm_dec
else
    fail mpi_gcm_dec "dec on 3 processes did not give the input back: $(head -3 err.txt)"
fi

# the pim backend: each process its own small virtual machine
P="--backend pim --dpus 2 --pim-profile nrRanks=1,nrDpusPerRank=2"
head -c 40000 in.bin >small.bin
if run 2 "$M" enc -a aes-128-gcm -K $K --iv 001122334455667788990011 -i small.bin -o g.mpi $P \
    --clocks &&
    "$B" enc -a aes-128-gcm -K $K --iv 001122334455667788990011 -i small.bin -o g.ref --backend cpu &&
    cmp -s g.mpi g.ref; then
    if grep -q "rank 1: .* (modeled)" err.txt && grep -q "^  run: .*(modeled = slowest" err.txt &&
        grep -q "^  wall: .*(measured" err.txt; then
        pass mpi_pim_gcm
    else
        fail mpi_pim_gcm "the --clocks report lacks a labelled figure: $(cat err.txt)"
    fi
else
    fail mpi_pim_gcm "GCM on 2 pim processes: $(head -3 err.txt)"
fi

# nothing_at NAME FILE: the run failed, FILE and no temporary next to it
no_output() {
    name=$1 out=$2 what=$3
    if [ -e "$out" ] || ls "$out".cpim-mpi-* >/dev/null 2>&1; then
        fail "$name" "$out (or its temporary file) left behind"
    elif ! grep -q "$what" err.txt; then
        fail "$name" "no clear message ('$what'): $(head -5 err.txt)"
    else
        pass "$name"
    fi
}
cp c.mpi bad.gcm
printf 'X' | dd of=bad.gcm bs=1 seek=200000 conv=notrunc 2>/dev/null
if run 3 "$M" dec -a aes-128-gcm -K $K --iv 0011223344556677 --aad-file aad -i bad.gcm -o t1 \
    --backend cpu; then
    fail mpi_fault_gcm_tag "a tampered GCM file was accepted"
else
    no_output mpi_fault_gcm_tag t1 "authentication failed"
fi
if run 2 "$M" enc -a aes-128-ecb -K $K -i in.bin -o t2 --backend cpu; then
    fail mpi_fault_bad_length "ECB of 300007 bytes accepted"
else
    no_output mpi_fault_bad_length t2 "not a multiple of 16"
fi
# a DPU fault on rank 1 only (failAt=20: a kernel launch, after the probe)
if run 3 sh -c 'p=nrRanks=1,nrDpusPerRank=2; [ "$OMPI_COMM_WORLD_RANK" = 1 ] && p=$p,failAt=20
    exec "$0" enc -a aes-128-ctr -K '$K' --iv '$IV' -i small.bin -o t3 --backend pim --dpus 2 \
        --pim-profile $p' "$M"; then
    fail mpi_fault_dpu "a DPU fault on rank 1 went unnoticed"
else
    no_output mpi_fault_dpu t3 "rank 1 of 3: enc: aes-128-ctr on backend 'pim' failed"
fi
# rank 1 killed with SIGKILL after writing its range (CRYPTOPIM_MPI_KILL_RANK)
if CRYPTOPIM_MPI_KILL_RANK=1 run 2 "$M" enc -a aes-128-ctr -K $K --iv $IV -i in.bin -o t4 \
    --backend cpu; then
    fail mpi_fault_killed "a killed process went unnoticed"
else
    no_output mpi_fault_killed t4 "stopped by a signal"
fi
# rank 0 itself killed: the others remove the temporary file; mpirun names it
if CRYPTOPIM_MPI_KILL_RANK=0 run 2 "$M" enc -a aes-128-ctr -K $K --iv $IV -i in.bin -o t5 \
    --backend cpu; then
    fail mpi_fault_killed_rank0 "a killed rank 0 went unnoticed"
else
    no_output mpi_fault_killed_rank0 t5 "rank 0 .*signal 9"
fi

# Ranks given different values (a wrapper, a stale file on one node): every
# rank checks its key, IV, input and options against rank 0's before any
# output (mpi/argcheck.h); the run fails naming the rank and the part.
# byrank NP ARGS...: ARGS with @R@ replaced by each process's rank
byrank() {
    np=$1
    shift
    run "$np" sh -c 'r=$OMPI_COMM_WORLD_RANK; n=$#; i=0
        while [ $i -lt $n ]; do a=$1; shift; case $a in *@R@*) a=${a%%@R@*}$r${a#*@R@};; esac
            set -- "$@" "$a"; i=$((i + 1)); done
        exec "$0" "$@"' "$M" "$@"
}
printf '%s' $K >key0
printf '%s' 000102030405060708090a0b0c0d0e1f >key1
cp in.bin other0.bin
cp in.bin other1.bin
printf 'Y' | dd of=other1.bin bs=1 seek=5 conv=notrunc 2>/dev/null # same size, other bytes
# mismatch NAME MESSAGE ARGS...: the run must fail with MESSAGE and no t.out
mismatch() {
    name=$1 what=$2
    shift 2
    rm -f t.out
    if byrank 2 "$@" -o t.out --backend cpu; then
        fail "$name" "ranks with different arguments produced an output, exit 0"
    else
        no_output "$name" t.out "$what"
    fi
}
mismatch mpi_mismatch_key "rank 1's key differs from rank 0's" \
    enc -a aes-128-ctr --key-file key@R@ --iv $IV -i in.bin
mismatch mpi_mismatch_iv "rank 1's IV differs from rank 0's" \
    enc -a aes-128-ctr --key-file key0 --iv 00112233445566778899aabbccddee0@R@ -i in.bin
mismatch mpi_mismatch_input "rank 1's input file differs from rank 0's" \
    dec -a aes-128-ctr --key-file key0 --iv $IV -i other@R@.bin
mismatch mpi_mismatch_sector "rank 1's --sector differs from rank 0's" \
    enc -a aes-128-xts -K $KX --sector 1@R@ -i in.bin
# an option only rank 1 refuses: every rank stops (none is left waiting in a
# collective the others never reach), rank 0 prints rank 1's message
rm -f t.out
if timeout 60 sh -c 'mpirun --oversubscribe -np 2 sh -c '"'"'x=; [ "$OMPI_COMM_WORLD_RANK" = 1 ] &&
    x=--bogus; exec "$0" "$@" $x'"'"' "$@" 2>err.txt' sh "$M" enc -a aes-128-ctr --key-file key0 \
    --iv $IV -i in.bin -o t.out --backend cpu; then
    fail mpi_mismatch_parse "an option refused by rank 1 only went unnoticed"
elif [ $? = 124 ]; then
    fail mpi_mismatch_parse "an option refused by rank 1 only hung the run (killed after 60 s)"
else
    no_output mpi_mismatch_parse t.out "rank 1 of 2: enc: unknown option '--bogus'"
fi
# a FIFO as the input: the check of the input's identity must not wait for
# a writer; refused as MPI-IO needs a regular file
mkfifo fifo
rm -f t.out
if timeout 60 sh -c 'mpirun --oversubscribe -np 2 "$@" 2>err.txt' sh "$M" enc -a aes-128-ctr \
    --key-file key0 --iv $IV -i fifo -o t.out --backend cpu; then
    fail mpi_fifo_input "a FIFO input accepted"
elif [ $? = 124 ]; then
    fail mpi_fifo_input "a FIFO input hung the run (killed after 60 s)"
else
    no_output mpi_fifo_input t.out "not a regular file"
fi
# ntt: every rank reads the inputs itself -- here each its own copy (a
# node's local disk), the same name, one number different
mkdir d0 d1
seq 1 1024 >d0/na.txt
sed '5s/.*/7/' d0/na.txt >d1/na.txt
rm -f t.out
if run 2 sh -c 'cd d$OMPI_COMM_WORLD_RANK &&
    exec "$0" ntt forward -n 1024 -q 12289 na.txt -o ../t.out --backend cpu' "$M"; then
    fail mpi_mismatch_ntt "ranks with different ntt inputs produced an output, exit 0"
else
    no_output mpi_mismatch_ntt t.out "rank 1's input data differs from rank 0's"
fi
# -K under MPI: mpirun's own argument list keeps the key; one warning (rank
# 0), none with --key-file
run 2 "$M" enc -a aes-128-ctr -K $K --iv $IV -i in.bin -o w.out --backend cpu
kw=$(grep -c "warning: -K .*--key-file" err.txt)
run 2 "$M" enc -a aes-128-ctr --key-file key0 --iv $IV -i in.bin -o w2.out --backend cpu
fw=$(grep -c "warning: -K" err.txt)
if [ "$kw" = 1 ] && [ "$fw" = 0 ] && cmp -s w.out w2.out; then
    pass mpi_k_warning
else
    fail mpi_k_warning "-K: $kw warnings (want 1), --key-file: $fw (want 0), or outputs differ"
fi
# the environment knobs are input too (the test-only one included): not a
# number, not a rank of the run, not a plain decimal -- each refused by name
knob() { # knob TESTNAME VAR=VALUE MESSAGE
    rm -f t.out
    if env "$2" mpirun --oversubscribe -np 2 "$M" enc -a aes-128-ctr --key-file key0 --iv $IV \
        -i in.bin -o t.out --backend cpu 2>err.txt; then
        fail "$1" "$2 ignored, exit 0"
    elif grep -q "signal" err.txt; then
        fail "$1" "$2 killed a rank: $(head -3 err.txt)"
    else
        no_output "$1" t.out "$3"
    fi
}
knob mpi_kill_rank_abc CRYPTOPIM_MPI_KILL_RANK=abc "CRYPTOPIM_MPI_KILL_RANK='abc': not a number in 0..1"
knob mpi_kill_rank_2 CRYPTOPIM_MPI_KILL_RANK=2 "CRYPTOPIM_MPI_KILL_RANK='2': not a number in 0..1"
knob mpi_chunk_abc CRYPTOPIM_CHUNK=abc "CRYPTOPIM_CHUNK='abc': not a number in 16"
knob mpi_net_gbps_exp CRYPTOPIM_NET_GBPS=1e3 "CRYPTOPIM_NET_GBPS: expected a number in 0.001"

# sha256sum: lines in input order, exit status and messages as coreutils
mkdir f
i=1
while [ $i -le 12 ]; do
    head -c $((i * i * 1999)) in.bin >f/a$i
    i=$((i + 1))
done
: >f/empty
printf x >'f/back\slash'
L="f/a1 f/empty f/a2 f/missing f/a3 f/back\\slash f/a4 f/a5 f/a6 f/a7 f/a8 f/a9 f/a10 f/a11 f/a12"
run 3 "$M" sha256sum $L --backend cpu >m.out
mrc=$?
sha256sum $L >r.out 2>r.err
rrc=$?
if [ $mrc = $rrc ] && cmp -s m.out r.out && grep -q "f/missing: No such file" err.txt; then
    pass mpi_sha256sum
else
    fail mpi_sha256sum "exit $mrc (coreutils $rrc), or lines differ: $(head -3 err.txt)"
fi
sha256sum f/a* f/empty >sums
echo garbage >>sums
echo "0000000000000000000000000000000000000000000000000000000000000000  f/a3" >>sums
run 4 "$M" sha256sum -c sums --backend cpu >m.out
mrc=$?
sha256sum -c sums >r.out 2>r.err
rrc=$?
sed 's/^cryptopim: //' err.txt | grep -v '^[- ]\|^$\|^Primary\|^a non-zero\|^mpirun\|^the job\|^  Process\|^  Exit' >m.err
sed 's/^sha256sum: //' r.err >r2.err
if [ $mrc = $rrc ] && cmp -s m.out r.out && cmp -s m.err r2.err; then
    pass mpi_sha256sum_check
else
    fail mpi_sha256sum_check "exit $mrc (coreutils $rrc), or lines/messages differ: $(cat m.err)"
fi
# -z and standard input (rank 0 reads it; a second - hashes what is left:
# nothing), with the names that -z leaves unescaped; -c - reads the check
# file from standard input
printf 'from stdin' >stdin.txt
run 2 "$M" sha256sum -z f/a1 - 'f/back\slash' f/a2 - --backend cpu <stdin.txt >m.out
mrc=$?
sha256sum -z f/a1 - 'f/back\slash' f/a2 - <stdin.txt >r.out
rrc=$?
if [ $mrc = $rrc ] && cmp -s m.out r.out; then
    pass mpi_sha256sum_zero_stdin
else
    fail mpi_sha256sum_zero_stdin "exit $mrc (coreutils $rrc), or output differs: $(head -3 err.txt)"
fi
run 3 "$M" sha256sum -c --backend cpu <sums >m.out
mrc=$?
sha256sum -c <sums >r.out 2>r.err
rrc=$?
sed 's/^cryptopim: //' err.txt | grep -v '^[- ]\|^$\|^Primary\|^a non-zero\|^mpirun\|^the job\|^  Process\|^  Exit' >m.err
sed 's/^sha256sum: //' r.err >r2.err
if [ $mrc = $rrc ] && cmp -s m.out r.out && cmp -s m.err r2.err; then
    pass mpi_sha256sum_check_stdin
else
    fail mpi_sha256sum_check_stdin "exit $mrc (coreutils $rrc), or lines/messages differ: $(cat m.err)"
fi
# ntt (batches): 5 polynomials of N = 1024 over 2 moduli on 3
# processes (2, 2, 1 polynomials) == `cryptopim ntt`; the pim backend in
# binary on 2 processes; a bad coefficient refused with no output.
poly() { # poly SEED: 5 polynomials x (q = 12289, 40961) x 1024 coefficients
    awk -v s="$1" 'BEGIN { for (i = 0; i < 10240; i++) {
        s = (s * 1103515245 + 12345) % 2147483648
        print int(s / 65536) % ((int(i / 1024) % 2) ? 40961 : 12289) } }'
}
poly 1 >pa.txt
poly 2 >pb.txt
NQ="-n 1024 -q 12289,40961"
if run 3 "$M" ntt mul $NQ pa.txt pb.txt -o n.mpi --backend cpu &&
    "$B" ntt mul $NQ pa.txt pb.txt -o n.ref --backend cpu && cmp -s n.mpi n.ref; then
    pass mpi_ntt_mul
else
    fail mpi_ntt_mul "ntt mul on 3 processes differs from cryptopim ntt: $(head -3 err.txt)"
fi
# the same polynomials as little-endian uint64 words (bytes as bytes: C locale)
LC_ALL=C awk '{ v = $1; for (k = 0; k < 8; k++) { printf "%c", v % 256; v = int(v / 256) } }' \
    pa.txt >pa.bin 2>/dev/null
if run 2 "$M" ntt forward $NQ --binary pa.bin -o nf.mpi --backend pim \
    --pim-profile nrRanks=1,nrDpusPerRank=2 --clocks &&
    "$B" ntt forward $NQ --binary pa.bin -o nf.ref --backend cpu && cmp -s nf.mpi nf.ref &&
    grep -q "(modeled" err.txt; then
    pass mpi_ntt_pim_binary
else
    fail mpi_ntt_pim_binary "binary forward NTT on 2 pim processes: $(head -3 err.txt)"
fi
sed '3s/.*/99999/' pa.txt >pbad.txt
if run 3 "$M" ntt mul $NQ pbad.txt pb.txt -o t6 --backend cpu; then
    fail mpi_ntt_bad_coeff "a coefficient above q accepted"
else
    no_output mpi_ntt_bad_coeff t6 "not below q"
fi
finish
