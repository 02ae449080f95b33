#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tc-act: one action kind alone: a single matchall filter on clsact egress
# of a dummy device with N actions of the kind, then "gact continue", so
# that every packet runs one classifier and N + 1 actions.  pktgen
# queue_xmit, 64-byte UDP 198.18.0.1:9 -> 198.18.0.42:9.  Variants, one per
# kind (each action "pipe"s to the next):
#   mirred      "mirred egress mirror dev tlb1": N copies to a second dummy
#   pedit       "pedit ex munge ip tos set 0x10"
#   skbedit     "skbedit mark 7"
#   police      "police rate 100gbit burst 1m conform-exceed pipe/pipe",
#               created apart (tc actions add) and bound by index: 30
#               rate tables do not fit in one tc message
#   csum        "csum ip4h udp"
#   vlan        "vlan push id 5" and "vlan pop" in turn
#   tunnel_key  "tunnel_key set src_ip 10.0.0.1 dst_ip 10.0.0.2 id 42"
#   ct          "ct commit": conntrack, the flow committed once
# Each variant unloads its action's module when done (when it is one): a
# modular kind takes one of tc's eight act slots when it loads.
# act_bpf is not a variant: the vehicle (UML) has no BPF JIT.
#
#   bench/scenarios/tc-act.sh [-v VARIANT[,...]] [-n N[,N..]] [-c COUNT] [-d SECONDS] [-g GATES]
#
# N is at most 31: a filter takes 32 actions (TCA_ACT_MAX_PRIO).
#
# Checks: one filter; N actions of the kind and one gact; every action
# counted exactly the packets pktgen sent; the device transmitted them all
# (and for mirred the mirror device N times as many); pktgen errors == 0.
# BASH_SOURCE, not $0: tests/guest/thunks.sh -k sources this file
HERE=${BASH_SOURCE[0]%/*}
[ "$HERE" != "${BASH_SOURCE[0]}" ] || HERE=.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

N_LIST=30
ALL_VARIANTS=mirred,pedit,skbedit,police,csum,vlan,tunnel_key,ct
VARIANTS=$ALL_VARIANTS
N_MAX=31
parse_opts "$@"
preflight tc

DST_MAC=90:e2:ba:ff:ff:ff
DST_IP=198.18.0.42

# act_spec KIND I: the I-th action of KIND, without its control verb
act_spec() {
	case $1 in
	mirred) echo "mirred egress mirror dev $DEV2" ;;
	pedit) echo "pedit ex munge ip tos set 0x10" ;;
	skbedit) echo "skbedit mark 7" ;;
	police) echo "police rate 100gbit burst 1m conform-exceed pipe/pipe" ;;
	csum) echo "csum ip4h udp" ;;
	vlan) if (($2 % 2)); then echo "vlan push id 5"; else echo "vlan pop"; fi ;;
	tunnel_key) echo "tunnel_key set src_ip 10.0.0.1 dst_ip 10.0.0.2 id 42" ;;
	ct) echo "ct commit" ;;
	*) die "unknown action variant '$1'" ;;
	esac
}

s_setup() {
	local v=$1 n=$2 i acts='' want
	make_dummy "$DEV"
	[ "$v" = mirred ] && make_dummy "$DEV2"
	tc qdisc add dev "$DEV" clsact || die "cannot add clsact to $DEV"
	if [ "$v" = police ]; then
		# each police action carries its rate table (1 KiB): 30 in one
		# filter overflow tc's 16 KiB message, so they are created
		# apart and the filter binds them by index
		for ((i = 1; i <= n; i++)); do
			echo "actions add action $(act_spec "$v" "$i") index $i"
		done | tc -b - || die "adding $n police actions failed (is act_police in the kernel?)"
		for ((i = 1; i <= n; i++)); do
			acts+=" action police index $i"
		done
	else
		for ((i = 1; i <= n; i++)); do
			acts+=" action $(act_spec "$v" "$i") pipe"
		done
	fi
	eval "tc filter add dev $DEV egress pref 1 protocol all matchall$acts action gact continue" ||
		die "adding a matchall filter with $n $v actions failed (is act_$v in the kernel?)"
	tc_dump "$DEV" "*"
	expect_eq "filter prefs on $DEV egress" "$PREFS" 1
	tc_kinds
	# tc_kinds sorts by kind
	want=$(printf '%s\n' "gact 1" "$v $n" | sort)
	expect_eq "actions on $DEV egress" "$KINDS_SEEN" "${want//$'\n'/ }"
	tc_keys
	pg_device "$DEV" queue_xmit "$DST_MAC" "$DST_IP" 198.18.0.1 9
}

# ~150 ns per packet plus ~40 ns per action on 6.1 UML with retpolines
s_rate() {
	RATE=$((1000000000 / (150 + 40 * $2)))
	[ "$1" = mirred ] && RATE=$((1000000000 / (150 + 200 * $2)))
	return 0
}

s_snap() {
	tc_dump "$DEV" "*"
	dev_stat "$DEV" tx_packets
	SNAP="${TCA}tx $STAT"$'\n'
	if [ -e "/sys/class/net/$DEV2" ]; then
		dev_stat "$DEV2" tx_packets
		SNAP+="tx2 $STAT"
	fi
}

s_check() {
	local v=$1 n=$2 b=$3 a=$4
	expect_no_pg_errors
	tc_action_check "$KEYS" "$b" "$a" "$CHECK_PKTS"
	snap_delta tx "$b" "$a"
	expect_eq "$DEV tx_packets delta" "$DELTA" "$CHECK_PKTS"
	if [ "$v" = mirred ]; then
		snap_delta tx2 "$b" "$a"
		expect_eq "$DEV2 (mirror) tx_packets delta" "$DELTA" $((n * CHECK_PKTS))
	fi
}

s_teardown() {
	ip link del "$DEV" 2>/dev/null
	ip link del "$DEV2" 2>/dev/null
	[ "$1" = police ] && tc actions flush action police 2>/dev/null
	mod_unload "act_$1"
	return 0
}

run_scenario
