#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside a guest: the kernel came up with the pieces the series needs.
set -eu
fail() { echo "smoke: $*" >&2; exit 1; }
echo "kernel $(uname -r) on $(uname -m)"
[ "$(id -u)" = 0 ] || fail "not root in the guest"
grep -q ' / ' /proc/mounts || fail "no root mount"
touch /tmp/w || fail "/tmp is not writable"
ip link add d0 type dummy || fail "cannot create a dummy device"
ip link set d0 up
tc qdisc add dev d0 clsact || fail "no clsact qdisc"
tc filter add dev d0 egress matchall action gact pass || fail "no matchall/gact"
nft add table netdev t || fail "no nf_tables"
[ -d /proc/net/pktgen ] || fail "no pktgen"
ip addr add 10.0.0.1/24 dev d0
ping -c 3 -i 0.2 -W 1 10.0.0.2 >/dev/null 2>&1 || true
pkts=$(tc -s filter show dev d0 egress | awk '/Sent/ { print $4; exit }')
[ "${pkts:-0}" -gt 0 ] || fail "matchall saw no packets"
echo "smoke: ok ($pkts packets through matchall)"
