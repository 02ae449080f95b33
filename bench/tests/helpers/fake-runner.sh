#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Stand-in for scripts/run-uml.sh in bench/tests/test-bench.sh: same command line
# (--kernel K [--timeout S] [--idle-timeout S] [--out DIR] -- COMMAND...), but
# instead of booting it runs COMMAND on the host with THUNKLESS_OUT=DIR and
# the scenarios replaced by fake-scenario.sh, which prints canned RESULT lines.
# A kernel file whose name contains "panic" emulates a guest panic.
# FAKE_HANG="KERNEL SCENARIO WHICH" emulates a guest that hangs in SCENARIO
# and what run-guest.sh's watchdog then does (the watchdog itself is tested
# in test-run-guest.sh): the boots of KERNEL numbered WHICH (a comma list of
# ordinals over all its boots, retries included, or "all") run the
# scenarios before SCENARIO, print its BEGIN and first PROGRESS line, and
# fail with "guest made no progress for Ss; last line: ...".
# FAKE_SLOW="KERNEL SECONDS": each boot of KERNEL prints a line and sleeps
# SECONDS (a child process, standing in for the guest) before its scenarios.
set -u
kernel='' out='' idle=60
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--timeout) shift 2 ;;
	--idle-timeout) idle=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "fake-runner: bad option $1" >&2; exit 2 ;;
	esac
done
if [ -z "$kernel" ] || [ $# -eq 0 ]; then
	echo "fake-runner: usage" >&2
	exit 2
fi
kb=$(basename "$kernel")
echo "$kb $*" >>"$FAKE_LOG"
case $kb in
*panic*)
	echo "Kernel panic - not syncing: fake"
	echo "run-uml: error: guest panicked" >&2
	exit 1
	;;
esac
if [ -n "${FAKE_SLOW:-}" ]; then
	read -r sk ss <<<"$FAKE_SLOW"
	if [ "$sk" = "$kb" ]; then
		echo "fake guest: slow boot"
		sleep "$ss"
	fi
fi
hang=
if [ -n "${FAKE_HANG:-}" ]; then
	read -r hk hs hw <<<"$FAKE_HANG"
	nth=$(grep -c "^$kb " "$FAKE_LOG")
	if [ "$hk" = "$kb" ]; then
		case ",$hw," in ,all, | *",$nth,"*) hang=$hs ;; esac
	fi
fi
# a hang: only the scenarios before the hung one run
# (COMMAND is bench/guest-run.sh [--duration D] [--gates G] SPEC...)
cmd=("$@")
if [ -n "$hang" ]; then
	cmd=("$1")
	shift
	nspec=0
	while [ $# -gt 0 ]; do
		case $1 in
		--duration | --gates) cmd+=("$1" "$2"); shift 2 ;;
		*)
			[ "${1%%[:/]*}" = "$hang" ] && break
			cmd+=("$1")
			nspec=$((nspec + 1))
			shift
			;;
		esac
	done
	[ "$nspec" -gt 0 ] || cmd=()
fi
here=$(cd "$(dirname "$0")" && pwd)
sd=$(mktemp -d)
for s in tc-matchall tc-mixed nft-set udp-lookup egress-bpf; do
	ln -s "$here/fake-scenario.sh" "$sd/$s.sh"
done
cd "$here/../../.." || exit 1
rc=0
if [ ${#cmd[@]} -gt 0 ]; then
	FAKE_KERNEL=$kb THUNKLESS_OUT=$out BENCH_SCENARIO_DIR=$sd "${cmd[@]}"
	rc=$?
fi
rm -rf "$sd"
if [ -n "$hang" ]; then
	last="PROGRESS v=1 scenario=$hang variant=- n=1 step=setup"
	echo "BEGIN scenario=$hang"
	echo "$last"
	echo "---- last console lines (uml) ----" >&2
	echo "$last" >&2
	echo "----" >&2
	echo "run-uml: error: guest made no progress for ${idle}s; last line: $last" >&2
	exit 1
fi
exit $rc
