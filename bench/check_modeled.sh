#!/bin/sh
# bench/check_modeled.sh [--exact] [--tol PCT] REF NEW -- are the modeled
# rows of the result CSVs in NEW those of REF (`make bench-check`)?
#
# Every CSV of REF with a `clock` column is compared with NEW's file of the
# same name, row by row in file order (the experiments write their rows in
# a fixed order): the modeled rows only (clock `modeled`, plus the modeled
# ops/B of roofline.csv's kernel rows, whose row says measured for its
# throughput).  Measured rows vary from run to run and are not compared.
#
# A modeled row must be byte-identical unless it depends on the host work
# that `make bench` measures into the modeled clock (hostClock=thread: the
# calling thread's CPU time between UPMEM calls, bench.c):
#   - `total` rows (and the energy on them), the `pim` and `total` rows of
#     servers.csv (one server's total), asap.csv's end-to-end rows;
#   - every phase of a run on more than one rank: the host work between the
#     ranks' submissions staggers their phases.
#   - micro_xfer.csv's transfers (the validation times them on the host's
#     clock).
# Those rows are reported (how many, the largest difference) and pass, as
# they differ between two runs of the same code (small phases of 40-rank
# runs by 20 % and more); --tol PCT makes them fail beyond PCT percent.
# With --exact (both runs made with UPMEM_PROFILE=hostClock=none, which
# makes the experiments' modeled rows deterministic) every modeled row must
# be identical.
# Exit 0 when every row passes, 1 otherwise (each failing row printed), 2 on
# bad usage.
exact=0 tol=
while [ $# -gt 2 ]; do
    case $1 in
    --exact) exact=1 ;;
    --tol) tol=$2 && shift ;;
    *) break ;;
    esac
    shift
done
if [ $# -ne 2 ] || [ ! -d "$1" ] || [ ! -d "$2" ]; then
    echo "usage: $0 [--exact] [--tol PCT] REF_DIR NEW_DIR" >&2
    exit 2
fi
ref=$1 new=$2 bad=0 files=0
for r in "$ref"/*.csv; do
    f=${r##*/}
    head -n 1 "$r" | tr ',' '\n' | grep -qx clock || continue
    files=$((files + 1))
    if [ ! -f "$new/$f" ]; then
        echo "check: $f: missing in $new"
        bad=1
        continue
    fi
    awk -F, -v f="$f" -v exact="$exact" -v tol="$tol" '
    # the rows to compare, in order, with what they may differ by
    # (a row is modeled when a field says so: asap.csv has commas inside
    # its fields)
    function take(line, n, a,   i, m, c, ph, rk) {
        m = split(line, a, ",")
        if (f == "roofline.csv")
            return a[1] ~ /\(DRAM bytes\)$/ ? "kernel" : ""
        c = 0
        for (i = 1; i <= m; i++)
            c = c || a[i] == "modeled"
        if (!c)
            return ""
        if (exact)
            return "exact"
        ph = "phase" in col ? a[col["phase"]] : ""
        rk = "ranks" in col ? a[col["ranks"]] + 0 : 0
        if (f == "servers.csv")
            return ph == "network" ? "exact" : "host"
        if (f == "asap.csv")
            return line ~ /end to end/ ? "host" : "exact"
        if (f == "micro_xfer.csv")
            return "host"
        if (ph == "total" || rk > 1)
            return "host"
        return "exact"
    }
    function abs(x) { return x < 0 ? -x : x }
    FNR == 1 {
        if (NR == 1)
            for (i = 1; i <= NF; i++)
                col[$i] = i
        next
    }
    NR == FNR { k = take($0, 0, a); if (k != "") { nr++; rl[nr] = $0; rk[nr] = k } next }
    { k = take($0, 0, a); if (k != "") { nn++; nl[nn] = $0 } }
    END {
        if (nr != nn) {
            printf "check: %s: %d modeled rows in the reference, %d here\n", f, nr, nn
            exit 1
        }
        same = 0; host = 0; worst = 0; fails = 0
        for (i = 1; i <= nr; i++) {
            if (rl[i] == nl[i]) { same++; continue }
            m = split(rl[i], a, ","); split(nl[i], b, ",")
            if (f == "roofline.csv") {
                # only the modeled columns: intensity and ops/B
                if (a[1] == b[1] && a[2] == b[2] && a[5] == b[5]) { same++; continue }
                printf "check: %s: row %d differs in its modeled ops/B:\n  ref %s\n  new %s\n", f, i, rl[i], nl[i]
                fails++
                continue
            }
            d = 0; keys = 1
            for (j = 1; j <= m; j++) {
                if (a[j] == b[j])
                    continue
                if (a[j] !~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/ || b[j] !~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/) {
                    keys = 0
                    break
                }
                r = a[j] + 0 != 0 ? abs((b[j] - a[j]) / a[j]) * 100 : 100
                if (r > d)
                    d = r
            }
            if (keys && rk[i] == "host" && (tol == "" || d <= tol + 0)) {
                host++
                if (d > worst)
                    worst = d
                continue
            }
            why = "must be byte-identical"
            if (rk[i] == "host")
                why = sprintf("differs by %.3g %% (over %s %%)", d, tol)
            printf "check: %s: row %d %s:\n  ref %s\n  new %s\n", f, i, why, rl[i], nl[i]
            fails++
        }
        printf "check: %s: %d modeled rows: %d byte-identical, %d not (they include measured host work; largest difference %.3g %%%s), %d failed\n", f, nr, same, host, worst, tol == "" ? "" : ", at most " tol " %", fails
        exit fails > 0
    }' "$r" "$new/$f" || bad=1
done
if [ "$files" -eq 0 ]; then
    echo "check: no CSV with a clock column in $ref"
    exit 1
fi
[ "$bad" -eq 0 ] && echo "check: every modeled row of $new passes against $ref" ||
    echo "check: FAILED: modeled rows of $new differ from $ref"
exit "$bad"
