#!/bin/sh
# tests/layers.sh BUILD -- the layering of docs/ARCHITECTURE.md, checked at
# link level: `nm` over each folder's objects in BUILD.  The build already
# refuses a header of a layer a folder may not use (its include paths); this
# catches what the include paths cannot: a symbol declared by hand, or a
# header that names a higher layer's definitions.
#
#   - No folder of the library references a symbol defined in a higher
#     layer (src/crypto < src/core < src/cpu, src/pim), and the two backend
#     folders none of each other's.  One exception, by design: the core's
#     registry names the backends' rows (cpim_backend_<name>, backend.h).
#   - tools/, mpi/ and bench/ use the library only through its public API:
#     every library symbol they reference is declared in include/.  One
#     exception, by its own build rule (bench/bench.mk): the TSME study
#     (bench/exp_tsme.c) runs DPU programs of its own with the portable AES
#     of src/crypto/ (cpim_crypto_*).
#   - emu/ (the virtual UPMEM) and plot/ reference nothing of the library.
. "$(dirname "$0")/lib.sh"

B=${1:?usage: layers.sh BUILD}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT INT TERM

rank() {
    case $1 in
    src/crypto) echo 0 ;;
    src/core) echo 1 ;;
    src/cpu | src/pim) echo 2 ;;
    *) echo 9 ;;
    esac
}

LIBDIRS="src/crypto src/core src/cpu src/pim"
for d in $LIBDIRS tools mpi bench emu/host emu/vdpu plot; do
    f=$(echo "$d" | tr / _)
    set -- "$B/$d"/*.o
    if [ ! -e "$1" ]; then
        : >"$T/$f.def"
        : >"$T/$f.und"
        continue
    fi
    nm -g --defined-only "$@" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u >"$T/$f.def"
    nm -u "$@" 2>/dev/null | awk '{ print $NF }' | sort -u >"$T/$f.und"
done
cat "$T"/src_*.def | sort -u >"$T/lib.def"

if [ ! -s "$T/src_core.def" ] || [ ! -s "$T/src_crypto.def" ]; then
    fail layers_objects "no library objects under $B/src (build first)"
    finish
fi

# 1: the library's folders, each against the others
for d in $LIBDIRS; do
    f=$(echo "$d" | tr / _)
    : >"$T/bad"
    for e in $LIBDIRS; do
        [ "$e" = "$d" ] && continue
        [ "$(rank "$e")" -lt "$(rank "$d")" ] && continue
        g=$(echo "$e" | tr / _)
        comm -12 "$T/$f.und" "$T/$g.def" | sed "s|\$| (defined in $e)|" >>"$T/bad"
    done
    if [ "$d" = src/core ]; then # the registry's rows
        grep -v '^cpim_backend_[a-z_]* (defined in src/\(cpu\|pim\))$' "$T/bad" >"$T/bad2"
        mv "$T/bad2" "$T/bad"
    fi
    n=layers_$(echo "$d" | tr / _)
    if [ -s "$T/bad" ]; then
        fail "$n" "$d references a higher or sibling layer: $(tr '\n' ' ' <"$T/bad")"
    else
        pass "$n"
    fi
done

# 2: the front ends: the public API only
grep -ho '\bcpim_[a-z0-9_]*' include/*.h | sort -u >"$T/public"
for d in tools mpi bench; do
    f=$(echo "$d" | tr / _)
    n=layers_$f
    if [ ! -s "$T/$f.und" ]; then
        skip "$n" "no objects under $B/$d"
        continue
    fi
    comm -12 "$T/$f.und" "$T/lib.def" | comm -23 - "$T/public" >"$T/bad"
    if [ "$d" = bench ] && [ -e "$B/bench/exp_tsme.o" ]; then
        # exp_tsme.o's cpim_crypto_* are allowed, nobody else's
        for o in "$B"/bench/*.o; do
            [ "$o" = "$B/bench/exp_tsme.o" ] && continue
            nm -u "$o" | awk '{ print $NF }'
        done | sort -u >"$T/others"
        nm -u "$B/bench/exp_tsme.o" | awk '$NF !~ /^cpim_crypto_/ { print $NF }' |
            sort -u -m - "$T/others" | comm -12 - "$T/lib.def" | comm -23 - "$T/public" >"$T/bad"
    fi
    if [ -s "$T/bad" ]; then
        fail "$n" "$d uses library symbols outside include/: $(tr '\n' ' ' <"$T/bad")"
    else
        pass "$n"
    fi
done

# 3: the virtual UPMEM and the plotting module know nothing of the library
for d in emu/host emu/vdpu plot; do
    f=$(echo "$d" | tr / _)
    n=layers_$f
    if [ ! -s "$T/$f.und" ] && [ ! -s "$T/$f.def" ]; then
        skip "$n" "no objects under $B/$d"
        continue
    fi
    comm -12 "$T/$f.und" "$T/lib.def" >"$T/bad"
    if [ -s "$T/bad" ]; then
        fail "$n" "$d references the library: $(tr '\n' ' ' <"$T/bad")"
    else
        pass "$n"
    fi
done
finish
