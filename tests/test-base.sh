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

# BASE chooses the series (scripts/base.sh): an unknown one, or one that
# is not a version, is refused by every command before it does anything.
expect_fail "unknown BASE: tree" "unknown base '6.7' \(known: 6.1 6.12\)" env BASE=6.7 "$S/tree.sh"
expect_fail "unknown BASE: build" "unknown base '../6.1'" env BASE=../6.1 "$S/build.sh" x86_64
expect_fail "unknown BASE: check" "unknown base 'x'" env BASE=x "$S/check.sh" --only nothing
expect_fail "unknown BASE: bench" "unknown base '7'" env BASE=7 "$TOP/bench/bench.sh" --rounds 1
# Every base has a series: its BASE names a linux-source package, its
# series file names patches that exist.
for b in "$TOP"/patches/[0-9]*; do
	expect_ok "base $(basename "$b"): BASE and series" \
		env BASE="$(basename "$b")" bash -c '. "$1/scripts/lib.sh"; read_base; series_list "$PATCHDIR" >/dev/null' _ "$TOP"
done

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
# Debian's own configuration (scripts/debian-config.sh, for the
# x86_64-debian profile): the same failures, each in one line.
expect_fail "debian config: package unknown to apt" "package linux-config-9.9 is not known to apt" \
	env THUNKLESS_PATCHDIR=$TMP/p1 "$S/debian-config.sh"
expect_fail "debian config: malformed BASE" "not a linux-source package" \
	env THUNKLESS_PATCHDIR=$TMP/p2 "$S/debian-config.sh"
expect_fail "debian config: no argument taken" "usage: debian-config.sh" "$S/debian-config.sh" 6.1
read -r pkg ver <"$TOP/patches/6.1/BASE"
head -c 4096 /dev/urandom >"$TMP/cache/dl/linux-config-${pkg#linux-source-}_${ver}_amd64.deb"
expect_fail "debian config: corrupt package" "cannot unpack .*: a corrupt package" "$S/debian-config.sh"
printf '#@ start: debian\n' >"$TMP/debian.config"
expect_fail "debian config: not for UML" "'#@ start: debian' is for x86_64, not um" \
	"$S/config.sh" um "$TMP/out-um" "$TMP/debian.config"
done_testing
