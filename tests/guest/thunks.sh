#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside the UML guest of the thunk census kernel (um-census-mod, in make check, or um-census,
# test-patches/6.1/0003): counts the retpoline thunk entries each packet
# pays on the tc egress path, by call site, with the direct calls gate
# off and on.
#
#   thunks.sh [-x | -k [-t | -g KINDS]] [COUNT]
#
# -k: per kind, instead of the cases below: each variant of the tc-cls and
#     tc-act scenarios (one classifier kind, or one action kind behind a
#     matchall; N=10), set up by the scenario's own s_setup.  With the gate
#     off the census must see tc's call sites once per filter and once per
#     action; with it on, no thunk may be entered from them, nor from a
#     call site that the series made direct inside a kind (KIND_GONE
#     below).  Each case prints its table, with the gate on the thunks the
#     kind still takes.  On a kernel without the gate (um-census-base-mod)
#     it prints the tables (the base census) and checks only that the
#     census sees the calls that KIND_GONE names.
# -t: with -k, tc's call sites only: the series has none of KIND_GONE's
#     changes inside the kinds.
# -g KINDS: with -k, the series has KIND_GONE's changes for these kinds
#     only (comma-separated; for a series that has only some); the other
#     kinds are checked at tc's call sites only.
# -x: the kernel has CONFIG_NET_PATH_DIRECT_CALLS (which needs static
#     calls): it calls the drivers' ndo_start_xmit, the qdiscs' enqueue
#     and dequeue and netfilter's hook functions through direct-call
#     slots, skips passthru_features_check() and calls ip_forward()
#     directly from dst_input(), process_backlog() from __napi_poll() and
#     net_rx_action() from the softirq core.
#     With the gate on, no thunk may be entered from the transmit call
#     site or nf_hook_slow(), nor to reach a qdisc's enqueue or dequeue,
#     passthru_features_check(), ip_forward(), process_backlog() or
#     net_rx_action(); with
#     it off the census must see them all.  Clock reads (ktime_get():
#     the clocksource's read, direct with retpolines whatever the gate
#     says) must enter none either way.  Two more cases: qdisc (htb
#     with an fq_codel leaf on a dummy device) and forward (a router: one
#     namespace, two veth pairs, IPv4 forwarding, conntrack and an
#     nftables chain; nf_tables' call to its counter expression follows
#     the gate too), the same router for IPv6 (ip6_forward(), IPv6's
#     hook slots), the IPv4 router again after IPv6's NAT tables, and the
#     IPv6 router masquerading (IPv6's NAT functions in its hook slots).
#     Without -x the transmit thunks are counted and shown, not checked.
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
XMIT=0 KINDS=0 TC_ONLY=0 GONE_ONLY=
while [ $# -gt 0 ]; do
	case $1 in
	-x) XMIT=1 ;;
	-k) KINDS=1 ;;
	-t) TC_ONLY=1 ;;
	-g) [ $# -ge 2 ] && [[ $2 =~ ^[a-z_]+(,[a-z_]+)*$ ]] ||
		{ echo "thunks.sh: -g needs a comma-separated list of kinds" >&2; exit 2; }
	    GONE_ONLY=$2; shift ;;
	*) break ;;
	esac
	shift
