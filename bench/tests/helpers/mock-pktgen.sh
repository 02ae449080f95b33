# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Test double for pktgen, sourced by bench/scenarios/lib.sh when
# BENCH_PKTGEN_MOCK points here.  Dummy devices become veth pairs (NAME and
# NAMEp); "start" sends the configured packets with an AF_PACKET socket:
#   queue_xmit     sent on NAME (egress path: clsact egress runs)
#   netif_receive  sent on NAMEp, so they arrive on NAME's receive path
# and writes a pktgen-style Result block.  errors is emulated the way pktgen
# counts it: queue_xmit -> sends that failed (dropped on egress);
# netif_receive -> packets that did not reach IP (Ip InReceives, or NAME's
# Ip6InReceives for a dst6 stream), i.e. dropped before.  IPv6 (dst6/src6)
# frames carry a valid UDP checksum only with "flag UDPCSUM", as with
# pktgen (a veth hands the stack CHECKSUM_NONE packets: the checksum is
# really checked).
# Only for use inside a private network namespace.

MOCK_PY=$(dirname "${BASH_SOURCE[0]}")/mock_send.py
declare -A MOCK

make_dummy() {
	local d=$1
	ip link del "$d" 2>/dev/null || true
	ip link add "$d" type veth peer name "${d}p" || die "mock: cannot create veth $d"
	add_cleanup "ip link del $d"
	quiet_dev "$d"
	quiet_dev "${d}p"
	ip link set "${d}p" up || die "mock: cannot set ${d}p up"
	ip link set "$d" up || die "cannot set $d up"
}

pg_write() {
	local f=$1
	shift
	case $f in
	pgctrl)
		case $1 in
		start) mock_start ;;
		esac
		return 0
		;;
	kpktgend_*)
		case $1 in
		add_device) MOCK[dev]=$2; : >"$PG_DIR/$2" ;;
		esac
		return 0
		;;
	esac
	# shellcheck disable=SC2048,SC2086 # split "key value"
	set -- $*
	case $1 in
	flag) MOCK[flag_$2]=1 ;;
	*) MOCK[$1]=$2 ;;
	esac
}

# ip_inreceives DEV
ip_inreceives() {
	if [ -n "${MOCK[dst6]:-}" ]; then
		# DEV's own counter: the namespace's would also count DEV's MLD
		# reports, which arrive on its peer
		awk '$1 == "Ip6InReceives" { print $2 }' "/proc/net/dev_snmp6/$1"
		return
	fi
	awk '$1 == "Ip:" && !h { for (i = 2; i <= NF; i++) if ($i == "InReceives") c = i; h = 1; next }
	     $1 == "Ip:" && h { print $c; exit }' /proc/net/snmp
}

mock_start() {
	local dev=${MOCK[dev]} mode=${MOCK[xmit_mode]} n=${MOCK[count]}
	local out=$dev t0 t1 ip0 ip1 usec err src=${MOCK[src_min]:-} dst=${MOCK[dst_min]:-}
	[ "$mode" = netif_receive ] && out=${dev}p
	[ -n "${MOCK[dst6]:-}" ] && src=${MOCK[src6]} dst=${MOCK[dst6]}
	ip0=$(ip_inreceives "$dev")
	t0=$(date +%s%N)
	err=$(python3 "$MOCK_PY" "$out" "$n" "${MOCK[dst_mac]}" "$(cat "/sys/class/net/$out/address")" \
		"$src" "$dst" "${MOCK[udp_src_min]:-9}" "${MOCK[udp_src_max]:-9}" \
		"${MOCK[flag_UDPSRC_RND]:-0}" "${MOCK[udp_dst_min]}" "${MOCK[pkt_size]}" \
		"${MOCK[flag_UDPCSUM]:-0}") ||
		die "mock: sender failed"
	t1=$(date +%s%N)
	ip1=$(ip_inreceives "$dev")
	usec=$(((t1 - t0) / 1000))
	if [ "$mode" = netif_receive ]; then
		err=$((n - (ip1 - ip0)))
	fi
	{
		echo "Result: OK: $usec(c$usec+d0) usec, $n (${MOCK[pkt_size]}byte,0frags)"
		echo "  $((n * 1000000 / usec))pps 1Mb/sec (1bps) errors: $err"
	} >"$PG_DIR/$dev"
}
