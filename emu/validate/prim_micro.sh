#!/bin/sh
# emu/validate/prim_micro.sh -- PrIM's eight microbenchmarks on the virtual
# UPMEM, unchanged, with their own timers on the modeled clock.
#
# Usage: [PRIM_MICRO_FULL=1 | PRIM_MICRO_STREAM=1] sh emu/validate/prim_micro.sh PRIM_DIR [OUT_DIR]
#   PRIM_DIR  a copy of CMU-SAFARI/prim-benchmarks (holding Microbenchmarks/),
#             or its Microbenchmarks folder. Nothing is written there: each
#             benchmark is copied to OUT_DIR/src/ and built with its own
#             Makefile (make NR_DPUS=... NR_TASKLETS=... BL=... OP=...).
#   OUT_DIR   default build/prim_micro: one log per run (NAME.log, the
#             program's whole output) and summary.tsv (one row per run).
# Run from the checkout after `make` (build/libdpu.a, emu/bin/).
#
# Environment of every run, as a user would set it:
#   . emu/upmem_env.sh --modeled-time --machine prim
#     (UPMEM_PROFILE_BASE=hostTime=modeled,machine=prim): the programs'
#     gettimeofday/clock_gettime/time/clock return the modeled host time, on
#     PrIM's 2,556-DPU 350 MHz system, the machine of their published logs;
#   UPMEM_PROFILE=hostClock=thread unless UPMEM_PROFILE is set (e.g. to
#     hostClock=none where the profile knows it): host work inside PrIM's
#     timer windows (its DPU_FOREACH loops) is the calling thread's CPU time,
#     which the simulator's own threads cannot inflate.
# Small parameters (a few seconds each on 2 cores); the configurations are
# PrIM's run.sh ones with smaller inputs. Every number a program prints is
# modeled, except that its "CPU" timer and host work inside the windows are
# this host's (measured) work.
#
# summary.tsv columns: run, benchmark, make variables, arguments, status
# (OK = the program's own check passed, ERROR = it printed "Outputs differ",
# ERROR-expected = so, for a PrIM bug named in profile.txt, FAIL = build or
# run failed), DPU cycles, then the program's CPU-DPU,
# DPU Kernel and DPU-CPU times (ms) and the bandwidths it prints (GB/s).
# Exit status: 0 if every run is OK or ERROR-expected, 1 otherwise, 2 bad usage.
set -u
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: sh emu/validate/prim_micro.sh PRIM_DIR [OUT_DIR]" >&2
    exit 2
fi
prim=$1
[ -d "$prim/Microbenchmarks" ] && prim=$prim/Microbenchmarks
if [ ! -d "$prim/CPU-DPU" ]; then
    echo "prim_micro.sh: no PrIM Microbenchmarks in $1" >&2
    exit 2
fi
prim=$(cd "$prim" && pwd)
out=${2:-build/prim_micro}
mkdir -p "$out/src" || exit 2
out=$(cd "$out" && pwd)
if [ ! -f emu/upmem_env.sh ] || [ ! -f build/libdpu.a ]; then
    echo "prim_micro.sh: run from the checkout after make (no build/libdpu.a)" >&2
    exit 2
fi
UPMEM_EMU_HOME=$(pwd)
export UPMEM_EMU_HOME
. "$UPMEM_EMU_HOME/emu/upmem_env.sh"
# what `. emu/upmem_env.sh --modeled-time --machine prim` sets (POSIX sh
# passes no arguments to a sourced file)
UPMEM_PROFILE_BASE=hostTime=modeled,machine=prim
UPMEM_PROFILE=${UPMEM_PROFILE:-hostClock=thread}
export UPMEM_PROFILE_BASE UPMEM_PROFILE

printf 'run\tbenchmark\tmake\targs\tstatus\tdpu_cycles\tcpu_dpu_ms\tkernel_ms\tdpu_cpu_ms\tcpu_dpu_GBps\tdpu_cpu_GBps\n' >"$out/summary.tsv"
echo "# profile: UPMEM_PROFILE_BASE=$UPMEM_PROFILE_BASE UPMEM_PROFILE=$UPMEM_PROFILE" >"$out/profile.txt"
failed=0

# value LOG PATTERN: the number after PATTERN on the first line holding it
value() {
    awk -v pat="$2" 'index($0, pat) { s = substr($0, index($0, pat) + length(pat));
        if (match(s, /-?[0-9.]+(e[-+]?[0-9]+)?/)) { print substr(s, RSTART, RLENGTH); exit } }' "$1"
}

