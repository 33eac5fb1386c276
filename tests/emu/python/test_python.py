#!/usr/bin/env python3
"""tests/emu/python/test_python.py -- the SDK's Python host API (module dpu,
emu/python) on the virtual UPMEM: our own host programs for the SDK's
examples (checksum, hello world through the DPU log, a multi-DPU
reduction), and the API's edges (errors as DpuError, symbols as
attributes, lists of buffers, numpy arrays, asynchronous mode, callbacks,
iteration, the context manager).

Run through tests/emu/python/run.sh (it sources emu/upmem_env.sh). Prints
PASS/FAIL/SKIP lines and DONE (tests/lib.sh's protocol); exits 1 on a
failure. Arguments select tests by name prefix."""
import array
import io
import os
import random
import struct
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
DPU_SRC = os.path.join(HERE, "dpu")

import dpu  # noqa: E402  (after the path set-up of run.sh)
from dpu import ALLOCATE_ALL, DpuError, DpuSet  # noqa: E402

failed = False
TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


class Skip(Exception):
    pass


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def raises(fn, what):
    try:
        fn()
    except DpuError:
        return
    raise AssertionError("no DpuError: " + what)


@test
def python_checksum():
    """The SDK's checksum example: c_source= compiled at run time, one
    buffer per DPU, the checksums read back per DPU and as an attribute."""
    rnd = random.Random(1)
    size = 8192 + 100  # not whole DMA blocks
    with DpuSet(nr_dpus=8, c_source=os.path.join(DPU_SRC, "checksum.c")) as s:
        bufs = [bytearray(rnd.getrandbits(8) for _ in range(size)) for _ in range(len(s))]
        padded = [b + bytearray(-len(b) % 8) for b in bufs]
        s.copy("buffer", padded)
        s.copy("length", bytearray(struct.pack("<I", size)))
        s.exec()
        sums = [bytearray(4) for _ in s]
        s.copy(sums, "checksum")
        got = [struct.unpack("<I", b)[0] for b in sums]
        check(got == [sum(b) for b in bufs], "checksums %s" % got)
        check(list(s.checksum.uint32()) == got, "the checksum attribute")
        check(s.dpus()[3].checksum.uint32() == got[3], "one DPU's attribute")


@test
def python_hello_log():
    """Hello world through the DPU log: exec(log=) with one stream, one per
    DPU, the constructor's log, and log()."""
    src = open(os.path.join(DPU_SRC, "hello.c"))
    out = io.StringIO()
    with DpuSet(nr_dpus=2, c_source=src, log=out) as s:
        s.greeting_id = bytearray(struct.pack("<I", 7))
        s.exec()
        text = out.getvalue()
        check(text.count("Hello World from tasklet 0 (greeting 7)") == 2, "log: %r" % text)
        check("=== DPU#0x0 ===" in text and "=== DPU#0x1 ===" in text, "DPU headers: %r" % text)
        one, two = io.StringIO(), io.StringIO()
        s.exec(log=[one, two])
        check("Hello World" in one.getvalue() and "Hello World" in two.getvalue(),
              "per-DPU logs")
        check("DPU#0x1" in two.getvalue() and "DPU#0x1" not in one.getvalue(),
              "each DPU in its own stream")
        binary = io.BytesIO()
        s.dpus()[0].log(binary)
        check(b"Hello World" in binary.getvalue(), "log() to a binary stream")
        raises(lambda: s.exec(log=[one]), "a log list of the wrong length")
        raises(lambda: s.log(42), "a stream without write()")


def reduce_binary(tmp):
    out = os.path.join(tmp, "reduce.dpu")
    dpu.compiler.DEFAULT_DPU_COMPILER.compile(os.path.join(DPU_SRC, "reduce.c"), output=out,
                                              defines={"NR_TASKLETS": 16}, opt_lvl="-O2")
    return out


@test
def python_reduce():
    """A multi-DPU reduction over two ranks: binary=, the values scattered
    (one array per DPU), partial sums gathered, synchronous and async."""
    with tempfile.TemporaryDirectory() as tmp:
        binary = reduce_binary(tmp)
        with DpuSet(nr_ranks=2, profile="nrDpusPerRank=4", binary=binary) as s:
            check(len(s) == 8 and [len(r) for r in s.ranks()] == [4, 4], "2 ranks of 4 DPUs")
            n = 5000
            values = [array.array("Q", [(d * 1000003 + k * 7919) % (1 << 40) for k in range(n)])
                      for d in range(len(s))]
            s.copy("n", bytearray(struct.pack("<I", n)))
            s.copy("values", values)
            s.exec()
            totals = [bytearray(8) for _ in s]
            s.copy(totals, "total")
            got = sum(struct.unpack("<Q", t)[0] for t in totals)
            check(got == sum(sum(v) for v in values), "total %d" % got)
            # the same asynchronously: nothing is read before sync()
            for v in values:
                v[0] += 1
            s.copy("values", values, async_mode=True)
            s.exec(async_mode=True)
            totals2 = [bytearray(8) for _ in s]
            s.copy(totals2, "total", async_mode=True)
            s.sync()
            got2 = sum(struct.unpack("<Q", t)[0] for t in totals2)
            check(got2 == got + len(s), "async total %d, want %d" % (got2, got + len(s)))


