#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A base that cannot be had fails with one clear line.
. "$(dirname "$0")/lib.sh"
export THUNKLESS_CACHE=$TMP/cache

expect_fail "unknown base version" "unknown base version linux-source-6.1 6.1.999-1" \
	env BASE_VERSION=6.1.999-1 "$S/fetch-base.sh"

mkdir -p "$TMP/p1" && echo "linux-source-9.9 9.9.1-1" >"$TMP/p1/BASE"
expect_fail "unknown base package" "package linux-source-9.9 is not known to apt" \
	env THUNKLESS_PATCHDIR=$TMP/p1 "$S/fetch-base.sh"

mkdir -p "$TMP/p2" && echo "bash 5.2" >"$TMP/p2/BASE"
expect_fail "malformed BASE" "not a linux-source package" \
	env THUNKLESS_PATCHDIR=$TMP/p2 "$S/fetch-base.sh"

expect_fail "no BASE at all" "no base recorded" \
	env THUNKLESS_PATCHDIR=$TMP/none "$S/fetch-base.sh"

# The upstream comparison tree's base (fetch-base.sh BASE-FILE, src.sh
# upstream+test) fails the same way.
expect_fail "upstream: unknown version" "unknown base version linux-source-6.12 6.12.999-1" \
	env BASE_VERSION=6.12.999-1 "$S/fetch-base.sh" "$TOP/test-patches/6.12/BASE"
expect_fail "upstream: package unknown to apt" "package linux-source-9.9 is not known to apt" \
	"$S/fetch-base.sh" "$TMP/p1/BASE"
expect_fail "upstream: no BASE for that release" "no base recorded: .*test-patches/9.9/BASE is missing" \
	env UPSTREAM_KVER=9.9 THUNKLESS_BUILD="$TMP/build" "$S/src.sh" upstream+test
expect_fail "unknown source" "unknown source 'nope'" "$S/src.sh" nope

# A corrupt download: the .deb is in the cache but is garbage.
read -r pkg ver <"$TOP/patches/6.1/BASE"
mkdir -p "$TMP/cache/dl"
head -c 4096 /dev/urandom >"$TMP/cache/dl/${pkg}_${ver}_all.deb"
expect_fail "corrupt package" "corrupt package" \
	env TREE=$TMP/tree THUNKLESS_BUILD=$TMP/build "$S/tree.sh"
read -r pkg ver <"$TOP/test-patches/6.12/BASE"
head -c 4096 /dev/urandom >"$TMP/cache/dl/${pkg}_${ver}_all.deb"
expect_fail "upstream: corrupt package" "corrupt package" \
	env THUNKLESS_BUILD="$TMP/build" "$S/src.sh" upstream+test
done_testing
