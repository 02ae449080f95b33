#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tc-matchall: N matchall filters on clsact egress of a dummy device, each
# with "action gact continue", so that every packet walks all N filters and
# N actions.  pktgen xmit_mode queue_xmit, 64-byte UDP.
#
#   bench/scenarios/tc-matchall.sh [-n N[,N..]] [-c COUNT] [-d SECONDS] [-g GATES]
#
# Checks: N filters installed; every gact action counted exactly the packets
# pktgen sent; the device transmitted them all; pktgen errors == 0.
HERE=${0%/*}
[ "$HERE" != "$0" ] || HERE=.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

N_LIST=1,10,100
VARIANTS=-
N_MAX=10000
parse_opts "$@"
preflight tc

DST_MAC=90:e2:ba:ff:ff:ff

s_setup() {
	local n=$2 i
	make_dummy "$DEV"
	tc qdisc add dev "$DEV" clsact || die "cannot add clsact to $DEV"
	for ((i = 1; i <= n; i++)); do
		echo "filter add dev $DEV egress pref $i protocol all matchall action gact continue"
	done | tc -b - || die "adding $n matchall filters failed"
	tc_dump "$DEV" "filter * matchall *handle *"
	expect_eq "matchall filters on $DEV egress" "$CNT" "$n"
	tc_kinds
	expect_eq "actions on $DEV egress" "$KINDS_SEEN" "gact $n"
	tc_keys
	pg_device "$DEV" queue_xmit "$DST_MAC" 198.18.0.42 198.18.0.1 9
}

# ~150 ns per packet plus ~25 ns per filter on 6.1 UML with retpolines.
s_rate() {
	RATE=$((1000000000 / (150 + 25 * $2)))
}

s_snap() {
	tc_dump "$DEV" "filter * matchall *handle *"
	dev_stat "$DEV" tx_packets
	SNAP="${TCA}tx $STAT"
}

s_check() {
	local b=$3 a=$4
	expect_no_pg_errors
	tc_action_check "$KEYS" "$b" "$a" "$CHECK_PKTS"
	snap_delta tx "$b" "$a"
	expect_eq "$DEV tx_packets delta" "$DELTA" "$CHECK_PKTS"
}

s_teardown() {
	ip link del "$DEV" 2>/dev/null
	return 0
}

run_scenario
