#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh [--upstream|--srso|--modules] [bench/bench.sh options]: install what is missing,
# build the three UML kernels (base, patched, limit; cached), then run the
# pktgen A/B benchmark.  Options are passed to bench/bench.sh (--quick,
# --rounds R, ...).
#
# --upstream (make bench-upstream) also builds um-upstream and
# um-upstream-limit (upstream 6.12 with its own tc wrapper, with and without
# retpolines; cached) and measures them too, as kernels "upstream" and
# "upstream-limit", ahead of the options given (a later --kernels wins).
#
# --srso (make bench-srso) also builds um-base-srso and um-patched-srso
# (base and patched with retpolines and SRSO safe RET, test patch 0004;
# cached) and measures them too, as kernels "base-srso" and "patched-srso":
# the report's second table gives their tax recovered against limit.
#
# --modules (make bench-modules) also builds um-base-mod and um-patched-mod
# (base and patched with the scenarios' tc classifiers and actions built as
# modules, configs/tc-modular.config, and UML static calls, test patch
# 0005; cached) and measures them too, as kernels "base-mod" and
# "patched-mod": the report's second table gives their tax recovered against
# the built-in limit.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernels=(um-base um-patched um-limit)
extra=()
case ${1:-} in
--upstream)
	shift
	kernels+=(um-upstream um-upstream-limit)
	extra=(--kernels "base,patched,limit,upstream=$BUILD/out/um-upstream/linux,upstream-limit=$BUILD/out/um-upstream-limit/linux")
	;;
--srso)
	shift
	kernels+=(um-base-srso um-patched-srso)
	extra=(--kernels "base,patched,limit,base-srso=$BUILD/out/um-base-srso/linux,patched-srso=$BUILD/out/um-patched-srso/linux")
	;;
--modules)
	shift
	kernels+=(um-base-mod um-patched-mod)
	extra=(--kernels "base,patched,limit,base-mod=$BUILD/out/um-base-mod/linux,patched-mod=$BUILD/out/um-patched-mod/linux")
	;;
esac
"$TOP/scripts/deps.sh" build bench uml
"$TOP/scripts/tree.sh"
for k in "${kernels[@]}"; do
	"$TOP/scripts/build.sh" "$k" >/dev/null
done
make -s -C "$TOP/bench" report >/dev/null || die "building the report tool failed"
exec "$TOP/bench/bench.sh" "${extra[@]}" "$@"
