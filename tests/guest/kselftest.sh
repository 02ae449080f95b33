#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the guest: one selftest, once per direct-calls gate state.
#
#   kselftest.sh [-g "on off"] [-o REGEX] [-m MIN] [-f REGEX] [-e VAR=VALUE]
#                [-n] [-s REGEX] -- PROG [ARG...]
#
# -g  gate states to run PROG under (net.core.direct_calls); "-" leaves
#     the gate alone (the test sets it itself).
# -o  a line matching REGEX is one passed subtest; -m MIN of them must
#     appear in each run, so a run that skipped everything is not a pass.
# -f  a line matching REGEX is a failed subtest (default: TAP "not ok",
#     "[FAIL]").
# -e  export VAR=VALUE to PROG (repeatable).
# -n  run PROG in a new network namespace each time (loopback up), so that
#     sockets an earlier run left behind (TCP TIME_WAIT on a fixed port)
#     cannot make the next run's bind() fail.
# -s  while each run goes on, a line of /sys/kernel/debug/net_direct_calls
#     must match REGEX: the module function the test exercised (an fq
#     qdisc's enqueue, say) held a direct-call slot, so the gate-on run
#     went through it.  The file is read every 50 ms during the run (a
#     qdisc kind gives its slots back once its last qdisc is gone, so the
#     test's own clean-up can empty the slot before it exits), after a
#     wait of up to 5 s for the last run's slot to go.
# Exit 0 when every run exited 0 with at least MIN passes and no failure
# line, 4 when PROG reported a skip (exit 4) for every run, 1 otherwise.
set -u
GATE=/proc/sys/net/core/direct_calls
GATE_ACTIVE=/proc/sys/net/core/direct_calls_active
SLOTS=/sys/kernel/debug/net_direct_calls
# shellcheck source=poll.sh
. "$(dirname "$0")/poll.sh"
modes=- okre='^ok [0-9]+ ' min=1 failre='^not ok [0-9]+ |\[FAIL\]' netns='' slotre=''
while [ $# -gt 0 ]; do
	case $1 in
	-g) modes=$2; shift 2 ;;
	-o) okre=$2; shift 2 ;;
	-m) min=$2; shift 2 ;;
	-f) failre=$2; shift 2 ;;
	-e) export "${2?}"; shift 2 ;;
	-n) netns=1; shift ;;
	-s) slotre=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "kselftest: unknown option '$1'"; exit 1 ;;
	esac
done
[ $# -ge 1 ] || { echo "kselftest: no program given"; exit 1; }
[ -e "$1" ] || { echo "kselftest: no such program: $1"; exit 1; }
# debugfs is mounted by scripts/guest-init.sh, as for slots.sh
if [ -n "$slotre" ] && [ ! -r "$SLOTS" ]; then
	echo "kselftest: -s: no $SLOTS (the kernel lacks the slots or debugfs)"
	exit 1
fi

saved=
[ -w "$GATE" ] && saved=$(cat "$GATE")
rc=0 nrun=0 nskip=0
for m in $modes; do
	nrun=$((nrun + 1))
	if [ "$m" != - ]; then
		if [ ! -w "$GATE" ]; then
			echo "kselftest: $GATE is missing: the kernel lacks the series' gate"
			exit 1
		fi
		echo "$m" >"$GATE" || { echo "kselftest: cannot set direct_calls=$m"; exit 1; }
		echo "# direct_calls=$m active=$(cat "$GATE_ACTIVE")"
	fi
	log=$(mktemp)
	watch='' seen=''
	if [ -n "$slotre" ]; then
		# each run shows its own slot: the last run's goes first
		wait_while 50 grep -qE "$slotre" "$SLOTS"
		seen=$(mktemp -u)
		(while ! grep -qE "$slotre" "$SLOTS"; do sleep 0.05; done; : >"$seen") &
		watch=$!
	fi
	if [ -n "$netns" ]; then
		# shellcheck disable=SC2016
		unshare -n -- sh -c 'ip link set lo up && exec "$@"' sh "$@" 2>&1 | tee "$log"
	else
		"$@" 2>&1 | tee "$log"
	fi
	r=${PIPESTATUS[0]}
	if [ -n "$watch" ]; then
		grep -qE "$slotre" "$SLOTS" && : >"$seen"
		kill "$watch" 2>/dev/null
		wait "$watch" 2>/dev/null
	fi
	# a TAP "ok N ... # SKIP" line is a skip, not a pass
	nok=$(grep -E "$okre" "$log" | grep -vc "# SKIP")
	nfail=$(grep -cE "$failre" "$log")
	rm -f "$log"
	tag=$(basename "$1")
	[ "$m" = - ] || tag="$tag [gate $m]"
	if [ "$r" -eq 4 ]; then
		nskip=$((nskip + 1))
		echo "kselftest: $tag skipped (exit 4)"
	elif [ "$r" -ne 0 ]; then
		echo "kselftest: $tag FAILED: exit $r, $nfail failed subtests"
		rc=1
	elif [ "$nfail" -gt 0 ]; then
		echo "kselftest: $tag FAILED: exit 0 but $nfail failed subtests"
		rc=1
	elif [ "$nok" -lt "$min" ]; then
		echo "kselftest: $tag FAILED: only $nok passed subtests, $min expected"
		rc=1
	elif [ -n "$slotre" ] && [ ! -e "$seen" ]; then
		echo "kselftest: $tag FAILED: no direct-call slot matched '$slotre' during the run; after it:"
		sed 's/^/kselftest:   /' "$SLOTS"
		rc=1
	else
		echo "kselftest: $tag passed ($nok passed subtests)"
	fi
	[ -z "$seen" ] || rm -f "$seen"
done
[ -n "$saved" ] && echo "$saved" >"$GATE"
[ $rc -ne 0 ] && exit 1
if [ "$nskip" -eq "$nrun" ]; then
	echo "kselftest: $(basename "$1") skipped in every run"
	exit 4
fi
[ "$nskip" -gt 0 ] && { echo "kselftest: $(basename "$1") skipped in $nskip of $nrun runs"; exit 1; }
echo "kselftest: $(basename "$1") passed in all $nrun runs"
exit 0
