# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# (SC2034: globals here are set for the scenarios that source this file)
#
# Common functions for the thunkless pktgen scenarios.  Sourced, never run.
#
# Modelled on the kernel's samples/pktgen/functions.sh (pg_ctrl, pg_thread,
# pg_set), with stricter error handling: every pktgen write is checked for
# "Result: OK", and any failure ends the scenario with one line on stderr
#
#	<scenario>: error: <reason>
#
# and a non-zero exit status, so that a broken setup never passes as a fast
# one.  Scenarios only need ip, tc, nft, python3 and /proc/net/pktgen; they run
# as root on a UML guest, a KVM guest or bare metal alike.
#
# Output: one line per measurement on stdout, format documented in
# bench/README-format:
#
#	RESULT v=1 scenario=S variant=V n=N gate=G pkts=P usec=U pps=R errors=E t=T

# ---- knobs (environment overrides) ------------------------------------------

# Runtime gate of the patched kernel (values auto|on|off).  If it does not
# exist, the kernel has no gate: measurements are labelled gate=none and
# requests to measure "off" are skipped with a SKIP line.
GATE_KNOB=${GATE_KNOB:-/proc/sys/net/core/direct_calls}

PG_DIR=${PG_DIR:-/proc/net/pktgen}

PG_THREAD=${PG_THREAD:-0}		# kpktgend_<N> that drives the device
PKT_SIZE=${PKT_SIZE:-60}		# + 4-byte FCS = 64-byte frames
# shellcheck disable=SC2034 # used by the scenarios
DEV=${BENCH_DEV:-tlb0}			# device under test (dummy)
# shellcheck disable=SC2034
DEV2=${BENCH_DEV2:-tlb1}		# second dummy (mirred target)
MAX_COUNT=${MAX_COUNT:-100000000}

set -o pipefail

SCEN=${0##*/}
SCEN=${SCEN%.sh}

die() {
	echo "$SCEN: error: $*" >&2
	exit 1
}

usage_die() {
	echo "$SCEN: error: $*" >&2
	exit 2
}

warn() {
	echo "$SCEN: warning: $*" >&2
}

# Forks and execs are slow on UML (~25 ms and ~100 ms on a loaded host), so
# everything on the measurement path is bash builtins; only ip/tc/nft and the
# pktgen writes themselves run programs.
T0=${EPOCHREALTIME/./}
note() {
	local us
	if [ -n "${VERBOSE:-}" ]; then
		us=$((${EPOCHREALTIME/./} - T0))
		printf '%s: [%3d.%02d] %s\n' "$SCEN" $((us / 1000000)) $((us / 10000 % 100)) "$*" >&2
	fi
	return 0
}

# ---- option parsing ---------------------------------------------------------

# Defaults set by the scenario before calling parse_opts:
#	N_LIST      default sizes, comma separated
#	VARIANTS    default variants ("-" when the scenario has none)
#	ALL_VARIANTS  accepted variants (empty: -v not accepted)
#	BASE_COUNT  packets for one measurement at n=1 when not calibrating
COUNT=
RATE=
PG_RUNS=0
DURATION=1.2
GATES=
usage() {
	cat >&2 <<EOF
usage: $0 [-n N[,N...]] [-c COUNT] [-d SECONDS] [-g GATE[,GATE...]] [-v VARIANT[,...]] [-V]
  -n  size parameter(s) (default ${N_LIST:-1})
  -c  packets per measurement (default: calibrated to last -d seconds)
  -d  target seconds per measurement (default $DURATION)
  -g  gate settings to measure: on, off, auto, cur (default: cur)
  -v  variants (default ${VARIANTS:--}; accepted: ${ALL_VARIANTS:-none})
  -V  verbose
EOF
}

is_uint() {
	case $1 in '' | *[!0-9]*) return 1 ;; esac
	return 0
}

