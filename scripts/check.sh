#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check.sh [--long] [--only REGEX]: apply and prove the series.  One line
# per test, "ok"/"not ok"/"skip" with its wall time, logs in build/check/
# (build/<base>/check/ for a base other than the default), and a closing
# line "N passed, N failed, N skipped".  Exit 1 on any failure.
#
# BASE=<version> proves that base's series alone.  Without BASE, every
# base under patches/ in turn (make check: the default base first), and a
# last line for all of them.
set -uo pipefail
if [ -z "${BASE:-}${THUNKLESS_BASE:-}" ]; then
	top=$(cd "$(dirname "$0")/.." && pwd)
	rc=0 ran=0 sum=
	def=$(sed -n 's/^THUNKLESS_DEFAULT_BASE=//p' "$top/scripts/base.sh")
	full=0
	for a in "$@"; do [ "$a" != --long ] || full=1; done
	for b in $(cd "$top/patches" && ls -d [0-9]* | sort -V); do
		echo "# base $b"
		BASE=$b THUNKLESS_CHECK_ALL=1 "$0" "$@"
		r=$?
		what=
		[ $full = 1 ] || [ "$b" = "$def" ] || what=" (build proofs)"
		# 3: no test of this base matched --only (check-run.sh's finish)
		case $r in
		0) ran=1 res=passed ;;
		3) res="ran no test" ;;
		*) ran=1 rc=1 res=FAILED ;;
		esac
		sum="$sum${sum:+, }$b$what $res"
	done
	echo "check: $sum"
	if [ $ran = 0 ]; then
		echo "check: error: no test of any base matches the options given ($*)" >&2
		exit 1
	fi
	exit $rc
fi
. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2034 # lib.sh's messages name it
prog=check

# SCOPE: what a bisect step and a matrix variant build: the series'
# objects by default, the series' directories whole with --long
# (series_configured and series_dirs in check-lib.sh).
only=. long=0 SCOPE=objects
while [ $# -gt 0 ]; do
	case $1 in
	--only) [ $# -ge 2 ] || die "--only needs a regular expression"; only=$2; shift 2 ;;
	--long) long=1 SCOPE=dirs; shift ;;
	*) die "unknown option '$1'" ;;
	esac
done

# make check of every base (no BASE) proves the default base whole and,
# of any other base, its build proofs: the series applies and exports
# byte for byte, checkpatch, the series' objects of an x86_64 build, W=1
# and sparse, the matrix; its bisection, kernels, boots and tests are
# "make check BASE=<base>" (and --long, which proves every base whole).
# On the 2-core Zen 5 host of 2026-12-05, which built a kernel 2.4 to 2.9
# times slower than the README's Xeon, CI's cold run of the 6.1 part alone
# took 88 minutes; with the cuts of that day, the 6.1 part took 60
# minutes cold there, and 6.12's bisection alone about 17 more.
BUILDS_ONLY=0
[ -z "${THUNKLESS_CHECK_ALL:-}" ] || [ "$KVER" = "$THUNKLESS_DEFAULT_BASE" ] || [ $long = 1 ] ||
	BUILDS_ONLY=1

# One check of a base at a time: a second one would remove the first's
# logs and scratch under it.  Every process the check starts inherits the
# lock, so the children of a check whose script was killed hold it until
# they are gone too.
mkdir -p "$BUILD" || die "cannot create $BUILD"
exec 8>"$BUILD/.check.lock" || die "cannot open $BUILD/.check.lock"
flock -n 8 || die "another check of base $KVER is running (it, or a child of it, holds ${BUILD#"$TOP"/}/.check.lock): wait for it, or stop it and its children"

LOGS=$BUILD/check
rm -rf "$LOGS"
mkdir -p "$LOGS"
. "$TOP/scripts/check-run.sh"
. "$TOP/scripts/check-lib.sh"

# Scratch of an earlier run, and of the layout before build/scratch (one
# worktree each for the applied series, the bisection and the broken
# ladder): none of it is reused, and each worktree holds 1.5 GiB.
if [ -d "$TREE/.git" ]; then
	for d in "$APPLY" "$BUILD/wt/apply-check" "$BUILD/bisect/linux" "$BUILD/broken-ladder/linux"; do
		drop_worktree "$d"
	done
