# upmem_env.sh -- environment for the virtual UPMEM (like the SDK's
# upmem_env.sh). Source it from any shell:
#     . /path/to/cryptopim/emu/upmem_env.sh [simulator]
# It puts emu/bin (dpu-upmem-dpurte-clang, dpu-clang, dpu-pkg-config) first
# on PATH and sets UPMEM_EMU_HOME to the checkout. It does NOT set
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
if [ -n "$_upmem_emu_self" ]; then
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
    *":$UPMEM_EMU_HOME/emu/bin:"*) ;;
    *) PATH=$UPMEM_EMU_HOME/emu/bin:$PATH ;;
    esac
    export PATH
    if [ "${1:-}" = simulator ]; then
        UPMEM_PROFILE_BASE=backend=simulator
        export UPMEM_PROFILE_BASE
    fi
fi
unset _upmem_emu_self
