#!/bin/sh
# bench/merge_resident.sh HOST IN_PLACE BUS... -- the resident experiment's
# CSV of one run from the CSVs of its parts (CRYPTOPIM_RESIDENT_PART,
# bench/exp_resident.c), on stdout: `make bench` runs the parts as parallel
# jobs (bench/bench.mk).  HOST is the part of the AES-NI / SHA-NI rows,
# IN_PLACE the in-place half of every point, BUS... the through-the-bus
# parts in point order.  One run writes the header, the host rows, then per
# point (rank count, in the order the points first appear) its in-place
# rows and its bus rows: so does this.  Exit 0, or 2 on bad usage.
if [ $# -lt 3 ]; then
    echo "usage: $0 HOST.csv IN_PLACE.csv BUS.csv..." >&2
    exit 2
fi
for f in "$@"; do
    if [ ! -f "$f" ]; then
        echo "$0: $f: no such file" >&2
        exit 2
    fi
done
awk -F, 'FNR == 1 { f++; if (f == 1) print; next }
    f == 1 { print; next }
    { if (!($5 in seen)) { seen[$5] = 1; order[++n] = $5 }
      rows[f, $5] = rows[f, $5] $0 "\n" }
    END { for (i = 1; i <= n; i++) for (g = 2; g <= f; g++) printf "%s", rows[g, order[i]] }' "$@"
