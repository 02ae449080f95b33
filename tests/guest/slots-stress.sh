#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside a guest whose kernel builds part of tc as modules
# (configs/tc-modules.config: the x86_64 guest) or all of it
# (configs/tc-modular.config: the UML census kernel) and has direct-call
# slots (CONFIG_NET_DIRECT_CALL_SLOTS): loads and unloads classifier and action
# modules in a loop while pktgen sends through filters that use other
# modules, with the gate on.
#
#   slots-stress.sh [-r ROUNDS] [-s PKT_SIZE] [-p POINTS]
#
# 0. idle devices: sit0 and dummy0, down, hold no transmit slot;
# 1. exhaustion: ten action modules loaded at once, for eight slots; the
#    two left without one must still count every packet (indirectly);
#    they wait for one, in the order they loaded;
# 2. reuse: unloading a module frees its slot, and the module that has
#    waited longest takes it; the next module to load gets a slot left
#    free (the lowest), or waits when none is;
# 3. churn: ROUNDS times, a filter using other modules (cls_flow/cls_route
#    and act_mpls/act_gate) and a basic filter with an ematch in a module
#    (em_meta/em_u32: its match function takes an ematch slot) are
#    added in the packets' path, then deleted and their modules unloaded,
#    while pktgen sends without pause;
#    each round also adds a veth pair and deletes it; the first round
#    also sets it up and down, so that veth_xmit's transmit slot
#    (CONFIG_NET_PATH_DIRECT_CALLS) gains a reference for each device that
#    is up, and none for one that is down, while the packets go through
#    dummy's;
#    replaces the root qdisc of a second dummy device that pktgen also
#    sends on, in turn htb with an fq_codel leaf, fq_codel and pfifo_fast,
#    unloading sch_htb when it is not in use, so that its enqueue and
#    dequeue take qdisc slots and give them back under traffic; and adds
#    and deletes an nftables table whose forward chain matches on
#    conntrack state, on a router that pktgen's third stream crosses (two
#    veth pairs, IPv4 forwarding), so that nft_do_chain_ipv4 and
#    conntrack's hook functions take netfilter hook slots and give them
#    back under traffic;
# 4. families: a dual-stack host with NAT, as Docker sets one up (IPv4 and
#    IPv6 nat and filter tables, so NAT, conntrack and defrag for both; a
#    netdev ingress chain; the bridge with br_netfilter where the kernel
#    has them): each family's hook functions take slots of that family's
#    point (nf_hook_ipv4, nf_hook_ipv6, nf_hook_other) and none waits;
#    once it is all gone, the slots are as they were before;
# then every action on the stable path must have counted exactly the
# packets pktgen sent, the qdisc device must have sent every packet that
# its qdiscs accepted and the router forwarded every packet, no slot may
# still name an unloaded module, a driver without devices or a hook
# function no longer registered, and the kernel log must hold no splat.
#
# POINTS (-p, a space-separated list) are the dispatch points the kernel's
# series has, each checked; by default all of the 6.1 series' (tc_classify,
# tc_act, tcf_em, netdev_xmit, qdisc_enqueue, nf_hook_ipv4, nf_hook_ipv6,
# nf_hook_other).  tc's two are
# required.  For a point left out (a series without some of them) the churn
# still runs, through its indirect calls, its slot checks are left out, a
# comment line says so, and the point must not show up in debugfs (a
# series that gained it has to say so here).
set -u

ROUNDS=20
PKT=64
ALL_POINTS="tc_classify tc_act tcf_em netdev_xmit qdisc_enqueue nf_hook_ipv4 nf_hook_ipv6 nf_hook_other"
POINTS=$ALL_POINTS
while getopts "r:s:p:" o; do
	case $o in
	r) ROUNDS=$OPTARG ;;
	s) PKT=$OPTARG ;;
	p) POINTS=$OPTARG ;;
	*) echo "usage: slots-stress.sh [-r ROUNDS] [-s PKT_SIZE] [-p POINTS]" >&2; exit 2 ;;
	esac
done
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "slots-stress: bad -r '$ROUNDS'" >&2; exit 2; }
for p in $POINTS; do
	[[ " $ALL_POINTS " == *" $p "* ]] || { echo "slots-stress: unknown point '$p' in -p (known: $ALL_POINTS)" >&2; exit 2; }
