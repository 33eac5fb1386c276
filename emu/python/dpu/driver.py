"""DpuSet and friends: the SDK's ``dpu.driver`` API on the virtual UPMEM.

Each method makes the C calls the SDK's does (dpu_alloc / dpu_load /
dpu_broadcast_to / dpu_prepare_xfer + dpu_push_xfer / dpu_launch /
dpu_log_read / dpu_callback / dpu_sync), so results, errors and modeled
time are those of the C API. Errors are raised as DpuError with the C
error's text. Differences from the SDK are in docs/COMPATIBILITY.md §2.
"""

import ctypes
import io
import os
import subprocess
import sys
import tempfile
import threading

from . import compiler
from . import ffi

ALLOCATE_ALL = ffi.ALLOCATE_ALL


class DpuError(Exception):
    """Error raised by the API"""


def _check(err):
    if err != ffi.DPU_OK:
        raise DpuError(ffi.error_string(err))


def _host_bytes(buf, writable):
    """A ctypes byte array over a host buffer (bytes, bytearray, memoryview,
    array.array, a numpy array: anything with the buffer protocol, C-contiguous).
    A read-only buffer is copied (only valid as a source)."""
    try:
        view = memoryview(buf)
    except TypeError:
        raise DpuError("host buffer must support the buffer protocol (got %s)" %
                       type(buf).__name__) from None
    if not view.c_contiguous:
        raise DpuError("host buffer is not contiguous")
    view = view.cast("B")
    n = view.nbytes
    if view.readonly:
        if writable:
            raise DpuError("host buffer is read-only")
        return (ctypes.c_byte * n).from_buffer_copy(view), n
    return (ctypes.c_byte * n).from_buffer(view), n


class DpuVariable:
    """The contents of a symbol read from each DPU of a set (one memoryview
    per DPU); the typed getters unwrap a single DPU / a single element."""

    def __init__(self, contents):
        self.contents = contents

    def data(self):
        return _unwrap(self.contents)

    def _cast(self, fmt):
        return _unwrap([_unwrap(v.cast(fmt)) for v in self.contents])

    def int8(self):
        return self._cast("b")

    def uint8(self):
        return self._cast("B")

    def int16(self):
        return self._cast("h")

    def uint16(self):
        return self._cast("H")

    def int32(self):
        return self._cast("i")

    def uint32(self):
        return self._cast("I")

    def int64(self):
        return self._cast("q")

    def uint64(self):
        return self._cast("Q")

    def float(self):
        return self._cast("f")

    def double(self):
        return self._cast("d")


def _unwrap(seq):
    return seq if len(seq) != 1 else seq[0]


class DpuSymbol:
    """A symbol of a DPU program: name, value() (its address), size()."""

    def __init__(self, name, c_symbol):
        self.name = name
        if isinstance(c_symbol, ffi.struct_dpu_symbol_t):
            self.c_symbol = c_symbol
        else:
            self.c_symbol = ffi.struct_dpu_symbol_t(c_symbol[0], c_symbol[1])

    def value(self):
        return self.c_symbol.address

    def size(self):
        return self.c_symbol.size


class DpuProgram:
    """A loaded DPU program; get_symbol(name) -> DpuSymbol or None."""

    def __init__(self, c_program):
        self.c_program = c_program
        self.symbols = {}

    def get_symbol(self, symbol):
        if symbol not in self.symbols:
            c_symbol = ffi.struct_dpu_symbol_t()
            if ffi.dpu_get_symbol(self.c_program, symbol.encode(),
                                  ctypes.byref(c_symbol)) != ffi.DPU_OK:
                return None
            self.symbols[symbol] = DpuSymbol(symbol, c_symbol)
        return self.symbols[symbol]


def _iterate(c_set, start, step):
    it = start(ctypes.byref(c_set))
    while it.has_next:
        one = ffi.struct_dpu_set_t()
        ctypes.pointer(one)[0] = it.next
        step(ctypes.byref(it))
        yield one


_INTERNAL = ("c_set", "_dpus", "_ranks", "_top_set", "_rank_set", "_async_mode", "_log",
             "_program", "_keep", "_keep_lock", "_callbacks")