@test
def python_numpy():
    """numpy arrays as host buffers, to and from the DPUs."""
    try:
        import numpy as np
    except ImportError:
        raise Skip("numpy is not importable by %s (Debian's python3-numpy serves /usr/bin/python3)"
                   % sys.executable)
    with tempfile.TemporaryDirectory() as tmp:
        with DpuSet(nr_dpus=4, binary=reduce_binary(tmp)) as s:
            data = np.arange(4 * 3000, dtype=np.uint64).reshape(4, 3000) * 3
            s.copy("n", np.array([3000], dtype=np.uint32))
            s.copy("values", [data[i] for i in range(4)])
            s.exec()
            totals = np.zeros((4, 1), dtype=np.uint64)
            s.copy([totals[i] for i in range(4)], "total")
            check((totals[:, 0] == data.sum(axis=1)).all(), "numpy totals %s" % totals[:, 0])
            back = np.zeros(3000, dtype=np.uint64)
            s.dpus()[2].copy(back, "values")
            check((back == data[2]).all(), "numpy read back")


@test
def python_errors():
    """Errors are DpuError, with the C library's text; nothing half-done."""
    raises(lambda: DpuSet(nr_dpus=1, nr_ranks=1), "nr_dpus and nr_ranks")
    raises(lambda: DpuSet(nr_dpus=1, profile="noSuchKey=1"), "a bad profile")
    raises(lambda: DpuSet(nr_dpus=1, binary="/nonexistent.dpu"), "a missing binary")
    with tempfile.TemporaryDirectory() as tmp:
        bad = os.path.join(tmp, "bad.c")
        with open(bad, "w") as f:
            f.write("int main(void) { return undeclared; }\n")
        raises(lambda: DpuSet(nr_dpus=1, c_source=bad), "a DPU program that does not compile")
        fault = os.path.join(tmp, "fault.c")
        with open(fault, "w") as f:
            f.write("#include <defs.h>\nint main(void) { halt(); return 0; }\n")
        with DpuSet(nr_dpus=2, c_source=fault) as s:
            try:
                s.exec()
                raise AssertionError("a faulting DPU raised nothing")
            except DpuError as e:
                check("fault" in str(e).lower(), "fault message %r" % str(e))
    with DpuSet(nr_dpus=2, c_source=os.path.join(DPU_SRC, "checksum.c")) as s:
        raises(lambda: s.copy("no_such_symbol", bytearray(8)), "an unknown symbol")
        raises(lambda: s.copy(bytearray(8), bytearray(8)), "host to host")
        raises(lambda: s.copy("length", bytearray(2), size=4), "a host buffer too small")
        raises(lambda: s.copy("buffer", [bytearray(8)]), "one buffer for two DPUs")
        raises(lambda: s.copy([bytes(4), bytes(4)], "length"), "read into read-only buffers")
        raises(lambda: s.load(), "load with nothing")
        try:
            s.no_such_symbol
            raise AssertionError("an unknown attribute read")
        except AttributeError:
            pass
    raises(s.free, "freeing twice")


@test
def python_iteration_and_calls():
    """Iteration over DPUs and ranks, ALLOCATE_ALL, callbacks per rank and
    once for the set."""
    with DpuSet(nr_ranks=ALLOCATE_ALL, profile="nrRanks=3,nrDpusPerRank=2") as s:
        check(len(s) == 6 and len(s.ranks()) == 3, "ALLOCATE_ALL of 3 ranks")
        check(all(len(d) == 1 for d in s) and len(list(iter(s))) == 6, "iteration")
        seen = []
        s.call(lambda rank, idx, arg: seen.append((idx, len(rank), arg)), "x")
        check(sorted(seen) == [(0, 2, "x"), (1, 2, "x"), (2, 2, "x")], "per rank: %s" % seen)
        once = []
        s.call(lambda whole, idx, arg: once.append(len(whole)), None, single_call=True)
        check(once == [6], "single call: %s" % once)
        later = []
        s.call(lambda rank, idx, arg: later.append(idx), None, async_mode=True)
        s.sync()
        check(sorted(later) == [0, 1, 2], "async calls: %s" % later)


def main():
    global failed
    names = sys.argv[1:]
    chosen = [t for t in TESTS if not names or any(t.__name__.startswith(n) for n in names)]
    print("PLAN %d" % len(chosen))
    for t in chosen:
        try:
            t()
            print("PASS " + t.__name__)
        except Skip as e:
            print("SKIP %s: %s" % (t.__name__, e))
        except BaseException as e:
            failed = True
            detail = traceback.format_exc().strip().splitlines()
            print("FAIL %s: %s (%s)" % (t.__name__, e, detail[-3] if len(detail) > 2 else ""))
    print("DONE")
    sys.exit(1 if failed else 0)


main()
