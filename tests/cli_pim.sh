#!/bin/sh
# tests/cli_pim.sh BINARY -- the CLI on the pim backend: every host mode and
# DPU/rank/tasklet option against `openssl enc` and coreutils `sha256sum`,
# and a provoked DPU fault (the virtual UPMEM's instruction watchdog through
# UPMEM_PROFILE) that must give a non-zero exit and leave no output file.
# Prints PASS/FAIL/SKIP lines with tests/lib.sh; ends with its `finish`.
. "$(dirname "$0")/lib.sh"
B=$1
if [ -z "$B" ] || [ ! -x "$B" ]; then
    fail cli_pim_binary "'$B' is not an executable"
    finish
fi
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
T=$(mktemp -d) || { fail cli_pim_tmpdir "mktemp -d failed"; finish; }
trap 'rm -rf "$T"' EXIT
have() { command -v "$1" >/dev/null 2>&1; }

if ! "$B" list 2>/dev/null | grep -q '^pim *available'; then
    skip cli_pim "pim backend not available"
    finish
fi
if "$B" list | grep '^pim' | grep -q -e 'virtual UPMEM' -e 'real hardware'; then
    pass cli_pim_list_machine
else
    fail cli_pim_list_machine "list does not say real hardware or virtual UPMEM"
fi

K=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
IV=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff
head -c 100003 /dev/urandom >"$T/in"
head -c 100000 "$T/in" >"$T/in16"
for f in 0 1 55 64 1000 70000; do head -c $f /dev/urandom >"$T/m$f"; done
OPTS_LIST="--dpus=5 --tasklets=3|--ranks=2 --tasklets=16|--dpus=64 --tasklets=11"
for mode in sync async-xfer async-exec; do
    old_ifs=$IFS
    IFS='|'
    for opts in $OPTS_LIST; do
        IFS=$old_ifs
        name="cli_pim_${mode}_$(echo $opts | tr -c 'a-z0-9\n' '_')"
        why=""
        if have openssl; then
            openssl enc -aes-256-ctr -K $K -iv $IV -nosalt -in "$T/in" -out "$T/ref" 2>/dev/null
            "$B" enc -a aes-256-ctr -K $K --iv $IV --backend pim --mode $mode $opts \
                -i "$T/in" -o "$T/c" 2>"$T/err" || why="enc ctr failed: $(cat "$T/err")"
            [ -n "$why" ] || cmp -s "$T/ref" "$T/c" || why="ctr differs from openssl"
            openssl enc -aes-128-ecb -K ${K%????????????????????????????????} -nosalt -nopad \
                -in "$T/in16" -out "$T/ref" 2>/dev/null
            [ -n "$why" ] || "$B" dec -a aes-128-ecb -K ${K%????????????????????????????????} \
                --backend pim --mode $mode $opts -i "$T/ref" -o "$T/p" 2>"$T/err" ||
                why="dec ecb failed: $(cat "$T/err")"
            [ -n "$why" ] || cmp -s "$T/in16" "$T/p" || why="ecb decryption differs"
        fi
        if [ -z "$why" ] && have sha256sum; then
            (cd "$T" && sha256sum m0 m1 m55 m64 m1000 m70000) >"$T/sref"
            (cd "$T" && "$B" sha256sum --backend pim --mode $mode $opts m0 m1 m55 m64 m1000 \
                m70000) >"$T/sout" 2>"$T/err" || why="sha256sum failed: $(cat "$T/err")"
            [ -n "$why" ] || cmp -s "$T/sref" "$T/sout" || why="sha256sum differs"
        fi
        IFS='|'
        if [ -z "$why" ]; then pass $name; else fail $name "$why"; fi
    done
    IFS=$old_ifs
done

# A DPU fault: non-zero exit, a clear message, no output file.
rm -f "$T/fault.out"
if UPMEM_PROFILE=maxInstructions=1000 "$B" enc -a aes-128-ecb -K 000102030405060708090a0b0c0d0e0f \
    --backend pim -i "$T/in16" -o "$T/fault.out" 2>"$T/err"; then
    skip cli_pim_fault "UPMEM_PROFILE=maxInstructions did not provoke a fault here"
elif [ -e "$T/fault.out" ]; then
    fail cli_pim_fault "output file left behind"
elif ! grep -q -i 'fault' "$T/err"; then
    fail cli_pim_fault "no clear message: $(cat "$T/err")"
