# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # variables for the scripts that source this
# check-run.sh: sourced by check.sh (and tests/test-lane.sh).  Runs tests,
# prints one TAP line each, and runs a lane of tests in the background.
# The caller sets LOGS (an empty directory) and only (a regular expression
# the names must match).

npass=0 nfail=0 nskip=0 n=0
T0=$(date +%s)
declare -A STATUS
# Each test's result as a file, for the other line (lane_await below).
DONE=$LOGS/.done
mkdir -p "$DONE"

# run NAME CMD...: one test.  Exit 0 passes, 4 skips, anything else fails;
# the last line of the output is the reason shown.  Inside a lane (below)
# the result is recorded, and printed when the lane is joined.
LANE=
run() {
	local name=$1 rc t s
	shift
	# shellcheck disable=SC2154 # only: set by the caller, above
	[[ $name =~ $only ]] || return 0
	t=$(date +%s)
	"$@" >"$LOGS/$name.log" 2>&1 </dev/null
	rc=$?
	s=$(($(date +%s) - t))
	if [ -n "$LANE" ]; then
		record "$name" "$rc"
		echo "$name $rc $s" >>"$LANE"
		echo "# lane: $name exit $rc (${s}s)"
		return 0
	fi
	report "$name" "$rc" "$s"
}

# record NAME RC: what need() sees of a test that ran, and what
# lane_await() sees of it in the other line ($DONE/NAME).
record() {
	case $2 in 0) STATUS[$1]=ok ;; 4) STATUS[$1]=skip ;; *) STATUS[$1]=fail ;; esac
	echo "${STATUS[$1]}" >"$DONE/$1"
}

# lane_await NAME: in the lane, wait until the main line has run NAME
# (a build the lane's next tests need), and take its result for need().
# If the main line ends without running it (--only), the wait ends too,
# and need() then fails those tests by name.
lane_await() {
	while ! done_yet "$1" && [ ! -e "$DONE/.main-end" ]; do
		sleep 2
	done
	! done_yet "$1" || STATUS[$1]=$(cat "$DONE/$1")
}

# done_yet NAME: whether NAME has run, in either line.
done_yet() { [ -e "$DONE/$1" ]; }

# report NAME RC SECONDS: the TAP line of a test that ran.
report() {
	local name=$1 rc=$2 s=$3 reason
	n=$((n + 1))
	record "$name" "$rc"
	reason=$(grep -v '^\s*$' "$LOGS/$name.log" | tail -n1 | cut -c1-200)
	# A full disk fails whatever runs next, each with its own last line:
	# name the cause.
	if [ "$rc" != 0 ] && [ "$rc" != 4 ] && grep -q 'No space left on device' "$LOGS/$name.log"; then
		reason="no space left on device ($(disk_free) now): $reason"
	fi
	case $rc in
	0) npass=$((npass + 1)); echo "ok $n - $name (${s}s)" ;;
	4) nskip=$((nskip + 1)); echo "ok $n - $name # SKIP ${reason} (${s}s)" ;;
	*) nfail=$((nfail + 1))
	   echo "not ok $n - $name (${s}s): ${reason:-exit $rc}"
	   echo "# log: $LOGS/$name.log" ;;
	esac
}

# need NAME...: fail (not skip) a test whose prerequisite failed.
need() {
	local d
	for d in "$@"; do
		[ "${STATUS[$d]:-}" = ok ] || { echo "prerequisite '$d' did not pass"; return 1; }
	done
}

# A lane runs tests one after another in the background while the main
# line goes on: the QEMU guests, which keep one core busy, beside the
# builds, which leave one idle while they link.  lane_start FUNCTION starts
# one; lane_join waits for it and prints its tests' lines, in their order.
# A lane that ends without reaching its end (killed, or a bug in this
# script) fails, so that no test it skipped can look passed.
lane_pid=
lane_start() {
	lane_file=$LOGS/.lane
	: >"$lane_file"
	(
		LANE=$lane_file
		"$@"
		echo "-end-" >>"$LANE"
	) &
	lane_pid=$!
}

killtree() {
	local c
	for c in $(pgrep -P "$1" 2>/dev/null); do killtree "$c"; done
	kill -TERM "$1" 2>/dev/null
}
trap '[ -z "$lane_pid" ] || killtree "$lane_pid"; exit 130' INT TERM

lane_join() {
	local name rc trc s ended=0
	[ -n "$lane_pid" ] || return 0
	wait "$lane_pid"
	rc=$?
	lane_pid=
	while read -r name trc s; do
		[ "$name" != -end- ] || { ended=1; continue; }
		report "$name" "$trc" "$s"
	done <"$lane_file"
	if [ $ended = 0 ]; then
		echo "lane ended without finishing (exit $rc)" >"$LOGS/lane.log"
		report lane 1 0
	fi
}

# A pool: tests that need no particular order, each taken by whichever of
# the main line and the lane gets to it first, so that the one that ends
# its own work early takes the other's share instead of leaving a core
# idle.  pool_run NAME CMD...: run it unless someone has claimed it (a
# claim is a directory made atomically, $LOGS/.pool/NAME).
pool_run() {
	[[ $1 =~ $only ]] || return 0
	mkdir -p "$LOGS/.pool"
	mkdir "$LOGS/.pool/$1" 2>/dev/null || return 0
	run "$@"
}

finish() {
	: >"$DONE/.main-end"
	lane_join
	if [ $n -eq 0 ]; then
		# make check without BASE: another base may have the tests;
		# exit 3 tells check.sh that this base ran none
		[ -z "${THUNKLESS_CHECK_ALL:-}" ] || { echo "# no test matches --only '$only' on base $KVER"; exit 3; }
		die "no test matches --only '$only'"
	fi
	echo "# total wall time $(($(date +%s) - T0))s, logs in ${LOGS#"$TOP"/}, $(disk_free) at the end"
	echo "$npass passed, $nfail failed, $nskip skipped"
	[ "$nfail" -eq 0 ]
	exit
}

