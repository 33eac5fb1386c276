# upmem_env.sh -- environment for the virtual UPMEM (like the SDK's
# upmem_env.sh). Source it from any shell:
#     . /path/to/cryptopim/emu/upmem_env.sh [simulator] [--modeled-time] [--machine NAME]
# As the SDK's script, it sets UPMEM_HOME to an SDK-shaped tree (bin/,
# include/dpu/, lib/, share/upmem/cmake/dpu.cmake, share/upmem/version,
# share/pkgconfig/dpu.pc: what UPMEM_HOME-based build systems look for),
# puts its bin/ first on PATH (the compiler wrapper, dpu-pkg-config,
# dpu-profile, dpu-gdb), its lib/ on LD_LIBRARY_PATH and the Python
# module `dpu` on PYTHONPATH. In the checkout the tree is build/upmem
# (`make` builds it; $UPMEM_EMU_BUILD/upmem for another build folder),
# whose bin/ links to emu/bin, and PKG_CONFIG_PATH gets build/pkgconfig
# (dpu.pc of the static libdpu.a); installed (`make install`), the tree is
# this script's folder, PREFIX/lib/upmem-virtual, and PKG_CONFIG_PATH gets
# its lib/pkgconfig. UPMEM_EMU_HOME is set to the checkout (installed: to
# that folder). The tree's share/upmem/version says "virtual UPMEM": the
# project's Makefile reads it to tell the tree from the real SDK.
# Arguments (any order; others are ignored, as a file sourced without
# arguments sees its caller's); given any of these, UPMEM_PROFILE_BASE
# becomes their keys, else it is left as it is:
#   simulator       backend=simulator, as the SDK's script does
#   --modeled-time  hostTime=modeled: the programs' own clock calls
#                   (gettimeofday, clock_gettime, time, clock) return the
#                   modeled host time, so unchanged programs (PrIM's timers)
#                   print modeled times (docs/VIRTUAL_UPMEM_HOST.md 4.1)
#   --machine NAME  machine=NAME: prim, study or dramatic (docs/MODEL.md)
# POSIX sh passes no arguments to a sourced file: there, set
# UPMEM_PROFILE_BASE=hostTime=modeled (and so on) yourself.

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
        UPMEM_HOME=$UPMEM_EMU_HOME
        _upmem_emu_pc=$UPMEM_EMU_HOME/lib/pkgconfig
        _upmem_emu_py=$UPMEM_EMU_HOME/python
    else
        _upmem_emu_build=${UPMEM_EMU_BUILD:-$UPMEM_EMU_HOME/build}
        UPMEM_HOME=$_upmem_emu_build/upmem
        if [ ! -f "$UPMEM_HOME/share/upmem/version" ]; then
            echo "upmem_env.sh: $UPMEM_HOME is not built yet: run make in $UPMEM_EMU_HOME" >&2
        fi
        _upmem_emu_pc=$_upmem_emu_build/pkgconfig
        _upmem_emu_py=$UPMEM_EMU_HOME/emu/python
    fi
    export UPMEM_HOME
    case ":${LD_LIBRARY_PATH:-}:" in
    *":$UPMEM_HOME/lib:"*) ;;
    *) LD_LIBRARY_PATH=$UPMEM_HOME/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ;;
    esac
    case ":${PKG_CONFIG_PATH:-}:" in
    *":$_upmem_emu_pc:"*) ;;
    *) PKG_CONFIG_PATH=$_upmem_emu_pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} ;;
    esac
    case ":${PYTHONPATH:-}:" in
    *":$_upmem_emu_py:"*) ;;
    *) PYTHONPATH=$_upmem_emu_py${PYTHONPATH:+:$PYTHONPATH} ;;
    esac
    export LD_LIBRARY_PATH PKG_CONFIG_PATH PYTHONPATH
    # No shift: sourced without arguments, "$@" are the caller's.
    _upmem_emu_keys=""
    _upmem_emu_next=""
    for _upmem_emu_a in "$@"; do
        if [ "$_upmem_emu_next" = machine ]; then
            _upmem_emu_keys="$_upmem_emu_keys,machine=$_upmem_emu_a"
            _upmem_emu_next=""
            continue
        fi
        case $_upmem_emu_a in
        simulator) _upmem_emu_keys="$_upmem_emu_keys,backend=simulator" ;;
        --modeled-time) _upmem_emu_keys="$_upmem_emu_keys,hostTime=modeled" ;;
        --machine=*) _upmem_emu_keys="$_upmem_emu_keys,machine=${_upmem_emu_a#--machine=}" ;;
        --machine) _upmem_emu_next=machine ;;
        *) ;; # not ours (maybe the caller's own arguments)
        esac
    done
    if [ -n "$_upmem_emu_keys" ]; then
        UPMEM_PROFILE_BASE=${_upmem_emu_keys#,}
        export UPMEM_PROFILE_BASE
    fi
    unset _upmem_emu_keys _upmem_emu_next _upmem_emu_a
fi
unset _upmem_emu_self _upmem_emu_bin _upmem_emu_pc _upmem_emu_prefix _upmem_emu_py _upmem_emu_build
