#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Stand-in for scripts/run-uml.sh in bench/tests/test-bench.sh: same command line
# (--kernel K [--timeout S] [--out DIR] -- COMMAND...), but instead of booting
# it runs COMMAND on the host with THUNKLESS_OUT=DIR and the scenarios
# replaced by fake-scenario.sh, which prints canned RESULT lines.
# A kernel file whose name contains "panic" emulates a guest panic.
set -u
kernel='' out=''
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift 2 ;;
	--timeout) shift 2 ;;
	--out) out=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "fake-runner: bad option $1" >&2; exit 2 ;;
	esac
done
if [ -z "$kernel" ] || [ $# -eq 0 ]; then
	echo "fake-runner: usage" >&2
	exit 2
fi
echo "$(basename "$kernel") $*" >>"$FAKE_LOG"
case $(basename "$kernel") in
*panic*)
	echo "Kernel panic - not syncing: fake"
	echo "run-uml: error: guest panicked" >&2
	exit 1
	;;
esac
here=$(cd "$(dirname "$0")" && pwd)
sd=$(mktemp -d)
for s in tc-matchall tc-mixed nft-set udp-lookup egress-bpf; do
	ln -s "$here/fake-scenario.sh" "$sd/$s.sh"
done
cd "$here/../../.." || exit 1
FAKE_KERNEL=$(basename "$kernel") THUNKLESS_OUT=$out BENCH_SCENARIO_DIR=$sd "$@"
rc=$?
rm -rf "$sd"
exit $rc
