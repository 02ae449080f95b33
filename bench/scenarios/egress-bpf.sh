#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# egress-bpf: N classic-BPF cls_bpf filters in direct-action mode on clsact
# egress of a dummy device; pktgen xmit_mode queue_xmit, 64-byte UDP.
# With the default N=1 the filter is exactly
#
#	tc filter add dev D egress bpf da bytecode '1,6 0 0 0,'
#
# (return TC_ACT_OK).  With N > 1 the first N-1 return TC_ACT_UNSPEC (-1,
# "continue") so that every packet runs all N programs.
#
#   bench/scenarios/egress-bpf.sh [-n N[,N..]] [-c COUNT] [-d SECONDS] [-g GATES]
#
# Checks: a probe filter returning TC_ACT_STOLEN swallows all of 1000
# packets (the egress hook really runs cls_bpf on this device); N filters installed;
# the device transmitted every measured packet; pktgen errors == 0.
HERE=${0%/*}
[ "$HERE" != "$0" ] || HERE=.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

N_LIST=1
VARIANTS=-
N_MAX=1000
parse_opts "$@"
preflight tc

DST_MAC=90:e2:ba:ff:ff:ff

s_setup() {
	local n=$2 i tx0 code
	make_dummy "$DEV"
	tc qdisc add dev "$DEV" clsact || die "cannot add clsact to $DEV"
	pg_device "$DEV" queue_xmit "$DST_MAC" 198.18.0.42 198.18.0.1 9

	# Probe: a program returning TC_ACT_STOLEN (4) must swallow every packet
	# (dev_queue_xmit still reports success, so pktgen completes; a
	# TC_ACT_SHOT probe would leave pktgen retrying forever).
	tc filter add dev "$DEV" egress pref 1 bpf da bytecode '1,6 0 0 4,' ||
		die "cannot add bpf filter (CONFIG_NET_CLS_BPF?)"
	dev_stat "$DEV" tx_packets
	tx0=$STAT
	pg_run 1000
	dev_stat "$DEV" tx_packets
	expect_eq "probe: packets through a bpf filter returning STOLEN" $((STAT - tx0)) 0
	expect_eq "probe: pktgen errors" "$PG_ERRORS" 0
	tc filter del dev "$DEV" egress pref 1 || die "cannot delete probe filter"

	for ((i = 1; i <= n; i++)); do
		code=4294967295
		[ "$i" -eq "$n" ] && code=0
		echo "filter add dev $DEV egress pref $i bpf da bytecode \"1,6 0 0 $code,\""
	done | tc -b - || die "adding $n bpf filters failed"
	tc_dump "$DEV" "filter * bpf *handle *direct-action*"
	expect_eq "bpf da filters on $DEV egress" "$CNT" "$n"
}

s_rate() {
	RATE=$((1000000000 / (150 + 20 * $2)))
}

s_snap() {
	dev_stat "$DEV" tx_packets
	SNAP="tx $STAT"
}

s_check() {
	local b=$3 a=$4
	expect_no_pg_errors
	snap_delta tx "$b" "$a"
	expect_eq "$DEV tx_packets delta" "$DELTA" "$CHECK_PKTS"
	tc_dump "$DEV" "filter * bpf *handle *direct-action*"
	expect_eq "bpf da filters after measurement" "$CNT" "$2"
}

s_teardown() {
	ip link del "$DEV" 2>/dev/null
	return 0
}

run_scenario