else
    pass cli_pim_fault
fi
# Many faulting DPUs in one launch: one line for them (not one per DPU),
# plus the CLI's own error line.
if UPMEM_PROFILE=maxInstructions=1 "$B" enc -a aes-128-ecb -K 000102030405060708090a0b0c0d0e0f \
    --backend pim --ranks 3 -i "$T/in16" -o "$T/fault.out" 2>"$T/err"; then
    fail cli_pim_fault_one_line "maxInstructions=1 did not fail"
elif [ "$(wc -l <"$T/err")" -gt 2 ] || ! grep -q 'and 191 other DPUs' "$T/err"; then
    fail cli_pim_fault_one_line "$(wc -l <"$T/err") lines: $(head -c 300 "$T/err")"
else
    pass cli_pim_fault_one_line
fi

# No environment setting may make a pim operation return data that differs
# from the cpu backend with exit status 0: each setting below must give
# either the right output, or a non-zero exit, a message and no output file
# (and no wrong digest line).  Model shortcuts, timing extremes, topology,
# unknown keys, the trace file.
head -c 20003 "$T/in" >"$T/ein"
K16=000102030405060708090a0b0c0d0e0f
"$B" enc -a aes-128-ctr -K $K16 --iv $IV --backend cpu -i "$T/ein" -o "$T/eref" 2>/dev/null
(cd "$T" && "$B" sha256sum --backend cpu m0 m55 m1000 m70000) >"$T/esref"
i=0
while IFS= read -r setting; do
    i=$((i + 1))
    why=""
    rm -f "$T/eout"
    if env $setting "$B" enc -a aes-128-ctr -K $K16 --iv $IV --backend pim --dpus 4 \
        -i "$T/ein" -o "$T/eout" 2>"$T/err"; then
        cmp -s "$T/eref" "$T/eout" || why="enc exited 0 with wrong output"
    elif [ -e "$T/eout" ]; then
        why="enc failed and left an output file"
    elif [ ! -s "$T/err" ]; then
        why="enc failed without a message"
    fi
    if (cd "$T" && env $setting "$B" sha256sum --backend pim --dpus 4 m0 m55 m1000 m70000) \
        >"$T/esout" 2>"$T/err"; then
        cmp -s "$T/esref" "$T/esout" || why="$why${why:+; }sha256sum exited 0 with wrong digests"
    elif [ -n "$(grep -v -x -F -f "$T/esref" "$T/esout")" ]; then
        why="$why${why:+; }sha256sum failed and printed a wrong digest"
    fi
    if [ -z "$why" ]; then
        pass cli_pim_env_$i
    else
        fail "cli_pim_env_$i ($setting)" "$why"
    fi
done <<EOF
UPMEM_PROFILE=sampleDpus=1
UPMEM_PROFILE_BASE=sampleDpus=1
UPMEM_PROFILE=nrRanks=1,sampleDpus=4
UPMEM_PROFILE=mode=fast
UPMEM_PROFILE=mode=fast,fastQuantum=1
UPMEM_PROFILE=maxInstructions=1
UPMEM_PROFILE=dmaRules=hardware
UPMEM_PROFILE=revolverCycles=0
UPMEM_PROFILE=revolverCycles=4294967295
UPMEM_PROFILE=mulSlots=0
UPMEM_PROFILE=clockMhz=0.000001
UPMEM_PROFILE=mramDirectBytes=8
UPMEM_PROFILE=nrRanks=1,nrDpusPerRank=1
UPMEM_PROFILE=disabledMask=0xe
UPMEM_PROFILE=disabledDpus=0.0:0.1:0.2
UPMEM_PROFILE=nrJobsPerRank=1
UPMEM_PROFILE=hostClock=thread
UPMEM_PROFILE=parallelFromGBps=0
UPMEM_PROFILE=capToGiBps=0.000000001
UPMEM_PROFILE=dispatchOnAllRanks=true,disableResetOnAlloc=true
UPMEM_PROFILE=backend=hw,sgXferEnable=true
UPMEM_PROFILE=mramBudget=128
UPMEM_PROFILE=directMin=0
UPMEM_PROFILE=no_such_key=1
UPMEM_PROFILE=,,=,
UPMEM_TRACE=/dev/full
UPMEM_TRACE=/nonexistent/dir/trace.json
EOF
finish
