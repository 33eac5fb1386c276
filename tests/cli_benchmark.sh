#!/bin/sh
# tests/cli_benchmark.sh CLI -- `cryptopim benchmark`: the
# cryptsetup-style table and its CSV, on tiny sizes (--quick, 16 KiB, the
# cpu backend measured and pim on 1 rank modeled).  The program checks every
# output against the cpu backend itself (exit 1 on a mismatch); here: the
# table has cryptsetup's header and one row per mode and key size, every row
# and the PBKDF2 lines say their clock (measured for cpu, modeled for pim),
# the CSV parses (same field count everywhere, positive rates), and bad
# options are usage errors (exit 2).  Throughputs are not asserted: they are
# timings.
. "$(dirname "$0")/lib.sh"
cli=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run="$cli benchmark --quick --size 16K --pim-ranks 1 --backend cpu --backend pim"

if $run >"$out/txt" 2>"$out/err"; then
    pass benchmark_text_runs
else
    fail benchmark_text_runs "exit $?: $(tail -n 2 "$out/err" | tr '\n' ' ')"
fi
if grep -q '^#     Algorithm |       Key |      Encryption |      Decryption' "$out/txt"; then
    pass benchmark_text_header
else
    fail benchmark_text_header "no cryptsetup header: $(head -n 3 "$out/txt" | tr '\n' ' ')"
fi
# every mode / key size (cryptsetup's key column: XTS counts both halves),
# once per subject, with the right clock
missing=
for ak in "aes-ecb 128b" "aes-ecb 192b" "aes-ecb 256b" "aes-ctr 128b" "aes-ctr 192b" \
    "aes-ctr 256b" "aes-xts 256b" "aes-xts 512b" "aes-gcm 128b" "aes-gcm 192b" "aes-gcm 256b"; do
    set -- $ak
    pat="^ *$1 *$2 *[0-9.]* MiB/s *[0-9.]* MiB/s *"
    grep -q "${pat}cpu, .* measured\$" "$out/txt" || missing="$missing cpu:$ak"
    grep -q "${pat}pim, 1 rank (64 DPUs) *modeled\$" "$out/txt" || missing="$missing pim:$ak"
done
if [ -z "$missing" ]; then
    pass benchmark_text_rows_and_clocks
else
    fail benchmark_text_rows_and_clocks "missing or unlabelled:$missing"
fi
if grep -q '^PBKDF2-sha256 *[0-9]* iterations per second for 256-bit key *(cpu, measured)$' \
    "$out/txt" &&
    grep -q '^PBKDF2-sha256 *[0-9]* iterations per second for 256-bit key *(pim, modeled)$' \
        "$out/txt"; then
    pass benchmark_text_pbkdf2
else
    fail benchmark_text_pbkdf2 "$(grep PBKDF2 "$out/txt" | tr '\n' ' ')"
fi

if $run --csv >"$out/csv" 2>"$out/err"; then
    pass benchmark_csv_runs
else
    fail benchmark_csv_runs "exit $?: $(tail -n 2 "$out/err" | tr '\n' ' ')"
fi
# 11 fields per row; header; clock column; rates > 0; 11 AES rows per
# subject and one PBKDF2 row each
bad=$(awk -F, '
    NR == 1 { if ($0 != "algorithm,key_bits,backend,ranks,dpus,threads,clock,bytes,encryption,decryption,unit") print "header: " $0; next }
    NF != 11 { print "fields: " $0; next }
    $7 != (($3 == "pim") ? "modeled" : "measured") { print "clock: " $0 }
    !($9 + 0 > 0) { print "rate: " $0 }
    $1 ~ /^aes-/ && (!($10 + 0 > 0) || $11 != "MiB/s") { print "aes row: " $0 }
    $1 == "pbkdf2-sha256" && $11 != "iterations/s" { print "pbkdf2 row: " $0 }
    { n[$3 " " ($1 ~ /^aes-/)]++ }
    END { if (n["cpu 1"] != 11 || n["pim 1"] != 11 || n["cpu 0"] != 1 || n["pim 0"] != 1)
              print "row counts: cpu " n["cpu 1"] "+" n["cpu 0"] ", pim " n["pim 1"] "+" n["pim 0"] }
' "$out/csv")
if [ -z "$bad" ]; then
    pass benchmark_csv_parses
else
    fail benchmark_csv_parses "$(echo "$bad" | head -n 3 | tr '\n' ' ')"
fi

usage_ok=1
for args in "--size 100" "--size 0" "--pim-ranks 0" "--pim-ranks 1,x" "--bogus" "operand"; do
    $cli benchmark $args >/dev/null 2>&1
    rc=$?
    [ $rc -eq 2 ] || { usage_ok=0; why="$args: exit $rc"; }
done
if [ $usage_ok -eq 1 ]; then
    pass benchmark_usage_errors
else
    fail benchmark_usage_errors "$why"
fi
finish
