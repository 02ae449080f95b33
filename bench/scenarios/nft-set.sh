#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# nft-set: a netdev ingress chain on a dummy device doing one set lookup per
# packet, "<key> @s counter drop", for each set backend; packets
# injected with pktgen xmit_mode netif_receive (burst $NR_BURST), 64-byte UDP.
# Shaped on the performance mode of
# tools/testing/selftests/netfilter/nft_concat_range.sh: N elements, the
# stream always hits one of them.
#
#   bench/scenarios/nft-set.sh [-n N[,N..]] [-v VARIANTS] [-c COUNT] [-d SECONDS] [-g GATES]
#
# Variants (the backend is chosen by the kernel from the set type; on 6.1
# with the default "performance" policy these choices are deterministic):
#   hash    type ipv4_addr . inet_service, no size      -> nft_rhash
#   rbtree  type ipv4_addr, flags interval              -> nft_rbtree
#   bitmap  type inet_service                           -> nft_bitmap
#   pipapo  type ipv4_addr . inet_service, interval     -> nft_pipapo
#           (nft_pipapo_avx2 on x86-64 bare metal/KVM with AVX2, not UML)
#
# Checks: the set holds N elements; a probe to a key outside the set is not
# counted and a probe to the measured key is; during the measurement the
# counter moved by exactly the packets sent and pktgen counted every packet
# as dropped (errors == pkts, the chain drops them).
HERE=${0%/*}
[ "$HERE" != "$0" ] || HERE=.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

N_LIST=1000
VARIANTS=hash,rbtree,bitmap,pipapo
ALL_VARIANTS=hash,rbtree,bitmap,pipapo
N_MAX=60000
NR_BURST=${NR_BURST:-256}
parse_opts "$@"
preflight nft

TABLE=tlbench

ip4() { # ip4 I: 10.0.0.0 + I
	local i=$1
	echo "10.$(((i >> 16) & 255)).$(((i >> 8) & 255)).$((i & 255))"
}

# elements V N: the element list, one per line, generated in one awk
# process (forks are slow on UML).  Element I covers the keys that
# elements_vars derives for M = I.
elements() {
	awk -v v="$1" -v n="$2" '
	function ip4(i) { return sprintf("10.%d.%d.%d", int(i / 65536) % 256, int(i / 256) % 256, i % 256) }
	BEGIN {
		for (i = 0; i < n; i++) {
			if (v == "hash")
				print ip4(i) " . " 1024 + i % 50000 ","
			else if (v == "rbtree")
				print ip4(4 * i) "-" ip4(4 * i + 2) ","
			else if (v == "bitmap")
				print 2 + 2 * i ","
			else if (v == "pipapo")
				print ip4(4 * i) "-" ip4(4 * i + 2) " . " \
					1024 + 10 * (i % 5000) "-" 1024 + 10 * (i % 5000) + 4 ","
		}
	}'
}

set_decl() {
	case $1 in
	hash) echo "type ipv4_addr . inet_service" ;;
	rbtree) echo "type ipv4_addr; flags interval" ;;
	bitmap) echo "type inet_service" ;;
	pipapo) echo "type ipv4_addr . inet_service; flags interval" ;;
	esac
}

set_key() {
	case $1 in
	hash | pipapo) echo "ip daddr . udp dport" ;;
	rbtree) echo "ip daddr" ;;
	bitmap) echo "udp dport" ;;
	esac
}

# hits: sets HITS to the packets of the rule's counter (an anonymous counter:
# named ones need CONFIG_NFT_OBJREF, which the test kernels lack)
hits() {
	local out
	out=$(nft list chain netdev "$TABLE" c) || die "nft list chain failed"
	hits_parse "$out"
}

# hits_parse TEXT: sets HITS from "... @s counter packets 7 bytes 420 drop";
# HITS_RUN records which pktgen run it is current for (s_snap reuses it).
hits_parse() {
	local w i
	HITS=
	# shellcheck disable=SC2206
	w=($1)
	for ((i = 0; i < ${#w[@]} - 2; i++)); do
		[ "${w[i]}" = counter ] && [ "${w[i + 1]}" = packets ] && HITS=${w[i + 2]}
	done
	[ -n "$HITS" ] || die "no counter in chain c: $1"
	HITS_RUN=$PG_RUNS
}

# aim IP PORT: point the pktgen stream at IP:PORT
aim() {
	pg_set "$PG_DEV" "dst_min $1"
	pg_set "$PG_DEV" "dst_max $1"
	pg_set "$PG_DEV" "udp_dst_min $2"
	pg_set "$PG_DEV" "udp_dst_max $2"
}

s_setup() {
	local v=$1 n=$2 f out elems h0 miss
	[ "$v" != bitmap ] || [ "$n" -le 32000 ] || die "bitmap: N must be <= 32000"
	make_dummy "$DEV"
	add_cleanup "nft delete table netdev $TABLE"
	f=/tmp/tlbench.$$.nft
	add_cleanup "rm -f $f"
	{
		# replace any earlier table in the same transaction
		echo "table netdev $TABLE {}"
		echo "delete table netdev $TABLE"
		echo "table netdev $TABLE {"
		echo "  set s { $(set_decl "$v"); elements = {"
		elements "$v" "$n"
		echo "  } }"
		echo "  chain c { type filter hook ingress device \"$DEV\" priority 0; policy accept;"
		echo "    $(set_key "$v") @s counter drop; }"
		echo "}"
	} >"$f"
	elements_vars "$v" "$n"
	nft -f "$f" || die "nft: loading the $v set with $n elements failed"
	# one listing (nft runs are slow on UML) for the set and the counter
	out=$(nft list table netdev "$TABLE") || die "nft list table failed"
	# elements = { a, b, ... }: elements never contain commas
	case $out in *"elements = {"*) ;; *) die "the $v set has no elements" ;; esac
	elems=${out#*elements = \{}
	elems=${elems%%\}*}
	elems=${elems//[!,]/}
	expect_eq "elements in the $v set" $((${#elems} + 1)) "$n"
	hits_parse "${out#*chain c}"
	h0=$HITS
	dev_mac "$DEV"
	pg_device "$DEV" netif_receive "$MAC" "$KEY_IP" 198.18.0.1 "$KEY_PORT" "$NR_BURST"
	# Probes, one counter read for both: ~1000 packets to a key outside the
	# set, then ~3000 to the measured key; the counter must have moved by
	# exactly the second number (a matching miss or a missing hit shows).
	aim "$MISS_IP" "$MISS_PORT"
	pg_run 1000
	miss=$PG_PKTS
	aim "$KEY_IP" "$KEY_PORT"
	pg_run 3000
	hits
	if [ $((HITS - h0)) -ne "$PG_PKTS" ]; then
		die "probe: counted $((HITS - h0)) packets; expected $PG_PKTS to $KEY_IP:$KEY_PORT (in set) and none of $miss to $MISS_IP:$MISS_PORT (not in set)"
	fi
	expect_eq "probe: pktgen drops" "$PG_ERRORS" "$PG_PKTS"
}

# elements_vars V N: set KEY_IP/KEY_PORT to a key inside element N/2 and
# MISS_IP/MISS_PORT to one outside every element.
elements_vars() {
	local m=$(($2 / 2))
	case $1 in
	hash)
		KEY_IP=$(ip4 "$m") KEY_PORT=$((1024 + m % 50000))
		MISS_IP=$(ip4 "$m") MISS_PORT=$((1024 + (m + 1) % 50000)) ;;
	rbtree)
		KEY_IP=$(ip4 $((4 * m + 1))) KEY_PORT=9
		MISS_IP=$(ip4 $((4 * m + 3))) MISS_PORT=9 ;;
	bitmap)
		KEY_IP=198.18.0.42 KEY_PORT=$((2 + 2 * m))
		MISS_IP=198.18.0.42 MISS_PORT=$((3 + 2 * m)) ;;
	pipapo)
		KEY_IP=$(ip4 $((4 * m + 1))) KEY_PORT=$((1024 + 10 * (m % 5000) + 2))
		MISS_IP=$(ip4 $((4 * m + 1))) MISS_PORT=$((1024 + 10 * (m % 5000) + 6)) ;;
	esac
}

s_rate() {
	RATE=3000000
}

s_snap() {
	[ "$HITS_RUN" = "$PG_RUNS" ] || hits
	SNAP="hits $HITS"
}

s_check() {
	local b=$3 a=$4
	snap_delta hits "$b" "$a"
	expect_eq "nft counter delta" "$DELTA" "$CHECK_PKTS"
	expect_eq "pktgen drops (errors)" "$CHECK_ERRORS" "$CHECK_PKTS"
}

s_teardown() {
	# the table goes with the next setup's transaction or at exit
	ip link del "$DEV" 2>/dev/null
	return 0
}

run_scenario
