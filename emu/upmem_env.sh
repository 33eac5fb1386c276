# upmem_env.sh -- environment for the virtual UPMEM (like the SDK's
# upmem_env.sh). Source it from any shell:
#     . /path/to/cryptopim/emu/upmem_env.sh [simulator]
# It puts emu/bin (dpu-upmem-dpurte-clang, dpu-clang, dpu-pkg-config) first
# on PATH, build/pkgconfig (dpu.pc) on PKG_CONFIG_PATH and sets
# UPMEM_EMU_HOME to the checkout. Installed (`make install`), the same
# script in PREFIX/lib/upmem-virtual puts its bin/ on PATH, its lib/ on
# LD_LIBRARY_PATH and lib/pkgconfig on PKG_CONFIG_PATH. It does NOT set
# UPMEM_HOME: the project's Makefile reads a set UPMEM_HOME as "the real SDK
# is installed". The optional argument "simulator" sets
# UPMEM_PROFILE_BASE=backend=simulator, as the SDK's script does.
# Build the library first: `make emu` (or `make`) in the checkout.

if [ -n "${BASH_SOURCE:-}" ]; then
    _upmem_emu_self=${BASH_SOURCE}
elif [ -n "${ZSH_VERSION:-}" ]; then
    # shellcheck disable=SC2296
    _upmem_emu_self=${(%):-%x}
else
    _upmem_emu_self=""
fi
# `make install` writes the installed folder here, for shells that cannot
# tell a sourced file's path (POSIX sh); empty in the checkout.
_upmem_emu_prefix=""
if [ -z "$_upmem_emu_self" ] && [ -n "$_upmem_emu_prefix" ]; then
    _upmem_emu_self=$_upmem_emu_prefix/upmem_env.sh
fi
_upmem_emu_bin=emu/bin
if [ -n "$_upmem_emu_self" ] && [ -f "$(dirname "$_upmem_emu_self")/INSTALLED" ]; then
    # installed by `make install`: this script sits in the virtual UPMEM's folder
    UPMEM_EMU_HOME=$(cd "$(dirname "$_upmem_emu_self")" && pwd)
    _upmem_emu_bin=bin
elif [ -n "$_upmem_emu_self" ]; then
    UPMEM_EMU_HOME=$(cd "$(dirname "$_upmem_emu_self")/.." && pwd)
elif [ -z "${UPMEM_EMU_HOME:-}" ] && [ -f emu/upmem_env.sh ]; then
    UPMEM_EMU_HOME=$(pwd) # POSIX sh cannot tell a sourced file's path
elif [ -z "${UPMEM_EMU_HOME:-}" ] && [ -f upmem_env.sh ] && [ -d ../emu ]; then
    UPMEM_EMU_HOME=$(cd .. && pwd)
fi
if [ -z "${UPMEM_EMU_HOME:-}" ]; then
    echo "upmem_env.sh: cannot locate the checkout; set UPMEM_EMU_HOME or source it from there" >&2
else
    export UPMEM_EMU_HOME
    case ":$PATH:" in
    *":$UPMEM_EMU_HOME/$_upmem_emu_bin:"*) ;;
    *) PATH=$UPMEM_EMU_HOME/$_upmem_emu_bin:$PATH ;;
    esac
    export PATH
    if [ "$_upmem_emu_bin" = bin ]; then
        # as the SDK's script: the shared libdpu and dpu.pc of this install
        case ":${LD_LIBRARY_PATH:-}:" in
        *":$UPMEM_EMU_HOME/lib:"*) ;;
        *) LD_LIBRARY_PATH=$UPMEM_EMU_HOME/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ;;
        esac
        _upmem_emu_pc=$UPMEM_EMU_HOME/lib/pkgconfig
    else
        _upmem_emu_pc=${UPMEM_EMU_BUILD:-$UPMEM_EMU_HOME/build}/pkgconfig
    fi
    case ":${PKG_CONFIG_PATH:-}:" in
    *":$_upmem_emu_pc:"*) ;;
    *) PKG_CONFIG_PATH=$_upmem_emu_pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} ;;
    esac
    export LD_LIBRARY_PATH PKG_CONFIG_PATH
    if [ "${1:-}" = simulator ]; then
        UPMEM_PROFILE_BASE=backend=simulator
        export UPMEM_PROFILE_BASE
    fi
fi
unset _upmem_emu_self _upmem_emu_bin _upmem_emu_pc _upmem_emu_prefix
