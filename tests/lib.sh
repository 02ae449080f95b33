# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # variables for the scripts that source this
# Helpers for the harness's own tests.  Sourced.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
S=$TOP/scripts
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0

# expect_fail NAME PATTERN CMD...: CMD exits non-zero and its last stderr
# line (the one-line reason) matches PATTERN.
expect_fail() {
	local name=$1 pat=$2 rc last
	shift 2
	"$@" >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	last=$(grep -v '^\s*$' "$TMP/err" | tail -n1)
	if [ $rc -ne 0 ] && grep -qE "$pat" <<<"$last"; then
		echo "ok - $name: exit $rc, '$last'"
	else
		echo "not ok - $name: exit $rc, last line '$last' (wanted non-zero and /$pat/)"
		fails=$((fails + 1))
	fi
}

expect_ok() {
	local name=$1
	shift
	if "$@" >"$TMP/out" 2>"$TMP/err" </dev/null; then
		echo "ok - $name"
	else
		echo "not ok - $name: exit $?: $(tail -n1 "$TMP/err")"
		fails=$((fails + 1))
	fi
}

done_testing() {
	[ $fails -eq 0 ] && echo "all passed" || echo "$fails failed"
	[ $fails -eq 0 ]
}
