#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# inputs.sh PROFILE: print what a kernel of PROFILE (configs/profiles) is
# built from, as build.sh builds it by default: the profile's line, the
# base, the source tree's content at its commit (the tree object, so that
# "make tree" re-making the same commits moves nothing; for "series", its
# uncommitted changes too), the test patches and the fragments.  Reads the
# trees; changes nothing.  build.sh records it as .thunkless-inputs beside the image;
# bench/bench.sh compares the record with this, so that a kernel whose
# sources moved since it was built (a series commit not yet rebuilt) is not
# measured as if it were current.
#
# BASE=<version> as everywhere.  Exit 1, with one line, for an unknown
# profile or a missing tree.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: inputs.sh PROFILE"
profile=$1
line=$(awk -v p="$profile" '$1 == p' "$TOP/configs/profiles")
[ -n "$line" ] || die "unknown kernel profile '$profile' (see configs/profiles)"
read -r _ _ source frags <<<"$line"

tp=$TESTPATCHDIR
case $source in
upstream+test)
	TREE=$BUILD/upstream/$UPSTREAM_KVER
	tp=$TOP/test-patches/$UPSTREAM_KVER
	rev=base
	;;
series | series+test) rev=HEAD ;;
base+test | base) rev=base ;;
*) die "profile '$profile' has an unknown source '$source'" ;;
esac
[ -d "$TREE/.git" ] || die "no kernel tree at $TREE (run 'make tree')"
content=$(tgit rev-parse -q --verify "$rev^{tree}") || die "no '$rev' in $TREE"

echo "profile $profile base $THUNKLESS_BASE"
echo "line $(tr -s ' \t' ' ' <<<"$line")"
echo "tree $source $content"
if [ "$source" = series ]; then
	echo "uncommitted $(tgit diff HEAD | h16)"
fi
case $source in
*+test) echo "test-patches $(series_hash "$tp")" ;;
esac
# shellcheck disable=SC2086 # frags: the profile's names, one word each
mapfile -t files < <(profile_fragments $frags)
echo "fragments $(cat "${files[@]}" | h16)"
