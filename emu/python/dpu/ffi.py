"""ctypes declarations of the virtual UPMEM's libdpu (emu/include/dpu.h).

The library is found, in order: $UPMEM_HOME/lib (the SDK-shaped tree that
upmem_env.sh sets), the install's lib/ next to this package
(PREFIX/lib/upmem-virtual/python/dpu -> ../../lib), the checkout's build
folder ($UPMEM_EMU_BUILD, else build/ of the checkout holding emu/python),
then the loader's own search (LD_LIBRARY_PATH).
"""

import ctypes
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def _candidates():
    home = os.environ.get("UPMEM_HOME")
    if home:
        yield os.path.join(home, "lib", "libdpu.so.0")
    yield os.path.join(_HERE, "..", "..", "lib", "libdpu.so.0")
    root = os.path.normpath(os.path.join(_HERE, "..", "..", ".."))
    build = os.environ.get("UPMEM_EMU_BUILD", os.path.join(root, "build"))
    yield os.path.join(build, "libdpu.so.0")
    yield "libdpu.so.0"


def _load():
    errors = []
    for path in _candidates():
        if os.path.sep in path and not os.path.exists(path):
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            errors.append(str(e))
    raise ImportError("dpu: cannot load libdpu.so.0 (build it with make, then source "
                      "emu/upmem_env.sh): " + "; ".join(errors))


lib = _load()
libc = ctypes.CDLL(None)

DPU_OK = 0
ALLOCATE_ALL = 0xFFFFFFFF
DPU_SET_RANKS, DPU_SET_DPU = 0, 1
DPU_ASYNCHRONOUS, DPU_SYNCHRONOUS = 0, 1
DPU_XFER_TO_DPU, DPU_XFER_FROM_DPU = 0, 1
DPU_XFER_DEFAULT, DPU_XFER_NO_RESET, DPU_XFER_ASYNC = 0, 1, 2
DPU_CALLBACK_DEFAULT, DPU_CALLBACK_ASYNC, DPU_CALLBACK_NONBLOCKING = 0, 1, 2
DPU_CALLBACK_SINGLE_CALL = 4
DPU_ERR_SYSTEM = 2


class _RankList(ctypes.Structure):
    _fields_ = [("nr_ranks", ctypes.c_uint32), ("ranks", ctypes.POINTER(ctypes.c_void_p))]


class _SetUnion(ctypes.Union):
    _fields_ = [("list", _RankList), ("dpu", ctypes.c_void_p)]


class struct_dpu_set_t(ctypes.Structure):
    _anonymous_ = ("u",)
    _fields_ = [("kind", ctypes.c_int), ("u", _SetUnion)]


class struct_dpu_symbol_t(ctypes.Structure):
    _fields_ = [("address", ctypes.c_uint32), ("size", ctypes.c_uint32)]


class dpu_iterator_t(ctypes.Structure):
    """struct dpu_set_dpu_iterator_t (its rank twin has a prefix of it)."""
    _fields_ = [("set", struct_dpu_set_t), ("next", struct_dpu_set_t),
                ("count", ctypes.c_uint32), ("has_next", ctypes.c_bool),
                ("rank_index", ctypes.c_uint32), ("dpu_index", ctypes.c_uint32)]


class rank_iterator_t(ctypes.Structure):
    _fields_ = [("set", struct_dpu_set_t), ("next", struct_dpu_set_t),
                ("count", ctypes.c_uint32), ("has_next", ctypes.c_bool)]


CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, struct_dpu_set_t, ctypes.c_uint32, ctypes.c_void_p)

_E = ctypes.c_int
_SET = struct_dpu_set_t
_P = ctypes.c_void_p
_SZ = ctypes.c_size_t
_U32 = ctypes.c_uint32


def _fn(name, res, *args):
    f = getattr(lib, name)
    f.restype = res
    f.argtypes = list(args)
    return f


dpu_alloc = _fn("dpu_alloc", _E, _U32, ctypes.c_char_p, ctypes.POINTER(_SET))
dpu_alloc_ranks = _fn("dpu_alloc_ranks", _E, _U32, ctypes.c_char_p, ctypes.POINTER(_SET))
dpu_free = _fn("dpu_free", _E, _SET)
dpu_load = _fn("dpu_load", _E, _SET, ctypes.c_char_p, ctypes.POINTER(_P))
dpu_load_from_memory = _fn("dpu_load_from_memory", _E, _SET, _P, _SZ, ctypes.POINTER(_P))
dpu_get_symbol = _fn("dpu_get_symbol", _E, _P, ctypes.c_char_p,
                     ctypes.POINTER(struct_dpu_symbol_t))
dpu_launch = _fn("dpu_launch", _E, _SET, ctypes.c_int)
dpu_sync = _fn("dpu_sync", _E, _SET)
dpu_prepare_xfer = _fn("dpu_prepare_xfer", _E, _SET, _P)
dpu_push_xfer = _fn("dpu_push_xfer", _E, _SET, ctypes.c_int, ctypes.c_char_p, _U32, _SZ,
                    ctypes.c_int)
dpu_push_xfer_symbol = _fn("dpu_push_xfer_symbol", _E, _SET, ctypes.c_int, struct_dpu_symbol_t,
                           _U32, _SZ, ctypes.c_int)
dpu_broadcast_to = _fn("dpu_broadcast_to", _E, _SET, ctypes.c_char_p, _U32, _P, _SZ, ctypes.c_int)
dpu_broadcast_to_symbol = _fn("dpu_broadcast_to_symbol", _E, _SET, struct_dpu_symbol_t, _U32, _P,
                              _SZ, ctypes.c_int)
dpu_callback = _fn("dpu_callback", _E, _SET, CALLBACK, _P, ctypes.c_int)
dpu_log_read = _fn("dpu_log_read", _E, _SET, _P)
dpu_error_to_string = _fn("dpu_error_to_string", _P, _E)
dpu_set_dpu_iterator_from = _fn("dpu_set_dpu_iterator_from", dpu_iterator_t, ctypes.POINTER(_SET))
dpu_set_dpu_iterator_next = _fn("dpu_set_dpu_iterator_next", None, ctypes.POINTER(dpu_iterator_t))
dpu_set_rank_iterator_from = _fn("dpu_set_rank_iterator_from", rank_iterator_t,
                                 ctypes.POINTER(_SET))
dpu_set_rank_iterator_next = _fn("dpu_set_rank_iterator_next", None,
                                 ctypes.POINTER(rank_iterator_t))

libc.free.argtypes = [_P]
libc.free.restype = None
libc.tmpfile.restype = _P
libc.tmpfile.argtypes = []
libc.fclose.argtypes = [_P]
libc.fflush.argtypes = [_P]
libc.fileno.argtypes = [_P]


def error_string(err):
    p = dpu_error_to_string(err)
    if not p:
        return "DPU error %d" % err
    try:
        return ctypes.string_at(p).decode("utf-8", "replace")
    finally:
        libc.free(p)
