#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tc-mixed: N filters on clsact egress of a dummy device, alternating flower
# (odd prefs) and u32 (even prefs), all matching the test packet; each runs
# one of pedit (set ip tos), skbedit (set mark), mirred (mirror to a second
# dummy device) in rotation, then "gact continue", so that every packet walks
# all N classifiers and 2N actions.  pktgen queue_xmit, 64-byte UDP.
#
#   bench/scenarios/tc-mixed.sh [-n N[,N..]] [-c COUNT] [-d SECONDS] [-g GATES]
#
# Checks: N filters installed; every new gact, pedit, skbedit and mirred
# action counted exactly the packets pktgen sent; the mirror device
# transmitted (number of mirred actions) * packets; the device under test
# transmitted every packet; pktgen errors == 0.
HERE=${0%/*}
[ "$HERE" != "$0" ] || HERE=.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

N_LIST=10
VARIANTS=-
N_MAX=1000
parse_opts "$@"
preflight tc

DST_MAC=90:e2:ba:ff:ff:ff
DST_IP=198.18.0.42

s_setup() {
	local n=$2 i cls act want
	make_dummy "$DEV"
	make_dummy "$DEV2"
	tc qdisc add dev "$DEV" clsact || die "cannot add clsact to $DEV"
	N_MIRRED=$((n / 3))	# prefs 3, 6, 9, ...
	for ((i = 1; i <= n; i++)); do
		if ((i % 2)); then
			cls="protocol ip flower ip_proto udp dst_ip $DST_IP dst_port 9"
		else
			cls="protocol ip u32 match ip dst $DST_IP/32 match ip protocol 17 0xff"
		fi
		case $(((i - 1) % 3)) in
		0) act="pedit ex munge ip tos set 0x10 pipe" ;;
		1) act="skbedit mark $i pipe" ;;
		2) act="mirred egress mirror dev $DEV2 pipe" ;;
		esac
		echo "filter add dev $DEV egress pref $i $cls action $act action gact continue"
	done | tc -b - || die "adding $n flower/u32 filters failed"
	# every pref must be there (u32 prints extra hash-table lines)
	tc_dump "$DEV" "*"
	expect_eq "filter prefs on $DEV egress" "$PREFS" "$n"
	tc_kinds
	want="gact $n"
	[ "$N_MIRRED" -gt 0 ] && want+=" mirred $N_MIRRED"
	want+=" pedit $(((n + 2) / 3))"
	[ "$n" -ge 2 ] && want+=" skbedit $(((n + 1) / 3))"
	expect_eq "actions on $DEV egress" "$KINDS_SEEN" "$want"
	tc_keys
	pg_device "$DEV" queue_xmit "$DST_MAC" "$DST_IP" 198.18.0.1 9
}

s_rate() {
	RATE=$((1000000000 / (200 + 80 * $2)))
}

s_snap() {
	tc_dump "$DEV" "*"
	dev_stat "$DEV" tx_packets
	SNAP="${TCA}tx $STAT"$'\n'
	dev_stat "$DEV2" tx_packets
	SNAP+="tx2 $STAT"
}

s_check() {
	local b=$3 a=$4
	expect_no_pg_errors
	tc_action_check "$KEYS" "$b" "$a" "$CHECK_PKTS"
	snap_delta tx "$b" "$a"
	expect_eq "$DEV tx_packets delta" "$DELTA" "$CHECK_PKTS"
	snap_delta tx2 "$b" "$a"
	expect_eq "$DEV2 (mirror) tx_packets delta" "$DELTA" $((N_MIRRED * CHECK_PKTS))
}

s_teardown() {
	ip link del "$DEV" 2>/dev/null
	ip link del "$DEV2" 2>/dev/null
	return 0
}

run_scenario
