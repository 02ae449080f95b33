#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# udp-lookup: UDP packets to a local port served by a SO_REUSEPORT group of
# N sockets (held by udp_sockets.py), injected with pktgen xmit_mode
# netif_receive (burst $UDP_BURST) on a dummy device, 64-byte UDP with random
# source ports so that the reuseport hash spreads them over the group.  The
# sockets have minimal receive buffers: after the first few packets each one
# is looked up, then dropped at enqueue, so the socket lookup dominates.
#
#   bench/scenarios/udp-lookup.sh [-n N[,N..]] [-v VARIANTS] [-c COUNT] [-d SECONDS] [-g GATES]
#
# Variants:
#   reuseport   N unconnected sockets: compute_score, then the reuseport pick
#   connected   the same plus one connected socket in the group, so that
#               reuseport_has_conns() sends every lookup down the rescore
#               path (compute_score over all N+1 sockets)
#   reuseport6, connected6
#               the same over IPv6 (udp6_lib_lookup2 and its compute_score):
#               AF_INET6 sockets on an address added with nodad, 78-byte
#               frames (pktgen's IPv6 minimum).  IPv6 UDP has no "no
#               checksum" (a zero one is dropped after the lookup, as a
#               checksum error), so pktgen sets one (flag UDPCSUM): the
#               dummy device offers NETIF_F_HW_CSUM, so pktgen only seeds
#               the pseudo-header sum and hands the stack CHECKSUM_PARTIAL
#               packets, which the receive path takes as verified: nothing
#               sums the payload on either side, as with IPv4's zero one.
#
# Checks: all sockets bound and visible in /proc/net/udp (udp6); every
# measured packet reached a socket of the group (drops + queued == pkts
# sent: a packet lost to a bad checksum, a missing address or route fails
# it); the reuseport hash spread packets over at least half of the group;
# pktgen errors == 0.
HERE=${0%/*}
[ "$HERE" != "$0" ] || HERE=.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

N_LIST=128
VARIANTS=reuseport,connected,reuseport6,connected6
ALL_VARIANTS=reuseport,connected,reuseport6,connected6
N_MAX=1000
UDP_BURST=${UDP_BURST:-32}
parse_opts "$@"
preflight python3

LOCAL=198.18.0.1
PEER=198.18.0.2	# pktgen source
CONN_PEER=198.18.0.3:9999	# the connected socket's peer
# IPv6: 2001:2::/48, the benchmarking prefix (RFC 5180) like 198.18.0.0/15
LOCAL6=2001:2::1
PEER6=2001:2::2
CONN_PEER6='[2001:2::3]:9999'
PORT=9000
HELPER=$HERE/udp_sockets.py

helper_cmd() {
	echo "$1" >&"${UDPS[1]}" || die "socket helper gone"
	read -r -t 60 HELPER_REPLY <&"${UDPS[0]}" || die "socket helper did not answer '$1'"
	case $HELPER_REPLY in
	ERROR*) die "socket helper: $HELPER_REPLY" ;;
	esac
}

# field NAME LINE: sets F to the value of NAME=value in LINE
field() {
	local w
	F=
	for w in $2; do
		[[ $w == "$1="* ]] && F=${w#*=}
	done
	[ -n "$F" ] || die "no $1 in '$2'"
}

s_setup() {
	local v=$1 n=$2 extra=() line cnt hexport laddr local=$LOCAL peer=$PEER
	local conn=$CONN_PEER proc=/proc/net/udp
	make_dummy "$DEV"
	case $v in
	*6)
		local=$LOCAL6 peer=$PEER6 conn=$CONN_PEER6 proc=/proc/net/udp6
		ipv6_dev "$DEV" "$local/64"
		;;
	*) ip addr add "$local/24" dev "$DEV" || die "cannot add $local to $DEV" ;;
	esac
	[ "${v%6}" = connected ] && extra=("$conn")
	coproc UDPS { exec python3 "$HELPER" "$local" "$PORT" "$n" "${extra[@]}"; }
	UDPS_PID=$!
	add_cleanup "kill $UDPS_PID"
	read -r -t 60 line <&"${UDPS[0]}" || die "socket helper did not start"
	case $line in
	READY*) ;;
	*) die "socket helper: $line" ;;
	esac
	# /proc/net/udp: "  sl  local_address rem_address ..." "0: 0112C6C6:2328 ..."
	# (udp6: 32 hex digits before the port)
	cnt=0
	printf -v hexport ':%04X' "$PORT"
	while read -r _ laddr _; do
		[[ $laddr == *"$hexport" ]] && cnt=$((cnt + 1))
	done <"$proc"
	field socks "$line"
	expect_eq "sockets bound to port $PORT" "$cnt" "$F"
	dev_mac "$DEV"
	pg_device "$DEV" netif_receive "$MAC" "$local" "$peer" "$PORT" "$UDP_BURST"
	[[ $v == *6 ]] && pg_set "$PG_DEV" "flag UDPCSUM"
	pg_set "$PG_DEV" "flag UDPSRC_RND"
	pg_set "$PG_DEV" "udp_src_min 1024"
	pg_set "$PG_DEV" "udp_src_max 65535"
}

s_rate() {
	case $1 in
	connected*) RATE=$((1000000000 / (700 + 10 * $2))) ;;
	*) RATE=1000000 ;;
	esac
}

s_snap() {
	helper_cmd stats
	SNAP=$HELPER_REPLY
}

s_check() {
	local n=$2 b=$3 a=$4 h0 act
	expect_no_pg_errors
	field hits "$b"
	h0=$F
	field hits "$a"
	expect_eq "packets that reached the socket group" $((F - h0)) "$CHECK_PKTS"
	field active "$a"
	act=$F
	if [ "$PG_PKTS" -ge $((100 * n)) ] && [ "$act" -lt $(((n + 1) / 2)) ]; then
		die "reuseport spread: only $act of $n sockets received packets"
	fi
}

s_teardown() {
	if [ -n "${UDPS[1]:-}" ]; then
		{ echo quit >&"${UDPS[1]}"; } 2>/dev/null
	fi
	wait "$UDPS_PID" 2>/dev/null
	ip link del "$DEV" 2>/dev/null
	return 0
}

run_scenario
