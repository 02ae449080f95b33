#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the guest: read the built-in KUnit results from the kernel log.
# Every suite named in $1 must have run and passed; any failing test fails,
# and so does a splat anywhere in the log (a WARN, a KASAN report, or
# lockdep's, in a kernel built with its checkers: the suites run at boot).
set -u
# shellcheck source=splat.sh
. "$(dirname "$0")/splat.sh"
list=${1:?usage: kunit.sh SUITES-FILE}
log=$(dmesg 2>/dev/null | sed -E 's/^\[[ 0-9.]+\] //')
echo "$log" | grep -E '^\s*(# Subtest|(not )?ok [0-9]+ )' || true
# what a failing test said (the message follows the FAILED line)
echo "$log" | grep -E -A2 '(EXPECTATION|ASSERTION) FAILED' || true
rc=0
want=$(grep -vE '^\s*(#|$)' "$list" 2>/dev/null || true)
if [ -z "$want" ]; then
	echo "kunit: no KUnit suite is expected yet"
	exit 4
fi
for s in $want; do
	if echo "$log" | grep -qE "^ok [0-9]+ $s\$"; then
		echo "kunit: suite $s passed"
	elif echo "$log" | grep -qE "^not ok [0-9]+ $s\$"; then
		echo "kunit: suite $s FAILED"
		rc=1
	else
		echo "kunit: suite $s did not run"
		rc=1
	fi
done
if echo "$log" | grep -qE '^\s*not ok [0-9]+ '; then
	echo "kunit: a KUnit test failed"
	rc=1
fi
splat=$(echo "$log" | grep -E -m1 "$SPLAT_RE")
if [ -n "$splat" ]; then
	echo "$log" | grep -E -B2 -A25 -m1 "$SPLAT_RE"
	echo "kunit: the kernel log has a splat: $splat"
	rc=1
fi
[ $rc -eq 0 ] && echo "kunit: all $(echo $want | wc -w) expected suites passed" ||
	echo "kunit: failures (see above)"
exit $rc