done
for p in tc_classify tc_act; do
	[[ " $POINTS " == *" $p "* ]] || { echo "slots-stress: -p must name $p" >&2; exit 2; }
done
HERE=$(cd "$(dirname "$0")" && pwd)
# the scenarios' router (forward_path, forward_filter) and qdisc tree
# (qdisc_root); this script's own die below replaces the library's
# shellcheck source=../../bench/scenarios/lib.sh
. "$HERE/../../bench/scenarios/lib.sh"
# shellcheck source=splat.sh
. "$HERE/splat.sh"
# shellcheck source=poll.sh
. "$HERE/poll.sh"

SLOTS=/sys/kernel/debug/net_direct_calls
PG=/proc/net/pktgen
nfail=0
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
fail() { n=$((n + 1)); nfail=$((nfail + 1)); echo "not ok $n - $*"; }
check() { if [ "$2" = "$3" ]; then ok "$1 ($2)"; else fail "$1: got '$2', want '$3'"; fi; }
die() { echo "slots-stress: $*" >&2; exit 1; }

[ -r "$SLOTS" ] || die "no $SLOTS: kernel without CONFIG_NET_DIRECT_CALL_SLOTS or debugfs"
[ -d "$PG" ] || die "no $PG: kernel without pktgen"
echo on >/proc/sys/net/core/direct_calls || die "cannot set net.core.direct_calls=on"
dmesg -c >/dev/null 2>&1

# slot_field FUNC N NONE: field N of the line of the slot FUNC holds
# ("POINT SLOT USERS FUNCTION"), or NONE when it holds none
slot_field() {
	awk -v f="$1" -v n="$2" -v none="$3" '$2 ~ /^[0-9]+$/ && $4 == f { print $n; found = 1 }
		END { if (!found) print none }' "$SLOTS"
}
# slot_of FUNC: the slot index FUNC holds, or "none".
slot_of() { slot_field "$1" 2 none; }
# slot_held FUNC: FUNC holds a slot
slot_held() { [ "$(slot_of "$1")" != none ]; }
# slot_gone FUNC: slot_of FUNC once it is "none", or after 5 s as it is
# then (wait_while)
slot_gone() {
	wait_while 50 slot_held "$1"
	slot_of "$1"
}
# users_of FUNC: the references on the slot FUNC holds, or 0 without one
users_of() { slot_field "$1" 3 0; }
# point_of FUNC: the points where FUNC holds a slot, space-separated, or "none"
point_of() {
	awk -v f="$1" '$2 ~ /^[0-9]+$/ && $4 == f { printf "%s%s", sep, $1; sep = " " }
		END { if (sep == "") print "none" }' "$SLOTS"
}
# hook_slots: every netfilter hook slot in use, "POINT FUNCTION USERS" sorted
hook_slots() { awk '$1 ~ /^nf_hook/ && $2 ~ /^[0-9]+$/ { print $1, $4, $3 }' "$SLOTS" | sort; }
# hook_waiting: the netfilter hook functions waiting for a slot, of any
# family, "POINT:FUNCTION" space-separated
hook_waiting() { awk '$1 ~ /^nf_hook/ && $2 == "waiting" { printf "%s%s:%s", sep, $1, $4; sep = " " }' "$SLOTS"; }
misses() { awk -v p="$1" '$1 == p && $2 == "misses" { print $3 }' "$SLOTS"; }
# waiting POINT: the functions waiting for a slot of POINT, longest first,
# space-separated
waiting() { awk -v p="$1" '$1 == p && $2 == "waiting" { printf "%s%s", sep, $4; sep = " " }' "$SLOTS"; }
# has_point POINT: the kernel's series has that dispatch point (-p)
has_point() { [[ " $POINTS " == *" $1 "* ]]; }
absent=
for p in $ALL_POINTS; do
	has_point $p || absent="$absent $p"
done
[ -z "$absent" ] || echo "# points this series does not have, their slot checks left out:$absent"
used() { awk -v p="$1" '$1 == p && $2 ~ /^[0-9]+$/' "$SLOTS" | wc -l; }
# unload MODULE...: each must go (mod_unload, bench/scenarios/lib.sh)
unload() {
	local m
	for m in "$@"; do
		mod_unload "$m" 50 || fail "cannot unload $m"
	done
	return 0
}

