#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs inside a UML guest whose tc classifiers and actions are modules
# (configs/tc-modular.config): N "matchall action gact continue" filters
# on a dummy device, as tc-matchall, then what reaches them.
#
#   slots.sh -e slots|indirect [-n N] [-c COUNT]
#
#   -e slots     the series' kernel (um-patched-mod, um-census-mod), gate
#                on: cls_matchall and act_gact are modules, and
#                /sys/kernel/debug/net_direct_calls lists mall_classify and
#                tcf_gact_act in tc's slots; on the census kernel, no thunk
#                entered from tc's classify and act call sites
#   -e indirect  a kernel without the series (um-base-mod,
#                um-census-base-mod): the modules are loaded; on the census
#                kernel, one thunk per filter and one per action, from tc
#   -n N         filters (default 10)
#   -c COUNT     packets counted by the census (default 200000)
# Prints "ok - ..." / "not ok - ..." lines; exit 1 on a failed check, 2 on
# bad arguments.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
# shellcheck source=../../bench/scenarios/lib.sh
. "$TOP/bench/scenarios/lib.sh"
SCEN=slots
# shellcheck disable=SC2034 # for bench/scenarios/lib.sh
PG_TIMEOUT=120
SLOTS=/sys/kernel/debug/net_direct_calls
CENSUS=/proc/thunk_census
TC_SITES='^(__tcf_classify|tcf_classify|tcf_action_exec)(\.[a-z]+\.[0-9]+)?\+'
DST_MAC=02:00:00:00:00:02
expect='' n=10 count=200000 nfail=0

bad() {
	echo "$SCEN: error: $*" >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	-e | -n | -c) [ $# -ge 2 ] || bad "$1 needs an argument" ;;
	*) bad "unknown argument '$1'" ;;
	esac
	case $1 in
	-e) expect=$2 ;;
	-n) n=$2 ;;
	-c) count=$2 ;;
	esac
	shift 2
done
case $expect in
slots | indirect) ;;
'') bad "-e slots|indirect is required" ;;
*) bad "bad -e '$expect': slots or indirect" ;;
esac
is_posint "$n" || bad "bad -n '$n': must be an integer > 0"
is_posint "$count" || bad "bad -c '$count': must be an integer > 0"

check() { tap_check "$@"; } # check WHAT COND...

preflight tc
if [ "$expect" = slots ]; then
	gate_present || die "no $GATE_KNOB: the kernel lacks the series' gate"
	gate_set on
fi
make_dummy "$DEV"
tc qdisc add dev "$DEV" clsact || die "cannot add clsact to $DEV"
for ((i = 1; i <= n; i++)); do
	echo "filter add dev $DEV egress pref $i protocol all matchall action gact continue"
done | tc -b - || die "adding $n matchall filters failed"
pg_device "$DEV" queue_xmit "$DST_MAC" 198.18.0.2 198.18.0.1 9

mods=$(awk '$1 == "cls_matchall" || $1 == "act_gact" { print $1 }' /proc/modules | sort | paste -sd' ' -)
echo "# modules: $mods"
check "cls_matchall and act_gact are loaded modules" [ "$mods" = "act_gact cls_matchall" ]
if [ "$expect" = slots ]; then
	[ -r "$SLOTS" ] || die "no $SLOTS (CONFIG_NET_DIRECT_CALL_SLOTS and debugfs needed)"
	sed 's/^/# /' "$SLOTS"
	check "mall_classify is in a tc classify slot" grep -Eq '^tc_classify [0-9]+ [0-9]+ mall_classify( |$)' "$SLOTS"
	check "tcf_gact_act is in a tc act slot" grep -Eq '^tc_act [0-9]+ [0-9]+ tcf_gact_act( |$)' "$SLOTS"
else
	check "no slots without the series" [ ! -e "$SLOTS" ]
fi

if [ -w "$CENSUS" ]; then
	pg_run $((count / 10))
	pg_set "$DEV" "count $count"
	dev_stat "$DEV" tx_packets
	tx0=$STAT
	echo reset >"$CENSUS"
	echo start >"$PG_DIR/pgctrl"
	echo stop >"$CENSUS"
	dev_stat "$DEV" tx_packets
	tx1=$STAT
	expect_eq "$DEV tx_packets delta" $((tx1 - tx0)) "$count"
	tc=0
	while read -r c site target; do
		case $c in '#'*) continue ;; esac
		if [[ $site =~ $TC_SITES ]]; then
			tc=$((tc + c))
			[ $((c * 100)) -ge "$count" ] && echo "#   $((c * 1000 / count))/1000 per packet  ${site%%/*} -> ${target%%+*}"
		fi
	done <"$CENSUS"
	per=$((tc * 1000 / count))
	echo "# census: $count packets, $((per / 1000)).$(printf '%03d' $((per % 1000))) thunk entries per packet from tc's call sites"
	if [ "$expect" = slots ]; then
		check "census: no thunk from tc's call sites (x1000: $per)" [ "$per" -lt 10 ]
	else
		want=$((2 * n * 1000))
		check "census: $((2 * n)) thunks per packet from tc's call sites (x1000: $per)" \
			test "$per" -ge $((want * 99 / 100)) -a "$per" -le $((want * 101 / 100))
	fi
fi
[ $nfail -eq 0 ] || die "$nfail checks failed"
echo "slots: $expect as expected"
