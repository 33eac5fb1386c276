#!/bin/sh
# tests/emu/lib/layers.sh -- the layers of emu/host run one way (host.h).
#
# Derives a module graph from the #includes: each emu/host/*.c and *.h file
# is its module (file name without extension); `#include "x.h"` of a sibling
# header is an edge to module x. Fails on a cycle (tsort), and on a
# prototype or extern declaration in a .c file (a .c that declares what
# another layer defines would call it without an edge in the graph).
# A self-test runs the check on a made-up folder with a cycle: it must fail.
#
# Usage: sh tests/emu/lib/layers.sh [dir]   (default emu/host)
# Prints `PASS name` / `FAIL name: why` lines.
. "$(dirname "$0")/../../lib.sh" # pass/fail/skip, finish
dir=${1:-emu/host}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check DIR: prints the order (bottom first) or the problem; status 0 if ok
check() {
    for f in "$1"/*.c "$1"/*.h; do
        [ -f "$f" ] || continue
        m=$(basename "$f")
        m=${m%.*}
        echo "$m $m"
        sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"/]*\)\.h".*/\1/p' "$f" |
            while read -r h; do
                if [ -f "$1/$h.h" ] && [ "$h" != "$m" ]; then
                    echo "$h $m"
                fi
            done
    done >"$tmp/edges"
    if ! tsort "$tmp/edges" >"$tmp/order" 2>"$tmp/err"; then
        echo "include cycle: $(tr '\n' ' ' <"$tmp/err")"
        return 1
    fi
    # top-level declarations that are not static, in .c files
    if grep -n -E '^(extern[[:space:]]|[A-Za-z_].*\);[[:space:]]*$)' "$1"/*.c 2>/dev/null |
        grep -v -E ':[0-9]+:(static|typedef)[[:space:]]' >"$tmp/decl"; then
        echo "declaration in a .c file (put it in its layer's header): $(head -n 3 "$tmp/decl" | tr '\n' ' ')"
        return 1
    fi
    echo "order: $(tr '\n' ' ' <"$tmp/order")"
    return 0
}

if out=$(check "$dir"); then
    echo "# $out"
    pass emu_host_layers_one_way
else
    fail emu_host_layers_one_way "$out"
fi

mkdir "$tmp/cycle"
printf '#include "b.h"\n' >"$tmp/cycle/a.c"
printf '#include "a.h"\n' >"$tmp/cycle/b.c"
: >"$tmp/cycle/a.h"
: >"$tmp/cycle/b.h"
if check "$tmp/cycle" >/dev/null; then
    fail emu_host_layers_check_finds_a_cycle "a.c -> b.h, b.c -> a.h passed"
else
    pass emu_host_layers_check_finds_a_cycle
fi
finish