# positive integer, no leading zeros games, fits comfortably in 64 bits
is_posint() {
	is_uint "$1" && [ ${#1} -le 12 ] && [ "$((10#$1))" -gt 0 ]
}

parse_opts() {
	local opt v
	OPTIND=1
	while getopts ":n:c:d:g:v:Vh" opt; do
		case $opt in
		n) N_LIST=$OPTARG ;;
		c) COUNT=$OPTARG ;;
		d) DURATION=$OPTARG ;;
		g) GATES=$OPTARG ;;
		v) VARIANTS=$OPTARG ;;
		V) VERBOSE=1 ;;
		h) usage; exit 0 ;;
		:) usage_die "option -$OPTARG needs an argument" ;;
		*) usage_die "unknown option -$OPTARG" ;;
		esac
	done
	shift $((OPTIND - 1))
	[ $# -eq 0 ] || usage_die "unexpected argument '$1'"

	[ -n "$N_LIST" ] || usage_die "empty -n"
	for v in ${N_LIST//,/ }; do
		is_posint "$v" || usage_die "bad N '$v': must be an integer > 0"
		if [ -n "${N_MAX:-}" ] && [ "$((10#$v))" -gt "$N_MAX" ]; then
			usage_die "N $v too large (max $N_MAX)"
		fi
	done
	case $N_LIST in *,,* | ,* | *,) usage_die "bad -n list '$N_LIST'" ;; esac
	if [ -n "$COUNT" ]; then
		is_posint "$COUNT" || usage_die "bad count '$COUNT': must be an integer > 0"
	fi
	[[ $DURATION =~ ^([0-9]{1,3})(\.([0-9]{1,3}))?$ ]] ||
		usage_die "bad duration '$DURATION'"
	v=${BASH_REMATCH[3]}000
	DURATION_MS=$((10#${BASH_REMATCH[1]} * 1000 + 10#${v:0:3}))
	if [ "$DURATION_MS" -le 0 ] || [ "$DURATION_MS" -gt 600000 ]; then
		usage_die "bad duration '$DURATION': must be > 0 and <= 600"
	fi
	# how long one pktgen run may take before it is stopped as hung
	if [ -z "${PG_TIMEOUT:-}" ]; then
		PG_TIMEOUT=$((30 + 20 * DURATION_MS / 1000))
		[ -n "$COUNT" ] && PG_TIMEOUT=600
	fi
	for v in ${GATES//,/ }; do
		case $v in on | off | auto | cur) ;; *) usage_die "bad gate '$v'" ;; esac
	done
	for v in ${VARIANTS//,/ }; do
		if [ -z "${ALL_VARIANTS:-}" ]; then
			[ "$v" = - ] || usage_die "this scenario has no variants"
			continue
		fi
		case ",$ALL_VARIANTS," in
		*,"$v",*) ;;
		*) usage_die "unknown variant '$v' (accepted: $ALL_VARIANTS)" ;;
		esac
	done
}

# ---- root, tools, cleanup ---------------------------------------------------

CLEANUPS=()
on_exit() {
	local i
	# in subshells: a cleanup that dies must neither stop the others nor
	# change the exit status
	for ((i = ${#CLEANUPS[@]} - 1; i >= 0; i--)); do
		(eval "${CLEANUPS[i]}") >/dev/null 2>&1
	done
}
add_cleanup() {
	CLEANUPS+=("$1")
}

preflight() {
	local t
	[ "$EUID" -eq 0 ] || die "must run as root"
	for t in ip "$@"; do
		command -v "$t" >/dev/null || die "required tool '$t' not found"
	done
	if [ ! -d "$PG_DIR" ] && command -v modprobe >/dev/null; then
		modprobe pktgen 2>/dev/null
	fi
	[ -d "$PG_DIR" ] || die "$PG_DIR missing (kernel without CONFIG_NET_PKTGEN?)"
	[ -w "$PG_DIR/pgctrl" ] || die "$PG_DIR/pgctrl not writable"
	trap on_exit EXIT
	trap 'exit 130' INT TERM
	add_cleanup "gate_restore"
	add_cleanup "pg_ctrl reset"
}

# make_dummy NAME: a fresh dummy device, up, removed on exit.  IPv6 is
# disabled on it first: otherwise MLD reports and router solicitations go
# out during the measurement and break the exact counter checks.
make_dummy() {
	local d=$1
	[ -e "/sys/class/net/$d" ] && ip link del "$d"
	ip link add "$d" type dummy || die "cannot create dummy device $d"
	add_cleanup "ip link del $d"
	quiet_dev "$d"
	ip link set "$d" up || die "cannot set $d up"
}

quiet_dev() {
	local f=/proc/sys/net/ipv6/conf/$1/disable_ipv6
	if [ -e "$f" ]; then
		echo 1 >"$f" || die "cannot disable IPv6 on $1"
	fi
}

# ipv6_dev DEV ADDR/PLEN: enable IPv6 on a device made by make_dummy, with
# no link-local address (addr_gen_mode none: so no router solicitations)
# and ADDR added without DAD (usable at once, no neighbour solicitations).
# Joining ADDR's solicited-node group still sends a couple of MLD reports;
# they leave on DEV's egress, which scenarios using this do not count.
ipv6_dev() {
	local d=/proc/sys/net/ipv6/conf/$1
	[ -d "$d" ] || die "no IPv6 in this kernel (no $d)"
	echo 1 >"$d/addr_gen_mode" || die "cannot set addr_gen_mode on $1"
	echo 0 >"$d/disable_ipv6" || die "cannot enable IPv6 on $1"
	ip -6 addr add "$2" dev "$1" nodad || die "cannot add $2 to $1"
}

# veth_pair A B: a fresh veth pair, both ends up and without IPv6, A
# removed (and with it B) on exit.
veth_pair() {
	local d
	[ -e "/sys/class/net/$1" ] && ip link del "$1"
	ip link add "$1" type veth peer name "$2" || die "cannot create veth pair $1/$2"
	add_cleanup "ip link del $1"
	for d in "$1" "$2"; do
		quiet_dev "$d"
		ip link set "$d" up || die "cannot set $d up"
	done
}

# qdisc_root DEV KIND: DEV's root qdisc, for the qdisc scenario and the
# census: pfifo_fast, fq_codel, or htb (one class, 1:1, the default, at
# 100gbit, far above what the guest sends, with an fq_codel leaf, 10:).
# DEV gets a txqueuelen of 1000 first: a dummy device has none.
qdisc_root() {
	local d=$1
	ip link set "$d" txqueuelen 1000 || die "cannot set the txqueuelen of $d"
	case $2 in
	pfifo_fast | fq_codel)
		tc qdisc replace dev "$d" root handle 1: "$2" ||
			die "cannot add $2 to $d"
		;;
	htb)
		tc -b - <<-EOF || die "cannot add htb with an fq_codel leaf to $d (CONFIG_NET_SCH_HTB?)"
		qdisc replace dev $d root handle 1: htb default 1
		class add dev $d parent 1: classid 1:1 htb rate 100gbit ceil 100gbit quantum 60000
		qdisc add dev $d parent 1:1 handle 10: fq_codel
		EOF
		;;
	*) die "qdisc_root: unknown kind '$2'" ;;
	esac
}

