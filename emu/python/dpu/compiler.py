"""DPU C compilation for ``DpuSet(c_source=...)`` / ``load(c_source=...)``,
as the SDK's ``dpu.compiler``: the compiler wrapper dpu-upmem-dpurte-clang
(of $UPMEM_HOME/bin, else of PATH), -O2 -g, no NR_TASKLETS (one tasklet
unless the sources define it), the output an ELF file."""

import os
import shutil
import subprocess

O0, O1, O2, O3, Os, Oz = "-O0", "-O1", "-O2", "-O3", "-Os", "-Oz"


def _wrapper():
    home = os.environ.get("UPMEM_HOME")
    if home:
        p = os.path.join(home, "bin", "dpu-upmem-dpurte-clang")
        if os.access(p, os.X_OK):
            return p
    p = shutil.which("dpu-upmem-dpurte-clang")
    if p:
        return p
    here = os.path.dirname(os.path.abspath(__file__))
    for rel in (("..", "..", "bin"), ("..", "..", "..", "emu", "bin")):
        p = os.path.join(here, *rel, "dpu-upmem-dpurte-clang")
        if os.access(p, os.X_OK):
            return p
    return "dpu-upmem-dpurte-clang"


class Compiler:
    """A DPU compiler: path to the driver; verbose echoes the command."""

    def __init__(self, path=None, target=None, verbose=False):
        self.path = path
        self.target = target
        self.verbose = verbose

    def compile(self, sources, output=None, includes=(), defines=None, options=(), target=None,
                opt_lvl=None, debug=True, verbose=False):
        """Compiles (and links) sources into output; raises
        subprocess.CalledProcessError on a compiler error, as the SDK's."""
        args = [self.path or _wrapper()]
        if opt_lvl is not None:
            args.append(opt_lvl)
        if debug:
            args.append("-g")
        for name, value in (defines or {}).items():
            args += ["-D", name if value is None else "%s=%s" % (name, value)]
        for inc in includes:
            args += ["-I", inc]
        args += list(options)
        if output is not None:
            args += ["-o", output]
        args += [sources] if isinstance(sources, str) else list(sources)
        if verbose or self.verbose:
            print(" ".join(args))
        return subprocess.run(args, check=True)


DEFAULT_DPU_COMPILER = Compiler()
