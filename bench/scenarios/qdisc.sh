#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qdisc: a dummy device with a queue (txqueuelen 1000) and a root qdisc,
# pktgen xmit_mode queue_xmit, 64-byte UDP, one flow.  Variants:
#   pfifo_fast  the built-in default of 6.1 without DEFAULT_NET_SCH
#   fq_codel    the built-in default of Debian's config
#   htb         htb (a module on the modular kernels, as in Debian's)
#               with one 100gbit class and an fq_codel leaf
#
#   bench/scenarios/qdisc.sh [-v VARIANT[,...]] [-c COUNT] [-d SECONDS] [-g GATES]
#
# Per packet on a retpoline kernel without the series: the driver's
# transmit, and each qdisc level's enqueue and dequeue, each an indirect
# call; the time reads (ktime_get()) of htb and codel, which stay one.
# pfifo_fast, while its queue is empty, sends without enqueue or dequeue
# (TCQ_F_CAN_BYPASS).
#
# Checks: every qdisc's sent counter (the root's, and for htb the fq_codel
# leaf's) and the device's tx_packets moved by exactly the packets pktgen
# sent; no qdisc dropped any; pktgen errors == 0.
HERE=${0%/*}
[ "$HERE" != "$0" ] || HERE=.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

N_LIST=1
VARIANTS=pfifo_fast,fq_codel,htb
ALL_VARIANTS=pfifo_fast,fq_codel,htb
N_MAX=1
parse_opts "$@"
preflight tc

DST_MAC=90:e2:ba:ff:ff:ff

s_setup() {
	make_dummy "$DEV"
	qdisc_root "$DEV" "$1"
	qdisc_stats
	case $1 in
	htb) expect_eq "qdiscs on $DEV" "${QDISCS[*]}" "1:htb 10:fq_codel" ;;
	*) expect_eq "qdiscs on $DEV" "${QDISCS[*]}" "1:$1" ;;
	esac
	pg_device "$DEV" queue_xmit "$DST_MAC" 198.18.0.42 198.18.0.1 9
}

# qdisc_stats: one "tc -s qdisc show dev $DEV"; sets QDISCS to the
# "HANDLE:KIND" of each qdisc and QSTATS to "HANDLE:KIND/sent N" and
# "HANDLE:KIND/drop N" lines.
qdisc_stats() {
	local out line cur=
	out=$(tc -s qdisc show dev "$DEV") || die "tc qdisc show dev $DEV failed"
	QDISCS=() QSTATS=
	while read -r line; do
		if [[ $line =~ ^qdisc\ ([a-z_]+)\ ([0-9a-f]+:) ]]; then
			cur=${BASH_REMATCH[2]}${BASH_REMATCH[1]}
			QDISCS+=("$cur")
		elif [[ $line =~ ^Sent\ [0-9]+\ bytes\ ([0-9]+)\ pkt\ \(dropped\ ([0-9]+) ]]; then
			[ -n "$cur" ] || die "qdisc statistics before any qdisc on $DEV"
			QSTATS+="$cur/sent ${BASH_REMATCH[1]}
$cur/drop ${BASH_REMATCH[2]}
"
			cur=
		fi
	done <<<"$out"
	[ ${#QDISCS[@]} -gt 0 ] || die "no qdisc on $DEV"
}

# ~200 ns per packet on 6.1 UML with retpolines
s_rate() {
	RATE=5000000
}

s_snap() {
	qdisc_stats
	dev_stat "$DEV" tx_packets
	SNAP="${QSTATS}tx $STAT"
}

s_check() {
	local b=$3 a=$4 q
	expect_no_pg_errors
	for q in "${QDISCS[@]}"; do
		snap_delta "$q/sent" "$b" "$a"
		expect_eq "$q sent delta on $DEV" "$DELTA" "$CHECK_PKTS"
		snap_delta "$q/drop" "$b" "$a"
		expect_eq "$q drops on $DEV" "$DELTA" 0
	done
	snap_delta tx "$b" "$a"
	expect_eq "$DEV tx_packets delta" "$DELTA" "$CHECK_PKTS"
}

s_teardown() {
	ip link del "$DEV" 2>/dev/null
	return 0
}

run_scenario
