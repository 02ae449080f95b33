#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside a guest whose kernel builds part of tc as modules
# (configs/tc-modules.config) and has direct-call slots
# (CONFIG_NET_DIRECT_CALL_SLOTS): loads and unloads classifier and action
# modules in a loop while pktgen sends through filters that use other
# modules, with the gate on.
#
#   slots-stress.sh [-r ROUNDS] [-s PKT_SIZE]
#
# 1. exhaustion: ten action modules loaded at once, for eight slots; the
#    two left without one must still count every packet (indirectly);
# 2. reuse: unloading a module frees its slot, and the next module to load
#    gets that slot (the lowest free one);
# 3. churn: ROUNDS times, a filter using other modules (cls_flow/cls_route
#    and act_mpls/act_gate) is added in the packets' path, then deleted and
#    its modules unloaded, while pktgen sends without pause;
#    each round also adds a veth pair and deletes it, so that veth_xmit
#    takes a transmit slot (CONFIG_NET_PATH_DIRECT_CALLS, which the kernel
#    must have) and gives it back, while the packets go through dummy's;
# then every action on the stable path must have counted exactly the
# packets pktgen sent, no slot may still name an unloaded module or a
# driver without devices, and the kernel log must hold no splat.
set -u

ROUNDS=20
PKT=64
while getopts "r:s:" o; do
	case $o in
	r) ROUNDS=$OPTARG ;;
	s) PKT=$OPTARG ;;
	*) echo "usage: slots-stress.sh [-r ROUNDS] [-s PKT_SIZE]" >&2; exit 2 ;;
	esac
done
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "slots-stress: bad -r '$ROUNDS'" >&2; exit 2; }

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

# slot_of FUNC: the slot index FUNC holds, or "none".
slot_of() {
	awk -v f="$1" '$2 ~ /^[0-9]+$/ && $4 == f { print $2; found = 1 }
		END { if (!found) print "none" }' "$SLOTS"
}
misses() { awk -v p="$1" '$1 == p && $2 == "misses" { print $3 }' "$SLOTS"; }
used() { awk -v p="$1" '$1 == p && $2 ~ /^[0-9]+$/' "$SLOTS" | wc -l; }
unload() {
	local m
	for m in "$@"; do
		for _ in $(seq 50); do
			grep -q "^$m " /proc/modules || break
			rmmod "$m" 2>/dev/null && break
			sleep 0.1
		done
		grep -q "^$m " /proc/modules && fail "cannot unload $m"
	done
	return 0
}

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
check "tc_act slots in use with ten action modules loaded" "$(used tc_act)" 8
check "tc_act registrations left without a slot" "$(( $(misses tc_act) - m0 ))" 2
for f in tcf_simp_act tcf_mpls_act tcf_gate_act tcf_nat_act tcf_skbmod_act tcf_ctinfo_act tcf_connmark_act tcf_sample_act; do
	[ "$(slot_of "$f")" != none ] || fail "$f has no slot"
done
check "tcf_vlan_act slot (loaded ninth)" "$(slot_of tcf_vlan_act)" none
check "tunnel_key_act slot (loaded tenth)" "$(slot_of tunnel_key_act)" none
[ "$(slot_of basic_classify)" != none ] && ok "basic_classify has a slot" || fail "basic_classify has no slot"

# 2. Reuse: the idle modules go, and the next action module to load takes
# the lowest slot they freed.
s_simple=$(slot_of tcf_simp_act)
tc filter del dev sdev1 egress pref 1
unload act_simple act_mpls act_gate
for f in tcf_simp_act tcf_mpls_act tcf_gate_act; do
	check "$f slot after unloading its module" "$(slot_of "$f")" none
done
check "tc_act slots in use after unloading three" "$(used tc_act)" 5

