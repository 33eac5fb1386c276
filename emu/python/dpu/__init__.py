"""The UPMEM SDK's Python host API (module ``dpu``) on the virtual UPMEM.

``from dpu import DpuSet``: the same classes, signatures and behaviour as
the SDK's ``dpu`` package (docs/COMPATIBILITY.md lists the differences),
written for the virtual UPMEM over its ``libdpu.so`` with ctypes.
"""

from .driver import ALLOCATE_ALL, DpuError, DpuProgram, DpuSet, DpuSymbol, DpuVariable

__all__ = ["ALLOCATE_ALL", "DpuError", "DpuProgram", "DpuSet", "DpuSymbol", "DpuVariable"]