# 0. A device that is down holds no transmit slot: sit0, the fallback
# device of the sit driver (built into both kernels), is never set up, nor
# is dummy0 where the dummy driver made one at boot.
if has_point netdev_xmit; then
	if [ -e /sys/class/net/sit0 ] && ! ip link show sit0 | grep -q '[<,]UP[,>]'; then
		check "sit_tunnel_xmit transmit slot, sit0 down" "$(slot_of sit_tunnel_xmit)" none
	else
		echo "# no sit0, or it is up: its check left out"
	fi
	if [ -e /sys/class/net/dummy0 ] && ! ip -d -o link show up | grep -qw dummy; then
		check "dummy_xmit transmit slot, no dummy device up" "$(slot_of dummy_xmit)" none
	fi
fi

for d in sdev0 sdev1; do
	ip link add "$d" type dummy || die "cannot create $d"
	# No IPv6 autoconfiguration traffic: only pktgen's packets pass.
	sysctl -qw "net.ipv6.conf.$d.disable_ipv6=1" 2>/dev/null
	ip link set "$d" up
	tc qdisc add dev "$d" clsact || die "no clsact on $d"
done

# 1. Three modules that stay idle (on sdev1, no traffic) take the first
# slots, then the stable path's seven modular actions take the rest and
# two of them find none.
m0=$(misses tc_act)
tc filter add dev sdev1 egress pref 1 protocol all matchall \
	action simple sdata idle \
	action mpls pop protocol ipv4 \
	action gate clockid CLOCK_TAI sched-entry open 1000000000 -1 -1 ||
	die "cannot add the idle filter (act_simple, act_mpls, act_gate)"
tc filter add dev sdev0 egress pref 1 protocol ip basic \
	action nat egress 192.0.2.1/32 192.0.2.2 pipe \
	action skbmod set smac 02:00:00:00:00:99 pipe \
	action ctinfo cpmark pipe \
	action connmark pipe \
	action sample rate 1000 group 5 \
	action vlan push id 5 pipe \
	action vlan pop pipe \
	action tunnel_key unset pipe \
	action gact continue ||
	die "cannot add the stable filter (cls_basic and seven action modules)"
# The kernel's shape: gact (and matchall) are built in where tc's ladder
# has them (the x86_64 guest, configs/tc-modules) and modules where every
# kind is one (the UML census kernel, configs/tc-modular).  A modular gact
# loads last, with the stable filter's last action, and finds no slot.
is_module() { grep -q "^$1 " /proc/modules; }
gact_misses=0
is_module act_gact && gact_misses=1
check "tc_act slots in use with ten action modules loaded" "$(used tc_act)" 8
check "tc_act registrations left without a slot" "$(( $(misses tc_act) - m0 ))" $((2 + gact_misses))
for f in tcf_simp_act tcf_mpls_act tcf_gate_act tcf_nat_act tcf_skbmod_act tcf_ctinfo_act tcf_connmark_act tcf_sample_act; do
	[ "$(slot_of "$f")" != none ] || fail "$f has no slot"
done
check "tcf_vlan_act slot (loaded ninth)" "$(slot_of tcf_vlan_act)" none
check "tunnel_key_act slot (loaded tenth)" "$(slot_of tunnel_key_act)" none
[ $gact_misses = 0 ] || check "tcf_gact_act slot (a module, loaded eleventh)" "$(slot_of tcf_gact_act)" none
want="tcf_vlan_act tunnel_key_act"
[ $gact_misses = 0 ] || want="$want tcf_gact_act"
check "tc_act functions waiting for a slot, in the order they loaded" "$(waiting tc_act)" "$want"
[ "$(slot_of basic_classify)" != none ] && ok "basic_classify has a slot" || fail "basic_classify has no slot"

# 2. Reuse: the idle modules go, one at a time, and each slot they free
# goes to the function that has waited longest.  A modular gact takes the
# third; with gact built in, the next action module to load takes it.
s_simple=$(slot_of tcf_simp_act)
s_mpls=$(slot_of tcf_mpls_act)
s_gate=$(slot_of tcf_gate_act)
tc filter del dev sdev1 egress pref 1
unload act_simple act_mpls act_gate
for f in tcf_simp_act tcf_mpls_act tcf_gate_act; do
	check "$f slot after unloading its module" "$(slot_of "$f")" none
