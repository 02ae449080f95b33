#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the UML guest of the thunk census kernel (um-census-mod, in make check, or um-census,
# test-patches/6.1/0003): counts the retpoline thunk entries each packet
# pays on the tc egress path, by call site, with the direct calls gate
# off and on.
#
#   thunks.sh [COUNT]
#
# Cases (dummy device, clsact egress, pktgen queue_xmit, as the bench):
#   matchall  N=10 "matchall action gact continue": off, 2 thunks per
#             filter (classify + act); on, none from tc
#   mixed     flower/skbedit, u32/pedit, basic/csum, fw/police, matchall
#             with mirred mirror to a second dummy, bpf (classic)/gact
# Each case prints its table (thunk entries per packet and call site) and
# fails if, with the gate on, any thunk is entered from tc's classify or
# act call sites, or if, with the gate off, the census does not see them.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
# shellcheck source=../../bench/scenarios/lib.sh
. "$TOP/bench/scenarios/lib.sh"
SCEN=thunks
COUNT=${1:-200000}
PG_TIMEOUT=120
CENSUS=/proc/thunk_census
# tc's own indirect call sites: tc_classify() and tc_act() are inlined here
TC_SITES='^(__tcf_classify|tcf_classify|tcf_action_exec)\+'
preflight tc
[ -w "$CENSUS" ] || die "no $CENSUS: not the thunk census kernel (um-census)"
[ -w "$GATE_KNOB" ] || die "no $GATE_KNOB: the kernel lacks the series' gate"
DST_MAC=02:00:00:00:00:02
nfail=0

# census NAME: send COUNT packets on $DEV with the census on; sets
# TC_PER (tc thunk entries per packet, x1000) and prints the table.
census() {
	local name=$1 tx0 tx1 total=0 tc=0 c site target key
	local -A per
	echo "# $name: warm-up, then $COUNT packets"
	pg_run $((COUNT / 10))
	pg_set "$DEV" "count $COUNT"
	dev_stat "$DEV" tx_packets
	tx0=$STAT
	echo reset >"$CENSUS"
	echo start >"$PG_DIR/pgctrl"	# a builtin: no fork inside the count
	echo stop >"$CENSUS"
	dev_stat "$DEV" tx_packets
	tx1=$STAT
	file_has "$PG_DIR/$DEV" "Result:" || die "$name: no pktgen result"
	pg_parse "$LINE
$LINE2" || die "$name: cannot parse pktgen result"
	expect_eq "$name: packets sent" "$PG_PKTS" "$COUNT"
	expect_eq "$name: pktgen errors" "$PG_ERRORS" 0
	expect_eq "$name: $DEV tx_packets delta" $((tx1 - tx0)) "$COUNT"
	while read -r c site target; do
		case $c in '#'*) echo "# $name: census $site $target"; continue ;; esac
		total=$((total + c))
		key="${site%%/*} -> ${target%%+*}"
		per[$key]=$((${per[$key]:-0} + c))
		[[ $site =~ $TC_SITES ]] && tc=$((tc + c))
	done <"$CENSUS"
	echo "# $name: $COUNT packets, $(per_pkt "$total") thunk entries per packet, $(per_pkt "$tc") from tc"
	for k in "${!per[@]}"; do
		[ $((per[$k] * 100)) -ge "$COUNT" ] && echo "#   $(per_pkt "${per[$k]}")  $k"
	done | sort -r
	TC_PER=$((tc * 1000 / COUNT))
}

# per_pkt N: N / COUNT with three decimals
per_pkt() {
	printf '%d.%03d' $(($1 / COUNT)) $(($1 * 1000 / COUNT % 1000))
}

check() {
	local name=$1 cond=$2 what=$3
	if eval "$cond"; then
		echo "ok - $name: $what"
	else
		echo "not ok - $name: $what (tc thunk entries per packet x1000: $TC_PER)"
		nfail=$((nfail + 1))
	fi
}

setup_matchall() {
	local i
	make_dummy "$DEV"
	tc qdisc add dev "$DEV" clsact || die "cannot add clsact to $DEV"
	for ((i = 1; i <= 10; i++)); do
		echo "filter add dev $DEV egress pref $i protocol all matchall action gact continue"
	done | tc -b - || die "cannot add the matchall filters"
	pg_device "$DEV" queue_xmit "$DST_MAC" 198.18.0.2 198.18.0.1 9
}

# Packets are UDP 198.18.0.1:9 -> 198.18.0.2:9, mark 0.  Every filter
# matches; every action but the last returns "continue" or "pipe".
setup_mixed() {
	make_dummy "$DEV"
	make_dummy "$DEV2"
	tc qdisc add dev "$DEV" clsact || die "cannot add clsact to $DEV"
	tc -b - <<-EOF || die "cannot add the mixed filters"
	filter add dev $DEV egress pref 1 protocol ip flower ip_proto udp dst_port 9 action skbedit mark 7 continue
	filter add dev $DEV egress pref 2 protocol ip u32 match ip dport 9 0xffff action pedit ex munge ip ttl set 9 continue
	filter add dev $DEV egress pref 3 protocol ip basic match 'cmp(u8 at 9 layer network eq 17)' action csum ip4h udp continue
	filter add dev $DEV egress pref 4 protocol ip handle 7 fw action police rate 100gbit burst 1m conform-exceed continue/continue
	filter add dev $DEV egress pref 5 protocol all matchall action mirred egress mirror dev $DEV2 continue
	filter add dev $DEV egress pref 6 protocol ip bpf bytecode '1,6 0 0 4294967295,' action gact ok
	EOF
	pg_device "$DEV" queue_xmit "$DST_MAC" 198.18.0.2 198.18.0.1 9
}

# thunk entries from tc per packet, gate off: one per filter run and one
# per action run (x1000)
for c in matchall:20000 mixed:12000; do
	name=${c%%:*} off=${c#*:}
	# progress lines, so that a timeout names the step it stopped in
	echo "# $name: setup"
	"setup_$name"
	gate_set off
	census "$name [gate off]"
	check "$name" "[ \$TC_PER -ge $((off * 99 / 100)) ] && [ \$TC_PER -le $((off * 101 / 100)) ]" \
		"gate off: the census sees tc's indirect calls ($((off / 1000)) per packet)"
	gate_set on
	census "$name [gate on]"
	check "$name" "[ \$TC_PER -lt 10 ]" "gate on: no thunk entered from tc's call sites"
	[ "$name" = mixed ] && ip link del "$DEV2"
	ip link del "$DEV"
done
[ $nfail -eq 0 ] || die "$nfail census checks failed"
echo "thunks: tc enters no retpoline thunk with the gate on"
