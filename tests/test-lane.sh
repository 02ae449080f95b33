#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check.sh's lane (scripts/check-run.sh): its tests run beside the main
# line, their lines come out numbered with the rest, a failure or a skip in
# the lane counts, a lane that dies half way fails instead of losing its
# tests, and stopping check.sh stops the lane's processes.
. "$(dirname "$0")/lib.sh"

# mini_head NAME: the start of a small check script that runs tests
# through check-run.sh, its logs in $TMP/logs-NAME.
mini_head() {
	cat <<EOF
set -uo pipefail
. "$S/lib.sh"
prog=check
LOGS=$TMP/logs-$1 only=.
mkdir -p "\$LOGS"
. "$S/check-run.sh"
EOF
}

mini() {
	local mode=$1
	{
		mini_head "$mode"
		cat <<EOF
# Waits up to 10 s for a file: a test that proves two tests overlap.
await() { for _ in \$(seq 100); do [ -e "\$1" ] && return 0; sleep 0.1; done; echo "no \$1"; return 1; }
lane_body() {
	run lane-a true
	run lane-overlap bash -c 'touch $TMP/flag-$mode'
	run lane-b bash -c 'echo lane-b-reason; exit 1'
	run lane-need need main-a
	[ $mode != die ] || exit 3
	[ $mode != hang ] || run lane-hang sleep 3017
	run lane-skip bash -c 'echo not-here; exit 4'
}
run main-a true
lane_start lane_body
[ $mode != hang ] || while :; do sleep 0.1; done
run main-overlap await "$TMP/flag-$mode"
finish
EOF
	} >"$TMP/mini-$mode.sh"
	[ $mode != hang ] || exec bash "$TMP/mini-$mode.sh"
	bash "$TMP/mini-$mode.sh"
}

# tap_is WHAT RC WANT_RC WANT: check.sh's output $out (exit RC) is the TAP
# lines WANT, the "#" lines left out and each test's seconds as "*".
tap_is() {
	local got
	got=$(grep -vE '^#' <<<"$out" | sed -E 's/\([0-9]+s\)/(*s)/')
	if [ "$2" = "$3" ] && [ "$got" = "$4" ]; then
		echo "ok - $1"
	else
		echo "not ok - $1: exit $2, got:"
		echo "$out"
		fails=$((fails + 1))
	fi
}

out=$(mini ok)
rc=$?
want="ok 1 - main-a (*s)
ok 2 - main-overlap (*s)
ok 3 - lane-a (*s)
ok 4 - lane-overlap (*s)
not ok 5 - lane-b (*s): lane-b-reason
ok 6 - lane-need (*s)
ok 7 - lane-skip # SKIP not-here (*s)
5 passed, 1 failed, 1 skipped"
tap_is "the lane's tests overlap the main line and are numbered after it" $rc 1 "$want"

out=$(mini die)
rc=$?
if [ $rc = 1 ] && grep -q '^not ok 7 - lane ' <<<"$out" && ! grep -q 'lane-skip' <<<"$out" &&
	grep -q 'lane ended without finishing (exit 3)' "$TMP/logs-die/lane.log"; then
	echo "ok - a lane that dies half way fails"
else
	echo "not ok - a dying lane: exit $rc, got:"
	echo "$out"
	fails=$((fails + 1))
fi

mini hang >/dev/null 2>&1 &
pid=$!
n=0
for _ in $(seq 100); do n=$(pgrep -c -f "^sleep 3017$") && break; sleep 0.1; done
kill -TERM $pid
wait $pid 2>/dev/null
rc=$?
left=1
for _ in $(seq 20); do left=$(pgrep -c -f "^sleep 3017$") || break; sleep 0.1; done
if [ "$n" -ge 1 ] && [ $rc -ne 0 ] && [ "$left" = 0 ]; then
	echo "ok - stopping check.sh stops its lane (exit $rc)"
else
	echo "not ok - stopping check.sh: $n of the lane's sleeps before, $left after, exit $rc"
	fails=$((fails + 1))
	pkill -f "$TMP/mini-hang.sh"
	pkill -f "^sleep 3017$"