done
[ $TC_ONLY = 0 ] || [ $KINDS = 1 ] || { echo "thunks.sh: -t needs -k" >&2; exit 2; }
[ -z "$GONE_ONLY" ] || [ $KINDS = 1 ] || { echo "thunks.sh: -g needs -k" >&2; exit 2; }
[ -z "$GONE_ONLY" ] || [ $TC_ONLY = 0 ] || { echo "thunks.sh: -t and -g exclude each other" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
# shellcheck source=../../bench/scenarios/lib.sh
. "$TOP/bench/scenarios/lib.sh"
# shellcheck disable=SC2034 # for bench/scenarios/lib.sh
SCEN=thunks
COUNT=${1:-200000}
case $COUNT in
'' | *[!0-9]* | 0*) echo "thunks.sh: COUNT must be a positive number, not '$COUNT'" >&2; exit 2 ;;
esac
PG_TIMEOUT=120
CENSUS=/proc/thunk_census
# tc's own indirect call sites: tc_classify() and tc_act() are inlined here
TC_SITES='^(__tcf_classify|tcf_classify|tcf_action_exec)(\.[a-z]+\.[0-9]+)?\+'
# the driver's transmit: ndo_start_xmit, from xmit_one() (inlined here)
XMIT_SITES='^(dev_hard_start_xmit|xmit_one)\+'
# netfilter's hook functions, called from nf_hook_slow()
NF_SITES='^nf_hook_slow\+'
# nf_tables' expression calls (expr_call_ops_eval(), inlined or not) to
# the forward chain's two expressions, which the ladders of both bases
# name: the counter, and the ct state match through nf_tables' own copy
# of nft_ct's common keys (upstream's d9e789147605; 6.1's 0030)
NFT_SITES='^(nft_do_chain|expr_call_ops_eval)(\.[a-z]+\.[0-9]+)?\+'
NFT_FNS='^(nft_counter_eval|nft_ct_get_fast_eval)$'
# the clock reads (ktime_get() and friends: the clocksource's read)
CLOCK_SITES='^ktime_get[a-z_]*\+'
# the qdisc case's enqueue and dequeue functions, wherever they are called
QDISC_FNS='^(htb|fq_codel)_(enqueue|dequeue)$'
preflight tc
[ -w "$CENSUS" ] || die "no $CENSUS: not the thunk census kernel (um-census)"
if [ $KINDS = 1 ]; then
	[ -w "$GATE_KNOB" ] || echo "# no $GATE_KNOB: a kernel without the series; census only, no checks"
else
	[ -w "$GATE_KNOB" ] || die "no $GATE_KNOB: the kernel lacks the series' gate"
fi
DST_MAC=02:00:00:00:00:02
nfail=0
# thunks that the series removed inside a kind ("SITE -> TARGET" regex)
GONE=

