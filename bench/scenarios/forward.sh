#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# forward: the guest routes, as a small router does.  pktgen (xmit_mode
# queue_xmit, 64-byte UDP, one flow) sends on veth fwa; its peer fwb
# (198.18.1.2/24) receives, and the kernel forwards each packet to
# 198.18.2.2 out of fwc (198.18.2.1/24), a veth with fq_codel as its root
# qdisc, through conntrack and one nftables base chain on the forward
# hook with a counter rule.  fwc's peer fwd counts what arrives and drops
# it at ingress (tc).  One network namespace: the router is the guest.
# Variant ipv6: the same router for IPv6 (forward_path6), 78-byte UDP
# packets from 2001:db8:1::1 to 2001:db8:2::2, the chain in an ip6 table.
#
#   bench/scenarios/forward.sh [-n 1] [-v -,ipv6] [-c COUNT] [-d SECONDS] [-g GATES]
#
# Per packet on a retpoline kernel without the series: the transmit on
# fwa and on fwc (ndo_start_xmit), dst_input() -> ip_forward(), the
# netfilter hooks of conntrack and nf_tables, and fq_codel's enqueue and
# dequeue, each an indirect call; for IPv6, dst_input() -> ip6_forward().
#
# Checks: the nft counter, fq_codel's sent counter and fwd's rx_packets
# all moved by exactly the packets pktgen sent; fq_codel dropped none;
# conntrack tracks the flow; pktgen errors == 0.
HERE=${0%/*}
[ "$HERE" != "$0" ] || HERE=.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

N_LIST=1
VARIANTS=-,ipv6
ALL_VARIANTS=-,ipv6
N_MAX=1
parse_opts "$@"
preflight tc nft

TABLE=thunkless_fwd
FAM=ip

s_setup() {
	forward_path
	tc qdisc replace dev fwc root fq_codel ||
		die "cannot add fq_codel to fwc (CONFIG_NET_SCH_FQ_CODEL?)"
	forward_family "$1"
	FAM=$FWD_FAM
	forward_filter "$TABLE" "$FAM"
	pg_device fwa queue_xmit "$MAC" "$FWD_DST" "$FWD_SRC" 9
	# one packet through: conntrack must track the flow
	pg_run 1
	expect_eq "pktgen errors (first packet)" "$PG_ERRORS" 0
	grep -q "src=198.18.1.1 dst=198.18.2.2 .*dport=9 " /proc/net/nf_conntrack 2>/dev/null ||
		conntrack_via_nft || die "conntrack does not track the forwarded flow"
}

# Without /proc/net/nf_conntrack (NF_CONNTRACK_PROCFS off): the rule's
# counter saw the first packet, and "ct state" only matches tracked ones.
conntrack_via_nft() {
	nft_counter
	[ "$CNTR" -ge 1 ]
}

# nft_counter: sets CNTR to the packets counted by the forward chain's rule
nft_counter() {
	local out
	out=$(nft list chain "$FAM" "$TABLE" counted) || die "cannot list the nftables chain"
	[[ $out =~ counter\ packets\ ([0-9]+) ]] || die "no counter in the nftables chain"
	CNTR=${BASH_REMATCH[1]}
}

# ~250 ns per forwarded packet on 6.1 UML with retpolines
s_rate() {
	RATE=4000000
}

s_snap() {
	local out
	nft_counter
	out=$(tc -s qdisc show dev fwc) || die "tc qdisc show dev fwc failed"
	[[ $out =~ fq_codel.*Sent\ [0-9]+\ bytes\ ([0-9]+)\ pkt\ \(dropped\ ([0-9]+) ]] ||
		die "no fq_codel statistics on fwc"
	dev_stat fwd rx_packets
	SNAP="nft $CNTR
qdisc ${BASH_REMATCH[1]}
qdrop ${BASH_REMATCH[2]}
rx $STAT"
}

s_check() {
	local b=$3 a=$4
	expect_no_pg_errors
	snap_delta nft "$b" "$a"
	expect_eq "nft forward counter delta" "$DELTA" "$CHECK_PKTS"
	snap_delta qdisc "$b" "$a"
	expect_eq "fq_codel sent delta on fwc" "$DELTA" "$CHECK_PKTS"
	snap_delta qdrop "$b" "$a"
	expect_eq "fq_codel drops on fwc" "$DELTA" 0
	snap_delta rx "$b" "$a"
	expect_eq "fwd rx_packets delta" "$DELTA" "$CHECK_PKTS"
}

s_teardown() {
	nft delete table "$FAM" "$TABLE" 2>/dev/null
	forward_path_del
	return 0
}

run_scenario