fi
rm -rf "$SCRATCH" "$BUILD/wt/apply-check" "$BUILD/bisect" "$BUILD/broken-ladder" \
	"$BUILD"/out/matrix-* "$BUILD"/out/warn-*
echo "# disk: $(disk_free) under ${BUILD#"$TOP"/}/ at the start"

run deps "$TOP/scripts/deps.sh" build qemu check bench
[ "${STATUS[deps]:-ok}" = ok ] || finish

# What each base's series has, and so what its checks run.  Both series
# have the whole path (the census with -x), the changes inside tc's kinds
# (-k) and every slot point (STRESS_POINTS empty: all of them); a series
# that lacks some would name what it has with thunks.sh's -g and
# slots-stress.sh's -p.  6.12's tc ladder is upstream's, which has no
# test hook: no broken-ladder kernel, that check says "skip", with the
# reason.
THUNKS_ARGS=-x THUNKS_KINDS_ARGS=-k STRESS_POINTS=
case $KVER in
6.1) LADDER_KUNIT=1 ;;
*) LADDER_KUNIT=0 ;;
esac

run tree "$TOP/scripts/tree.sh"

# The harness's own tests (bad input must fail cleanly), the series' form
# and checkpatch: one core at a time, in a lane (check-run.sh) beside
# build-x86_64, which needs only the tree.  Their lines print after
# build-x86_64's; "# lane:" lines show their progress.
prep_lane() {
	local t p
	# The harness's own tests do not depend on the base: with the
	# default base only.
	if [ "$KVER" = "$THUNKLESS_DEFAULT_BASE" ]; then
		for t in "$TOP"/tests/test-*.sh; do
			run "harness-$(basename "$t" .sh | sed 's/^test-//')" bash "$t"
		done
		run harness-bench make -s -C "$TOP/bench" check
		run harness-audit make -s -C "$TOP/audit" check
		run harness-config bash "$TOP/tests/tree-config.sh"
		run harness-shellcheck check_shellcheck
	fi
	run series-applies check_series_applies
	run export-noop check_export_noop
	run checkpatch-waivers check_waivers
	for p in $(series_list "$PATCHDIR" 2>/dev/null); do
		case $(basename "$p") in 0000-*) continue ;; esac
		run "checkpatch-$(basename "$p" .patch | cut -c1-40)" check_checkpatch "$p"
	done
}

# The matrix: builds that need only build-x86_64's objects and the tree,
# in any order.  Both the main line and the x86_64 guest's lane take from
# it when they are done with their own tests (pool_run, check-run.sh), the
# longest first, so that neither leaves a core idle while the other still
# has builds to run.
# matrix_pool [NAME]: with NAME, the lane stops taking from it once the
# main line has run NAME.
# First Debian's own amd64 configuration with the series' opt-in
# (build-x86_64-debian, check_debian: its own configuration, built from
# scratch, so the longest), then the four variants the series promises to
# build in (no retpolines, its options off, no tc actions, tc as modules);
# with --long also without classifiers and with some kinds built in and
# the rest modules.
matrix_pool() {
	local v vs="no-retpoline off tc-off no-cls-act modules"
	[ $long = 0 ] || vs="$vs no-cls some-builtin"
	for v in debian $vs; do
		[ -z "${1:-}" ] || ! done_yet "$1" || return 0
		case $v in
		debian) pool_run build-x86_64-debian check_debian ;;
		*) pool_run "matrix-$v" check_matrix "$v" ;;
		esac
	done
}

# The x86_64 guest's tests need build-x86_64 alone, and each keeps one
# core busy under TCG: they run in a lane (check-run.sh) beside the builds
# below, which leave a core idle whenever they link or configure.  Then
# the lane takes from the matrix until the main line has built the UML
# census kernel, runs slots-stress.sh and the kselftests (-K uml in
# $KSELFTESTS) in it, natively, two to four times as fast as under TCG,
# and takes from the matrix again.  Their lines print, numbered, at the end;
# "# lane:" lines show their progress.
qemu_lane() {
	run boot-qemu check_boot qemu
	run kunit check_kunit
	run slots-stress check_slots_stress
	run harness-guest-qemu check_guest_harness qemu
	run kselftest-build check_kselftest_build
	kselftests qemu
	matrix_pool build-um-census-mod
	lane_await build-um-census-mod
	run slots-stress-uml check_slots_stress_uml
	kselftests uml
	matrix_pool
}