# forward_path: the guest as a router between two veth pairs, for packets
# sent on fwa to 198.18.2.2: fwa's peer fwb (198.18.1.2/24) receives them,
# and IPv4 forwarding (on; FWD_ORIG, restored on exit) sends them out of
# fwc (198.18.2.1/24) to fwd, a permanent neighbour, whose ingress drops
# them (tc) after fwd counted them.  fwa has no address, so the source
# 198.18.1.1 is not local.  Sets MAC to fwb's, the packets' destination.
forward_path() {
	local f=/proc/sys/net/ipv4/ip_forward
	veth_pair fwa fwb
	veth_pair fwc fwd
	ip addr add 198.18.1.2/24 dev fwb || die "cannot address fwb"
	ip addr add 198.18.2.1/24 dev fwc || die "cannot address fwc"
	dev_mac fwd
	ip neigh replace 198.18.2.2 lladdr "$MAC" dev fwc nud permanent ||
		die "cannot add the neighbour 198.18.2.2"
	read -r FWD_ORIG <"$f" || die "no $f"
	add_cleanup "echo $FWD_ORIG >$f"
	echo 1 >"$f" || die "cannot enable IPv4 forwarding"
	tc qdisc add dev fwd clsact || die "cannot add clsact to fwd"
	tc filter add dev fwd ingress pref 1 protocol all matchall action drop ||
		die "cannot add the drop filter on fwd"
	dev_mac fwb
}

# forward_path6: forward_path's router for IPv6 too (call it after
# forward_path), for packets sent on fwa to 2001:db8:2::2: fwc has a route
# to 2001:db8:2::/64 and 2001:db8:2::2 (fwd's MAC) as a permanent
# neighbour, and IPv6 forwarding is on (FWD6_ORIG, restored on exit and by
# forward_path_del).  fwb and fwc run IPv6 with no address at all
# (addr_gen_mode none) and without IFF_MULTICAST, so neither sends
# anything of its own: no router solicitation, and no MLD report for the
# all-routers group that forwarding joins, which fwd would count.  The
# source 2001:db8:1::1 is nobody's.
forward_path6() {
	local f=/proc/sys/net/ipv6/conf/all/forwarding d c
	[ -e "$f" ] || die "no IPv6 in this kernel (no $f)"
	read -r FWD6_ORIG <"$f" || die "cannot read $f"
	add_cleanup "echo $FWD6_ORIG >$f"
	echo 1 >"$f" || die "cannot enable IPv6 forwarding"
	for d in fwb fwc; do
		c=/proc/sys/net/ipv6/conf/$d
		ip link set "$d" multicast off || die "cannot turn multicast off on $d"
		echo 1 >"$c/addr_gen_mode" || die "cannot set addr_gen_mode on $d"
		echo 0 >"$c/disable_ipv6" || die "cannot enable IPv6 on $d"
	done
	ip -6 route replace 2001:db8:2::/64 dev fwc ||
		die "cannot add the route to 2001:db8:2::/64"
	dev_mac fwd
	ip -6 neigh replace 2001:db8:2::2 lladdr "$MAC" dev fwc nud permanent ||
		die "cannot add the neighbour 2001:db8:2::2"
	dev_mac fwb
}

