# tests/lib.sh -- the harness of the shell test scripts (sourced):
#
#   pass NAME          prints `PASS NAME`
#   fail NAME WHY...   prints `FAIL NAME: WHY`
#   skip NAME WHY...   prints `SKIP NAME: WHY`
#   finish             prints `DONE` and exits (1 if this shell saw a failure)
#
# The same verdict lines as the C harness (tests/test.h).  A script ends with
# `finish` instead of `exit`: tests/run.sh fails a script whose output has no
# `DONE` line, so an early `exit`, a `set -e` abort or a killed shell shows up
# as a failure instead of as fewer tests.  (A verdict printed in a subshell
# is counted by run.sh all the same; only finish's exit status misses it.)
_lib_failed=0
pass() {
    echo "PASS $1"
}
fail() {
    _lib_name=$1
    shift
    echo "FAIL $_lib_name: $*"
    _lib_failed=1
}
skip() {
    _lib_name=$1
    shift
    echo "SKIP $_lib_name: $*"
}
finish() {
    echo "DONE"
    exit "$_lib_failed"
}