# kselftests GUEST: run the lines of $KSELFTESTS for that guest kind: those
# whose options start with "-K uml" in the UML census kernel, the others
# in the QEMU guest.
kselftests() {
	local kind=$1 path tmo opts k
	while read -r path tmo opts; do
		case $path in
		short) [ $long = 0 ] || continue; read -r path tmo opts <<<"$tmo $opts" ;;
		long) [ $long = 1 ] || continue; read -r path tmo opts <<<"$tmo $opts" ;;
		esac
		case $path in '' | '#'* | build) continue ;; esac
		eval "args=($opts)"
		k=qemu
		[ "${args[0]:-}" != -K ] || k=${args[1]:-}
		# a bad kind runs with the QEMU ones, where check_kselftest
		# fails it by name
		case $k in uml | qemu) ;; *) k=qemu ;; esac
		[ "$k" = "$kind" ] || continue
		run "kselftest-$(basename "$path" .sh)" check_kselftest "$path" "$tmo" "${args[@]}"
	done < <([ -z "$KSELFTESTS" ] || cat "$KSELFTESTS")
}

# Newest first: the last commit is build-x86_64's source and configuration,
# so the first step starts from a copy of its objects (seed_out), and each
# step back rebuilds only what one commit changed.  The matrix variants and
# the broken ladder start from such a copy too.
bisect_all() {
	local i c
	i=$(commits | wc -l)
	for c in $(commits | tac); do
		run "bisect-$(printf %02d $i)" check_bisect "$c"
		i=$((i - 1))
	done
}

if [ $BUILDS_ONLY = 1 ]; then
	echo "# base $KVER: the build proofs (make check BASE=$KVER also bisects the series, builds its kernels and runs its tests)"
	prep_lane
	SEED_FROM=$BUILD/out/x86_64-objs SEED_BUILD=build-x86_64-objs
	run build-x86_64-objs check_x86_64_objs
	# The matrix in a lane beside W=1 and sparse, which compile a few
	# files at a time.
	lane_start matrix_pool
	run warnings check_warnings
	scratch_drop
	matrix_pool
	lane_join
	rm -rf "$SEED_FROM"
	finish
fi

lane_start prep_lane
run build-x86_64 "$TOP/scripts/build.sh" x86_64
lane_join
lane_start qemu_lane
run audit-x86_64 check_audit build-x86_64 "$BUILD/out/x86_64/vmlinux"
# One UML kernel: the census one, in the shape distributions build: tc's
# classifiers and actions as modules (configs/tc-modular),
# reached through the direct-call slots, which UML has with test patches
# 0005 (static calls) and 0006 (modules), and with jump labels (0007), as
# distributions build with JUMP_LABEL=y.  The thunk census then checks
# that every classifier and action it runs reaches tc through a slot.
# um-patched-mod (make bench) is the same series with the same fragments
# but CONFIG_UML_THUNK_CENSUS, which changes only the thunks' bodies
# (test-patches 0003), so its fast-path code, boots and selftests are the
# census kernel's.  um-census, the built-in shape, is left to
# tests/guest/thunks.sh by hand: a second UML kernel would cost CI about
# 15 minutes cold.
run build-um-census-mod "$TOP/scripts/build.sh" um-census-mod

run audit-um-census-mod check_audit build-um-census-mod "$BUILD/out/um-census-mod/vmlinux"
run boot-uml check_boot uml
run thunks-uml check_thunks
run thunks-kinds-uml check_thunks_kinds
run slots-uml check_slots_uml
run static-calls-uml check_static_calls_uml
run ct-frag-uml check_ct_frag_uml
run harness-guest-uml check_guest_harness uml

bisect_all
run warnings check_warnings
if [ $LADDER_KUNIT = 1 ]; then
	run kunit-broken-ladder check_kunit_broken
else
	run kunit-broken-ladder not_on_base "KUnit suite of tc's ladder (upstream's ladder has no test hook)"
fi
# The main line is done with the scratch worktree (the matrix, in either
# line, builds build/linux and reads the applied series from git).
scratch_drop
# The slots under KASAN and lockdep: a third full kernel build, so with
# --long only.
if [ $long = 1 ]; then
	run build-x86_64-debug "$TOP/scripts/build.sh" x86_64-debug
	run kunit-debug check_kunit x86_64-debug
	run slots-stress-debug check_slots_stress x86_64-debug
fi
matrix_pool
finish
