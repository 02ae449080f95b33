#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# slot-put.sh dummy|nft [N]: in a guest, N times, add and delete the only
# user of some slots, so that on a patched kernel each delete empties them
# and each add fills them again; prints the mean time of one add and
# delete.  dummy: the only dummy device (the driver's transmit slot);
# nft: the only nf_tables table, with one inet base chain (its function's
# IPv4 and IPv6 hook slots).  Run it on each kernel:
#   scripts/run-uml.sh --kernel KERNEL -- bash bench/experiments/slot-put.sh dummy 50
set -u
kind=${1:-} n=${2:-50}
case $n in '' | *[!0-9]* | 0) echo "slot-put: error: bad count '$n'" >&2; exit 2 ;; esac
case $kind in
dummy)
	ip link del dummy0 2>/dev/null
	if ip -o link show type dummy | grep -q .; then
		echo "slot-put: error: a dummy device is left: $(ip -o link show type dummy | head -n1)" >&2
		exit 1
	fi
	add() { ip link add tl0 type dummy; }
	del() { ip link del tl0; }
	;;
nft)
	nft flush ruleset || exit 1
	add() { nft -f - <<<$'add table inet slotput\nadd chain inet slotput in { type filter hook input priority 0; }'; }
	del() { nft delete table inet slotput; }
	;;
*) echo "slot-put: error: unknown kind '$kind' (dummy or nft)" >&2; exit 2 ;;
esac
add && del || exit 1
t0=$(date +%s%N)
for ((i = 0; i < n; i++)); do
	add || exit 1
	del || exit 1
done
t1=$(date +%s%N)
echo "RESULT slot-put kind=$kind n=$n us_per_add_del=$(((t1 - t0) / n / 1000))"
