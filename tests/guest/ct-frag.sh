#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside a UML guest: act_ct reassembles a fragmented datagram, and
# mirred must send it again as fragments no longer than the largest one
# that arrived (its MRU, sch_frag_xmit_hook()), while a datagram that
# needs no fragmenting is sent whole.  With act_ct loaded, mirred used to
# send every packet through sch_frag_xmit_hook(); since 0031 (6.12's 0020)
# tcf_dev_queue_xmit() sends the ones that need no fragmenting itself, so
# this checks that both paths still deliver.
#
#   ct-frag.sh
#
# Namespaces: "a" sends UDP to 10.9.0.2 on veth a0 (MTU 1500) -> b0 in
# "b", whose clsact ingress runs "matchall action ct pipe action mirred
# egress redirect dev b1" -> c0 in "c", which has b0's MAC address, so
# that the redirected frames are its own, and a UDP socket on port 9.
# For each gate setting (on and off where the kernel has the gate, else
# none): a 3000-byte datagram arrives whole in "c" and leaves b1 as 3
# fragments; a 100-byte one arrives and leaves b1 as 1 packet.  Prints
# "ok - ..." / "not ok - ..." lines; exit 1 on a failed check, 2 on bad
# arguments.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
# shellcheck source=../../bench/scenarios/lib.sh
. "$TOP/bench/scenarios/lib.sh"
SCEN=ct-frag
nfail=0

[ $# -eq 0 ] || { echo "$SCEN: error: no arguments expected, got '$*'" >&2; exit 2; }
# both gate settings where the kernel has the gate, else none
# shellcheck disable=SC2034 # gate_init reads it
GATES=on,off
gate_init

check() { tap_check "$SCEN: $1" "${@:2}"; } # check WHAT COND...

trap on_exit EXIT
add_cleanup gate_restore
for ns in a b c; do
	ip netns add "ctf$ns" || die "cannot add namespace ctf$ns"
	add_cleanup "ip netns del ctf$ns"
	# no IPv6 on the links to come: their router solicitations and MLD
	# reports would be counted with the fragments
	for f in all default; do
		k=/proc/sys/net/ipv6/conf/$f/disable_ipv6
		[ ! -e "$k" ] || ip netns exec "ctf$ns" sh -c "echo 1 >$k" ||
			die "cannot turn IPv6 off in ctf$ns"
	done
done
A="ip netns exec ctfa" B="ip netns exec ctfb" C="ip netns exec ctfc"
ip link add a0 netns ctfa type veth peer name b0 netns ctfb || die "cannot add veth a0/b0"
ip link add b1 netns ctfb type veth peer name c0 netns ctfc || die "cannot add veth b1/c0"
mac=$($B cat /sys/class/net/b0/address) || die "no address for b0"
$C ip link set c0 address "$mac" || die "cannot set c0's address"
$A ip addr add 10.9.0.1/24 dev a0 || die "cannot address a0"
$C ip addr add 10.9.0.2/24 dev c0 || die "cannot address c0"
{ $A ip link set a0 up && $A ip link set lo up && $B ip link set b0 up &&
	$B ip link set b1 up && $C ip link set c0 up && $C ip link set lo up; } ||
	die "cannot bring the links up"
$A ip neigh add 10.9.0.2 lladdr "$mac" dev a0 || die "cannot add a0's neighbour"
$B tc qdisc add dev b0 clsact || die "cannot add clsact to b0"
$B tc filter add dev b0 ingress protocol ip pref 1 matchall \
	action ct pipe action mirred egress redirect dev b1 ||
	die "cannot add the ct and mirred filter (act_ct built in or a module?)"
echo "# $SCEN: set up: a0 -> b0 (ct, mirred) -> b1 -> c0"

# send SIZE: one UDP datagram of SIZE bytes from ctfa to 10.9.0.2:9; sets
# GOT (bytes ctfc's socket received, 0 if none within 5 s) and TX (packets
# b1 sent meanwhile)
send() {
	local size=$1 t0 t1 out
	t0=$($B cat /sys/class/net/b1/statistics/tx_packets) || die "no tx_packets for b1"
	rm -f /tmp/ctfrag.out
	$C python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("10.9.0.2", 9))
s.settimeout(5)
print("ready", flush=True)
try:
    print(len(s.recv(65536)), flush=True)
except socket.timeout:
    print(0, flush=True)
' >/tmp/ctfrag.out &
	local pid=$! i
	for ((i = 0; i < 50; i++)); do
		grep -q ready /tmp/ctfrag.out 2>/dev/null && break
		sleep 0.1
	done
	grep -q ready /tmp/ctfrag.out || die "the receiver in ctfc did not start"
	$A python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.sendto(b"x" * int(sys.argv[1]), ("10.9.0.2", 9))
' "$size" || die "cannot send $size bytes from ctfa"
	wait "$pid"
	out=$(sed -n 2p /tmp/ctfrag.out)
	GOT=${out:-0}
	t1=$($B cat /sys/class/net/b1/statistics/tx_packets) || die "no tx_packets for b1"
	TX=$((t1 - t0))
}

for g in "${GATE_SEQ[@]}"; do
	gate_set "$g"
	send 3000
	check "gate $g: a 3000-byte datagram reassembled by ct arrives whole (got $GOT bytes)" [ "$GOT" = 3000 ]
	check "gate $g: mirred sent it again as 3 fragments (b1 sent $TX)" [ "$TX" = 3 ]
	send 100
	check "gate $g: a 100-byte datagram arrives (got $GOT bytes)" [ "$GOT" = 100 ]
	check "gate $g: mirred sent it as 1 packet (b1 sent $TX)" [ "$TX" = 1 ]
done
[ "$nfail" = 0 ] || { echo "$SCEN: $nfail checks failed"; exit 1; }
echo "$SCEN: act_ct's reassembled datagrams are fragmented again by mirred, the others sent whole"
