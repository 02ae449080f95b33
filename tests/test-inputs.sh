#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/inputs.sh, the record of what a kernel is built from that
# bench/bench.sh checks: bad input fails with one line, and the record moves
# with what each profile's source is (a series commit moves the series'
# kernels, not the base's).
. "$(dirname "$0")/lib.sh"

expect_fail "no profile" "usage: inputs.sh PROFILE" "$S/inputs.sh"
expect_fail "unknown profile" "unknown kernel profile 'nope'" "$S/inputs.sh" nope
expect_fail "unknown BASE" "unknown base '9'" env BASE=9 "$S/inputs.sh" um-base
expect_fail "no tree" "no kernel tree at $TMP/none/linux" env THUNKLESS_BUILD=$TMP/none "$S/inputs.sh" um-base

# A stand-in tree: one commit tagged base, then one for the series.
t=$TMP/b/linux
mkdir -p "$t"
g() { git -C "$t" -c user.name=t -c user.email=t@t "$@"; }
g init -q && g commit -q --allow-empty -m base && g tag base
rec() { THUNKLESS_BUILD=$TMP/b "$S/inputs.sh" "$1" 2>"$TMP/err"; }
p1=$(rec um-patched-mod) b1=$(rec um-base-mod) s1=$(rec x86_64)
echo series >"$t/s" && g add s && g commit -q -m series
p2=$(rec um-patched-mod) b2=$(rec um-base-mod) s2=$(rec x86_64)
# "make tree" again: the same patches make new commits of the same content.
g commit -q --amend -m "series, re-made" --date=2000-01-01T00:00:00
p4=$(rec um-patched-mod)
g commit -q --allow-empty -m "series, nothing changed"
p5=$(rec um-patched-mod)
echo change >"$t/f" && g add f
s3=$(rec x86_64) p3=$(rec um-patched-mod)
check() { # NAME CONDITION-RESULT
	if [ "$2" = 0 ]; then echo "ok - $1"; else echo "not ok - $1"; fails=$((fails + 1)); fi
}
[ "$(sed -n 1p <<<"$p1")" = "profile um-patched-mod base 6.1" ] && grep -q '^test-patches ' <<<"$p1" &&
	grep -q '^fragments ' <<<"$p1"
check "the record names the profile and base, test patches and fragments" $?
[ "$p1" != "$p2" ] && diff <(echo "$p1") <(echo "$p2") | grep -q '^> tree series+test '
check "a series commit moves the series' kernel, on its tree line" $?
[ "$p2" = "$p4" ] && [ "$p2" = "$p5" ]
check "commits re-made with the same content leave the series' kernel current" $?
[ -n "$b1" ] && [ "$b1" = "$b2" ]
check "a series commit leaves the base's kernel alone" $?
[ "$s1" != "$s2" ] && [ "$s2" != "$s3" ] && [ "$p2" = "$p3" ]
check "uncommitted changes move a kernel built from the tree as it stands, not one from its commits" $?
done_testing