# forward_family [ipv6]: the router's family, after forward_path: with
# ipv6 forward_path6 too.  Sets FWD_FAM (ip or ip6: forward_filter's
# family), FWD_DST and FWD_SRC, the addresses of the packets that
# forward_path's (or forward_path6's) route and neighbour forward.
forward_family() {
	FWD_FAM=ip FWD_DST=198.18.2.2 FWD_SRC=198.18.1.1
	if [ "${1:-}" = ipv6 ]; then
		FWD_FAM=ip6 FWD_DST=2001:db8:2::2 FWD_SRC=2001:db8:1::1
		forward_path6
	fi
}

# forward_path_del: undo forward_path and forward_path6 (their cleanups
# do it too, on exit): both veth pairs go, and IPv4 (and IPv6) forwarding
# get their values back.
forward_path_del() {
	ip link del fwa 2>/dev/null
	ip link del fwc 2>/dev/null
	echo "$FWD_ORIG" >/proc/sys/net/ipv4/ip_forward
	if [ -n "${FWD6_ORIG:-}" ]; then
		echo "$FWD6_ORIG" >/proc/sys/net/ipv6/conf/all/forwarding
		FWD6_ORIG=
	fi
}

# forward_filter TABLE [FAMILY]: what the forward scenario's router adds
# to forward_path: an nftables table TABLE of FAMILY (ip, the default, or
# ip6; removed on exit) with one base chain, "counted", on the forward
# hook and a counter rule that matches tracked packets, which loads
# conntrack for the table's family.
forward_filter() {
	local fam=${2:-ip}
	case $fam in ip | ip6) ;; *) die "forward_filter: bad family '$fam'" ;; esac
	nft delete table "$fam" "$1" 2>/dev/null
	nft -f - <<-NFT || die "cannot load the nftables forward chain ($fam)"
	table $fam $1 {
		chain counted {
			type filter hook forward priority 0; policy accept;
			ct state new,established counter
		}
	}
	NFT
	add_cleanup "nft delete table $fam $1"
}

# mod_unload MODULE [TRIES]: unload MODULE if it is a loaded module that
# nothing uses (a kind a scenario measured), so that the direct-call slot
# it took at load time is free for the next kind.  Filters and actions
# drop their module references after an RCU grace period, so it tries
# TRIES times (default 20), 0.1 s apart.  Returns 0 when MODULE is not
# (or no longer) a loaded module, as for a built-in kind; 1, with a
# warning, when it is still loaded.
mod_unload() {
	local rc i tries=${2:-20}
	for ((i = 0; i < tries; i++)); do
		[ -r "/sys/module/$1/refcnt" ] || return 0
		read -r rc <"/sys/module/$1/refcnt" || return 0
		if [ "$rc" = 0 ]; then
			rmmod "$1" 2>/dev/null && return 0
		fi
		sleep 0.1
	done
	warn "$1 is still loaded: its slot stays taken"
	return 1
}

# dev_mac DEV: sets MAC
dev_mac() {
	read -r MAC <"/sys/class/net/$1/address" || die "no MAC for $1"
}

# dev_stat DEV COUNTER: sets STAT
# tap_check WHAT CMD...: runs CMD and prints "ok - WHAT", or "not ok -
# WHAT" and counts the failure in nfail (the guest tests' result lines)
tap_check() {
	local what=$1
	shift
	if "$@"; then
		echo "ok - $what"
	else
		echo "not ok - $what"
		nfail=$((nfail + 1))
	fi
}
dev_stat() {
	read -r STAT <"/sys/class/net/$1/statistics/$2" || die "no $2 statistics for $1"
}