# pktgen: queue_xmit on sdev0, without end, until stopped.
pg() { echo "$2" >"$PG/$1" || die "pktgen: '$2' -> $1 failed"; }
pg kpktgend_0 rem_device_all
pg kpktgend_0 "add_device sdev0"
pg sdev0 "count 0"
pg sdev0 "pkt_size $PKT"
pg sdev0 "xmit_mode queue_xmit"
pg sdev0 "dst 198.18.0.42"
pg sdev0 "src_min 198.18.0.1"
pg sdev0 "src_max 198.18.0.1"
pg sdev0 "dst_mac 90:e2:ba:ff:ff:ff"
echo start >"$PG/pgctrl" &
pgpid=$!

# 3. Churn in the packets' path, after the stable filter.
s_first=
for r in $(seq "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then
		spec="handle 1 flow map key dst and 0xff baseclass ffff:1 action mpls push label 20 pipe action mpls pop protocol ipv4 pipe action gact continue"
		mods="cls_flow act_mpls"
	else
		spec="route to 7 action gate clockid CLOCK_TAI sched-entry open 1000000000 -1 -1 action gact continue"
		mods="cls_route act_gate"
	fi
	echo "# churn round $r: $mods"
	# shellcheck disable=SC2086 # the filter spec is a word list
	if ! tc filter add dev sdev0 egress pref 50 protocol all $spec; then
		fail "round $r: cannot add '$spec'"
		# shellcheck disable=SC2086
		unload $mods
		break
	fi
	if [ "$r" = 1 ]; then
		s_first=$(slot_of tcf_mpls_act)
		check "act_mpls, loaded first after the unload, takes the lowest freed slot" "$s_first" "$s_simple"
	fi
	sleep 0.05
	tc filter del dev sdev0 egress pref 50
	# shellcheck disable=SC2086
	unload $mods
	if ! ip link add stv0 type veth peer name stv1; then
		fail "round $r: cannot add a veth pair"
		break
	fi
	[ "$r" = 1 ] && check "veth_xmit has a transmit slot while a veth exists" \
		"$( [ "$(slot_of veth_xmit)" != none ] && echo yes)" yes
	ip link del stv0
done
check "pktgen still running through the churn" "$(kill -0 $pgpid 2>/dev/null && echo yes)" yes
echo stop >"$PG/pgctrl"
wait $pgpid
sent=$(awk '/pkts-sofar:/ { for (i = 1; i <= NF; i++) if ($i == "pkts-sofar:") print $(i + 1) }' "$PG/sdev0")
echo "# pktgen sent $sent packets during $ROUNDS churn rounds"
[ "${sent:-0}" -gt 0 ] || fail "pktgen sent nothing"

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
check "dummy_xmit transmit slot, the packets' path" "$( [ "$(slot_of dummy_xmit)" != none ] && echo yes)" yes
check "veth_xmit transmit slot after its last device went" "$(slot_of veth_xmit)" none
check "basic_classify slot after the churn" "$( [ "$(slot_of basic_classify)" != none ] && echo kept)" kept
for f in flow_classify route4_classify tcf_mpls_act tcf_gate_act; do
	check "$f slot after its last unload" "$(slot_of "$f")" none
done

tc filter del dev sdev0 egress pref 1
for d in sdev0 sdev1; do ip link del "$d"; done
pg kpktgend_0 rem_device_all
unload cls_basic act_nat act_skbmod act_ctinfo act_connmark act_sample act_vlan act_tunnel_key
check "tc_act slots in use at the end" "$(used tc_act)" 0
check "tc_classify slots in use at the end" "$(used tc_classify)" 0

splat=$(dmesg | grep -E 'BUG:|WARNING:|Oops|KASAN|UBSAN|possible circular|possible recursive|inconsistent lock|sleeping function called|suspicious RCU|Call Trace' | head -n 5)
if [ -n "$splat" ]; then
	fail "kernel log has a splat: $(head -n1 <<<"$splat")"
	dmesg | tail -n 60
else
	ok "no splat in the kernel log"
fi
echo "1..$n"
echo "# slots-stress: $((n - nfail)) passed, $nfail failed"
[ "$nfail" = 0 ]
