#!/bin/sh
# tests/paths.sh -- no path of one particular machine in the repository (and
# no tracker reference, at the end): a
# build or a document that names a folder of the machine it was written on
# works (or reads true) nowhere else.
#
# Scans every tracked text file (git ls-files; a tree without git skips) for
# absolute paths of two components or more -- `/NAME/...` at the start of a
# line, after a blank, a quote, `=`, `(`, `:`, `,` or `[`, or as a string
# literal that opens after `=`, `(`, `,`, `{` or `[` (so `"$DIR"/x` and
# `MACRO "/x"`, paths relative to a variable, are not absolute) -- and fails
# on any outside the system's own folders:
#   /usr /etc /dev /proc /sys /tmp   every machine has them
# and these documented exceptions:
#   #!/bin/...        a script's first line (interpreters: /bin/sh, /bin/bash)
#   /path/to/...      a placeholder in usage text
#   /nonexistent/...  a path the tests need to not exist
#   /DISCARD/         the linker script keyword (emu/rt/dpu.lds)
#   .gitignore        its patterns are relative to the checkout
#   tests/paths.sh    this file, whose text shows the patterns it looks for
# A one-component path (`/work`) is not caught: machine paths name a folder
# inside one.  First the scan checks itself on planted files.
. "$(dirname "$0")/lib.sh"
cd "$(dirname "$0")/.." || exit 1

RE="(^|[[:space:]'\`=(:,[]|(^|[=(,{[])[[:space:]]*\")/[A-Za-z0-9_.+-]+/"
ALLOWED=':/(usr|etc|dev|proc|sys|tmp|path|nonexistent|DISCARD)/$'

# scan FILE...: prints FILE:LINE:/ROOT/ for each machine path found
scan() {
    grep -HInoE "$RE" "$@" 2>/dev/null |
        sed -E 's|^([^:]*:[0-9]+:).*(/[A-Za-z0-9_.+-]+/)$|\1\2|' |
        grep -vE "$ALLOWED" | grep -vE '^[^:]*:1:/bin/$' | grep -vE '(^|/)\.gitignore:' |
        grep -vE '^tests/paths\.sh:' # its own examples, planted below
}

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
{
    printf '#!/bin/sh\nx=$(cat "$B"/lib/y) /usr/lib/z /tmp/w\n'
    printf 'conf=/%s/alice/project\n' home
    printf 'static const char *d = "/%s/build/dpu";\nM "/rel/x"\n' work
} >"$t/planted.sh"
got=$(scan "$t/planted.sh" | sed 's|^.*/planted.sh:||' | tr '\n' ' ')
if [ "$got" = "3:/home/ 4:/work/ " ]; then
    pass paths_scan_finds_planted
else
    fail paths_scan_finds_planted "want '3:/home/ 4:/work/ ', got '$got'"
fi

if ! command -v git >/dev/null 2>&1 || ! git rev-parse --git-dir >/dev/null 2>&1; then
    skip paths_none_of_one_machine "not a git checkout (no list of tracked files)"
    finish
fi
found=$(git ls-files | while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done |
    { set --; while IFS= read -r f; do set -- "$@" "$f"; done; scan "$@"; })
if [ -z "$found" ]; then
    pass paths_none_of_one_machine
else
    fail paths_none_of_one_machine "absolute paths of one machine (tests/paths.sh lists the" \
        "allowed ones): $(printf '%s\n' "$found" | head -n 10 | tr '\n' ' ')"
fi
# No tracker references either: a comment or a document that says "issue 17"
# points to a tracker the reader of the code cannot open (say what and why).
TRACKER="(^|[^A-Za-z])[Ii]ssues? #?[0-9]+([),:;.]|'s| item| goal|\$)"
if printf 'x (issue 17) y\nthe DPU can issue 1 instruction\n' | grep -cE "$TRACKER" | grep -qx 1; then
    refs=$(git ls-files | grep -v '^tests/paths\.sh$' | while IFS= read -r f; do
        [ -f "$f" ] && grep -HnE "$TRACKER" "$f" 2>/dev/null; done | head -n 10)
    if [ -z "$refs" ]; then
        pass paths_no_tracker_references
    else
        fail paths_no_tracker_references "$(printf '%s\n' "$refs" | cut -c1-120 | tr '\n' ' ')"
    fi
else
    fail paths_no_tracker_references "the pattern does not tell a reference from prose"
fi
finish
