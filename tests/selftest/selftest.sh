#!/bin/sh
# tests/selftest/selftest.sh BAD -- tests of the test harness itself: runs
# tests/run.sh on programs that misbehave on purpose (BAD is
# build/tests/selftest-bad, from tests/selftest/bad.c) and on shell scripts
# that stop early, and checks run.sh counts each misbehaviour as failures.
. "$(dirname "$0")/../lib.sh"
BAD=$1
RUN="sh $(dirname "$0")/../run.sh"
T=$(mktemp -d) || { fail selftest_tmpdir "mktemp -d failed"; finish; }
trap 'rm -rf "$T"' EXIT

# expect NAME COMMAND LAST-LINE REASON: run.sh on COMMAND must end with
# LAST-LINE, and print REASON (an extended regex) when it is not empty.
expect() {
    $RUN "$2" >"$T/out" 2>&1
    rc=$?
    last=$(tail -n 1 "$T/out")
    if [ "$last" != "$3" ]; then
        fail "$1" "run.sh ended with '$last', expected '$3': $(tr '\n' '|' <"$T/out")"
    elif [ -n "$4" ] && ! grep -Eq "$4" "$T/out"; then
        fail "$1" "run.sh did not say '$4': $(tr '\n' '|' <"$T/out")"
    elif [ "$3" = "${3% 0 failed}" ] && [ $rc = 0 ]; then
        fail "$1" "run.sh exited 0 after failures"
    else
        pass "$1"
    fi
}

expect selftest_run_good "$BAD good" "2 passed, 0 failed" ""
expect selftest_run_fail "$BAD fail" "1 passed, 1 failed" "^FAIL selftest_fail: .*deliberate failure"
expect selftest_run_crash "$BAD crash" "1 passed, 2 failed" \
    "2 of 3 planned verdicts missing.*after 'PASS selftest_pass'"
expect selftest_run_exit "$BAD exit" "1 passed, 2 failed" "2 of 3 planned verdicts missing"
expect selftest_run_twice "$BAD twice" "2 passed, 1 failed" "2 verdicts, but the plan said 1"
expect selftest_run_group_short "$BAD group" "1 passed, 2 failed" \
    "^FAIL selftest_group.missing3: the group reported 1 of its 3 verdicts"
expect selftest_run_many "$BAD many" "3000 passed, 0 failed" ""
expect selftest_run_no_plan "$BAD noplan" "1 passed, 1 failed" "no PLAN or DONE line"

# shell scripts on tests/lib.sh: `finish` marks the end; an exit before it fails
lib="$(cd "$(dirname "$0")/.." && pwd)/lib.sh"
expect selftest_sh_finish ". '$lib'; pass a; skip b why; finish" "1 passed, 0 failed" ""
expect selftest_sh_early_exit ". '$lib'; pass a; exit 0; pass b; finish" "1 passed, 1 failed" \
    "no PLAN or DONE line"
expect selftest_sh_fail_status ". '$lib'; fail a why; finish" "0 passed, 1 failed" "^FAIL a: why"
finish