# file_has FILE PREFIX: sets LINE to the first line of FILE starting with
# PREFIX and LINE2 to the next one; false if there is none.
file_has() {
	local txt='' i
	LINE='' LINE2=''
	read -r -d '' txt <"$1"
	split_lines "$txt"
	for ((i = 0; i < ${#LINES[@]}; i++)); do
		if [[ ${LINES[i]} == "$2"* ]]; then
			LINE=${LINES[i]}
			LINE2=${LINES[i + 1]:-}
			return 0
		fi
	done
	return 1
}

# ---- pktgen -----------------------------------------------------------------

# pg_write FILE CMD...: write a command to a pktgen proc file and insist on
# "Result: OK" (device files) or a successful write (pgctrl, threads).
pg_write() {
	local name=$1 f=$PG_DIR/$1
	shift
	[ -e "$f" ] || die "pktgen: $f does not exist"
	[ "${DEBUG:-}" = yes ] && echo "cmd: $* > $f" >&2
	if [ "$name" = pgctrl ] && [ "$*" = start ]; then
		# A stack that drops queue_xmit packets makes pktgen retry forever;
		# SIGINT makes it stop all devices, and pg_run then reports the
		# shortfall.
		# shellcheck disable=SC2016
		timeout -s INT "$PG_TIMEOUT" sh -c 'echo start >"$1"' _ "$f"
		case $? in
		0) ;;
		124) die "pktgen did not finish within ${PG_TIMEOUT}s (stopped)" ;;
		*) die "pktgen: start failed" ;;
		esac
		return 0
	fi
	if ! echo "$*" >"$f" 2>/dev/null; then
		die "pktgen: write '$*' to $f failed"
	fi
	case $name in pgctrl | kpktgend_*) return 0 ;; esac
	file_has "$f" "Result:" || die "pktgen: no Result line in $f"
	case $LINE in
	"Result: OK"*) ;;
	*) die "pktgen: '$*' -> ${LINE#Result: }" ;;
	esac
}
pg_ctrl() { pg_write pgctrl "$@"; }
pg_thread() {
	local t=$1
	shift
	pg_write "kpktgend_$t" "$@"
}
pg_set() {
	local d=$1
	shift
	pg_write "$d" "$@"
}

# pg_device DEV MODE DST_MAC DST_IP SRC_IP UDP_DST [BURST]: bind DEV to the
# pktgen thread and configure a 64-byte UDP stream.
# MODE: queue_xmit | netif_receive.  IPv6 addresses (with a ':') make an
# IPv6 stream (dst6/src6) of at least PKT_SIZE6_MIN bytes: below that
# pktgen grows the payload to its 16-byte header anyway and logs
# "increased datalen" for every packet (ratelimited, still console noise).
PKT_SIZE6_MIN=78
pg_device() {
	local dev=$1 mode=$2 mac=$3 dst=$4 src=$5 port=$6 burst=${7:-1}
	local size=$PKT_SIZE
	[ -e "$PG_DIR/kpktgend_$PG_THREAD" ] ||
		die "pktgen thread kpktgend_$PG_THREAD missing"
	pg_ctrl reset
	pg_thread "$PG_THREAD" rem_device_all
	pg_thread "$PG_THREAD" add_device "$dev"
	[ -e "$PG_DIR/$dev" ] || die "pktgen: $dev not added to kpktgend_$PG_THREAD"
	pg_set "$dev" "xmit_mode $mode"
	pg_set "$dev" "count 1000"
	[[ $dst == *:* ]] && [ "$size" -lt "$PKT_SIZE6_MIN" ] && size=$PKT_SIZE6_MIN
	pg_set "$dev" "pkt_size $size"
	pg_set "$dev" "delay 0"
	pg_set "$dev" "flag NO_TIMESTAMP"
	pg_set "$dev" "dst_mac $mac"
	if [[ $dst == *:* ]]; then
		pg_set "$dev" "dst6 $dst"
		pg_set "$dev" "src6 $src"
	else
		pg_set "$dev" "dst_min $dst"
		pg_set "$dev" "dst_max $dst"
		pg_set "$dev" "src_min $src"
		pg_set "$dev" "src_max $src"
	fi
	pg_set "$dev" "udp_dst_min $port"
	pg_set "$dev" "udp_dst_max $port"
	[ "$burst" -gt 1 ] && pg_set "$dev" "burst $burst"
	PG_DEV=$dev
	PG_BURST=$burst
}

# pg_run COUNT: send COUNT packets on $PG_DEV and wait (with burst B, up to
# COUNT + B - 1: PG_PKTS is what was sent).  Sets PG_PKTS,
# PG_USEC, PG_PPS, PG_ERRORS from the "Result: OK: ..." block:
#   Result: OK: 172(c171+d0) usec, 1000 (60byte,0frags)
#     5813953pps 2790Mb/sec (2790697440bps) errors: 0
pg_run() {
	local n=$1
	pg_set "$PG_DEV" "count $n"
	PG_RUNS=$((PG_RUNS + 1))
	pg_ctrl start
	file_has "$PG_DIR/$PG_DEV" "Result:" || die "pktgen: no result for $PG_DEV"
	pg_parse "$LINE
$LINE2" || die "pktgen: cannot parse result: $LINE $LINE2"
	# with burst > 1 pktgen checks the count only between bursts
	if [ "$PG_PKTS" -lt "$n" ] || [ "$PG_PKTS" -ge $((n + ${PG_BURST:-1})) ]; then
		die "pktgen sent $PG_PKTS of $n packets (device down or interrupted?)"
	fi
}

