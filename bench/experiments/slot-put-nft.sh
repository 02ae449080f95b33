#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# slot-put-nft.sh [N]: in a guest, N times, add an nf_tables table with
# one inet base chain and delete it, with no other nf_tables table, so
# that on a patched kernel each delete empties the chain function's hook
# slots (IPv4's and IPv6's) and each add fills them again; prints the
# mean time of one add and delete.  Run it on each kernel:
#   scripts/run-uml.sh --kernel KERNEL -- bash bench/experiments/slot-put-nft.sh 100
set -u
n=${1:-100}
case $n in '' | *[!0-9]* | 0) echo "slot-put-nft: error: bad count '$n'" >&2; exit 2 ;; esac
nft flush ruleset || exit 1
cat >/tmp/slot-put-nft.add <<'NFT'
add table inet slotput
add chain inet slotput in { type filter hook input priority 0; }
NFT
echo 'delete table inet slotput' >/tmp/slot-put-nft.del
nft -f /tmp/slot-put-nft.add && nft -f /tmp/slot-put-nft.del || exit 1
t0=$(date +%s%N)
for ((i = 0; i < n; i++)); do
	nft -f /tmp/slot-put-nft.add || exit 1
	nft -f /tmp/slot-put-nft.del || exit 1
done
t1=$(date +%s%N)
echo "RESULT slot-put-nft n=$n us_per_add_del=$(((t1 - t0) / n / 1000))"
