#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# src.sh SOURCE: make the source tree for SOURCE (series, series+test,
# base+test) ready and print its path.  The +test trees are git worktrees of
# build/linux with test-patches/ applied on top; they are updated in place,
# so only the files that changed get new mtimes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: src.sh series|series+test|base+test|base"
[ -d "$TREE/.git" ] || die "no kernel tree at $TREE (run 'make tree')"
case $1 in
series) echo "$TREE"; exit 0 ;;
series+test) rev=HEAD name=series-test ;;
base+test) rev=base name=base-test ;;
base) rev=base name=base ;;
*) die "unknown source '$1' (series, series+test, base+test or base)" ;;
esac

want=$(tgit rev-parse --verify "$rev^{commit}")
tpatches=
if [ "$name" != base ]; then
	tpatches=$(series_list "$TESTPATCHDIR")
fi
stamp="$want $( (cat "$TESTPATCHDIR/series" 2>/dev/null; echo "$tpatches" | xargs -r cat) | sha256sum | cut -c1-16)"
wt=$BUILD/wt/$name
mkdir -p "$BUILD/wt"
if [ -d "$wt" ] && [ "$(cat "$wt.stamp" 2>/dev/null)" = "$stamp" ] &&
	[ -z "$(git -C "$wt" status --porcelain --untracked-files=no)" ]; then
	echo "$wt"
	exit 0
fi
rm -f "$wt.stamp"
if [ ! -d "$wt" ]; then
	info "creating worktree $wt"
	tgit worktree prune
	tgit worktree add -q --detach "$wt" "$want" >/dev/null ||
		die "git worktree add $wt failed"
else
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	git -C "$wt" -c advice.detachedHead=false checkout -q -f --detach "$want" ||
		die "cannot check out $rev in $wt"
fi
# shellcheck disable=SC2086
am_patches "$wt" "test patch" "on $rev" $tpatches
echo "$stamp" >"$wt.stamp"
echo "$wt"