# run NAME BENCH "MAKEVARS" "ARGS" [WHY]: WHY, if given, says why the
# program's own check is expected to fail (status ERROR-expected: a PrIM bug
# that real hardware has too, not a failure of the virtual UPMEM)
run() {
    name=$1 bench=$2 vars=$3 args=$4 why=${5:-}
    log=$out/$name.log
    src=$out/src/$name
    rm -rf "$src" && cp -R "$prim/$bench" "$src" || return
    echo "prim_micro: $name: make $vars; $args" >&2
    status=OK
    # shellcheck disable=SC2086 # vars and args are word lists
    if ! (cd "$src" && make $vars >"$log.build" 2>&1); then
        status=FAIL
        cp "$log.build" "$log"
    else
        # shellcheck disable=SC2086
        (cd "$src" && ./bin/host_code $args) >"$log" 2>&1
        rc=$? # PrIM's programs exit non-zero when their check fails
        if grep -q "Outputs differ" "$log"; then
            status=ERROR
        elif [ $rc -ne 0 ] || ! grep -q "Outputs are equal" "$log"; then
            status=FAIL
        fi
    fi
    if [ -n "$why" ] && [ "$status" = ERROR ]; then
        status=ERROR-expected
        echo "# $name: $why" >>"$out/profile.txt"
    fi
    case $status in OK | ERROR-expected) ;; *) failed=1 ;; esac
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$bench" "$vars" "$args" \
        "$status" "$(value "$log" "DPU cycles  =")" "$(value "$log" "CPU-DPU Time (ms):")" \
        "$(value "$log" "DPU Kernel Time (ms):")" "$(value "$log" "DPU-CPU Time (ms):")" \
        "$(value "$log" "CPU-DPU Bandwidth (GB/s):")" "$(value "$log" "DPU-CPU Bandwidth (GB/s):")" \
        >>"$out/summary.tsv"
}

# STREAM in MRAM, 5 ops x 1..16 tasklets (the saturation points of docs/MODEL.md)
stream_sweep() {
    for op in copy copyw add scale triad; do
      for t in 1 2 4 6 8 11 16; do
        run stream-$op-tl$t STREAM "NR_DPUS=1 NR_TASKLETS=$t BL=10 MEM=MRAM OP=$op" "-w 0 -e 1 -i 262144"
      done
    done
}

# PRIM_MICRO_STREAM=1: that sweep alone (~35 runs)
if [ "${PRIM_MICRO_STREAM:-0}" = 1 ]; then
    stream_sweep
else
A=Arithmetic-Throughput
run arith-add-int32-tl1 $A "NR_DPUS=1 NR_TASKLETS=1 BL=10 OP=ADD TYPE=INT32" "-w 0 -e 1 -i 262144"
run arith-add-int32-tl16 $A "NR_DPUS=1 NR_TASKLETS=16 BL=10 OP=ADD TYPE=INT32" "-w 0 -e 1 -i 1048576"
run arith-mul-int32-tl16 $A "NR_DPUS=1 NR_TASKLETS=16 BL=10 OP=MUL TYPE=INT32" "-w 0 -e 1 -i 262144"
run arith-add-int64-tl16 $A "NR_DPUS=1 NR_TASKLETS=16 BL=10 OP=ADD TYPE=INT64" "-w 0 -e 1 -i 262144"
C=CPU-DPU
run cpudpu-serial-1 $C "NR_DPUS=1 NR_TASKLETS=1 BL=10 TRANSFER=SERIAL" "-w 1 -e 3 -i 65536"
run cpudpu-push-1 $C "NR_DPUS=1 NR_TASKLETS=1 BL=10 TRANSFER=PUSH" "-w 1 -e 3 -i 65536"
run cpudpu-serial-64 $C "NR_DPUS=64 NR_TASKLETS=1 BL=10 TRANSFER=SERIAL" "-w 1 -e 3 -i 65536"
run cpudpu-push-64 $C "NR_DPUS=64 NR_TASKLETS=1 BL=10 TRANSFER=PUSH" "-w 1 -e 3 -i 65536"
run cpudpu-broadcast-64 $C "NR_DPUS=64 NR_TASKLETS=1 BL=10 TRANSFER=BROADCAST" "-w 1 -e 3 -i 65536"
M=MRAM-Latency
run mram-read-bl3 $M "NR_DPUS=1 NR_TASKLETS=1 BL=3 OP=READ" "-w 0 -e 1 -i 262144"
run mram-read-bl11 $M "NR_DPUS=1 NR_TASKLETS=1 BL=11 OP=READ" "-w 0 -e 1 -i 262144"
run mram-write-bl3 $M "NR_DPUS=1 NR_TASKLETS=1 BL=3 OP=WRITE" "-w 0 -e 1 -i 262144"
run mram-write-bl11 $M "NR_DPUS=1 NR_TASKLETS=1 BL=11 OP=WRITE" "-w 0 -e 1 -i 262144"
O=Operational-Intensity
run opint-add-int32-p1 $O "NR_DPUS=1 NR_TASKLETS=16 BL=10 OP=ADD TYPE=INT32" "-w 0 -e 1 -i 262144 -p 1"
run opint-add-int32-p16 $O "NR_DPUS=1 NR_TASKLETS=16 BL=10 OP=ADD TYPE=INT32" "-w 0 -e 1 -i 262144 -p 16"
run gups-tl16 Random-GUPS "NR_DPUS=1 NR_TASKLETS=16 BL=10" "-w 0 -e 1 -i 262144"
for op in copy copyw add scale triad; do
    run stream-$op-mram-tl16 STREAM "NR_DPUS=1 NR_TASKLETS=16 BL=10 MEM=MRAM OP=$op" \
        "-w 0 -e 1 -i 262144"
