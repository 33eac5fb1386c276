#!/bin/sh
# bench/test_check_modeled.sh -- bench/check_modeled.sh (`make bench-check`)
# on copies of the committed results: a copy passes; a modeled row that must
# be byte-identical fails when one digit changes; a row that includes
# measured host work passes unless --tol is exceeded; a missing CSV or row
# fails; --exact fails on any modeled difference.  PASS/FAIL lines
# (tests/lib.sh).
. "$(dirname "$0")/../tests/lib.sh"
ref=docs/results
check=bench/check_modeled.sh
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

fresh() {
    rm -rf "$out/new" && mkdir "$out/new" && cp "$ref"/*.csv "$out/new/"
}
# verdict NAME WANT_EXIT ARGS...: the checker's exit status is WANT_EXIT
verdict() {
    name=$1 want=$2
    shift 2
    sh "$check" "$@" "$ref" "$out/new" >"$out/log" 2>&1
    got=$?
    if [ "$got" -eq "$want" ]; then
        pass "$name"
    else
        fail "$name" "exit $got, want $want: $(tail -n 2 "$out/log" | tr '\n' ' ')"
    fi
}

fresh
verdict check_modeled_copy_passes 0
verdict check_modeled_copy_passes_exact 0 --exact

# a 1-DPU kernel row of tasklets.csv (no host work in it): last digit changed
fresh
awk -F, -v OFS=, 'NR == 3 { if ($10 != "kernel") exit 1; $11 = substr($11, 1, length($11) - 1) (substr($11, length($11)) + 1) % 10 } 1' \
    "$ref/tasklets.csv" >"$out/new/tasklets.csv" || fail check_modeled_setup "tasklets.csv row 3 is not a kernel row"
verdict check_modeled_kernel_digit_fails 1

# a total row (host work measured into it) 1 % larger: passes, fails with --tol 0.5
fresh
awk -F, -v OFS=, 'NR > 1 && $10 == "total" && $14 == "modeled" && !done { $11 = sprintf("%.9f", $11 * 1.01); done = 1 } 1' \
    "$ref/tasklets.csv" >"$out/new/tasklets.csv"
verdict check_modeled_host_row_passes 0
verdict check_modeled_host_row_tol_fails 1 --tol 0.5
verdict check_modeled_host_row_exact_fails 1 --exact

# a modeled row less, a CSV less
fresh
sed -i '$d' "$out/new/weak.csv"
verdict check_modeled_missing_row_fails 1
fresh
rm "$out/new/ranks.csv"
verdict check_modeled_missing_csv_fails 1
verdict check_modeled_usage 2 --tol
finish
