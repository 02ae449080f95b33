#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh [--upstream|--srso] [bench/bench.sh options]: install what is missing,
# build the UML kernels (cached), then run the pktgen A/B benchmark.
# Options are passed to bench/bench.sh (--quick, --rounds R, ...).
#
# By default (make bench) that is six kernels: base, patched and limit
# with tc built in, and base-mod, patched-mod and limit-mod (um-base-mod,
# um-patched-mod, um-limit-mod: the scenarios' tc classifiers and actions
# built as modules, as distributions build them,
# configs/tc-modular.config).  All six have UML static calls and jump
# labels (test patches 0005 and 0007), the patched ones' static calls
# inline as x86's (6.1's 0013 and 6.12's 0012).  The modular ones run
# the tc scenarios, forward and qdisc only, and alone the per-kind ones
# (tc-cls, tc-act: each classifier and action kind alone, as Debian
# builds them, as modules).
# The report's second table gives the modular kernels' tax recovered
# against limit-mod.
#
# BASE=6.12 does the same for the 6.12 series, whose base kernels are
# upstream 6.12 with its own tc wrapper; there it runs the tc scenarios,
# forward, qdisc and nft-set, as its series has tc, the whole path and
# the nf_tables gate but not the egress change (egress-bpf), and
# upstream 6.12 already inlines UDP's compute_score (udp-lookup).
#
# --upstream (make bench-upstream) builds um-upstream and um-upstream-limit
# (upstream 6.12 with its own tc wrapper, with and without retpolines) and
# measures them, as kernels "upstream" and "upstream-limit", beside base,
# patched and limit (a later --kernels wins).
#
# --srso (make bench-srso) builds um-base-srso and um-patched-srso (base and
# patched with retpolines and SRSO safe RET, test patch 0004) and measures
# them as kernels "base-srso" and "patched-srso" beside base, patched and
# limit: the report's second table gives their tax recovered against limit.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernels=(um-base um-patched um-limit)
case ${1:-} in
--upstream)
	[ "$KVER" = "$THUNKLESS_DEFAULT_BASE" ] ||
		die "--upstream compares the $THUNKLESS_DEFAULT_BASE series with upstream $UPSTREAM_KVER's wrapper; with BASE=$KVER, make bench's base kernel is that base"
	shift
	kernels+=(um-upstream um-upstream-limit)
	extra=(--kernels "base,patched,limit,upstream=$BUILD/out/um-upstream/linux,upstream-limit=$BUILD/out/um-upstream-limit/linux")
	;;
--srso)
	shift
	kernels+=(um-base-srso um-patched-srso)
	extra=(--kernels "base,patched,limit,base-srso=$BUILD/out/um-base-srso/linux,patched-srso=$BUILD/out/um-patched-srso/linux")
	;;
*)
	kernels+=(um-base-mod um-patched-mod um-limit-mod)
	case $KVER in
	6.1)
		bi=@tc-matchall+tc-mixed+nft-set+udp-lookup+egress-bpf+forward+qdisc
		tc=@tc-matchall+tc-mixed+forward+qdisc+tc-cls+tc-act
		;;
	*)
		# What the 6.12 series changes: tc, the whole path and the
		# nf_tables gate.  Its base is upstream's own wrapper.
		bi=@tc-matchall+tc-mixed+nft-set+forward+qdisc
		tc=@tc-matchall+tc-mixed+forward+qdisc+tc-cls+tc-act
		;;
	esac
	extra=(--kernels "base$bi,patched$bi,limit$bi,base-mod=$BUILD/out/um-base-mod/linux$tc,patched-mod=$BUILD/out/um-patched-mod/linux$tc,limit-mod=$BUILD/out/um-limit-mod/linux$tc")
	;;
esac
"$TOP/scripts/deps.sh" build bench uml
"$TOP/scripts/tree.sh"
for k in "${kernels[@]}"; do
	"$TOP/scripts/build.sh" "$k" >/dev/null
done
make -s -C "$TOP/bench" report >/dev/null || die "building the report tool failed"
exec "$TOP/bench/bench.sh" "${extra[@]}" "$@"
