# tests/emu/dpu_names.sh -- every public name of the SDK's DPU headers
# (tests/emu/sdk/dpu_names.txt) is declared by the same header of the
# virtual UPMEM (as a macro, or as what the SDK has: function, variable,
# type, struct tag, enumerator), except the names listed with their reason
# in tests/emu/sdk/dpu_names_left_out.txt. One verdict per header.
# Usage: sh tests/emu/dpu_names.sh   (from the checkout's top directory)
. tests/lib.sh
CC=emu/bin/dpu-upmem-dpurte-clang
NAMES=tests/emu/sdk/dpu_names.txt
OUT=tests/emu/sdk/dpu_names_left_out.txt
T=$(mktemp -d "${TMPDIR:-/tmp}/dpunames.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
# The wrapper's own compile command, once (-v prints it): each header is
# then checked with one clang run instead of one wrapper run (4x faster).
printf 'int probe_unused;\n' >"$T/probe.c"
CCX=$($CC -v -c -o "$T/probe.o" "$T/probe.c" 2>&1 | sed -n 's/^+ \(.*\) -c .*/\1/p' | tail -1)
[ -n "$CCX" ] || { fail dpu_compile_command "$CC -v printed no compile command"; finish; }
[ -r "$NAMES" ] && [ -r "$OUT" ] || { fail dpu_names "cannot read $NAMES or $OUT"; finish; }
grep -v '^#' "$OUT" | cut -f1 | grep . | sort -u >"$T/out"
grep -v '^#' "$NAMES" | awk -F'\t' 'NF >= 3' >"$T/names"
# a left-out name must be an SDK name (a typo would leave it checked nowhere)
for n in $(cat "$T/out"); do
    cut -f3 "$T/names" | grep -qx -- "$n" || fail dpu_names_left_out "$n is not in $NAMES"
done
for h in $(cut -f1 "$T/names" | sort -u); do
    c=$T/$(echo "$h" | tr -c 'a-zA-Z0-9_\n' _).c
    {
        printf '#include <%s>\n' "$h"
        k=0
        awk -F'\t' -v h="$h" '$1 == h { print $2 "\t" $3 }' "$T/names" | while IFS="$(printf '\t')" read -r kind name; do
            grep -qx -- "$name" "$T/out" && continue
            k=$((k + 1))
            case $kind in
            type) printf 'static %s *chk_%d __attribute__((unused));\n' "$name" "$k" ;;
            tag) printf 'static char chk_%d[sizeof(%s)] __attribute__((unused));\n' "$k" "$name" ;;
            enumerator) printf '#ifndef %s\nstatic int chk_%d __attribute__((unused)) = %s;\n#endif\n' "$name" "$k" "$name" ;;
            *) printf '#ifndef %s\nstatic __typeof__(&%s) *chk_%d __attribute__((unused));\n#endif\n' "$name" "$name" "$k" ;;
            esac
        done
    } >"$c"
    if eval "$CCX -O0 -ferror-limit=0 -fsyntax-only '$c'" >"$T/log" 2>&1; then
        pass "dpu_names_$(echo "$h" | tr -c 'a-zA-Z0-9_\n' _)"
    else
        missing=$(grep -o "undeclared identifier '[^']*'\|unknown type name '[^']*'\|incomplete type '[^']*'" "$T/log" |
            sed "s/.*'\(.*\)'/\1/" | sort -u | tr '\n' ' ')
        fail "dpu_names_$(echo "$h" | tr -c 'a-zA-Z0-9_\n' _)" "<$h> lacks: ${missing:-$(head -c 400 "$T/log")}"
    fi
done
finish
