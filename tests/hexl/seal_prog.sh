# tests/hexl/seal_prog.sh -- sourced after tests/lib.sh by the scripts that
# build a program of their own on SEAL's API (seal_driver.sh,
# bench/seal_pim.sh):
#
#   seal_prog WORK SRC OUT HEXL_INCLUDE LINK...
#
# compiles the C++ file SRC into OUT against the SEAL that tests/hexl/seal.sh
# built in WORK (its source WORK/SEAL-4.4.3, its build WORK/build-hexl, with
# SEAL_USE_INTEL_HEXL=ON on libhexl), libhexl's headers HEXL_INCLUDE and
# the libraries LINK (libhexl.a, libcryptopim.a, ...).  Returns non-zero, with
# the compiler's first errors on stderr, when SEAL is not built or SRC does
# not compile; recompiles only when SRC or a library is newer than OUT.
seal_prog() {
    _sp_work=$1 _sp_src=$2 _sp_out=$3 _sp_inc=$4
    shift 4
    _sp_lib=$(ls "$_sp_work"/build-hexl/lib/libseal-*.a 2>/dev/null | head -n 1)
    if [ -z "$_sp_lib" ]; then
        echo "no SEAL build in $_sp_work (tests/hexl/seal.sh builds it)" >&2
        return 1
    fi
    _sp_stale=
    [ -f "$_sp_out" ] || _sp_stale=1
    for _sp_f in "$_sp_src" "$_sp_lib" "$@"; do
        [ -f "$_sp_f" ] && [ "$_sp_f" -nt "$_sp_out" ] && _sp_stale=1
    done
    [ -n "$_sp_stale" ] || return 0
    mkdir -p "$(dirname "$_sp_out")" || return 1
    ${CXX:-g++} -std=c++17 -O2 -Wall -Wextra -Werror -I"$_sp_inc" \
        -I"$_sp_work/SEAL-4.4.3/native/src" -I"$_sp_work/build-hexl/native/src" \
        -o "$_sp_out" "$_sp_src" "$_sp_lib" "$@" 2>"$_sp_out.log" || {
        head -c 1500 "$_sp_out.log" >&2
        return 1
    }
}
