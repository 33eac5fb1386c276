#!/bin/sh
# tests/emu/prof/dpu_gdb.sh BUILD_DIR -- gdb-multiarch on the virtual DPU:
# an unchanged host program (app.c) with UPMEM_PROFILE=gdbserver=127.0.0.1:0
# stops its first DPU at its entry; scripts drive `gdb-multiarch -batch`
# (break in a function, bt with file:line, print a local and a __host
# global, threads, switch tasklet, stepi, watch WRAM, rwatch MRAM, monitor,
# a fault, continue to the exit; and through the dpu-gdb wrapper; Ctrl-C
# from a raw remote-protocol client) and the
# transcripts are checked; the
# program prints what it prints undebugged (results, modeled cycles).
# Skipped without gdb-multiarch. Run from the checkout root (make test does).
. ./tests/lib.sh
BUILD=${1:-$(pwd)/build}
if ! command -v gdb-multiarch >/dev/null 2>&1; then
    skip dpu_gdb "gdb-multiarch is not installed (Debian gdb-multiarch, .ci/run installs it)"
    finish
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset UPMEM_PROFILE UPMEM_PROFILE_BASE
. ./emu/upmem_env.sh
UPMEM_EMU_BUILD=$BUILD
export UPMEM_EMU_BUILD
# shellcheck disable=SC2046 # the flags are a word list
if ! dpu-upmem-dpurte-clang -g -O2 -DNR_TASKLETS=16 -o "$tmp/reduce.dpu" \
    tests/emu/prof/dpu/reduce.c >"$tmp/log" 2>&1 ||
    ! ${CC:-cc} -O2 -o "$tmp/app" tests/emu/prof/app.c $(dpu-pkg-config --cflags --libs dpu) \
        >>"$tmp/log" 2>&1; then
    fail dpu_gdb_build "$(head -c 400 "$tmp/log")"
    finish
fi
loop=$(grep -n 'for (uint32_t i = 0; i < n; i++)' tests/emu/prof/dpu/reduce.c | cut -d: -f1)
call=$(grep -n 's += sum_block(buf, n);' tests/emu/prof/dpu/reduce.c | cut -d: -f1)
bad=$(grep -n 'mram_read(&vec\[1\], buf, 8);' tests/emu/prof/dpu/reduce.c | cut -d: -f1)

# debug NAME SCRIPT [app args]: runs the app under gdbserver, gdb with the
# script (its first line connects); transcript in $tmp/NAME.gdb.out, the
# app's output in $tmp/NAME.out
debug() {
    name=$1
    script=$2
    shift 2
    UPMEM_PROFILE=gdbserver=127.0.0.1:0${GDB_EXTRA:+,$GDB_EXTRA} timeout 120 "$tmp/app" "$tmp/reduce.dpu" "$@" \
        >"$tmp/$name.out" 2>"$tmp/$name.err" &
    pid=$!
    port=
    for _ in $(seq 100); do
        port=$(sed -n 's/.*(target remote 127\.0\.0\.1:\([0-9]*\))$/\1/p' "$tmp/$name.err" 2>/dev/null)
        [ -n "$port" ] && break
        sleep 0.1
    done
    if [ -z "$port" ]; then
        echo "no port: $(cat "$tmp/$name.err")" >"$tmp/$name.gdb.out"
        kill "$pid" 2>/dev/null
        return
    fi
    { echo "set pagination off"; echo "set confirm off"; echo "target remote 127.0.0.1:$port"
      cat "$script"; } >"$tmp/$name.gdb"
    timeout 120 gdb-multiarch -nx -batch -x "$tmp/$name.gdb" "$tmp/reduce.dpu" \
        >"$tmp/$name.gdb.out" 2>&1
    wait "$pid"
    echo "app exit $?" >>"$tmp/$name.out"
}

# has NAME TEST-NAME PATTERN...: every pattern is a line of the transcript
has() {
    f=$tmp/$1.gdb.out
    t=$2
    shift 2
    for p in "$@"; do
        if ! grep -q -- "$p" "$f"; then
            sed 's/^/# /' "$f" | head -60
            fail "$t" "no line matching '$p' in the gdb transcript"
            return
        fi
    done
    pass "$t"
}

"$tmp/app" "$tmp/reduce.dpu" >"$tmp/plain.out" 2>&1
echo "app exit $?" >>"$tmp/plain.out"

cat >"$tmp/s1" <<'G'
info threads
break sum_block
continue
bt
print n
print n_elems
info threads
thread 3
bt
stepi
stepi
info registers pc
monitor cycles
monitor tasklets
delete
watch blocks
continue
continue
delete
rwatch vec[65000]
continue
delete
continue
G
debug s1 "$tmp/s1"
has s1 dpu_gdb_stops_at_entry '__bootstrap () at .*crt0.S'
has s1 dpu_gdb_break_bt_print "hit Breakpoint 1, sum_block (b=0x[0-9a-f]*, n=256) at .*reduce.c:$loop" \
    "^#1  0x[0-9a-f]* in main () at .*reduce.c:$call" '^\$1 = 256$' '^\$2 = 65536$'
