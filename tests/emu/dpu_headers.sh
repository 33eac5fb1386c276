# tests/emu/dpu_headers.sh -- the virtual UPMEM's DPU headers against the
# SDK's include graph (tests/emu/sdk/dpu_includes.txt): each header compiles
# alone, and everything the SDK's version includes is reached from it (code
# that relies on a transitive include, such as fsb_allocator_t after
# <alloc.h>, compiles as with the SDK).
# Usage: sh tests/emu/dpu_headers.sh   (from the checkout's top directory)
. tests/lib.sh
CC=emu/bin/dpu-upmem-dpurte-clang
FACTS=tests/emu/sdk/dpu_includes.txt
T=$(mktemp -d "${TMPDIR:-/tmp}/dpuhdr.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
# The wrapper's own compile command, once (-v prints it): each header is
# then checked with one clang run instead of one wrapper run (4x faster).
printf 'int probe_unused;\n' >"$T/probe.c"
CCX=$($CC -v -c -o "$T/probe.o" "$T/probe.c" 2>&1 | sed -n 's/^+ \(.*\) -c .*/\1/p' | tail -1)
[ -n "$CCX" ] || { fail dpu_compile_command "$CC -v printed no compile command"; finish; }
[ -r "$FACTS" ] || { fail dpu_headers "cannot read $FACTS"; finish; }
grep -v '^#' "$FACTS" | grep ':' >"$T/facts"
# one compile per header, in parallel pairs to keep CI short
while IFS=: read -r h incs; do
    n=$(echo "$h" | tr -c 'a-zA-Z0-9_\n' _)
    printf '#include <%s>\nint dpu_headers_unused;\n' "$h" >"$T/$n.c"
    if [ ! -f "emu/dpu-include/$h" ]; then
        fail "dpu_header_$n" "the SDK has <$h>, emu/dpu-include has not"
        continue
    fi
    if ! eval "$CCX -O0 -Wall -Wextra -Werror -fsyntax-only -MD -MF '$T/$n.d' '$T/$n.c'" >"$T/$n.log" 2>&1; then
        fail "dpu_header_$n" "<$h> alone does not compile: $(head -c 600 "$T/$n.log")"
        continue
    fi
    missing=""
    for i in $incs; do
        tr ' \\' '\n\n' <"$T/$n.d" | grep -q "/$i\$" || missing="$missing $i"
    done
    if [ -n "$missing" ]; then
        fail "dpu_header_$n" "<$h> does not include (directly or not)$missing, as the SDK's does"
    else
        pass "dpu_header_$n"
    fi
done <"$T/facts"
# The SDK's declaring macros that end with their own ';' (public programs
# write them bare, e.g. `BARRIER_INIT(bar, NR_TASKLETS)`): they compile
# with and without one after them.
cat >"$T/semi.c" <<'EOF'
#include <barrier.h>
#include <mutex_pool.h>
#include <sem.h>
#include <stdio.h>
#include <vmutex.h>
BARRIER_INIT(b_bare, 2)
SEMAPHORE_INIT(s_bare, 1)
MUTEX_POOL_INIT(p_bare, 2)
VMUTEX_INIT(v_bare, 8, 2)
STDOUT_BUFFER_INIT(64)
BARRIER_INIT(b_semi, 2);
SEMAPHORE_INIT(s_semi, 1);
MUTEX_POOL_INIT(p_semi, 2);
VMUTEX_INIT(v_semi, 8, 2);
int semi_unused;
EOF
if eval "$CCX -O0 -Wall -Wextra -Werror -fsyntax-only '$T/semi.c'" >"$T/semi.log" 2>&1; then
    pass dpu_init_macros_own_semicolon
else
    fail dpu_init_macros_own_semicolon "$(grep error "$T/semi.log" | head -c 600)"
fi
# -pg: as the SDK's driver, DPU_PROFILING (profiling.h's sections count)
printf '#ifndef DPU_PROFILING\n#error no DPU_PROFILING\n#endif\nint pg_unused;\n' >"$T/pg.c"
if ! $CC -pg -c -o "$T/pg.o" "$T/pg.c" >"$T/pg.log" 2>&1; then
    fail dpu_pg_defines_profiling "-pg did not define DPU_PROFILING: $(head -c 300 "$T/pg.log")"
elif $CC -c -o "$T/pg.o" "$T/pg.c" >/dev/null 2>&1; then
    fail dpu_pg_defines_profiling "DPU_PROFILING defined without -pg"
else
    pass dpu_pg_defines_profiling
fi
finish