done
check "tcf_vlan_act, waiting longest, takes act_simple's slot" "$(slot_of tcf_vlan_act)" "$s_simple"
check "tunnel_key_act, waiting next, takes act_mpls's slot" "$(slot_of tunnel_key_act)" "$s_mpls"
s_free=$s_gate
if [ $gact_misses = 1 ]; then
	check "tcf_gact_act, waiting last, takes act_gate's slot" "$(slot_of tcf_gact_act)" "$s_gate"
	s_free=none
fi
check "tc_act functions waiting after unloading three" "$(waiting tc_act)" ""
check "tc_act slots in use after unloading three" "$(used tc_act)" $((7 + gact_misses))

# The qdisc device: a dummy with a queue, whose root qdisc the churn
# replaces.
ip link add sdev2 type dummy || die "cannot create sdev2"
sysctl -qw net.ipv6.conf.sdev2.disable_ipv6=1 2>/dev/null
ip link set sdev2 txqueuelen 1000 up || die "cannot set sdev2 up"
# qdisc_set KIND: sdev2's root qdisc, grafted in place of the last one:
# htb as the qdisc scenario has it (qdisc_root, handle 1:), the others
# without a handle ("replace" would only change a root that had the same
# handle and kind).  In a subshell: qdisc_root dies on failure.
qdisc_set() {
	case $1 in
	htb) (qdisc_root sdev2 htb) ;;
	*) tc qdisc replace dev sdev2 root "$1" ;;
	esac
}
qdisc_set htb || die "cannot add htb with an fq_codel leaf to sdev2"
has_point qdisc_enqueue && check "htb_enqueue has a qdisc_enqueue slot while htb is in use" \
	"$( [ "$(slot_of htb_enqueue)" != none ] && echo yes)" yes
# A qdisc kind takes its slots when its first qdisc is created, not when
# it registers: blackhole and bfifo are built in and registered at boot,
# and nothing has created one yet.  A bfifo on a device of its own then
# takes a slot, and gives it back when the device, and so its last bfifo,
# is gone, although bfifo stays registered (it is built in).
if has_point qdisc_enqueue; then
	check "blackhole_enqueue slot, no blackhole qdisc created" "$(slot_of blackhole_enqueue)" none
	check "bfifo_enqueue slot before the first bfifo" "$(slot_of bfifo_enqueue)" none
	ip link add sdev3 type dummy || die "cannot create sdev3"
	tc qdisc replace dev sdev3 root bfifo || die "cannot make bfifo sdev3's root qdisc"
	check "bfifo_enqueue has a slot once a bfifo exists" \
		"$( [ "$(slot_of bfifo_enqueue)" != none ] && echo yes)" yes
	ip link del sdev3
	check "bfifo_enqueue slot once the last bfifo is gone" "$(slot_gone bfifo_enqueue)" none
fi

# The router, the forward scenario's (forward_path): packets sent on
# veth fwa arrive on its peer fwb and are forwarded to 198.18.2.2 out of
# fwc, whose peer fwd counts them and drops them (tc).  Sets MAC to fwb's.
forward_path

# pktgen: queue_xmit on sdev0, sdev2 and fwa, without end, until stopped.
# One thread sends on all three, in turn: each waits 2 us between its
# packets (without a delay the thread would only ever send on the device
# it added last).
pg() { echo "$2" >"$PG/$1" || die "pktgen: '$2' -> $1 failed"; }
pg kpktgend_0 rem_device_all
for d in sdev0 sdev2 fwa; do
	pg kpktgend_0 "add_device $d"
	pg $d "count 0"
	pg $d "delay 2000"
	pg $d "pkt_size $PKT"
	pg $d "xmit_mode queue_xmit"
	pg $d "src_min 198.18.1.1"
	pg $d "src_max 198.18.1.1"
done
for d in sdev0 sdev2; do
	pg $d "dst 198.18.0.42"
	pg $d "dst_mac 90:e2:ba:ff:ff:ff"
done
pg fwa "dst 198.18.2.2"
pg fwa "dst_mac $MAC"
read -r tx2_0 </sys/class/net/sdev2/statistics/tx_packets
read -r rx_0 </sys/class/net/fwd/statistics/rx_packets
echo start >"$PG/pgctrl" &
pgpid=$!

