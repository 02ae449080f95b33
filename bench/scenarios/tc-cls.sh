#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tc-cls: one classifier kind alone, N filters of it on clsact egress, each
# matching the test packet and running "action gact continue", so that
# every packet walks all N classifiers and N actions.  pktgen queue_xmit,
# 64-byte UDP 198.18.0.1:9 -> 198.18.0.42:9.  Variants, one per kind:
#   matchall  "matchall"
#   u32       "u32 match ip dst 198.18.0.42/32"
#   flower    "flower ip_proto udp dst_ip 198.18.0.42 dst_port 9"
#   basic     "basic match 'cmp(u8 at 9 layer network eq 17)'" (an ematch)
#   fw        "handle 7 fw"; pktgen cannot mark its packets, so pref 1 is
#             "matchall action skbedit mark 7 continue" ahead of the N fw
#             filters (one more filter and action per packet)
#   flow      "handle 1 flow hash keys dst divisor 1"
#   route     "route to 1": route4 classifies by the realm of the packet's
#             route, which pktgen's packets have none of; this variant
#             sends through the forward scenario's router (forward_path),
#             with the filters on the egress of fwc and a route with
#             realm 1 to the receiver
#   cgroup    "handle 1 cgroup": cls_cgroup classifies by the sending
#             task's net_cls class id; pktgen's thread is bound to its CPU,
#             which forbids moving it into a net_cls cgroup, and its
#             packets have no socket, so the N cgroup filters never match:
#             the variant measures the miss, and a last "matchall action
#             gact continue" filter counts the packets
# Each variant unloads its classifier's module when done (when it is one):
# a modular kind takes one of tc's eight classify slots when it loads.
# cls_bpf is not a variant: the vehicle (UML) has no BPF JIT, and the
# interpreter's own jumps are thunks.
#
#   bench/scenarios/tc-cls.sh [-v VARIANT[,...]] [-n N[,N..]] [-c COUNT] [-d SECONDS] [-g GATES]
#
# Checks: every filter pref installed; every action counted exactly the
# packets pktgen sent; the device (fwc for route) transmitted them all;
# pktgen errors == 0.
# BASH_SOURCE, not $0: tests/guest/thunks.sh -k sources this file
HERE=${BASH_SOURCE[0]%/*}
[ "$HERE" != "${BASH_SOURCE[0]}" ] || HERE=.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

N_LIST=30
ALL_VARIANTS=matchall,u32,flower,basic,fw,flow,route,cgroup
VARIANTS=$ALL_VARIANTS
N_MAX=1000
parse_opts "$@"
preflight tc

DST_MAC=90:e2:ba:ff:ff:ff
DST_IP=198.18.0.42

# cls_filter KIND: the classifier part of one filter of KIND
cls_filter() {
	case $1 in
	matchall) echo "protocol all matchall" ;;
	u32) echo "protocol ip u32 match ip dst $DST_IP/32" ;;
	flower) echo "protocol ip flower ip_proto udp dst_ip $DST_IP dst_port 9" ;;
	basic) echo "protocol ip basic match 'cmp(u8 at 9 layer network eq 17)'" ;;
	fw) echo "protocol ip handle 7 fw" ;;
	flow) echo "handle 1 protocol ip flow hash keys dst divisor 1" ;;
	route) echo "protocol ip route to 1" ;;
	cgroup) echo "handle 1 protocol all cgroup" ;;
	*) die "unknown classifier variant '$1'" ;;
	esac
}

s_setup() {
	local v=$1 n=$2 i first=1 last=0
	if [ "$v" = route ]; then
		forward_path
		DEV=fwc
		DST_IP=198.18.2.2
		ip route replace "$DST_IP/32" dev fwc realm 1 ||
			die "cannot add a route with a realm (CONFIG_IP_ROUTE_CLASSID?)"
	else
		make_dummy "$DEV"
	fi
	tc qdisc add dev "$DEV" clsact || die "cannot add clsact to $DEV"
	[ "$v" = fw ] && first=2
	[ "$v" = cgroup ] && last=1
	{
		if [ "$v" = fw ]; then
			echo "filter add dev $DEV egress pref 1 protocol all matchall action skbedit mark 7 continue"
		fi
		for ((i = first; i < first + n; i++)); do
			echo "filter add dev $DEV egress pref $i $(cls_filter "$v") action gact continue"
		done
		if [ "$v" = cgroup ]; then
			echo "filter add dev $DEV egress pref $i protocol all matchall action gact continue"
		fi
	} | tc -b - || die "adding $n $v filters failed (is cls_$v in the kernel?)"
	tc_dump "$DEV" "*"
	expect_eq "filter prefs on $DEV egress" "$PREFS" $((n + first - 1 + last))
	tc_kinds
	case $v in
	fw) expect_eq "actions on $DEV egress" "$KINDS_SEEN" "gact $n skbedit 1" ;;
	cgroup) expect_eq "actions on $DEV egress" "$KINDS_SEEN" "gact $((n + 1))" ;;
	*) expect_eq "actions on $DEV egress" "$KINDS_SEEN" "gact $n" ;;
	esac
	tc_keys
	MISS_KEYS=
	if [ "$v" = cgroup ]; then
		# in pref order: the cgroup filters' actions, then the last one's
		KEYS=${KEYS% }
		MISS_KEYS=${KEYS% *}
		KEYS=${KEYS##* }
	fi
	if [ "$v" = route ]; then
		pg_device fwa queue_xmit "$MAC" "$DST_IP" 198.18.1.1 9
	else
		pg_device "$DEV" queue_xmit "$DST_MAC" "$DST_IP" 198.18.0.1 9
	fi
}

# ~150 ns per packet plus ~40 ns per filter on 6.1 UML with retpolines
s_rate() {
	RATE=$((1000000000 / (150 + 40 * $2)))
	[ "$1" = route ] && RATE=$((1000000000 / (1000 + 40 * $2)))
	return 0
}

s_snap() {
	tc_dump "$DEV" "*"
	dev_stat "$DEV" tx_packets
	SNAP="${TCA}tx $STAT"
}

s_check() {
	local b=$3 a=$4
	expect_no_pg_errors
	tc_action_check "$KEYS" "$b" "$a" "$CHECK_PKTS"
	[ -z "$MISS_KEYS" ] || tc_action_check "$MISS_KEYS" "$b" "$a" 0
	snap_delta tx "$b" "$a"
	expect_eq "$DEV tx_packets delta" "$DELTA" "$CHECK_PKTS"
}

s_teardown() {
	if [ "$1" = route ]; then
		forward_path_del
		DEV=$DEV0 DST_IP=198.18.0.42
	else
		ip link del "$DEV" 2>/dev/null
	fi
	mod_unload "cls_$1"
	return 0
}

DEV0=$DEV
run_scenario
