#!/bin/sh
# tests/cli_keys.sh BINARY -- the CLI where keys and failures meet:
#  - enc/dec run with core dumps off (RLIMIT_CORE 0, not dumpable) before
#    a key is read (checked on a process blocked reading its input);
#  - fault injection (the pim backend's failAt=N, via --pim-profile) walked
#    over every allocation, transfer, load and launch of an enc: each
#    failure exits non-zero with a message and leaves no output file (new
#    OUT) or the old content (existing OUT); past the last checkpoint the
#    output is openssl's.
# PASS/FAIL/SKIP lines with tests/lib.sh; ends with its `finish`.
. "$(dirname "$0")/lib.sh"
B=$1
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
T=$(mktemp -d) || { fail cli_keys_tmpdir "mktemp -d failed"; finish; }
trap 'rm -rf "$T"' EXIT
K=000102030405060708090a0b0c0d0e0f
IV=f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff

# -- core dumps off while a key is held
mkfifo "$T/fifo"
"$B" enc -a aes-128-ctr -K $K --iv $IV --backend cpu -i "$T/fifo" -o "$T/c" 2>/dev/null &
pid=$!
exec 3>"$T/fifo" # the CLI is now blocked reading its input, key parsed
i=0
while [ $i -lt 50 ] && ! grep -q 'Max core file size' /proc/$pid/limits 2>/dev/null; do
    sleep 0.1
    i=$((i + 1))
done
sleep 0.2
limit=$(awk '/Max core file size/ {print $5 " " $6}' /proc/$pid/limits 2>/dev/null)
echo hello >&3
exec 3>&-
wait $pid
if [ "$limit" = "0 0" ]; then
    pass cli_keys_no_core_dumps
else
    fail cli_keys_no_core_dumps "core file size limit '$limit' while holding a key"
fi

# -- fault injection through the CLI
if ! "$B" list 2>/dev/null | grep -q '^pim *available'; then
    skip cli_keys_fault_walk "pim backend not available"
    finish
fi
head -c 5003 /dev/urandom >"$T/in"
"$B" enc -a aes-128-ctr -K $K --iv $IV --backend cpu -i "$T/in" -o "$T/ref" 2>/dev/null
printf 'old content\n' >"$T/old"
n=1
why=""
injected=0
while [ $n -lt 400 ]; do
    prof="nrRanks=1,nrDpusPerRank=4,mramBudget=1024,failAt=$n"
    rm -f "$T/new"
    cp "$T/old" "$T/existing"
    if "$B" enc -a aes-128-ctr -K $K --iv $IV --backend pim --dpus 4 --pim-profile "$prof" \
        -i "$T/in" -o "$T/new" 2>"$T/err"; then
        cmp -s "$T/ref" "$T/new" || why="failAt=$n: exit 0 with a wrong output"
        break
    fi
    injected=$((injected + 1))
    if [ -e "$T/new" ]; then
        why="failAt=$n: failed and left an output file"
        break
    fi
    if [ ! -s "$T/err" ]; then
        why="failAt=$n: failed without a message"
        break
    fi
    if "$B" enc -a aes-128-ctr -K $K --iv $IV --backend pim --dpus 4 --pim-profile "$prof" \
        -i "$T/in" -o "$T/existing" 2>/dev/null || ! cmp -s "$T/old" "$T/existing"; then
        why="failAt=$n: an existing OUT did not keep its old content"
        break
    fi
    n=$((n + 1))
done
[ -n "$why" ] || [ $injected -ge 10 ] || why="only $injected checkpoints injected"
if [ -z "$why" ]; then
    pass cli_keys_fault_walk
else
    fail cli_keys_fault_walk "$why"
fi
if ls -a "$T" | grep -q '^\.cryptopim-tmp'; then
    fail cli_keys_fault_walk_tmp "temporary files left: $(ls -a "$T" | grep cryptopim-tmp)"
else
    pass cli_keys_fault_walk_tmp
fi
finish