# 3. Churn in the packets' path, after the stable filter.
for r in $(seq "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then
		spec="handle 1 flow map key dst and 0xff baseclass ffff:1 action mpls push label 20 pipe action mpls pop protocol ipv4 pipe action gact continue"
		espec="basic match 'meta(priority eq 0)'"
		mods="cls_flow act_mpls em_meta"
	else
		spec="route to 7 action gate clockid CLOCK_TAI sched-entry open 1000000000 -1 -1 action gact continue"
		espec="basic match 'u32(u8 0x11 0xff at 9)'"
		mods="cls_route act_gate em_u32"
	fi
	echo "# churn round $r: $mods"
	# shellcheck disable=SC2086 # the filter spec is a word list
	if ! tc filter add dev sdev0 egress pref 50 protocol all $spec ||
		! eval "tc filter add dev sdev0 egress pref 51 protocol ip $espec action gact continue"; then
		fail "round $r: cannot add '$spec'"
		# shellcheck disable=SC2086
		unload $mods
		break
	fi
	if [ "$r" = 1 ] && [ "$s_free" = none ]; then
		check "act_mpls, loaded with every slot taken, waits for one" \
			"$(slot_of tcf_mpls_act) $(waiting tc_act)" "none tcf_mpls_act"
	elif [ "$r" = 1 ]; then
		check "act_mpls, loaded first after the unload, takes the slot left free" \
			"$(slot_of tcf_mpls_act)" "$s_free"
	fi
	if [ "$r" = 1 ] && has_point tcf_em; then
		check "em_meta's match function has an ematch slot while in use" \
			"$( [ "$(slot_of em_meta_match)" != none ] && echo yes)" yes
	fi
	sleep 0.05
	tc filter del dev sdev0 egress pref 50
	tc filter del dev sdev0 egress pref 51
	# shellcheck disable=SC2086
	unload $mods
	# A device holds a transmit slot reference while it is up, not while
	# it is only registered: the router's veths hold veth_xmit's already,
	# counted before the pair is added.
	[ "$r" = 1 ] && u0=$(users_of veth_xmit)
	if ! ip link add stv0 type veth peer name stv1; then
		fail "round $r: cannot add a veth pair"
		break
	fi
	if [ "$r" = 1 ] && has_point netdev_xmit; then
		check "veth_xmit's transmit slot references, a new veth pair down" "$(users_of veth_xmit)" "$u0"
		ip link set stv0 up && ip link set stv1 up || fail "round $r: cannot set the veth pair up"
		check "veth_xmit's transmit slot references, the pair up" "$(users_of veth_xmit)" $((u0 + 2))
		ip link set stv1 down
		check "veth_xmit's transmit slot references, one of the pair down again" "$(users_of veth_xmit)" $((u0 + 1))
	fi
	ip link del stv0
	[ "$r" = 1 ] && has_point netdev_xmit &&
		check "veth_xmit's transmit slot references, the pair deleted" "$(users_of veth_xmit)" "$u0"
	case $((r % 3)) in
	1) q=fq_codel ;;
	2) q=pfifo_fast ;;
	0) q=htb ;;
	esac
	qdisc_set "$q" || fail "round $r: cannot make $q sdev2's root qdisc"
	# htb's last qdisc went with the graft: its slots go back before its
	# module unloads
	[ "$r" = 1 ] && has_point qdisc_enqueue && check "htb_enqueue slot once the last htb qdisc is gone, before sch_htb unloads" \
		"$(slot_gone htb_enqueue)" none
	[ $q = fq_codel ] && unload sch_htb
	[ "$r" = 1 ] && has_point qdisc_enqueue && check "htb_enqueue slot once sch_htb is unloaded" "$(slot_of htb_enqueue)" none
	# the forward scenario's table (forward_filter), which dies on failure
	if ! (forward_filter thunkless_stress); then
		fail "round $r: cannot add the nftables table"
		break
	fi
	[ "$r" = 1 ] && has_point nf_hook_ipv4 && check "nft_do_chain_ipv4 has a netfilter hook slot while the table exists" \
		"$( [ "$(slot_of nft_do_chain_ipv4)" != none ] && echo yes)" yes
	sleep 0.05
	nft delete table ip thunkless_stress || fail "round $r: cannot delete the nftables table"