class DpuSet:
    """A set of DPUs: DpuSet(nr_dpus=None, nr_ranks=None, profile='',
    binary=None, c_source=None, asm_source=None, log=None, async_mode=False).
    Neither nr_dpus nor nr_ranks: every DPU (ALLOCATE_ALL). binary is a
    path or the ELF's bytes; c_source one or a list of C files (paths or
    file objects), compiled with the toolchain wrapper then loaded. log: a
    stream, or one per DPU, where exec() writes each DPU's printf output.
    A DpuSet iterates over its DPUs (each a DpuSet); a loaded program's
    host-visible symbols read and write as attributes (set.counter)."""

    def __init__(self, nr_dpus=None, nr_ranks=None, profile="", binary=None, c_source=None,
                 asm_source=None, log=None, async_mode=False, _do_internals=True):
        self.c_set = None
        self._dpus = []
        self._ranks = []
        self._top_set = None
        self._rank_set = None
        self._async_mode = async_mode
        self._log = None if isinstance(log, list) else log
        self._program = None
        self._keep = []
        self._keep_lock = threading.Lock()
        self._callbacks = []
        if not _do_internals:
            return
        if nr_dpus is not None and nr_ranks is not None:
            raise DpuError("cannot specify nr_dpus and nr_ranks")
        if nr_dpus is None and nr_ranks is None:
            nr_dpus = ALLOCATE_ALL
        c_set = ffi.struct_dpu_set_t()
        prof = (profile or "").encode()
        if nr_dpus is not None:
            _check(ffi.dpu_alloc(nr_dpus, prof, ctypes.byref(c_set)))
        else:
            _check(ffi.dpu_alloc_ranks(nr_ranks, prof, ctypes.byref(c_set)))
        self.c_set = c_set
        for c_rank in _iterate(c_set, ffi.dpu_set_rank_iterator_from,
                               ffi.dpu_set_rank_iterator_next):
            rank = DpuSet(log=log, async_mode=async_mode, _do_internals=False)
            rank.c_set = c_rank
            rank._ranks.append(rank)
            rank._top_set = self
            self._ranks.append(rank)
            for c_dpu in _iterate(c_rank, ffi.dpu_set_dpu_iterator_from,
                                  ffi.dpu_set_dpu_iterator_next):
                dpu = DpuSet(log=log, async_mode=async_mode, _do_internals=False)
                dpu.c_set = c_dpu
                dpu._dpus.append(dpu)
                dpu._ranks.append(rank)
                dpu._top_set = self
                dpu._rank_set = rank
                rank._dpus.append(dpu)
                self._dpus.append(dpu)
        try:
            if isinstance(log, list):
                if len(log) != len(self._dpus):
                    raise DpuError("log list length does not match number of DPUs in DpuSet")
                for dpu, dpu_log in zip(self._dpus, log):
                    dpu._log = dpu_log
            if c_source is not None or asm_source is not None or binary is not None:
                self.load(binary, c_source, asm_source)
        except BaseException:
            ffi.dpu_free(self.c_set)
            raise

    # ---- the set as a container and a context manager
    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, exc_traceback):
        self.free()

    def __iter__(self):
        return iter(self._dpus)

    def __len__(self):
        return len(self._dpus)

    def dpus(self):
        """The DPUs of the set (each a DpuSet)."""
        return self._dpus

    def ranks(self):
        """The ranks of the set (each a DpuSet)."""
        return self._ranks

    def free(self):
        """Releases the DPUs (waits for queued work first)."""
        _check(ffi.dpu_free(self.c_set))

    # ---- symbols as attributes
    def _root(self):
        return self._top_set if self._top_set is not None else self

    def _symbol(self, name):
        prog = self._root()._program
        return prog.get_symbol(name) if prog is not None else None

    def __getattr__(self, name):
        # only called when normal lookup fails: a program symbol, read
        if name.startswith("_") or name in _INTERNAL:
            raise AttributeError(name)
        symbol = self._symbol(name)
        if symbol is None:
            raise AttributeError("%r object has no attribute or DPU symbol %r" %
                                 (type(self).__name__, name))
        size = symbol.size()
        view = memoryview(bytearray(len(self._dpus) * size))
        bufs = [view[i * size:(i + 1) * size] for i in range(len(self._dpus))]
        self.copy(bufs, symbol)
        return DpuVariable(bufs)

    def __setattr__(self, name, value):
        if not name.startswith("_") and name not in _INTERNAL and \
                self.__dict__.get("c_set") is not None and self._symbol(name) is not None:
            self.copy(self._symbol(name), value)
        else:
            object.__setattr__(self, name, value)

    # ---- programs
    def load(self, binary=None, c_source=None, asm_source=None):
        """Loads a binary (path or bytes) or compiles C sources (one or a
        list, paths or file objects) and loads the result; returns the
        DpuProgram."""
        if (binary is None) == (c_source is None and asm_source is None):
            raise DpuError("one and only one source or binary program must be defined")
        with tempfile.TemporaryDirectory() as tmpdir:
            sources = []
            for kind, src_list in (("c", c_source), ("S", asm_source)):
                if src_list is None:
                    continue
                for idx, src in enumerate(src_list if isinstance(src_list, list) else [src_list]):
                    if not isinstance(src, str):
                        path = os.path.join(tmpdir, "src%d_%d.%s" % (len(sources), idx, kind))
                        with open(path, "w") as f:
                            f.write(src.read())
                        src = path
                    sources.append(src)
            if sources:
                binary = os.path.join(tmpdir, "main.dpu")
                options = [] if c_source is not None else ["-nostartfiles"]
                try:
                    compiler.DEFAULT_DPU_COMPILER.compile(sources, output=binary, options=options,
                                                          opt_lvl=compiler.O2)
                except (OSError, subprocess.CalledProcessError) as e:
                    raise DpuError("cannot compile the DPU program: %s" % e) from None
            c_program = ctypes.c_void_p()
            if isinstance(binary, str):
                err = ffi.dpu_load(self.c_set, binary.encode(), ctypes.byref(c_program))
            else:
                buf, n = _host_bytes(binary, writable=False)
                err = ffi.dpu_load_from_memory(self.c_set, ctypes.addressof(buf), n,
                                               ctypes.byref(c_program))
        _check(err)
        program = DpuProgram(c_program)
        self._root()._program = program
        return program

    # ---- transfers
    def _xfer_flags(self, async_mode):
        if async_mode is None:
            async_mode = self._async_mode
        return ffi.DPU_XFER_ASYNC if async_mode else ffi.DPU_XFER_DEFAULT

    def _keep_alive(self, objs):
        root = self._root()
        with root._keep_lock:
            root._keep.append(objs)

    def copy(self, dst, src, size=None, offset=0, async_mode=None):
        """Copies between the host and the DPUs: one side a symbol (its name
        or a DpuSymbol), the other a host buffer (to every DPU) or a list of
        buffers, one per DPU (None: that DPU is skipped). size defaults to
        the host buffer's length; offset is in the symbol."""
        to_dpu = isinstance(dst, (str, DpuSymbol))
        from_dpu = isinstance(src, (str, DpuSymbol))
        if to_dpu == from_dpu:
            raise DpuError("can only execute Host <-> DPU transfers")
        host, device, direction = (src, dst, ffi.DPU_XFER_TO_DPU) if to_dpu else \
            (dst, src, ffi.DPU_XFER_FROM_DPU)
        multiple = isinstance(host, list)
        if multiple and len(host) == 1 and len(self._dpus) == 1:
            multiple, host = False, host[0]
        flags = self._xfer_flags(async_mode)
        by_name = isinstance(device, str)
        dev = device.encode() if by_name else device.c_symbol
        keep = []
        if multiple:
            if len(host) != len(self._dpus):
                raise DpuError("invalid number of host buffers for this DPU set")
            buffer_size = None
            arrays = []
            for buf in host:
                if buf is None:
                    arrays.append(None)
                    continue
                arr, n = _host_bytes(buf, writable=not to_dpu)
                if buffer_size is not None and n != buffer_size:
                    raise DpuError("host buffers must all have the same size")
                buffer_size = n
                arrays.append(arr)
            if buffer_size is None:
                return
        else:
            arr, buffer_size = _host_bytes(host, writable=not to_dpu)
        if size is None:
            size = buffer_size
        elif buffer_size < size:
            raise DpuError("host buffer is too small")
        if multiple:
            _check(ffi.dpu_prepare_xfer(self.c_set, None))
            for dpu, a in zip(self._dpus, arrays):
                if a is not None:
                    _check(ffi.dpu_prepare_xfer(dpu.c_set, ctypes.addressof(a)))
            keep = arrays
            push = ffi.dpu_push_xfer if by_name else ffi.dpu_push_xfer_symbol
            _check(push(self.c_set, direction, dev, offset, size, flags))
        elif to_dpu:
            keep = [arr]
            bcast = ffi.dpu_broadcast_to if by_name else ffi.dpu_broadcast_to_symbol
            _check(bcast(self.c_set, dev, offset, ctypes.addressof(arr), size, flags))
        else:
            keep = [arr]
            _check(ffi.dpu_prepare_xfer(self.c_set, ctypes.addressof(arr)))
            push = ffi.dpu_push_xfer if by_name else ffi.dpu_push_xfer_symbol
            _check(push(self.c_set, direction, dev, offset, size, flags))
        if flags & ffi.DPU_XFER_ASYNC:
            self._keep_alive(keep)  # the queued job reads or writes them

    # ---- execution
    def exec(self, log=None, async_mode=None):
        """Runs the loaded program on every DPU of the set; synchronous
        (then writes the DPU logs to log or the constructor's log) unless
        async_mode (then log is ignored). A DPU fault raises DpuError."""
        if async_mode or (async_mode is None and self._async_mode):
            _check(ffi.dpu_launch(self.c_set, ffi.DPU_ASYNCHRONOUS))
            return
        _check(ffi.dpu_launch(self.c_set, ffi.DPU_SYNCHRONOUS))
        self._logfn(log, None)

    def log(self, stream=None):
        """Writes each DPU's printf output (since its last boot) to stream,
        else the constructor's log, else sys.stdout."""
        self._logfn(stream, sys.stdout)

    def _logfn(self, log, default):
        streams = {dpu: dpu._log if dpu._log is not None else default for dpu in self._dpus}
        if log is not None:
            if isinstance(log, list):
                if len(log) != len(self._dpus):
                    raise DpuError("cannot log, log list length does not match the number of "
                                   "DPUs in DpuSet")
                for dpu, s in zip(self._dpus, log):
                    if s is not None:
                        streams[dpu] = s
            elif isinstance(log, dict):
                streams.update(log)
            else:
                for dpu in self._dpus:
                    streams[dpu] = log
        for dpu in self._dpus:
            stream = streams.get(dpu)
            if stream is None:
                continue
            if not callable(getattr(stream, "write", None)):
                raise DpuError("stream argument is not an object with a 'write' method")
            _write(stream, _read_log(dpu.c_set))

    def sync(self):
        """Waits for every queued operation of the set."""
        err = ffi.dpu_sync(self.c_set)
        root = self._root()
        with root._keep_lock:
            root._keep = []
        _check(err)

    def call(self, fn, arg, async_mode=None, is_blocking=True, single_call=False):
        """Calls fn(dpu_set, index, arg) per rank of the set (single_call:
        once, with the whole set), in the ranks' queues when async_mode."""
        if async_mode is None:
            async_mode = self._async_mode
        flags = ffi.DPU_CALLBACK_DEFAULT
        if async_mode:
            flags |= ffi.DPU_CALLBACK_ASYNC
        if not is_blocking:
            flags |= ffi.DPU_CALLBACK_NONBLOCKING
        if single_call:
            flags |= ffi.DPU_CALLBACK_SINGLE_CALL
        ranks = {r.c_set.list.ranks[0] if r.c_set.kind == ffi.DPU_SET_RANKS else None: r
                 for r in self._ranks}

        def trampoline(c_set, idx, _args):
            if single_call or c_set.kind == ffi.DPU_SET_DPU:
                target = self
            else:
                target = ranks.get(c_set.list.ranks[0], self)
            try:
                fn(target, idx, arg)
            except BaseException:  # an exception cannot cross the C library
                sys.excepthook(*sys.exc_info())
                return ffi.DPU_ERR_SYSTEM
            return ffi.DPU_OK

        c_fn = ffi.CALLBACK(trampoline)
        root = self._root()
        root._callbacks.append(c_fn)  # alive until the queued calls ran
        _check(ffi.dpu_callback(self.c_set, c_fn, None, flags))


def _read_log(c_dpu):
    """The DPU's log as dpu_log_read prints it, through a temporary FILE."""
    fp = ffi.libc.tmpfile()
    if not fp:
        raise DpuError("cannot create a temporary file for the DPU log")
    try:
        _check(ffi.dpu_log_read(c_dpu, fp))
        ffi.libc.fflush(fp)
        fd = ffi.libc.fileno(fp)
        os.lseek(fd, 0, os.SEEK_SET)
        chunks = []
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        ffi.libc.fclose(fp)


def _write(stream, data):
    if isinstance(stream, (io.RawIOBase, io.BufferedIOBase)) or "b" in getattr(stream, "mode", ""):
        stream.write(data)
    else:
        stream.write(data.decode("utf-8", "replace"))
