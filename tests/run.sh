#!/bin/sh
# tests/run.sh -- runs every test program and counts their PASS/FAIL lines.
#
# Each argument is a command that prints `PASS name` / `FAIL name: why`
# (and may print `SKIP name: why`) lines.  A command that exits non-zero
# without printing FAIL (a crash, a sanitizer report) counts as one failure.
# The last line is `N passed, N failed`, which CI reads.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
passed=0
failed=0
for cmd in "$@"; do
    echo "== $cmd"
    sh -c "$cmd" >"$log" 2>&1
    rc=$?
    grep -E '^(PASS|FAIL|SKIP) ' "$log" | grep -v '^PASS ' || true
    p=$(grep -c '^PASS ' "$log")
    f=$(grep -c '^FAIL ' "$log")
    echo "   $p passed, $f failed (exit $rc)"
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "FAIL $cmd: exited with status $rc; its last lines:"
        tail -n 15 "$log" | sed 's/^/    /'
        f=1
    fi
    passed=$((passed + p))
    failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
