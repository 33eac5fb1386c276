#!/bin/sh
# tests/run.sh -- runs every test program and checks its verdicts.
#
# Each argument is a command printing the protocol of tests/test.h (C
# programs) or tests/lib.sh (shell scripts): `PASS name`, `FAIL name: why`,
# `SKIP name: why`, plus either a `PLAN n` line before them (n verdicts
# follow; several PLAN lines add up) or a `DONE` line once all ran.  A
# command is failed -- and the reason printed -- when it
#   - prints neither PLAN nor DONE (not a harness program, or died first);
#   - prints fewer verdicts than planned: each missing one counts as a failure
#     (a crash, an exit() or early return inside a test);
#   - prints more verdicts than planned (one failure);
#   - exits non-zero without any FAIL line (a sanitizer report at exit).
# The last line is `N passed, N failed`, which CI reads.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
passed=0
failed=0
skipped=0
for cmd in "$@"; do
    echo "== $cmd"
    sh -c "$cmd" >"$log" 2>&1
    rc=$?
    grep -E '^(FAIL|SKIP) ' "$log" || true
    p=$(grep -c '^PASS ' "$log")
    f=$(grep -c '^FAIL ' "$log")
    s=$(grep -c '^SKIP ' "$log")
    plans=$(grep -cE '^PLAN [0-9]+$' "$log")
    plan=$(awk '/^PLAN [0-9]+$/ { n += $2 } END { print n + 0 }' "$log")
    done_seen=$(grep -c '^DONE$' "$log")
    seen=$((p + f + s))
    echo "   $p passed, $f failed, $s skipped (exit $rc)"
    last=$(grep -E '^(PASS|FAIL|SKIP) ' "$log" | tail -n 1 | cut -d: -f1)
    bad=""
    if [ "$plans" -eq 0 ] && [ "$done_seen" -eq 0 ]; then
        echo "FAIL $cmd: no PLAN or DONE line (crashed or exited before finishing, or does not use the harness)"
        f=$((f + 1))
        bad=1
    elif [ "$plans" -gt 0 ] && [ "$seen" -lt "$plan" ]; then
        echo "FAIL $cmd: $((plan - seen)) of $plan planned verdicts missing, counted as failures (crashed or exited inside the test after '${last:-the PLAN line}')"
        f=$((f + plan - seen))
        bad=1
    elif [ "$plans" -gt 0 ] && [ "$seen" -gt "$plan" ]; then
        echo "FAIL $cmd: $seen verdicts, but the plan said $plan (a test reported twice)"
        f=$((f + 1))
        bad=1
    elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL $cmd: exited with status $rc without a FAIL line"
        f=$((f + 1))
        bad=1
    fi
    if [ -n "$bad" ]; then
        echo "    its last lines:"
        tail -n 15 "$log" | sed 's/^/    /'
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    skipped=$((skipped + s))
done
echo "($skipped skipped)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