done
check "pktgen still running through the churn" "$(kill -0 $pgpid 2>/dev/null && echo yes)" yes
echo stop >"$PG/pgctrl"
wait $pgpid
# pg_stat DEV KEY: pktgen's KEY counter for DEV (pkts-sofar:, errors:),
# from its "Current:" section
pg_stat() {
	awk -v k="$2" '/^Current:/ { cur = 1 } /^Result:/ { cur = 0 }
		cur { for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }' "$PG/$1"
}
sent=$(pg_stat sdev0 pkts-sofar:)
sent2=$(pg_stat sdev2 pkts-sofar:)
sent3=$(pg_stat fwa pkts-sofar:)
echo "# pktgen sent $sent packets on sdev0, $sent2 on sdev2 ($(pg_stat sdev2 errors:) refused by its qdisc), $sent3 on fwa during $ROUNDS churn rounds"
[ "${sent:-0}" -gt 0 ] || fail "pktgen sent nothing on sdev0"
[ "${sent2:-0}" -gt 0 ] || fail "pktgen sent nothing on sdev2"
[ "${sent3:-0}" -gt 0 ] || fail "pktgen sent nothing on fwa"
read -r tx2_1 </sys/class/net/sdev2/statistics/tx_packets
read -r rx_1 </sys/class/net/fwd/statistics/rx_packets
check "sdev2 transmitted every packet its qdiscs accepted" "$((tx2_1 - tx2_0))" "$sent2"
check "the router forwarded every packet to fwd" "$((rx_1 - rx_0))" "$sent3"

# Every action of the stable filter counted every packet.
# "action order N: KIND ..." then its " Sent B bytes P pkt ..." line.
counts=$(tc -s filter show dev sdev0 egress pref 1 | awk '
	/action order [0-9]+:/ { sub(/.*action order [0-9]+: */, ""); kind = $1 }
	/^[ \t]*Sent [0-9]+ bytes [0-9]+ pkt/ && kind != "" { print kind, $4; kind = "" }')
nact=$(grep -c . <<<"$counts")
check "actions on the stable filter" "$nact" 9
while read -r kind pkts; do
	check "$kind counted every packet" "$pkts" "$sent"
done <<<"$counts"
has_point netdev_xmit && check "dummy_xmit transmit slot, the packets' path" "$( [ "$(slot_of dummy_xmit)" != none ] && echo yes)" yes
ip link del fwa
ip link del fwc
has_point netdev_xmit && check "veth_xmit transmit slot after its last device went" "$(slot_of veth_xmit)" none
check "basic_classify slot after the churn" "$( [ "$(slot_of basic_classify)" != none ] && echo kept)" kept
for f in flow_classify route4_classify tcf_mpls_act tcf_gate_act em_meta_match em_u32_match; do
	case $f in em_*) has_point tcf_em || continue ;; esac
	check "$f slot after its last unload" "$(slot_of "$f")" none
done
has_point nf_hook_ipv4 && check "nft_do_chain_ipv4 hook slot after the table went" "$(slot_of nft_do_chain_ipv4)" none
if has_point qdisc_enqueue; then
	case $((ROUNDS % 3)) in
	0) check "htb_enqueue slot, htb in use at the end" "$( [ "$(slot_of htb_enqueue)" != none ] && echo yes)" yes ;;
	*) unload sch_htb 2>/dev/null; check "htb_enqueue slot, sch_htb unloaded" "$(slot_of htb_enqueue)" none ;;
	esac
fi

tc filter del dev sdev0 egress pref 1
for d in sdev0 sdev1 sdev2; do ip link del "$d"; done
pg kpktgend_0 rem_device_all
unload cls_basic act_nat act_skbmod act_ctinfo act_connmark act_sample act_vlan act_tunnel_key
# the idle filter's matchall and every filter's gact, where they are modules
for m in cls_matchall act_gact; do
	! is_module $m || unload $m
