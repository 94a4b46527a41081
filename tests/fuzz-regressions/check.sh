#!/bin/sh
# tests/fuzz-regressions/check.sh: runs one of the project's programs on an
# input that fuzzing once broke, and checks the outcome in EXPECTED:
#
#   exit N              the exit status
#   stderr TEXT         TEXT appears in stderr (fixed string; may repeat)
#
# Any sanitizer report in stderr fails the test too, and so does a file left
# at the --no-file PATH (a program that fails must not leave partial output).
#
# usage: check.sh [--no-file PATH] EXPECTED COMMAND [ARG...]
set -u
no_file=
if [ "$1" = --no-file ]; then
    no_file=$2
    shift 2
    rm -f "$no_file"
fi
expected=$1
shift
err=$(mktemp)
trap 'rm -f "$err"' EXIT
"$@" >/dev/null 2>"$err"
status=$?
fail=0
while read -r key value; do
    case $key in
        exit)
            if [ "$status" -ne "$value" ]; then
                echo "FAIL: exit status $status, expected $value"
                fail=1
            fi ;;
        stderr)
            if ! grep -qF -- "$value" "$err"; then
                echo "FAIL: stderr lacks: $value"
                fail=1
            fi ;;
        ''|'#'*) ;;
        *) echo "check.sh: $expected: unknown key $key"; exit 2 ;;
    esac
done <"$expected"
if [ -n "$no_file" ] && [ "$status" -ne 0 ] && [ -e "$no_file" ]; then
    echo "FAIL: $no_file exists after a failed run (partial output)"
    fail=1
fi
if grep -qE 'Sanitizer|runtime error:' "$err"; then
    echo "FAIL: sanitizer report"
    fail=1
fi
if [ $fail -ne 0 ]; then
    echo "command: $*"
    echo "stderr:"
    cat "$err"
fi
exit $fail