done
run stream-add-wram-tl16 STREAM "NR_DPUS=1 NR_TASKLETS=16 BL=10 MEM=WRAM OP=add" \
    "-w 0 -e 1 -i 262144"
run strided-coarse-s4 STRIDED "NR_DPUS=1 NR_TASKLETS=16 BL=10 OP=COARSECOARSE" \
    "-w 0 -e 1 -i 262144 -s 4"
run strided-fine-s1 STRIDED "NR_DPUS=1 NR_TASKLETS=16 BL=10 OP=FINEFINE" "-w 0 -e 1 -i 262144 -s 1"
run strided-fine-s4 STRIDED "NR_DPUS=1 NR_TASKLETS=16 BL=10 OP=FINEFINE" "-w 0 -e 1 -i 262144 -s 4" \
    "PrIM bug: FINEFINE copies only A to the DPU and writes every s-th element of B, but the \
host checks every element of B; the others are whatever MRAM held (on hardware too)"
W=WRAM
run wram-streaming $W "NR_DPUS=1 NR_TASKLETS=16 BL=10 MEM=WRAM OP=streaming" "-w 0 -e 1 -i 262144"
run wram-random $W "NR_DPUS=1 NR_TASKLETS=16 BL=10 MEM=WRAM OP=random" "-w 0 -e 1 -i 262144"
run wram-strided-s4 $W "NR_DPUS=1 NR_TASKLETS=16 BL=10 MEM=WRAM OP=strided" "-w 0 -e 1 -i 262144 -s 4"
fi

# PRIM_MICRO_FULL=1: the whole sweep of docs/MODEL.md ("Every PrIM
# microbenchmark"): 4 types x 4 ops x 1 and 16 tasklets, MRAM latency 8..2048 B
# both ways, STREAM x 5 ops x 1..16 tasklets, transfers x 1..64 DPUs (~15 min)
if [ "${PRIM_MICRO_FULL:-0}" = 1 ]; then
    A=Arithmetic-Throughput
    for T in INT32 INT64 FLOAT DOUBLE; do
      for O in ADD SUB MUL DIV; do
        case $T$O in *DIV|FLOAT*|DOUBLE*) n1=16384; n16=65536 ;; *) n1=65536; n16=262144 ;; esac
        run arith-$O-$T-tl1 $A "NR_DPUS=1 NR_TASKLETS=1 BL=10 OP=$O TYPE=$T" "-w 0 -e 1 -i $n1"
        run arith-$O-$T-tl16 $A "NR_DPUS=1 NR_TASKLETS=16 BL=10 OP=$O TYPE=$T" "-w 0 -e 1 -i $n16"
      done
    done
    M=MRAM-Latency
    for b in 3 4 5 6 7 8 9 10 11; do
      run mram-read-bl$b $M "NR_DPUS=1 NR_TASKLETS=1 BL=$b OP=READ" "-w 0 -e 1 -i 262144"
      run mram-write-bl$b $M "NR_DPUS=1 NR_TASKLETS=1 BL=$b OP=WRITE" "-w 0 -e 1 -i 262144"
    done
    stream_sweep
    run wram-streaming WRAM "NR_DPUS=1 NR_TASKLETS=16 BL=10 MEM=WRAM OP=streaming" "-w 0 -e 1 -i 262144"
    C=CPU-DPU
    for d in 1 4 16 64; do
      for tr in SERIAL PUSH BROADCAST; do
        run cpudpu-$tr-$d $C "NR_DPUS=$d NR_TASKLETS=1 BL=10 TRANSFER=$tr" "-w 1 -e 3 -i 524288"
      done
    done
fi

echo "prim_micro: results in $out/summary.tsv (times modeled; logs in $out)" >&2
column -t -s "$(printf '\t')" "$out/summary.tsv" 2>/dev/null || cat "$out/summary.tsv"
exit $failed
