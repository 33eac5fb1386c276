#!/bin/sh
# tests/cli_pim.sh BINARY -- the CLI on the pim backend: every host mode and
# DPU/rank/tasklet option against `openssl enc` and coreutils `sha256sum`,
# and a provoked DPU fault (the virtual UPMEM's instruction watchdog through
# UPMEM_PROFILE) that must give a non-zero exit and leave no output file.
# Prints PASS/FAIL/SKIP lines (tests/run.sh protocol); always exits 0.
B=$1
if [ -z "$B" ] || [ ! -x "$B" ]; then
    echo "FAIL cli_pim_binary: '$B' is not an executable"
    exit 0
fi
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
T=$(mktemp -d) || { echo "FAIL cli_pim_tmpdir: mktemp -d failed"; exit 0; }
trap 'rm -rf "$T"' EXIT
have() { command -v "$1" >/dev/null 2>&1; }

if ! "$B" list 2>/dev/null | grep -q '^pim *available'; then
    echo "SKIP cli_pim: pim backend not available"
    exit 0
fi
if "$B" list | grep '^pim' | grep -q -e 'virtual UPMEM' -e 'real hardware'; then
    echo "PASS cli_pim_list_machine"
else
    echo "FAIL cli_pim_list_machine: list does not say real hardware or virtual UPMEM"
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
        if [ -z "$why" ]; then echo "PASS $name"; else echo "FAIL $name: $why"; fi
    done
    IFS=$old_ifs
done

# A DPU fault: non-zero exit, a clear message, no output file.
rm -f "$T/fault.out"
if UPMEM_PROFILE=maxInstructions=1000 "$B" enc -a aes-128-ecb -K 000102030405060708090a0b0c0d0e0f \
    --backend pim -i "$T/in16" -o "$T/fault.out" 2>"$T/err"; then
    echo "SKIP cli_pim_fault: UPMEM_PROFILE=maxInstructions did not provoke a fault here"
elif [ -e "$T/fault.out" ]; then
    echo "FAIL cli_pim_fault: output file left behind"
elif ! grep -q -i 'fault' "$T/err"; then
    echo "FAIL cli_pim_fault: no clear message: $(cat "$T/err")"
else
    echo "PASS cli_pim_fault"
fi
exit 0
