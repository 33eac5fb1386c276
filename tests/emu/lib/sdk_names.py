#!/usr/bin/env python3
"""tests/emu/lib/sdk_names.py -- our host headers declare every name of the
SDK's (tests/emu/lib/sdk_host_names.tsv) and libdpu defines its functions
with prototypes compatible with the SDK's; each left-out name is listed in
docs/COMPATIBILITY.md.

For each SDK header, one C file includes only our header of that name and
checks each of its names ("yes" rows): a macro is defined, a type or an
enum or struct is complete (sizeof), a constant is an integer expression, a
function or variable is linked from libdpu.a, a function's type is the
SDK prototype's (__builtin_types_compatible_p). A self-test runs the same
check on a list with a made-up name: it must fail.

Usage: python3 tests/emu/lib/sdk_names.py BUILD_DIR   (from the checkout root)
Prints PASS/FAIL lines and DONE (tests/lib.sh's protocol)."""
import os
import re
import subprocess
import sys
import tempfile

failed = False


def verdict(ok, name, why=""):
    global failed
    if ok:
        print("PASS " + name)
    else:
        failed = True
        print("FAIL %s: %s" % (name, why))


def read_list(path):
    rows = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        h, kind, name, status, sig = line.rstrip("\n").split("\t")
        rows.append((h, kind, name, status, sig))
    return rows


def check_source(header, rows):
    out = ["#include <%s>" % header, "#include <stddef.h>", ""]
    body = []
    for i, (_, kind, name, status, sig) in enumerate(rows):
        if status.startswith("opaque"):
            body.append("    { struct %s *p_ = NULL; (void)p_; }" % name)
            continue
        if kind == "macro":
            out += ["#ifndef %s" % name, '#error "%s: macro not defined"' % name, "#endif"]
        elif kind == "type":
            body.append("    (void)sizeof(%s);" % name)
        elif kind in ("struct", "enum"):
            body.append("    (void)sizeof(%s %s);" % (kind, name))
        elif kind == "const":
            body.append("    (void)(long)(%s);" % name)
        elif kind == "variable":
            body.append("    (void)&%s;" % name)
        elif kind == "function":
            proto = re.sub(r"^(static\s+)?(inline\s+)?", "", sig)
            proto = re.sub(r"\b%s\s*\(" % re.escape(name), "sdk_proto_%d(" % i, proto, count=1)
            out.append(proto + ";")
            body.append("    (void)&%s;" % name)
            body.append(
                '    _Static_assert(__builtin_types_compatible_p(__typeof__(%s), '
                '__typeof__(sdk_proto_%d)), "%s: not the SDK\'s prototype");' % (name, i, name))
    fn = "check_" + re.sub(r"\W", "_", header)
    out += ["", "void %s(void);" % fn, "void %s(void)" % fn, "{"] + body + ["}"]
    return fn, "\n".join(out) + "\n"


def check(rows, build, tmp, tag):
    """Compiles and links the checks; returns [(header, ok, why)]."""
    results = []
    by_header = {}
    for r in rows:
        if r[3] == "yes" or r[3].startswith("opaque"):
            by_header.setdefault(r[0], []).append(r)
    objs, fns = [], []
    for header, hrows in sorted(by_header.items()):
        fn, src = check_source(header, hrows)
        c = os.path.join(tmp, "%s_%s.c" % (tag, fn))
        o = c[:-2] + ".o"
        open(c, "w").write(src)
        p = subprocess.run(["cc", "-std=gnu11", "-Wall", "-Werror", "-Iemu/include", "-c", c,
                            "-o", o], capture_output=True, text=True)
        if p.returncode != 0:
            errs = [l for l in p.stderr.splitlines() if "error" in l][:3]
            results.append((header, False, " | ".join(errs)))
        else:
            objs.append(o)
            fns.append(fn)
            results.append((header, True, ""))
    main = os.path.join(tmp, tag + "_main.c")
    open(main, "w").write("".join("void %s(void);\n" % f for f in fns) +
                          "int main(void)\n{\n" + "".join("    %s();\n" % f for f in fns) +
                          "    return 0;\n}\n")
    p = subprocess.run(["cc", "-o", os.path.join(tmp, tag + "_prog"), main] + objs +
                       [os.path.join(build, "libdpu.a"), "-lpthread", "-lm"],
                       capture_output=True, text=True)
    link = (p.returncode == 0, " | ".join(p.stderr.splitlines()[:3]))
    return results, link


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    rows = read_list("tests/emu/lib/sdk_host_names.tsv")
    with tempfile.TemporaryDirectory() as tmp:
        results, link = check(rows, build, tmp, "ours")
        for header, ok, why in results:
            verdict(ok, "emu_sdk_names_" + header.replace(".h", ""), why)
        verdict(link[0], "emu_sdk_names_linked", link[1])
        yes = sum(1 for r in rows if r[3] == "yes" or r[3].startswith("opaque"))
        print("# %d of %d SDK host names declared; %d left out" % (yes, len(rows), len(rows) - yes))
        doc = open("docs/COMPATIBILITY.md").read()
        missing = [r[2] for r in rows if r[3].startswith("no") and
                   not re.search(r"`%s`" % re.escape(r[2]), doc)]
        verdict(not missing, "emu_sdk_names_left_out_documented",
                "not in docs/COMPATIBILITY.md: " + " ".join(missing))
        bogus = [("dpu.h", "function", "dpu_no_such_call", "yes", "int dpu_no_such_call(void)"),
                 ("dpu.h", "macro", "DPU_NO_SUCH_MACRO", "yes", "")]
        results, link = check(bogus, build, tmp, "self")
        verdict(not all(ok for _, ok, _ in results) or not link[0],
                "emu_sdk_names_check_finds_a_missing_name", "a made-up name passed")
    print("DONE")
    sys.exit(1 if failed else 0)


main()