# census NAME: send COUNT packets on $DEV with the census on; sets
# TC_PER, XMIT_PER and FWD_PER (tc's call sites', the transmit call site's
# and the ones into ip_forward()/ip6_forward(): thunk entries per packet,
# x1000) and prints the table.
census() {
	local name=$1 tx0 tx1 total=0 tc=0 xmit=0 fwd=0 feat=0 qdisc=0 nf=0 nft=0 gone=0 clock=0 backlog=0 sirq=0 c site target key fn
	local -A per
	echo "# $name: warm-up, then $COUNT packets"
	pg_run $((COUNT / 10))
	pg_set "${PG_DEV:-$DEV}" "count $COUNT"
	dev_stat "${PG_DEV:-$DEV}" tx_packets
	tx0=$STAT
	echo reset >"$CENSUS"
	echo start >"$PG_DIR/pgctrl"	# a builtin: no fork inside the count
	echo stop >"$CENSUS"
	dev_stat "${PG_DEV:-$DEV}" tx_packets
	tx1=$STAT
	file_has "$PG_DIR/${PG_DEV:-$DEV}" "Result:" || die "$name: no pktgen result"
	pg_parse "$LINE
$LINE2" || die "$name: cannot parse pktgen result"
	expect_eq "$name: packets sent" "$PG_PKTS" "$COUNT"
	expect_eq "$name: pktgen errors" "$PG_ERRORS" 0
	expect_eq "$name: ${PG_DEV:-$DEV} tx_packets delta" $((tx1 - tx0)) "$COUNT"
	while read -r c site target; do
		case $c in '#'*) echo "# $name: census $site $target"; continue ;; esac
		total=$((total + c))
		key="${site%%/*} -> ${target%%+*}"
		per[$key]=$((${per[$key]:-0} + c))
		[[ $site =~ $TC_SITES ]] && tc=$((tc + c))
		[[ $site =~ $XMIT_SITES ]] && xmit=$((xmit + c))
		[[ $site =~ $NF_SITES ]] && nf=$((nf + c))
		[[ $site =~ $CLOCK_SITES ]] && clock=$((clock + c))
		[ -n "$GONE" ] && [[ "$site -> $target" =~ $GONE ]] && gone=$((gone + c))
		case ${target%%+*} in
		ip_forward | ip6_forward) fwd=$((fwd + c)) ;;
		passthru_features_check) feat=$((feat + c)) ;;
		process_backlog) backlog=$((backlog + c)) ;;
		net_rx_action | net_tx_action) sirq=$((sirq + c)) ;;
		esac
		fn=${target##*] }	# a call from a module: "[mod] fn+off/len"
		[[ ${fn%%+*} =~ $QDISC_FNS ]] && qdisc=$((qdisc + c))
		[[ $site =~ $NFT_SITES && ${fn%%+*} =~ $NFT_FNS ]] && nft=$((nft + c))
	done <"$CENSUS"
	echo "# $name: $COUNT packets, $(per_pkt "$total") thunk entries per packet, $(per_pkt "$tc") from tc, $(per_pkt "$xmit") from the driver's transmit"
	for k in "${!per[@]}"; do
		[ $((per[$k] * 100)) -ge "$COUNT" ] && echo "#   $(per_pkt "${per[$k]}")  $k"
	done | sort -r
	TOTAL_PER=$((total * 1000 / COUNT))
	# shellcheck disable=SC2034 # read by check's conditions
	GONE_PER=$((gone * 1000 / COUNT))
	TC_PER=$((tc * 1000 / COUNT))
	XMIT_PER=$((xmit * 1000 / COUNT))
	FWD_PER=$((fwd * 1000 / COUNT))
	FEAT_PER=$((feat * 1000 / COUNT))
	QDISC_PER=$((qdisc * 1000 / COUNT))
	NF_PER=$((nf * 1000 / COUNT))
	NFT_PER=$((nft * 1000 / COUNT))
	CLOCK_PER=$((clock * 1000 / COUNT))
	BACKLOG_PER=$((backlog * 1000 / COUNT))
	SIRQ_PER=$((sirq * 1000 / COUNT))
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
		echo "not ok - $name: $what (thunk entries per packet x1000: tc $TC_PER, transmit $XMIT_PER, to ip_forward $FWD_PER, to passthru_features_check $FEAT_PER, to a qdisc $QDISC_PER, from nf_hook_slow $NF_PER, from nf_tables to its ct and counter expressions $NFT_PER, clock reads $CLOCK_PER, to process_backlog $BACKLOG_PER, to the networking softirq $SIRQ_PER)"
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

# ---- -k: per kind ----------------------------------------------------------
KIND_N=10
# KIND_GONE[kind]: "SITE -> TARGET" regex of the thunks that the series
# removed inside the kind, KIND_GONE_N[kind] of them per packet without it;
# with the gate on none may be entered.  Where KIND_GATED[kind] is 1 the
# gate brings them back (the census must see them with it off); otherwise
# the call is direct whatever the gate says.
declare -A KIND_GONE=(
	[flower]='-> (\[[a-z0-9_]+\] )?rhashtable_jhash2?\+'	# rht_key_get_hash()
	[basic]='^__tcf_em_tree_match\+'			# the ematch's match()
	[mirred]='-> (\[[a-z0-9_]+\] )?dev_queue_xmit\+'	# tcf_dev_queue_xmit()
	[police]='^ktime_get[a-z_]*\+'				# the clocksource's read
	[route]='-> (\[[a-z0-9_]+\] )?(process_backlog|net_rx_action)\+'	# __napi_poll(), the softirq core
)
[ $TC_ONLY = 0 ] || KIND_GONE=()
if [ -n "$GONE_ONLY" ]; then
	for k in ${GONE_ONLY//,/ }; do
		[ -n "${KIND_GONE[$k]:-}" ] || { echo "thunks.sh: -g: no kind '$k' in KIND_GONE (${!KIND_GONE[*]})" >&2; exit 2; }
	done
	for k in "${!KIND_GONE[@]}"; do
		[[ ",$GONE_ONLY," == *",$k,"* ]] || unset "KIND_GONE[$k]"
	done
fi
declare -A KIND_GONE_N=([flower]=$KIND_N [basic]=$KIND_N [mirred]=$KIND_N [police]=$KIND_N [route]=2)
declare -A KIND_GATED=([basic]=1 [route]=1)

# kind_calls SCENARIO VARIANT: sets CALLS, tc's indirect calls per packet
# (x1000) with the gate off: one per classifier run and one per action run
kind_calls() {
	case $1/$2 in
	tc-cls/fw) CALLS=$(((2 * KIND_N + 2) * 1000)) ;;	# + matchall, skbedit
	tc-cls/cgroup) CALLS=$(((KIND_N + 2) * 1000)) ;;	# misses, + matchall, gact
	tc-cls/route) CALLS=$(((2 * KIND_N + 2) * 1000)) ;;	# + fwd's matchall, drop
	tc-cls/*) CALLS=$((2 * KIND_N * 1000)) ;;
	tc-act/*) CALLS=$(((KIND_N + 2) * 1000)) ;;	# matchall, N actions, gact
	esac
}

# kind_census NAME: inside kind_case, the census of the kind set up there
# (v, GONE and CALLS) with the gate off and on, or with no gate on a kernel
# without it, and the checks of tc's call sites and of KIND_GONE's
kind_census() {
	local name=$1
	if [ -w "$GATE_KNOB" ]; then
		gate_set off
		census "$name [gate off]"
		check "$name" "[ \$TC_PER -ge $((CALLS * 99 / 100)) ] && [ \$TC_PER -le $((CALLS * 101 / 100)) ]" \
			"gate off: the census sees tc's indirect calls ($((CALLS / 1000)) per packet)"
		if [ -n "$GONE" ] && [ -n "${KIND_GATED[$v]:-}" ]; then
			check "$name" "[ \$GONE_PER -ge $((KIND_GONE_N[$v] * 990)) ]" \
				"gate off: the census sees the kind's own indirect calls that the gate removes (${KIND_GONE_N[$v]} per packet)"
		elif [ -n "$GONE" ]; then
			check "$name" "[ \$GONE_PER -lt 10 ]" \
				"gate off: no thunk entered from the kind's own call sites that the series made direct for good"
		fi
		gate_set on
		census "$name [gate on]"
		check "$name" "[ \$TC_PER -lt 10 ]" "gate on: no thunk entered from tc's call sites"
		[ -n "$GONE" ] && check "$name" "[ \$GONE_PER -lt 10 ]" \
			"gate on: no thunk entered from the kind's own call sites that the series made direct"
		echo "# $name: gate on: $(per_pkt "$((TOTAL_PER * COUNT / 1000))") thunk entries per packet left"
	else
		census "$name [no gate]"
		echo "# $name: base: $(per_pkt "$((TOTAL_PER * COUNT / 1000))") thunk entries per packet"
		# the regex must see what the series removes
		[ -n "$GONE" ] && check "$name" "[ \$GONE_PER -ge $((KIND_GONE_N[$v] * 990)) ]" \
			"base: the census sees the kind's own indirect calls that the series removes (${KIND_GONE_N[$v]} per packet)"
	fi
}

# kind_case SCENARIO VARIANT: in a subshell (the scenario's lib.sh and its
# cleanups stay there); its exit status is the number of failed checks.
kind_case() (
	local scen=$1 v=$2 name="$1/$2"
	# shellcheck disable=SC2030,SC2034 # this subshell's own; read by lib.sh
	nfail=0 SCEN_DEFINE_ONLY=1
	local count=$COUNT
	# shellcheck source=/dev/null
	. "$TOP/bench/scenarios/$scen.sh" -n "$KIND_N" -v "$v"
	# lib.sh, sourced again, reset the scenario knobs
	# shellcheck disable=SC2030 # this subshell's own
	# shellcheck disable=SC2034 # PG_TIMEOUT: for bench/scenarios/lib.sh
	COUNT=$count PG_TIMEOUT=120
	echo "# $name: setup"
	s_setup "$v" "$KIND_N"
	[ "$v" = route ] && PG_DEV=fwa
	GONE=${KIND_GONE[$v]:-}
	kind_calls "$scen" "$v"
	kind_census "$name"
	# mirred again while act_ct is loaded (a built-in act_ct always is):
	# act_ct's init turns on tcf_frag_xmit_count, and then every packet that
	# mirred sends went by sch_frag_xmit_hook(), which calls dev_queue_xmit
	# through a pointer, unless it must be fragmented again (0031).  A ct
	# action added and deleted at once loads the module, as a user's would;
	# it is unloaded afterwards.
	if [ "$v" = mirred ] && [ -n "$GONE" ]; then
		if tc actions add action ct index 900 >/dev/null 2>&1; then
			tc actions delete action ct index 900 || die "$name: cannot delete the ct action"
			kind_census "$name with act_ct"
			mod_unload act_ct
		else
			check "$name with act_ct" false "act_ct can be loaded (tc actions add action ct)"
		fi
	fi
	# progress lines, so that a timeout names the step it stopped in
	echo "# $name: teardown"
	s_teardown "$v" "$KIND_N"
	echo "# $name: torn down; its cleanups run as it exits"
	exit "$nfail"
)

# scenario_variants SCENARIO: sets VARS to the scenario's variants (its
# ALL_VARIANTS), so that every kind the bench measures has its case
scenario_variants() {
	VARS=$(
		# shellcheck disable=SC2034 # read by lib.sh
		SCEN_DEFINE_ONLY=1
		# shellcheck source=/dev/null
		. "$TOP/bench/scenarios/$1.sh" -n "$KIND_N" >/dev/null
		echo "$ALL_VARIANTS"
	) || die "cannot read the variants of $1"
	[ -n "$VARS" ] || die "$1 has no variants"
}

if [ $KINDS = 1 ]; then
	for s in tc-cls tc-act; do
		echo "# $s: reading its variants"
		scenario_variants "$s"
		for v in ${VARS//,/ }; do
			kind_case "$s" "$v"
			rc=$?
			[ $rc -lt 100 ] || die "$s/$v: the case failed to run"
			# shellcheck disable=SC2031 # the parent's, not kind_case's
			nfail=$((nfail + rc))
		done
	done
	[ $nfail -eq 0 ] || die "$nfail census checks failed"
	if [ -w "$GATE_KNOB" ]; then
		echo "thunks: every tc classifier and action kind reaches tc's call sites with no retpoline thunk with the gate on"
	else
		echo "thunks: base census of every tc classifier and action kind done (no gate: only KIND_GONE's calls checked)"
	fi
	exit 0
fi

# thunk entries from tc per packet, gate off: one per filter run and one
# per action run (x1000); transmits per packet: the device's, and in the
# mixed chain mirred's mirror to a second dummy
for c in matchall:20000:1 mixed:12000:2; do
	IFS=: read -r name off nx <<<"$c"
	# progress lines, so that a timeout names the step it stopped in
	echo "# $name: setup"
	"setup_$name"
	gate_set off
	census "$name [gate off]"
	check "$name" "[ \$TC_PER -ge $((off * 99 / 100)) ] && [ \$TC_PER -le $((off * 101 / 100)) ]" \
		"gate off: the census sees tc's indirect calls ($((off / 1000)) per packet)"
	[ $XMIT = 1 ] && check "$name" "[ \$XMIT_PER -ge $((nx * 990)) ] && [ \$XMIT_PER -le $((nx * 1010)) ]" \
		"gate off: the census sees the drivers' transmit calls ($nx per packet)"
	gate_set on
	census "$name [gate on]"
	check "$name" "[ \$TC_PER -lt 10 ]" "gate on: no thunk entered from tc's call sites"
	[ $XMIT = 1 ] && check "$name" "[ \$XMIT_PER -lt 10 ]" \
		"gate on: no thunk entered from the transmit call site"
	[ "$name" = mixed ] && ip link del "$DEV2"
	ip link del "$DEV"
done

# forward: the packets go through forward_path and forward_filter
# (bench/scenarios/lib.sh), the forward scenario's router without its
# fq_codel.  Per packet: two transmits (fwa, fwc), each with veth's
# passthru_features_check(), one ip_forward(), and four netfilter hooks:
# defrag and conntrack on prerouting, nf_tables' chain on forward,
# conntrack's confirmation on postrouting.  setup_forward ipv6: the same
# router for IPv6 (forward_path6, an ip6 table), so ip6_forward().
setup_forward() {
	forward_path
	forward_family "${1:-}"
	forward_filter thunkless_census "$FWD_FAM"
	DEV=fwa
	pg_device fwa queue_xmit "$MAC" "$FWD_DST" "$FWD_SRC" 9
}

# fwd_census NAME: census NAME, and every packet reached fwd
fwd_census() {
	local rx0
	dev_stat fwd rx_packets
	rx0=$STAT
	census "$1"
	dev_stat fwd rx_packets
	# pg_run's warm-up packets arrive too
	# shellcheck disable=SC2031 # not kind_case's
	check forward "[ $((STAT - rx0)) -ge $COUNT ]" "$1: every packet forwarded to fwd ($((STAT - rx0)) received)"
}

# qdisc: htb at the root of a dummy device, one class with an fq_codel
# leaf (qdisc_root, bench/scenarios/lib.sh), as the qdisc scenario's htb
# variant.  Per packet, gate off: htb_enqueue() from the root
# (dev_qdisc_enqueue()), fq_codel_enqueue() from htb (qdisc_enqueue()),
# htb_dequeue() from dequeue_skb() and fq_codel_dequeue() from htb, the
# dequeues once more for the empty queue that ends each qdisc run.
if [ $XMIT = 1 ]; then
	echo "# qdisc: setup"
	make_dummy "$DEV"
	qdisc_root "$DEV" htb
	pg_device "$DEV" queue_xmit "$DST_MAC" 198.18.0.2 198.18.0.1 9
	gate_set off
	census "qdisc [gate off]"
	check qdisc "[ \$QDISC_PER -ge 4950 ] && [ \$QDISC_PER -le 5050 ]" \
		"gate off: the census sees the qdiscs' enqueue and dequeue (5 per packet)"
	check qdisc "[ \$CLOCK_PER -lt 10 ]" \
		"gate off: no thunk entered to read the clock (not gated: a direct call)"
	gate_set on
	census "qdisc [gate on]"
	check qdisc "[ \$QDISC_PER -lt 10 ]" \
		"gate on: no thunk entered to reach htb's or fq_codel's enqueue or dequeue"
	check qdisc "[ \$CLOCK_PER -lt 10 ]" \
		"gate on: no thunk entered to read the clock (htb's and codel's ktime_get(): a direct call)"
	ip link del "$DEV"
fi

# nat_flow FAMILY TABLE PORT: the router masquerades on the way out (an
# nftables table TABLE of FAMILY, removed on exit), for a flow of its own
# to UDP port PORT: conntrack still holds an earlier case's port 9
# connection, set up without NAT, and NAT does not take over a connection
# it did not see begin, so the census would not see NAT's hook functions
# run for every packet of it.
nat_flow() {
	pg_set fwa "udp_dst_min $3"
	pg_set fwa "udp_dst_max $3"
	nft -f - <<-NFT || die "cannot load the $1 NAT table $2"
	table $1 $2 {
		chain post { type nat hook postrouting priority srcnat; masquerade; }
	}
	NFT
	add_cleanup "nft delete table $1 $2"
}

# forward_case NAME LABEL FORWARD: the router's census, gate off then on,
# and its checks, named NAME; LABEL names the census runs and FORWARD
# the function that dst_input() calls (ip_forward or ip6_forward).
forward_case() {
	local name=$1 label=$2 fwd=$3
	gate_set off
	fwd_census "$label [gate off]"
	check "$name" "[ \$XMIT_PER -ge 1980 ] && [ \$XMIT_PER -le 2020 ]" \
		"gate off: the census sees both transmits (2 per packet)"
	check "$name" "[ \$FWD_PER -ge 990 ] && [ \$FWD_PER -le 1010 ]" \
		"gate off: the census sees dst_input()'s call to $fwd() (1 per packet)"
	check "$name" "[ \$FEAT_PER -ge 1980 ] && [ \$FEAT_PER -le 2020 ]" \
		"gate off: the census sees veth's passthru_features_check() (2 per packet)"
	check "$name" "[ \$NF_PER -ge 3960 ] && [ \$NF_PER -le 4040 ]" \
		"gate off: the census sees the netfilter hooks (4 per packet)"
	check "$name" "[ \$BACKLOG_PER -ge 990 ] && [ \$BACKLOG_PER -le 1010 ]" \
		"gate off: the census sees the backlog's NAPI poll (1 per packet: pktgen's packets arrive one at a time)"
	check "$name" "[ \$SIRQ_PER -ge 990 ] && [ \$SIRQ_PER -le 1010 ]" \
		"gate off: the census sees the softirq core's call to net_rx_action() (1 per packet, as for the backlog)"
	check "$name" "[ \$NFT_PER -ge 1980 ] && [ \$NFT_PER -le 2020 ]" \
		"gate off: nf_tables calls the chain's ct and counter expressions indirectly (2 per packet)"
	gate_set on
	fwd_census "$label [gate on]"
	check "$name" "[ \$XMIT_PER -lt 10 ]" "gate on: no thunk entered from the transmit call site"
	check "$name" "[ \$FWD_PER -lt 10 ]" "gate on: no thunk entered to reach $fwd()"
	check "$name" "[ \$FEAT_PER -lt 10 ]" "gate on: no thunk entered to reach passthru_features_check()"
	check "$name" "[ \$NF_PER -lt 10 ]" "gate on: no thunk entered from nf_hook_slow()"
	check "$name" "[ \$BACKLOG_PER -lt 10 ]" "gate on: no thunk entered to reach process_backlog()"
	check "$name" "[ \$SIRQ_PER -lt 10 ]" "gate on: no thunk entered to reach net_rx_action()"
	check "$name" "[ \$NFT_PER -lt 10 ]" "gate on: nf_tables calls the ct and counter expressions directly (its ladder)"
}

if [ $XMIT = 1 ]; then
	echo "# forward: setup"
	setup_forward
	forward_case forward forward ip_forward
	nft delete table ip thunkless_census
	forward_path_del
fi

# The same router for IPv6 (forward_path6): dst_input()'s call to
# ip6_forward() (0018) and IPv6's hook functions, in IPv6's own hook
# slots (6.1's 0034, 6.12's 0023): defrag and conntrack on prerouting,
# the ip6 table's chain on forward, the confirmation on postrouting.
if [ $XMIT = 1 ]; then
	echo "# forward, IPv6: setup"
	setup_forward ipv6
	forward_case forward-ipv6 "forward, IPv6" ip6_forward
	nft delete table ip6 thunkless_census
	forward_path_del
fi

# The same router on a dual-stack box whose IPv6 NAT and filter tables
# registered their hooks first (6.1's 0034, 6.12's 0023): IPv6's NAT
# (four functions), conntrack (three), defrag and chain functions are
# nine.  With one set of twelve hook slots for every family, IPv4's NAT
# and conntrack functions then found the slots taken and the forwarded
# IPv4 packet went through thunks from nf_hook_slow(); each family has
# twelve of its own now.  Per packet, six hook calls: defrag, conntrack
# and NAT on the way in, the forward chain, NAT (the masquerade) and
# conntrack's confirmation on the way out.
if [ $XMIT = 1 ]; then
	echo "# forward, IPv6 first: setup"
	nft -f - <<-'NFT' || die "cannot load the IPv6 NAT and filter table"
	table ip6 thunkless_census6 {
		chain pre { type nat hook prerouting priority dstnat; }
		chain post { type nat hook postrouting priority srcnat; masquerade; }
		chain filtered { type filter hook forward priority 0; ct state established,related accept; }
	}
	NFT
	add_cleanup "nft delete table ip6 thunkless_census6"
	setup_forward
	nat_flow ip thunkless_census_nat 10
	gate_set off
	fwd_census "forward, IPv6 first [gate off]"
	check forward6 "[ \$NF_PER -ge 5940 ] && [ \$NF_PER -le 6060 ]" \
		"gate off: the census sees the six hook calls of a forwarded, masqueraded packet"
	gate_set on
	fwd_census "forward, IPv6 first [gate on]"
	check forward6 "[ \$NF_PER -lt 10 ]" \
		"gate on: no thunk entered from nf_hook_slow() when IPv6's hook functions registered first"
	nft delete table ip thunkless_census_nat
	nft delete table ip thunkless_census
	nft delete table ip6 thunkless_census6
	forward_path_del
fi
# The IPv6 router masquerading (forward_path6, an ip6 NAT table): IPv6's
# NAT functions take IPv6 hook slots beside defrag, conntrack and the
# chain.  Per packet, six hook calls: defrag, conntrack and NAT on the way
# in, the forward chain, NAT (the masquerade) and conntrack's confirmation
# on the way out.  Masquerading needs a source address on fwc: a static
# one, without DAD, and fwc sends no MLD (forward_path6 turned multicast
# off), so fwd still receives the packets alone.
if [ $XMIT = 1 ]; then
	echo "# forward, IPv6 NAT: setup"
	setup_forward ipv6
	ip -6 addr add 2001:db8:2::1/64 dev fwc nodad || die "cannot add 2001:db8:2::1 to fwc"
	nat_flow ip6 thunkless_census_nat6 11
	gate_set off
	fwd_census "forward, IPv6 NAT [gate off]"
	check forward6-nat "[ \$NF_PER -ge 5940 ] && [ \$NF_PER -le 6060 ]" \
		"gate off: the census sees the six hook calls of a forwarded, masqueraded IPv6 packet"
	check forward6-nat "[ \$FWD_PER -ge 990 ] && [ \$FWD_PER -le 1010 ]" \
		"gate off: the census sees dst_input()'s call to ip6_forward() (1 per packet)"
	gate_set on
	fwd_census "forward, IPv6 NAT [gate on]"
	check forward6-nat "[ \$NF_PER -lt 10 ]" \
		"gate on: no thunk entered from nf_hook_slow() for a masqueraded IPv6 packet"
	check forward6-nat "[ \$FWD_PER -lt 10 ]" "gate on: no thunk entered to reach ip6_forward()"
	check forward6-nat "[ \$TOTAL_PER -lt 10 ]" "gate on: no thunk entered at all (fewer than 0.01 per packet)"
	nft delete table ip6 thunkless_census_nat6
	nft delete table ip6 thunkless_census
	forward_path_del
fi
[ $nfail -eq 0 ] || die "$nfail census checks failed"

if [ $XMIT = 1 ]; then
	echo "thunks: tc, the drivers' transmit, the qdiscs, netfilter's hooks and forwarding enter no retpoline thunk with the gate on"
else
	echo "thunks: tc enters no retpoline thunk with the gate on"
fi
