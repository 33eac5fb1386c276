#!/bin/sh
# tests/emu/lib/exports.sh -- what the libraries export (nm -g --defined-only).
#
# libdpu.a, which third-party UPMEM programs link, may export only
#   - names declared in its public headers emu/include/*.h (the UPMEM API:
#     dpu_*, dpulog_read_for_dpu; our extension dpu_emu_*), and
#   - the internal prefixes emu_ (emu/host) and vdpu_ (emu/vdpu);
#   - the C/POSIX clock functions emu/host/clock.c defines in place of libc's
#     (gettimeofday, clock_gettime, time, timespec_get, clock: reserved names
#     a program may not define itself);
# anything else could collide with a name of the program (names.c).
# libcryptopim.a may export cpim_* only: the public API (include/cryptopim.h)
# and its internal names, cpim_crypto_* (src/crypto), cpim_pim_* (src/pim)
# and the other cpim_ helpers of src/core and src/cpu.
# A self-test runs the check on an archive exporting `set_check`: it must fail.
#
# Usage: sh tests/emu/lib/exports.sh BUILD_DIR   (run from the checkout root)
# Prints `PASS name` / `FAIL name: why` lines and the exported names as `#`.
. "$(dirname "$0")/../../lib.sh" # pass/fail/skip, finish
build=${1:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! command -v nm >/dev/null 2>&1; then
    skip emu_lib_exports "no nm"
    finish
fi

# allowed_libdpu NAME: status 0 if libdpu.a may export NAME
allowed_libdpu() {
    case $1 in
    emu_* | vdpu_*) return 0 ;;
    gettimeofday | clock_gettime | time | timespec_get | clock) return 0 ;;
    dpu* | DPU*) grep -qw -- "$1" emu/include/*.h ;;
    *) return 1 ;;
    esac
}

allowed_libcryptopim() {
    case $1 in
    cpim_*) return 0 ;;
    *) return 1 ;;
    esac
}

# check ARCHIVE RULE: lists the unexpected names; status 0 if none
check() {
    nm -g --defined-only "$1" | awk 'NF == 3 { print $3 }' | sort -u >"$tmp/names" || return 1
    [ -s "$tmp/names" ] || { echo "(no names: not an archive?)"; return 1; }
    bad=
    while read -r s; do
        "$2" "$s" || bad="$bad $s"
    done <"$tmp/names"
    [ -z "$bad" ] || { echo "$bad"; return 1; }
}

for lib in libdpu libcryptopim; do
    if bad=$(check "$build/$lib.a" "allowed_$lib"); then
        echo "# $lib.a exports: $(tr '\n' ' ' <"$tmp/names")"
        pass emu_lib_exports_$lib
    else
        fail emu_lib_exports_$lib "unexpected exported names:$bad"
    fi
done

printf 'int set_check(void);\nint set_check(void) { return 1; }\n' >"$tmp/bad.c"
if ${CC:-cc} -c "$tmp/bad.c" -o "$tmp/bad.o" && ar rcs "$tmp/bad.a" "$tmp/bad.o" &&
    ! check "$tmp/bad.a" allowed_libdpu >/dev/null; then
    pass emu_lib_exports_check_finds_a_name
else
    fail emu_lib_exports_check_finds_a_name "an archive exporting set_check passed"
fi
finish
