#!/bin/sh
# tests/emu/prof/dpu_profile.sh BUILD_DIR -- the profile key profile=FILE
# and dpu-profile on an unchanged host program (app.c) and a PrIM-style DPU
# program (dpu/reduce.c, with -g): the profiled run prints what the
# unprofiled one prints (results and modeled cycles), the profile's longest
# run is the modeled clock's slowest DPU, the Chrome trace has the DPU-side
# spans, the report names the kernel's
# function and source line, the folded stacks hold its calling context, and
# bad uses fail with a message. Run from the checkout root (make test does).
. ./tests/lib.sh
BUILD=${1:-$(pwd)/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
unset UPMEM_PROFILE UPMEM_PROFILE_BASE
. ./emu/upmem_env.sh
UPMEM_EMU_BUILD=$BUILD
export UPMEM_EMU_BUILD
PROF=$BUILD/emu/dpu-profile
# sum_block's loop: the lines the report must put on top
loop=$(grep -n 'for (uint32_t i = 0; i < n; i++)' tests/emu/prof/dpu/reduce.c | cut -d: -f1)
# shellcheck disable=SC2046 # the flags are a word list
if ! dpu-upmem-dpurte-clang -g -O2 -DNR_TASKLETS=16 -o "$tmp/reduce.dpu" \
    tests/emu/prof/dpu/reduce.c >"$tmp/log" 2>&1 ||
    ! ${CC:-cc} -O2 -o "$tmp/app" tests/emu/prof/app.c $(dpu-pkg-config --cflags --libs dpu) \
        >>"$tmp/log" 2>&1; then
    fail dpu_profile_build "$(head -c 400 "$tmp/log")"
    finish
fi
"$tmp/app" "$tmp/reduce.dpu" >"$tmp/plain" 2>&1
UPMEM_PROFILE=profile=$tmp/p.prof "$tmp/app" "$tmp/reduce.dpu" >"$tmp/profiled" 2>&1
if cmp -s "$tmp/plain" "$tmp/profiled" && grep -q "modeled DPU cycles [1-9]" "$tmp/plain"; then
    pass dpu_profile_same_output_and_modeled_cycles
else
    fail dpu_profile_same_output_and_modeled_cycles "$(diff "$tmp/plain" "$tmp/profiled" | head -5)"
fi
# both launches run the same DPUs: the profile's longest run is the larger
# of the two launches' slowest DPU
want=$(sed -n 's/^round .: modeled DPU cycles //p' "$tmp/plain" | sort -n | tail -1)
got=$(sed -n 's/^runs .* cycles_max \([0-9]*\) .*/\1/p' "$tmp/p.prof")
runs=$(sed -n 's/^runs \([0-9]*\) .*/\1/p' "$tmp/p.prof")
# and each launch's line is that launch's slowest DPU
rounds=$(sed -n 's/^round .: modeled DPU cycles //p' "$tmp/plain" | tr '\n' ' ')
launches=$(sed -n 's/^launch [0-9]* dpus 2 cycles_max \([0-9]*\) .*/\1/p' "$tmp/p.prof" | tr '\n' ' ')
if [ -n "$want" ] && [ "$got" = "$want" ] && [ "$runs" = 4 ] && [ "$launches" = "$rounds" ]; then
    pass dpu_profile_cycles_are_the_modeled_clock
else
    fail dpu_profile_cycles_are_the_modeled_clock "profile $got in $runs runs, launches $launches; modeled clock $want, rounds $rounds"
fi
if ! command -v llvm-symbolizer-14 >/dev/null 2>&1 && ! command -v llvm-symbolizer >/dev/null 2>&1; then
    skip dpu_profile_report_functions_and_lines "no llvm-symbolizer (Debian llvm-14, .ci/run installs it)"
    "$PROF" --folded "$tmp/folded" -- "$tmp/app" "$tmp/reduce.dpu" >/dev/null 2>&1
elif "$PROF" --top 5 --folded "$tmp/folded" -- "$tmp/app" "$tmp/reduce.dpu" >"$tmp/report" 2>&1 &&
    grep -q "^round .: modeled DPU cycles $want" "$tmp/report" &&
    sed -n '/^top functions/,/^$/p' "$tmp/report" | sed -n 3p | grep -q " sum_block$" &&
    sed -n '/^top source lines/,/^$/p' "$tmp/report" | sed -n 3p | grep -q " reduce.c:\($loop\|$((loop + 1))\)$"; then
    pass dpu_profile_report_functions_and_lines
else
    sed 's/^/# /' "$tmp/report"
    fail dpu_profile_report_functions_and_lines "sum_block / reduce.c:$loop-$((loop + 1)) not on top"
fi
if grep -q "^tasklet3;__bootstrap;main;sum_block [0-9]*$" "$tmp/folded"; then
    pass dpu_profile_folded_stacks
else
    fail dpu_profile_folded_stacks "$(head -3 "$tmp/folded")"
fi
# the Chrome trace (UPMEM_TRACE) with the DPU-side spans of each launch: a
# row per tasklet of the slowest DPU, a span from its first issue to its exit
UPMEM_TRACE=$tmp/t.json UPMEM_PROFILE=profile=$tmp/p2.prof "$tmp/app" "$tmp/reduce.dpu" >/dev/null 2>&1
UPMEM_TRACE=$tmp/t0.json "$tmp/app" "$tmp/reduce.dpu" >/dev/null 2>&1
if grep -q '"args":{"name":"rank 0, slowest DPU, tasklet 15"}' "$tmp/t.json" &&
    [ "$(grep -c '{"name":"tasklet [0-9]*","ph":"X"' "$tmp/t.json")" = 32 ] &&
    ! grep -q '"name":"tasklet 0"' "$tmp/t0.json"; then
    pass dpu_profile_trace_dpu_spans
else
    fail dpu_profile_trace_dpu_spans "no 2 x 16 tasklet spans in the trace, or spans without profile="
fi
if UPMEM_PROFILE=profile= "$tmp/app" "$tmp/reduce.dpu" >"$tmp/out" 2>&1; then
    fail dpu_profile_empty_file_refused "profile= was accepted"
elif grep -q "profile=FILE needs a file name" "$tmp/out"; then
    pass dpu_profile_empty_file_refused
else
    fail dpu_profile_empty_file_refused "$(head -c 300 "$tmp/out")"
fi
if "$PROF" -- true >"$tmp/out" 2>&1; then
    fail dpu_profile_no_dpu_program "a program with no DPU launch gave a report"
elif grep -q "launched no DPU program" "$tmp/out"; then
    pass dpu_profile_no_dpu_program
else
    fail dpu_profile_no_dpu_program "$(head -c 300 "$tmp/out")"
fi
finish
