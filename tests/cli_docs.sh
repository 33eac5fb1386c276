#!/bin/sh
# tests/cli_docs.sh CLI DOC MAN [MPI] -- the CLI reference stays true:
#  - every option that `cryptopim COMMAND --help` lists (in its usage line
#    or an option line) appears in DOC (docs/CLI.md) and in MAN
#    (man/cryptopim.1), for every command;
#  - every option in DOC's usage blocks (code blocks of `cryptopim ...`
#    command lines) is one that some command's --help lists: a removed or
#    renamed option cannot linger in the docs.
# MPI, cryptopim-mpi, adds its own --help (skipped when it is not built).
# PASS/FAIL/SKIP lines with tests/lib.sh; ends with its `finish`.
. "$(dirname "$0")/lib.sh"
B=$1 DOC=$2 MAN=$3 MPI=${4:-}
T=$(mktemp -d) || { fail cli_docs_tmpdir "mktemp -d failed"; finish; }
trap 'rm -rf "$T"' EXIT
if ! command -v python3 >/dev/null; then
    skip cli_docs_help_in_reference "no python3"
    skip cli_docs_reference_options_exist "no python3"
    finish
fi
for c in enc dec sha256sum hmac pbkdf2 ntt list speed bench benchmark study; do
    if ! "$B" $c --help >"$T/help.$c" 2>&1; then
        fail cli_docs_help_$c "cryptopim $c --help: exit $?"
    fi
done
if [ -n "$MPI" ] && [ -x "$MPI" ]; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 60 "$MPI" --help \
        >"$T/help.mpi" 2>&1 || fail cli_docs_help_mpi "cryptopim-mpi --help: exit $?"
fi
python3 - "$T" "$DOC" "$MAN" >"$T/verdicts" <<'EOF'
import glob, os, re, sys
tmp, doc_path, man_path = sys.argv[1:4]
OPT = re.compile(r'(?<![\w-])(--[a-z0-9][a-z0-9-]*|-[A-Za-z0-9])(?![\w-])')

def help_options(text):
    """Options on the usage line(s) and on lines that start with an option."""
    found = set()
    for line in text.splitlines():
        s = line.strip()
        if s.startswith('usage:') or s.startswith('-'):
            head = s if s.startswith('usage:') else re.split(r'\s{2,}', s)[0]
            found.update(OPT.findall(head))
    return found

helps = {}
for f in glob.glob(os.path.join(tmp, 'help.*')):
    helps[f.rsplit('.', 1)[1]] = help_options(open(f).read())
every = set().union(*helps.values())

doc = open(doc_path).read()
man = open(man_path).read()
man = re.sub(r'\\f[BIRP]', '', man).replace('\\-', '-').replace('\\(em', '')

def words(text):
    return set(OPT.findall(text))

doc_words, man_words = words(doc), words(man)
missing = []
for cmd in sorted(helps):
    for o in sorted(helps[cmd]):
        if o not in doc_words:
            missing.append('%s %s: not in %s' % (cmd, o, os.path.basename(doc_path)))
        if o not in man_words:
            missing.append('%s %s: not in %s' % (cmd, o, os.path.basename(man_path)))
print(('FAIL cli_docs_help_in_reference: ' + '; '.join(missing)) if missing
      else 'PASS cli_docs_help_in_reference')

# usage blocks: inside ``` fences, a line starting with `cryptopim` (or
# `cryptopim-mpi`, or after `mpirun ... build/cryptopim-mpi`) and its
# indented continuation lines
stale = []
in_code, cont = False, False
for line in doc.splitlines():
    if line.startswith('```'):
        in_code, cont = not in_code, False
        continue
    if not in_code:
        continue
    m = re.search(r'(?:^|\s|/)(cryptopim(?:-mpi)?)\s(.*)$', line)
    if m and not line.lstrip().startswith('#'):
        text, cont = m.group(2), line.rstrip().endswith('\\') or True
    elif cont and line.startswith(' '):
        text = line
    else:
        cont = False
        continue
    text = text.split('#')[0]
    for o in OPT.findall(text):
        if o not in every:
            stale.append('%s (in: %s)' % (o, line.strip()[:60]))
print(('FAIL cli_docs_reference_options_exist: ' + '; '.join(stale)) if stale
      else 'PASS cli_docs_reference_options_exist')
EOF
cat "$T/verdicts"
grep -q '^FAIL' "$T/verdicts" && _lib_failed=1
finish
