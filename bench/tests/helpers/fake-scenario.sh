#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fake scenario for bench/tests/test-bench.sh: prints one RESULT line per size
# and gate, each after PROGRESS lines like bench/scenarios/lib.sh's; pps
# depends on $FAKE_KERNEL; FAKE_FAIL=<scenario> makes that scenario fail
# like a broken setup would.  t= counts from 1000000001 in each run of it, or is
# $FAKE_T where that is set ("" leaves t= out, as scenarios did before it).
set -u
scen=$(basename "$0" .sh)
t=1000000000
ns=1 gates='' vs=-
while getopts "n:c:d:g:v:" o; do
	case $o in
	n) ns=$OPTARG ;;
	g) gates=$OPTARG ;;
	v) vs=$OPTARG ;;
	*) ;;
	esac
done
echo "PROGRESS v=1 scenario=$scen variant=${vs%%,*} n=${ns%%,*} step=setup"
if [ "${FAKE_FAIL:-}" = "$scen" ]; then
	echo "$scen: error: matchall filters on tlb0 egress: got 0, expected 1" >&2
	exit 1
fi
case $FAKE_KERNEL in
*base*) pps=1000000 ;;
*patched*) pps=1500000 ;;
*) pps=2000000 ;;
esac
for n in ${ns//,/ }; do
	for v in ${vs//,/ }; do
		gl=${gates:-none}
		for g in ${gl//,/ }; do
			p=$pps
			[ "$g" = off ] && p=1000000
			echo "PROGRESS v=1 scenario=$scen variant=$v n=$n step=warm-up gate=$g"
			echo "PROGRESS v=1 scenario=$scen variant=$v n=$n step=measure gate=$g pkts=$p"
			t=$((t + 1))
			tf=" t=$t"
			[ -z "${FAKE_T+x}" ] || tf=${FAKE_T:+ t=$FAKE_T}
			echo "RESULT v=1 scenario=$scen variant=$v n=$n gate=$g pkts=$p usec=1000000 pps=$p errors=0$tf"
		done
	done
done
