#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# warnings_in_series (check-lib.sh), which fails a bisect step or a matrix
# variant: a compiler warning in a file the series changes is reported,
# whatever the path form kbuild printed; one in a file of the base is not.
. "$(dirname "$0")/lib.sh"
APPLY=$TMP/apply
git init -q "$APPLY"
g() { git -C "$APPLY" -c user.name=T -c user.email=t@example.org "$@"; }
mkdir -p "$APPLY/net/sched" "$APPLY/net/core" "$APPLY/include/net"
echo a >"$APPLY/net/sched/cls_api.c"
echo b >"$APPLY/net/core/pktgen.c"
echo c >"$APPLY/include/net/tc_wrapper.h"
g add . && g commit -q -m base && g tag base
echo a2 >"$APPLY/net/sched/cls_api.c"
echo c2 >"$APPLY/include/net/tc_wrapper.h"
g commit -q -am series
# shellcheck disable=SC2034 # check-lib.sh reads it
BUILD=$TMP/build
tgit() { git -C "$TREE" "$@"; }
base_file() { :; }
# shellcheck source=../scripts/check-lib.sh
. "$TOP/scripts/check-lib.sh"
TREE=$TMP/apply APPLIED=HEAD

log=$TMP/build.log
cat >"$log" <<'LOG'
../../linux/net/core/pktgen.c:212:52: warning: 'F_IPSEC' defined but not used [-Wunused-const-variable=]
  CC [M]  net/sched/cls_u32.o
LOG
out=$(warnings_in_series "$log")
[ -z "$out" ] && echo "ok - a warning in a base file is not the series'" ||
	{ echo "not ok - base warning reported: $out"; fails=$((fails + 1)); }

cat >>"$log" <<'LOG'
../../linux/net/sched/cls_api.c:12:5: warning: unused variable 'x' [-Wunused-variable]
/work/x/build/scratch/linux/include/net/tc_wrapper.h:3:1: warning: 'y' defined but not used
LOG
out=$(warnings_in_series "$log")
[ "$(wc -l <<<"$out")" = 2 ] && grep -q "^net/sched/cls_api.c: unused variable 'x'" <<<"$out" &&
	grep -q '^include/net/tc_wrapper.h: ' <<<"$out" &&
	echo "ok - warnings in the series' files are reported, relative and absolute paths" ||
	{ echo "not ok - expected 2 series warnings, got: $out"; fails=$((fails + 1)); }
expect_fail "no_series_warnings fails on them" "2 compiler warnings in the series' files" \
	bash -c ". '$TOP/scripts/lib.sh'; BUILD='$TMP/build'; . '$TOP/scripts/check-lib.sh'; TREE='$TMP/apply' APPLIED=HEAD; no_series_warnings '$log'"

# series_dirs: what the bisect steps and the matrix variants build.  A
# directory under net/ or drivers/ whole, a file elsewhere as its object,
# each once, and no selftest or script.
# (check-lib.sh has its own $APPLY.)
t=$TMP/apply
mkdir -p "$t/kernel" "$t/lib" "$t/drivers/net" "$t/tools/testing" "$t/net/sched/x"
for f in kernel/softirq.c lib/rhashtable.c drivers/net/veth.c tools/testing/t.c net/sched/x/y.c net/sched/sch_generic.c; do
	echo "$f" >"$t/$f"
done
git -C "$t" add . && git -C "$t" -c user.name=T -c user.email=t@example.org commit -q -m more
out=$(series_dirs 2>&1)
[ "$out" = " drivers/net/ kernel/softirq.o lib/rhashtable.o net/sched/ net/sched/x/ " ] &&
	echo "ok - series_dirs: net/ and drivers/ directories whole, other files as objects" ||
	{ echo "not ok - series_dirs printed '$out'"; fails=$((fails + 1)); }
# series_configured: what they build by default: the objects of the
# series' C files among those kbuild builds (configured_objs, a dry run of
# kbuild, stood in for here by a list), no selftest, nothing else.
configured_objs() { printf '%s\n' scripts/mod/empty.o kernel/softirq.o net/core/other.o \
	net/sched/cls_api.o net/sched/sch_generic.o net/sched/x/y.o tools/testing/t.o; }
out=$(series_configured OUT net/ kernel/ 2>&1 | tr '\n' ' ')
[ "$out" = "kernel/softirq.o net/sched/cls_api.o net/sched/sch_generic.o net/sched/x/y.o " ] &&
	echo "ok - series_configured: the series' objects that the configuration builds, no selftest" ||
	{ echo "not ok - series_configured printed '$out'"; fails=$((fails + 1)); }
expect_fail "series_configured: a dry run that lists nothing fails" "a dry run of kbuild over net/ kernel/ listed no object" \
	bash -c ". '$TOP/scripts/lib.sh'; BUILD='$TMP/build'; . '$TOP/scripts/check-lib.sh'; TREE='$TMP/apply' APPLIED=HEAD; configured_objs() { :; }; series_configured OUT net/ kernel/"
configured_objs() { printf '%s\n' kernel/softirq.o; }
# shellcheck disable=SC2034 # series_configured reads it
APPLIED=base
[ -z "$(series_configured OUT net/)" ] && echo "ok - series_configured: nothing for a series without C files" ||
	{ echo "not ok - series_configured of an empty series printed '$(series_configured OUT net/)'"; fails=$((fails + 1)); }
[ "$(series_dirs)" = " net/sched/" ] && echo "ok - series_dirs: net/sched/ for a series without C files" ||
	{ echo "not ok - series_dirs of an empty series printed '$(series_dirs)'"; fails=$((fails + 1)); }
# check_waivers: a waiver must name a patch of the series.
PATCHDIR=$TMP/wpatches
mkdir -p "$PATCHDIR"
echo x >"$PATCHDIR/0001-net-a.patch"
echo 0001-net-a.patch >"$PATCHDIR/series"
echo "0001-net-* UNKNOWN_COMMIT_ID a backport" >"$PATCHDIR/checkpatch-waivers"
waivers() { bash -c ". '$TOP/scripts/lib.sh'; BUILD='$TMP/build'; . '$TOP/scripts/check-lib.sh'; PATCHDIR='$PATCHDIR'; check_waivers"; }
expect_ok "check_waivers: a waiver that names a patch" waivers
echo "0002-net-b* UNKNOWN_COMMIT_ID renumbered away" >>"$PATCHDIR/checkpatch-waivers"
expect_fail "check_waivers: a waiver that names no patch" "'0002-net-b\\*' \\(UNKNOWN_COMMIT_ID\\) names no patch" waivers
done_testing
