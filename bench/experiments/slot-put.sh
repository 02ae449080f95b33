#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# slot-put.sh [N]: in a guest, add a dummy device and delete it N times,
# with no other dummy device, so that on a patched kernel each delete
# empties the dummy driver's transmit slot and each add fills it again;
# prints the mean time of one add and delete.  Run it on each kernel:
#   scripts/run-uml.sh --kernel KERNEL -- bash bench/experiments/slot-put.sh 200
set -u
n=${1:-200}
case $n in '' | *[!0-9]* | 0) echo "slot-put: error: bad count '$n'" >&2; exit 2 ;; esac
ip link del dummy0 2>/dev/null
if ip -o link show type dummy | grep -q .; then
	echo "slot-put: error: a dummy device is left: $(ip -o link show type dummy | head -n1)" >&2
	exit 1
fi
ip link add tl0 type dummy && ip link del tl0 || exit 1
t0=$(date +%s%N)
for ((i = 0; i < n; i++)); do
	ip link add tl0 type dummy || exit 1
	ip link del tl0 || exit 1
done
t1=$(date +%s%N)
echo "RESULT slot-put n=$n us_per_add_del=$(((t1 - t0) / n / 1000))"