done
check "tc_act slots in use at the end" "$(used tc_act)" 0
check "tc_classify slots in use at the end" "$(used tc_classify)" 0
check "tc_act functions waiting at the end" "$(waiting tc_act)" ""
check "tc_classify functions waiting at the end" "$(waiting tc_classify)" ""
# 4. families: a dual-stack host with NAT, as Docker sets one up.  With one
# set of twelve hook slots for every family, IPv6's functions waited
# behind IPv4's and NAT's.
if has_point nf_hook_ipv4; then
	before=$(hook_slots | tr '\n' ';')
	br=
	ip link add snf0 type dummy || fail "cannot add snf0"
	# br_netfilter needs the bridge; both are modules on Debian
	if modprobe br_netfilter 2>/dev/null; then
		br=", br_netfilter"
		{ ip link add sbr0 type bridge && ip link set sbr0 up; } || fail "cannot add a bridge"
	else
		echo "# no br_netfilter in this kernel: the bridge's hooks left out"
	fi
	if nft -f - <<'NFT'
table ip thunkless_nat {
	chain pre { type nat hook prerouting priority dstnat; }
	chain post { type nat hook postrouting priority srcnat; masquerade; }
}
table ip thunkless_filter {
	chain forward { type filter hook forward priority 0; ct state established,related accept; }
}
table ip6 thunkless_nat {
	chain pre { type nat hook prerouting priority dstnat; }
	chain post { type nat hook postrouting priority srcnat; masquerade; }
}
table ip6 thunkless_filter {
	chain forward { type filter hook forward priority 0; ct state established,related accept; }
}
table netdev thunkless_ingress {
	chain in { type filter hook ingress device snf0 priority 0; }
}
NFT
	then
		check "no netfilter hook function waits for a slot (IPv4 and IPv6 NAT and filter, netdev ingress$br)" \
			"$(hook_waiting)" ""
		for f in nf_nat_ipv4_pre_routing nf_nat_ipv4_out ipv4_conntrack_defrag ipv4_conntrack_in nft_do_chain_ipv4; do
			check "$f has an IPv4 hook slot" "$(point_of $f)" nf_hook_ipv4
		done
		for f in nf_nat_ipv6_in nf_nat_ipv6_out ipv6_defrag ipv6_conntrack_in nft_do_chain_ipv6; do
			check "$f has an IPv6 hook slot" "$(point_of $f)" nf_hook_ipv6
		done
		check "nft_do_chain_netdev has a hook slot of the other families" "$(point_of nft_do_chain_netdev)" nf_hook_other
		if [ -n "$br" ]; then
			for f in br_nf_pre_routing br_nf_post_routing; do
				check "$f has a hook slot of the other families" "$(point_of $f)" nf_hook_other
			done
			check "ip_sabotage_in has a slot in IPv4's and IPv6's points" "$(point_of ip_sabotage_in | tr ' ' '\n' | sort | tr '\n' ' ')" "nf_hook_ipv4 nf_hook_ipv6 "
		fi
	else
		fail "cannot add the dual-stack NAT and filter tables"
	fi
	for t in "ip thunkless_nat" "ip thunkless_filter" "ip6 thunkless_nat" "ip6 thunkless_filter" "netdev thunkless_ingress"; do
		# shellcheck disable=SC2086 # family and name
		nft delete table $t 2>/dev/null
	done
	ip link del snf0
	if [ -n "$br" ]; then
		ip link del sbr0
		unload br_netfilter
	fi
	check "netfilter hook slots once the dual-stack tables$br went: as before" "$(hook_slots | tr '\n' ';')" "$before"
	check "netfilter hook functions waiting at the end" "$(hook_waiting)" ""
fi

# A point joins the debugfs list when its first user registers, and each
# one's users have registered by now.
for p in $ALL_POINTS; do
	if has_point $p; then
		check "the $p point took registrations" "$( [ -n "$(misses $p)" ] && echo yes)" yes
	else
		check "no $p point (the series has none)" "$( [ -n "$(misses $p)" ] && echo present || echo none)" none
	fi
done

splat=$(dmesg | grep -E "$SPLAT_RE" | head -n 5)
if [ -n "$splat" ]; then
	fail "kernel log has a splat: $(head -n1 <<<"$splat")"
	dmesg | tail -n 60
else
	ok "no splat in the kernel log"
fi
echo "1..$n"
echo "# slots-stress: $((n - nfail)) passed, $nfail failed"
[ "$nfail" = 0 ]
