#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# src.sh SOURCE: make the source tree for SOURCE (series, series+test,
# base+test, base, upstream+test) ready and print its path.  The +test trees
# have test-patches/ applied on top; they are updated in place, so only the
# files that changed get new mtimes.
#
#   series         build/linux as it stands
#   series+test    git worktree build/wt/series-test: the series, test-patches/<kver>
#   base+test      git worktree build/wt/base-test: the base, test-patches/<kver>
#   base           git worktree build/wt/base: the base alone
#   upstream+test  build/upstream/<upstream>: the package that
#                  test-patches/<upstream>/BASE names (upstream: $UPSTREAM_KVER,
#                  6.12), downloaded and unpacked once into a git repository
#                  of its own, with test-patches/<upstream> applied
set -euo pipefail
. "$(dirname "$0")/lib.sh"

usage="series|series+test|base+test|base|upstream+test"
[ $# -eq 1 ] || die "usage: src.sh $usage"
case $1 in
upstream+test)
	TESTPATCHDIR=$TOP/test-patches/$UPSTREAM_KVER
	TREE=$BUILD/upstream/$UPSTREAM_KVER
	read_base "$TESTPATCHDIR/BASE"
	if ! [ -d "$TREE/.git" ] ||
		[ "$(tgit config thunkless.base 2>/dev/null)" != "$BASE_PKG $BASE_VER" ] ||
		! tgit rev-parse -q --verify base >/dev/null; then
		# BASE_VERSION is for the series' base; never for this tree.
		deb=$(env -u BASE_VERSION "$TOP/scripts/fetch-base.sh" "$TESTPATCHDIR/BASE")
		rm -f "$TREE.stamp"
		unpack_base "$deb" "$TREE" upstream
	fi
	rev=base name=upstream-$UPSTREAM_KVER
	# The test patches go on the repository's own checkout: no worktree.
	wt=$TREE
	;;
series | series+test | base+test | base)
	[ -d "$TREE/.git" ] || die "no kernel tree at $TREE (run 'make tree')"
	case $1 in
	series) echo "$TREE"; exit 0 ;;
	series+test) rev=HEAD name=series-test ;;
	base+test) rev=base name=base-test ;;
	base) rev=base name=base ;;
	esac
	wt=$BUILD/wt/$name
	mkdir -p "$BUILD/wt"
	;;
*) die "unknown source '$1' (${usage//|/, })" ;;
esac

want=$(tgit rev-parse --verify "$rev^{commit}")
tpatches=
if [ "$name" != base ]; then
	tpatches=$(series_list "$TESTPATCHDIR")
fi
stamp="$want $( (cat "$TESTPATCHDIR/series" 2>/dev/null; echo "$tpatches" | xargs -r cat) | h16)"
if [ -d "$wt" ] && [ "$(cat "$wt.stamp" 2>/dev/null)" = "$stamp" ] &&
	[ -z "$(git -C "$wt" status --porcelain --untracked-files=no)" ]; then
	echo "$wt"
	exit 0
fi
rm -f "$wt.stamp"
[ -d "$wt" ] || info "creating worktree $wt"
worktree "$wt" "$want"
# shellcheck disable=SC2086
am_patches "$wt" "test patch" "on $rev" $tpatches
echo "$stamp" >"$wt.stamp"
echo "$wt"
