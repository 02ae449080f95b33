#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One check of a base at a time (scripts/check.sh's lock): a second check
# of the same base, started while the first, or a process it left, holds
# the lock, fails at once with a one-line reason and leaves the first's
# logs alone; once the holder is gone, a check starts.
. "$(dirname "$0")/lib.sh"

B=$TMP/build
mkdir -p "$B/check"
echo first >"$B/check/first.log"
# The holder: a process the first check left behind, with the lock.
(
	exec 8>"$B/.check.lock"
	flock 8
	exec sleep 30
) &
holder=$!
for _ in $(seq 50); do
	flock -n "$B/.check.lock" true || break
	sleep 0.1
done
start=$SECONDS
expect_fail "a second check of the base while the lock is held" \
	"another check of base 6\.1 is running .*\.check\.lock" \
	env THUNKLESS_BUILD="$B" BASE=6.1 timeout 20 "$S/check.sh" --only '^nothing$'
# A bounded wait: a refused check must not wait for the lock.
if [ $((SECONDS - start)) -lt 10 ]; then
	echo "ok - the refused check did not wait for the lock"
else
	echo "not ok - the refused check waited $((SECONDS - start)) s for the lock"
	fails=$((fails + 1))
fi
if [ "$(cat "$B/check/first.log" 2>/dev/null)" = first ]; then
	echo "ok - the refused check left the first check's logs"
else
	echo "not ok - the refused check removed the first check's logs"
	fails=$((fails + 1))
fi
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
# Free again: the check gets past the lock, to its first line (and stops
# later, as no test matches; its reason is not the lock's).
env THUNKLESS_BUILD="$B" BASE=6.1 "$S/check.sh" --only '^nothing$' >"$TMP/out" 2>"$TMP/err" </dev/null
rc=$?
if ! grep -q 'another check' "$TMP/err" && grep -q '^# disk: ' "$TMP/out"; then
	echo "ok - with the holder gone, the check starts (exit $rc)"
else
	echo "not ok - with the holder gone: exit $rc, $(tail -n1 "$TMP/err")"
	fails=$((fails + 1))
fi
done_testing