has s1 dpu_gdb_tasklets_as_threads '^  16   Thread 16 (tasklet 15, not booted)' \
    '^  2    Thread 2 (tasklet 1, running' 'Switching to thread 3 (Thread 3)'
has s1 dpu_gdb_monitor '^modeled: cycle [0-9]* = .* us at 350 MHz' '^tasklet 15: '
has s1 dpu_gdb_watch_wram 'Hardware watchpoint 2: blocks' '^Old value = 0$' '^New value = 1$' \
    '^Old value = 1$' '^New value = 2$'
has s1 dpu_gdb_rwatch_mram 'Hardware read watchpoint 3: vec\[65000\]' 'Value = '
has s1 dpu_gdb_exit '\[Inferior 1 (Remote target) exited normally\]'
if cmp -s "$tmp/plain.out" "$tmp/s1.out"; then
    pass dpu_gdb_same_output_and_modeled_cycles
else
    fail dpu_gdb_same_output_and_modeled_cycles "$(diff "$tmp/plain.out" "$tmp/s1.out" | head -5)"
fi

cat >"$tmp/s2" <<'G'
continue
bt
monitor fault
continue
G
# (the misaligned DMA faults with dmaRules=strict; by default it is done
# as the hardware does, with a warning)
GDB_EXTRA=dmaRules=strict debug s2 "$tmp/s2" fault
has s2 dpu_gdb_fault_stops_with_signal 'DPU fault \[DMA alignment\] tasklet 2' \
    'received signal SIGSEGV' "^#0  .*main () at .*reduce.c:$bad\|^#1  .*main () at .*reduce.c:$bad" \
    'Program terminated with signal SIGSEGV'
if grep -q "faulted: tasklet 2" "$tmp/s2.err"; then
    pass dpu_gdb_fault_reaches_the_host
else
    fail dpu_gdb_fault_reaches_the_host "$(head -c 300 "$tmp/s2.err")"
fi
# dpu-gdb: the same through the wrapper, a breakpoint still set at the end
# (gdb detaches, the run goes on)
printf 'break sum_block\ncontinue\nbt\ncontinue\n' >"$tmp/s3"
if timeout 120 dpu-gdb -x "$tmp/s3" --batch "$tmp/reduce.dpu" -- "$tmp/app" "$tmp/reduce.dpu" \
    >"$tmp/s3.out" 2>&1 && grep -q "^Thread 2 hit Breakpoint 1, sum_block" "$tmp/s3.out" &&
    grep -q "^round 1: modeled DPU cycles" "$tmp/s3.out"; then
    pass dpu_gdb_wrapper
else
    sed 's/^/# /' "$tmp/s3.out" | head -30
    fail dpu_gdb_wrapper "dpu-gdb did not debug the program to its end"
fi
# Ctrl-C: a client continues the stopped DPU and sends the interrupt byte
# (0x03) at once, as gdb does on Ctrl-C; the stub must stop the run with
# SIGINT (a T02/S02 reply, not the W exit packet), then the client kills it.
if command -v python3 >/dev/null 2>&1; then
    UPMEM_PROFILE=gdbserver=127.0.0.1:0 timeout 120 "$tmp/app" "$tmp/reduce.dpu" \
        >"$tmp/ci.out" 2>"$tmp/ci.err" &
    pid=$!
    port=
    for _ in $(seq 100); do
        port=$(sed -n 's/.*(target remote 127\.0\.0\.1:\([0-9]*\))$/\1/p' "$tmp/ci.err" 2>/dev/null)
        [ -n "$port" ] && break
        sleep 0.1
    done
    reply=$(python3 - "$port" <<'P' 2>&1
import socket, sys
def pkt(body):
    return ("$%s#%02x" % (body, sum(body.encode()) % 256)).encode()
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=60)
s.sendall(b"+" + pkt("c"))
s.sendall(b"\x03")
buf = b""
while True:
    c = s.recv(4096)
    if not c:
        break
    buf += c
    i = buf.find(b"$")
    if i >= 0 and b"#" in buf[i:]:
        body = buf[i + 1:buf.index(b"#", i)].decode()
        if body and body[0] in "TSWX":
            print(body[:3])
            break
s.sendall(b"+" + pkt("k"))
s.close()
P
)
    wait "$pid" 2>/dev/null
    case $reply in
        T02 | S02) pass dpu_gdb_ctrl_c ;;
        *) fail dpu_gdb_ctrl_c "stop reply '$reply' (want T02 or S02): $(head -c 300 "$tmp/ci.err")" ;;
    esac
else
    skip dpu_gdb_ctrl_c "no python3 for the raw remote-protocol client"
fi
finish