# pg_parse TEXT: parse a pktgen result block (split for unit testing).
pg_parse() {
	local re1='^Result: OK: ([0-9]+)\(c[0-9]+\+d[0-9]+\) usec, ([0-9]+) \('
	local re2='^ *([0-9]+)pps [0-9]+Mb/sec \([0-9]+bps\) errors: ([0-9]+)'
	local l1 l2
	l1=${1%%$'\n'*}
	l2=${1#*$'\n'}
	l2=${l2%%$'\n'*}
	[[ $l1 =~ $re1 ]] || return 1
	PG_USEC=${BASH_REMATCH[1]}
	PG_PKTS=${BASH_REMATCH[2]}
	[[ $l2 =~ $re2 ]] || return 1
	PG_PPS=${BASH_REMATCH[1]}
	PG_ERRORS=${BASH_REMATCH[2]}
	[ "$PG_USEC" -gt 0 ] && [ "$PG_PPS" -gt 0 ]
}

# calibrate BASE: set MEAS_COUNT, the packet count for the next measurement.
# -c COUNT wins; otherwise a warm-up of about a fifteenth of -d seconds at
# BASE pps (at least 5000 packets) warms caches and measures the rate, and
# the count is rate * -d seconds.
calibrate() {
	local base=$1 warm
	if [ -n "$COUNT" ]; then
		warm=$((COUNT / 10))
		[ "$warm" -lt 1000 ] && warm=1000
		pg_run "$warm"
		MEAS_COUNT=$COUNT
		return
	fi
	warm=$((base * DURATION_MS / 15000))
	[ "$warm" -lt 5000 ] && warm=5000
	pg_run "$warm"
	MEAS_COUNT=$((PG_PPS * DURATION_MS / 1000))
	[ "$MEAS_COUNT" -lt 10000 ] && MEAS_COUNT=10000
	[ "$MEAS_COUNT" -gt "$MAX_COUNT" ] && MEAS_COUNT=$MAX_COUNT
	return 0
}

# ---- gate -------------------------------------------------------------------

GATE_ORIG=
gate_present() {
	[ -e "$GATE_KNOB" ]
}
gate_restore() {
	[ -n "$GATE_ORIG" ] && echo "$GATE_ORIG" >"$GATE_KNOB"
	return 0
}
gate_read() {
	local v
	read -r v <"$GATE_KNOB" || die "cannot read $GATE_KNOB"
	echo "$v"
}

# gate_init: set GATE_SEQ, the gate settings to measure.  Settings that
# cannot be applied (no knob) are reported on stdout as SKIP lines.
GATE_SEQ=()
gate_init() {
	local g
	GATE_SEQ=()
	if ! gate_present; then
		for g in ${GATES//,/ }; do
			case $g in
			off | on | auto)
				echo "SKIP v=1 scenario=$SCEN gate=$g reason=no-gate-knob"
				;;
			esac
		done
		GATE_SEQ=(none)
		return
	fi
	[ -n "$GATES" ] || GATES=cur
	for g in ${GATES//,/ }; do
		GATE_SEQ+=("$g")
	done
}

# gate_set SETTING: apply a gate setting; sets GATE, the label to record.
gate_set() {
	local g=$1 v
	case $g in
	none) GATE=none; return ;;
	cur) v=$(gate_read) || exit 1; GATE=${v:-none}; return ;;
	esac
	[ -n "$GATE_ORIG" ] || { GATE_ORIG=$(gate_read) || exit 1; }
	echo "$g" >"$GATE_KNOB" 2>/dev/null || die "cannot write '$g' to $GATE_KNOB"
	v=$(gate_read) || exit 1
	[ "$v" = "$g" ] || die "gate knob $GATE_KNOB reads '$v' after writing '$g'"
	GATE=$g
}

# ---- results ----------------------------------------------------------------

# result VARIANT N GATE: print the RESULT line for the last pg_run; t= is
# MEAS_END, the Unix time (seconds) at which that measurement ended.
result() {
	echo "RESULT v=1 scenario=$SCEN variant=$1 n=$2 gate=$3 pkts=$PG_PKTS usec=$PG_USEC pps=$PG_PPS errors=$PG_ERRORS t=$MEAS_END"
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || die "$1: got $2, expected $3"
}

