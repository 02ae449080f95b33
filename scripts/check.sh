#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check.sh [--long] [--only REGEX]: apply and prove the series.  One line
# per test, "ok"/"not ok"/"skip" with its wall time, logs in build/check/,
# and a closing line "N passed, N failed, N skipped".  Exit 1 on any failure.
set -uo pipefail
. "$(dirname "$0")/lib.sh"
prog=check

only=. long=0
while [ $# -gt 0 ]; do
	case $1 in
	--only) [ $# -ge 2 ] || die "--only needs a regular expression"; only=$2; shift 2 ;;
	--long) long=1; shift ;;
	*) die "unknown option '$1'" ;;
	esac
done

LOGS=$BUILD/check
rm -rf "$LOGS"
mkdir -p "$LOGS"
npass=0 nfail=0 nskip=0 n=0
T0=$(date +%s)
declare -A STATUS

# run NAME CMD...: one test.  Exit 0 passes, 4 skips, anything else fails;
# the last line of the output is the reason shown.
run() {
	local name=$1 rc t s reason
	shift
	[[ $name =~ $only ]] || return 0
	n=$((n + 1))
	t=$(date +%s)
	"$@" >"$LOGS/$name.log" 2>&1 </dev/null
	rc=$?
	s=$(($(date +%s) - t))
	reason=$(grep -v '^\s*$' "$LOGS/$name.log" | tail -n1 | cut -c1-200)
	case $rc in
	0) npass=$((npass + 1)); STATUS[$name]=ok; echo "ok $n - $name (${s}s)" ;;
	4) nskip=$((nskip + 1)); STATUS[$name]=skip; echo "ok $n - $name # SKIP ${reason} (${s}s)" ;;
	*) nfail=$((nfail + 1)); STATUS[$name]=fail
	   echo "not ok $n - $name (${s}s): ${reason:-exit $rc}"
	   echo "# log: $LOGS/$name.log" ;;
	esac
}

# need NAME...: fail (not skip) a test whose prerequisite failed.
need() {
	local d
	for d in "$@"; do
		[ "${STATUS[$d]:-}" = ok ] || { echo "prerequisite '$d' did not pass"; return 1; }
	done
}

finish() {
	[ $n -gt 0 ] || die "no test matches --only '$only'"
	echo "# total wall time $(($(date +%s) - T0))s, logs in ${LOGS#"$TOP"/}"
	echo "$npass passed, $nfail failed, $nskip skipped"
	[ "$nfail" -eq 0 ]
	exit
}

. "$TOP/scripts/check-lib.sh"

run deps "$TOP/scripts/deps.sh" build qemu check bench
[ "${STATUS[deps]:-ok}" = ok ] || finish

# The harness's own tests (bad input must fail cleanly).
for t in "$TOP"/tests/test-*.sh; do
	run "harness-$(basename "$t" .sh | sed 's/^test-//')" bash "$t"
done
run harness-bench make -s -C "$TOP/bench" check
run harness-audit make -s -C "$TOP/audit" check

run tree "$TOP/scripts/tree.sh"
run harness-config bash "$TOP/tests/tree-config.sh"
run series-applies check_series_applies
run export-noop check_export_noop
for p in $(series_list "$PATCHDIR" 2>/dev/null); do
	case $(basename "$p") in 0000-*) continue ;; esac
	run "checkpatch-$(basename "$p" .patch | cut -c1-40)" check_checkpatch "$p"
done

run build-x86_64 "$TOP/scripts/build.sh" x86_64
# One UML kernel: the census one.  um-patched (make bench) is the same
# series with the same fragments but CONFIG_UML_THUNK_CENSUS, which changes
# only the thunks' bodies (test-patches 0003), so its fast-path code, boots
# and selftests are the census kernel's.
run build-um-census "$TOP/scripts/build.sh" um-census

# Newest first: the last commit is build-x86_64's source and configuration,
# so ccache serves the whole first step, and each step back rebuilds only
# what one commit changed.
i=$(commits | wc -l)
for c in $(commits | tac); do
	run "bisect-$(printf %02d $i)" check_bisect "$c"
	i=$((i - 1))
done
for v in off modules no-retpoline no-cls-act no-cls some-builtin; do
	run "matrix-$v" check_matrix "$v"
done
run warnings check_warnings

run audit-x86_64 check_audit build-x86_64 "$BUILD/out/x86_64/vmlinux"
run audit-um-census check_audit build-um-census "$BUILD/out/um-census/vmlinux"
run boot-qemu check_boot qemu
run boot-uml check_boot uml
run kunit check_kunit
run kunit-broken-ladder check_kunit_broken
run thunks-uml check_thunks
run slots-stress check_slots_stress
run harness-guest-qemu check_guest_harness qemu
run harness-guest-uml check_guest_harness uml
run kselftest-build check_kselftest_build
while read -r path tmo opts; do
	case $path in
	short) [ $long = 0 ] || continue; read -r path tmo opts <<<"$tmo $opts" ;;
	long) [ $long = 1 ] || continue; read -r path tmo opts <<<"$tmo $opts" ;;
	esac
	case $path in '' | '#'* | build) continue ;; esac
	eval "args=($opts)"
	run "kselftest-$(basename "$path" .sh)" check_kselftest "$path" "$tmo" "${args[@]}"
done <"$TOP/tests/kselftests"
finish
