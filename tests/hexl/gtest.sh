# tests/hexl/gtest.sh -- sourced after tests/lib.sh by the scripts that run a
# googletest program (hexl_tests.sh, seal.sh):
#
#   gtest_verdicts LOG PREFIX RC
#
# turns LOG (the program's output; RC its exit status) into one verdict per
# test suite, PREFIX_SUITE (FAIL names the suite's failed tests), a `#` line
# with the count of tests passed, and a failure PREFIX_run when no test ran,
# when the program exited 0 without its PASSED line, or non-zero without a
# FAILED one (a crash).
gtest_verdicts() {
    _g_log=$1 _g_tag=$2 _g_rc=$3
    _g_suites=$(sed -n 's/^\[ RUN      \] \([^.]*\)\..*/\1/p' "$_g_log" | sort -u)
    _g_total=0
    for _g_s in $_g_suites; do
        _g_bad=$(sed -n "s|^\[  FAILED  \] \($_g_s\.[^ ]*\).*|\1|p" "$_g_log" | sort -u | tr '\n' ' ')
        _g_total=$((_g_total + $(grep -c "^\[       OK \] $_g_s\." "$_g_log")))
        if [ -n "$_g_bad" ]; then
            fail "${_g_tag}_$_g_s" "failed: $_g_bad"
        else
            pass "${_g_tag}_$_g_s"
        fi
    done
    echo "# $_g_tag: $_g_total tests passed ($(grep -m1 '^\[==========\].*ran' "$_g_log"))"
    if [ -z "$_g_suites" ]; then
        fail "${_g_tag}_run" "no test ran (exit $_g_rc): $(tail -c 400 "$_g_log")"
    elif [ "$_g_rc" = 0 ] && ! grep -q '^\[  PASSED  \]' "$_g_log"; then
        fail "${_g_tag}_run" "exit 0 without PASSED"
    elif [ "$_g_rc" != 0 ] && ! grep -q '^\[  FAILED  \]' "$_g_log"; then
        fail "${_g_tag}_run" "exit $_g_rc: $(tail -c 400 "$_g_log")"
    fi
}