# backlog_drops: set BL to the packets dropped at a full per-CPU backlog
# (netdev_max_backlog) since boot, all CPUs: /proc/net/softnet_stat's
# second column, in hex ($SOFTNET_STAT overrides the file for the tests).
# Empty when the file cannot be read.
backlog_drops() {
	local l w sum=0
	BL=
	mapfile -t l 2>/dev/null <"${SOFTNET_STAT:-/proc/net/softnet_stat}" || return 0
	[ ${#l[@]} -gt 0 ] || return 0
	for w in "${l[@]}"; do
		# the second word (no here-string: a pipe, read a byte at a time)
		w=${w#"${w%%[! ]*}"}
		w=${w#*[ ]}
		w=${w%%[ ]*}
		[[ $w =~ ^[0-9a-fA-F]{1,8}$ ]] || return 0
		sum=$((sum + 16#$w))
	done
	BL=$sum
}

# expect_no_pg_errors: die unless the warm-up and the measurement had no
# pktgen error (CHECK_ERRORS).  A queue_xmit pktgen counts an error for each
# packet the device refused; for a veth that is mostly a full backlog on the
# receiving side (the receive softirq fell behind, e.g. deferred to
# ksoftirqd), which the error line says with the backlog's own count.
expect_no_pg_errors() {
	[ "$CHECK_ERRORS" -ne 0 ] || return 0
	die "pktgen errors: got $CHECK_ERRORS, expected 0 (packets dropped at a full backlog meanwhile: ${BACKLOG_DROPS:-unknown})"
}

# split_lines TEXT: sets the array LINES to the lines of TEXT (empty lines
# dropped).  In memory: "while read ... <<<" reads a here-string from a pipe
# one byte per system call, which costs seconds on UML.
split_lines() {
	local IFS=$'\n'
	set -f
	# shellcheck disable=SC2206
	LINES=($1)
	set +f
}

# nlines TEXT: sets NL to the number of non-empty lines
nlines() {
	split_lines "$1"
	NL=${#LINES[@]}
}

# kv_load NAME TEXT: fill the associative array NAME from "key value" lines
kv_load() {
	local -n kv=$1
	local l
	split_lines "$2"
	for l in "${LINES[@]}"; do
		# shellcheck disable=SC2034
		kv[${l%% *}]=${l#* }
	done
}

# snap_delta KEY BEFORE AFTER: sets DELTA to the difference of the values of
# "KEY value" lines in two snapshots; dies if KEY is missing.
snap_delta() {
	local -A sb=() sa=()
	kv_load sb "$2"
	kv_load sa "$3"
	if [ -z "${sb[$1]:-}" ] || [ -z "${sa[$1]:-}" ]; then
		die "snapshot lacks $1"
	fi
	DELTA=$((sa[$1] - sb[$1]))
}

# tc_dump DEV GLOB: one "tc -s filter show dev DEV egress" (execs are slow
# on UML); sets CNT to the number of lines matching GLOB, PREFS to the number
# of distinct prefs, and TCA to "KIND:index packets" lines, one per action
# bound to those filters:
#	filter protocol all pref 1 matchall chain 0 handle 0x1
#	  not_in_hw
#		action order 1: gact action continue
#		 random type none pass val 0
#		 index 3 ref 1 bind 1 installed 2 sec used 0 sec
#		Action statistics:
#		Sent 420 bytes 7 pkt (dropped 0, overlimits 0 requeues 0)
tc_dump() {
	local out l w i kind='' idx=''
	local -A prefs=()
	out=$(tc -s filter show dev "$1" egress) || die "tc filter show dev $1 egress failed"
	split_lines "$out"
	CNT=0 TCA=''
	for l in "${LINES[@]}"; do
		# shellcheck disable=SC2053
		[[ $l == $2 ]] && CNT=$((CNT + 1))
		# shellcheck disable=SC2206
		w=($l)
		case ${w[0]} in
		filter)
			for ((i = 1; i < ${#w[@]} - 1; i++)); do
				[ "${w[i]}" = pref ] && prefs[${w[i + 1]}]=1
			done
			;;
		action)
			# "action order N: KIND ..."; police prints its index
			# there ("police 0x1 rate ..."), not on an "index" line
			if [ "${w[1]}" = order ]; then
				kind=${w[3]} idx=''
				[[ $kind == police && ${w[4]:-} =~ ^0x[0-9a-f]+$ ]] && idx=$((w[4]))
			fi
			;;
		index)
			idx=${w[1]}
			;;
		Sent)
			if [ -n "$kind" ] && [ -n "$idx" ] && [ "${w[2]}" = bytes ]; then
				TCA+="$kind:$idx ${w[3]}"$'\n'
				idx=''
			fi
			;;
		esac
	done
	PREFS=${#prefs[@]}
}

# tc_kinds: sets KINDS_SEEN to "kind count ..." of the actions in TCA, sorted
tc_kinds() {
	local l k
	local -A c=()
	split_lines "$TCA"
	for l in "${LINES[@]}"; do
		k=${l%%:*}
		c[$k]=$((${c[$k]:-0} + 1))
	done
	KINDS_SEEN=
	for k in $(printf '%s\n' "${!c[@]}" | sort); do
		KINDS_SEEN+="$k ${c[$k]} "
	done
	KINDS_SEEN=${KINDS_SEEN% }
}

# tc_keys: sets KEYS to the "KIND:index" keys in TCA
tc_keys() {
	local l
	split_lines "$TCA"
	KEYS=
	for l in "${LINES[@]}"; do
		KEYS+="${l%% *} "
	done
}

# tc_action_check "KEY..." BEFORE AFTER WANT: every action listed (keys
# from tc_keys) must have counted exactly WANT packets between the two
# snapshots BEFORE and AFTER (TCA-style lines; other lines ignored).
tc_action_check() {
	local keys=$1 want=$4 k
	local -A b=() a=()
	[ -n "$keys" ] || die "no actions to check"
	kv_load b "$2"
	kv_load a "$3"
	for k in $keys; do
		if [ -z "${a[$k]:-}" ] || [ -z "${b[$k]:-}" ]; then
			die "action $k disappeared"
		fi
		[ $((a[$k] - b[$k])) -eq "$want" ] ||
			die "action $k counted $((a[$k] - b[$k])) packets, expected $want"
	done
}

# ---- driver -----------------------------------------------------------------

# progress STEP VARIANT N [KEY=VALUE...]: one PROGRESS line on stdout before
# a step that may take a while (setup, warm-up, measurement, teardown), so
# that the host's watchdog (scripts/run-guest.sh --idle-timeout) sees a
# healthy guest print something every few seconds.  Not a result: bench.sh
# and guest-run.sh only log it.
progress() {
	local step=$1 v=$2 n=$3
	shift 3
	echo "PROGRESS v=1 scenario=$SCEN variant=$v n=$n step=$step${*:+ $*}"
}

# run_scenario: the measurement loop.  The scenario defines
#	s_setup V N      build the configuration and verify it is in place
#	s_rate V N       set RATE, a rough expected pps (sizes the warm-up)
#	s_snap           set SNAP to a counter snapshot (text)
#	s_check V N BEFORE AFTER
#	                 die unless the counters moved by exactly what the
#	                 warm-up and the measurement sent together (CHECK_PKTS,
#	                 CHECK_ERRORS; PG_PKTS, PG_ERRORS: the measurement alone;
#	                 BACKLOG_DROPS: the backlog drops meanwhile, for
#	                 expect_no_pg_errors)
#	s_teardown V N   undo s_setup
# For each N and variant: set up once, then for each gate setting: snapshot,
# warm up (and calibrate), measure, snapshot, check, print RESULT.  (One
# snapshot pair per measurement: each costs a tc or nft run.)  A PROGRESS
# line goes out before the setup, each warm-up, each measurement and the
# teardown.
run_scenario() {
	local n v g before after warm_pkts warm_errors bl0
	# tests/guest/thunks.sh -k sources a scenario for its s_setup and
	# s_teardown, and measures on its own
	[ -z "${SCEN_DEFINE_ONLY:-}" ] || return 0
	gate_init
	for n in ${N_LIST//,/ }; do
		n=$((10#$n))
		for v in ${VARIANTS//,/ }; do
			note "setup variant=$v n=$n"
			progress setup "$v" "$n"
			s_setup "$v" "$n"
			for g in "${GATE_SEQ[@]}"; do
				gate_set "$g"
				progress warm-up "$v" "$n" "gate=$GATE"
				s_snap
				before=$SNAP
				backlog_drops
				bl0=$BL
				note "warm-up gate=$GATE"
				s_rate "$v" "$n"
				calibrate "$RATE"
				warm_pkts=$PG_PKTS warm_errors=$PG_ERRORS
				note "measure $MEAS_COUNT packets"
				progress measure "$v" "$n" "gate=$GATE" "pkts=$MEAS_COUNT"
				pg_run "$MEAS_COUNT"
				MEAS_END=${EPOCHSECONDS:?}
				backlog_drops
				BACKLOG_DROPS=
				[ -z "$BL" ] || [ -z "$bl0" ] || BACKLOG_DROPS=$((BL - bl0))
				s_snap
				after=$SNAP
				CHECK_PKTS=$((warm_pkts + PG_PKTS))
				CHECK_ERRORS=$((warm_errors + PG_ERRORS))
				s_check "$v" "$n" "$before" "$after"
				note "checked"
				result "$v" "$n" "$GATE"
			done
			progress teardown "$v" "$n"
			s_teardown "$v" "$n"
		done
	done
}

# Test hook: bench/tests/mock-pktgen.sh replaces pktgen (and dummy devices)
# with AF_PACKET senders on veth pairs, to test scenarios without pktgen.
if [ -n "${BENCH_PKTGEN_MOCK:-}" ]; then
	# shellcheck source=/dev/null
	. "$BENCH_PKTGEN_MOCK"
fi
