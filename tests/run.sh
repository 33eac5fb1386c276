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
#
# The commands run side by side, TEST_JOBS at a time (default: the number of
# online CPUs; TEST_JOBS=1 runs them one after another).  Each writes its own
# log; the verdicts are printed in the order of the arguments as soon as a
# command and all before it have finished, each with its measured wall time.
# The commands must therefore not share files: each test makes its own
# temporary folder.
jobs=${TEST_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
n=0
for cmd in "$@"; do
    n=$((n + 1))
    printf '%s\n' "$cmd" >"$dir/cmd.$n"
done
# The pool: xargs keeps `jobs` workers busy; each leaves log.K, then time.K
# (seconds, measured) and, last, rc.K, which the reporter below waits for.
seq 1 "$n" | xargs -P "$jobs" -I{} sh -c '
    d=$1 k=$2
    t0=$(date +%s)
    sh -c "$(cat "$d/cmd.$k")" >"$d/log.$k" 2>&1
    rc=$?
    echo $(($(date +%s) - t0)) >"$d/time.$k"
    echo $rc >"$d/rc.$k.tmp" && mv "$d/rc.$k.tmp" "$d/rc.$k"' _ "$dir" {} &
pool=$!
passed=0
failed=0
skipped=0
k=0
while [ "$k" -lt "$n" ]; do
    k=$((k + 1))
    cmd=$(cat "$dir/cmd.$k")
    log=$dir/log.$k
    while [ ! -f "$dir/rc.$k" ]; do
        if ! kill -0 "$pool" 2>/dev/null && [ ! -f "$dir/rc.$k" ]; then
            echo "0" >"$dir/time.$k"
            echo 127 >"$dir/rc.$k"
            echo "the test pool stopped before running this command" >>"$log"
            break
        fi
        sleep 1
    done
    echo "== $cmd"
    rc=$(cat "$dir/rc.$k")
    grep -E '^(FAIL|SKIP) ' "$log" || true
    p=$(grep -c '^PASS ' "$log")
    f=$(grep -c '^FAIL ' "$log")
    s=$(grep -c '^SKIP ' "$log")
    plans=$(grep -cE '^PLAN [0-9]+$' "$log")
    plan=$(awk '/^PLAN [0-9]+$/ { n += $2 } END { print n + 0 }' "$log")
    done_seen=$(grep -c '^DONE$' "$log")
    seen=$((p + f + s))
    echo "   $p passed, $f failed, $s skipped (exit $rc, $(cat "$dir/time.$k") s measured)"
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
wait "$pool"
echo "($skipped skipped)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