fi
# The pool: the main line and the lane both go through the same list; each
# test runs once, by whichever gets to it first, and every one is reported.
# The lane starts on it at once, the main line when the lane has run two.
{ mini_head pool; cat <<EOF
pool() {
	for t in p1 p2 p3 p4 p5 p6; do
		pool_run "\$t" bash -c "echo \$t >>$TMP/pool-ran; sleep 0.3"
	done
}
await() { local n; for _ in \$(seq 100); do n=\$(wc -l 2>/dev/null <"\$1"); [ "\${n:-0}" -ge 2 ] && return 0; sleep 0.1; done; return 1; }
run main-a true
lane_start pool
await "$TMP/pool-ran"
pool
finish
EOF
} >"$TMP/mini-pool.sh"
out=$(bash "$TMP/mini-pool.sh")
rc=$?
ran=$(sort "$TMP/pool-ran" | tr '\n' ' ')
lines=$(grep -cE '^ok [0-9]+ - p[1-6] ' <<<"$out")
inlane=$(grep -cE '^# lane: p[1-6] ' <<<"$out")
if [ $rc = 0 ] && [ "$ran" = "p1 p2 p3 p4 p5 p6 " ] && [ "$lines" = 6 ] &&
	[ "$inlane" -ge 2 ] && [ "$inlane" -lt 6 ]; then
	echo "ok - the pool runs each test once, shared by the main line and the lane ($inlane in the lane)"
else
	echo "not ok - the pool: exit $rc, ran '$ran', $lines lines, $inlane in the lane:"
	echo "$out"
	fails=$((fails + 1))
fi

# lane_await: the lane waits for a main-line test and takes its result;
# one the main line never runs (--only) ends the wait at the main line's
# end, and need() then fails what depends on it.
{ mini_head await; cat <<EOF
built() { need main-build && [ -e $TMP/await-built ]; }
lane_body() {
	lane_await main-build
	run lane-after-build built
	lane_await main-never
	run lane-needs-never need main-never
}
lane_start lane_body
run main-build bash -c 'sleep 3; touch $TMP/await-built'
run main-failed false
finish
EOF
} >"$TMP/mini-await.sh"
out=$(timeout 60 bash "$TMP/mini-await.sh")
rc=$?
want="ok 1 - main-build (*s)
not ok 2 - main-failed (*s): exit 1
ok 3 - lane-after-build (*s)
not ok 4 - lane-needs-never (*s): prerequisite 'main-never' did not pass
2 passed, 2 failed, 0 skipped"
tap_is "the lane waits for a main-line build, and not for one that never runs" $rc 1 "$want"

# A full disk: the failing test's line names it, whatever its last line.
{ mini_head full; cat <<EOF
run full bash -c 'echo "cp: error writing x: No space left on device"; echo "make: *** [all] Error 1"; exit 2'
finish
EOF
} >"$TMP/mini-full.sh"
out=$(bash "$TMP/mini-full.sh")
rc=$?
if [ $rc = 1 ] && grep -qE '^not ok 1 - full \([0-9]+s\): no space left on device \([0-9.]+ GiB free now\): make: \*\*\* \[all\] Error 1$' <<<"$out" &&
	grep -qE '^# total wall time .*, [0-9.]+ GiB free at the end$' <<<"$out"; then
	echo "ok - a test that ran out of disk says so, with the space left"
else
	echo "not ok - a full disk: exit $rc, got:"
	echo "$out"
	fails=$((fails + 1))
fi
# --only that matches no test: an error alone; under make check of every
# base (THUNKLESS_CHECK_ALL) exit 3, so that check.sh knows this base ran
# none and fails only when no base ran any.
{ mini_head none; cat <<EOF
only=no-such-test KVER=9.9
run main-a true
finish
EOF
} >"$TMP/mini-none.sh"
out=$(env -u THUNKLESS_CHECK_ALL bash "$TMP/mini-none.sh" 2>&1)
rc=$?
out_all=$(THUNKLESS_CHECK_ALL=1 bash "$TMP/mini-none.sh" 2>&1)
rc_all=$?
if [ $rc = 1 ] && [ "$out" = "check: error: no test matches --only 'no-such-test'" ] &&
	[ $rc_all = 3 ] && [ "$out_all" = "# no test matches --only 'no-such-test' on base 9.9" ]; then
	echo "ok - --only that matches nothing: an error, or exit 3 under make check of every base"
else
	echo "not ok - --only that matches nothing: exit $rc: $out; all bases: exit $rc_all: $out_all"
	fails=$((fails + 1))
fi
done_testing
