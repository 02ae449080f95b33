#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The patch workflow on a small fake tree: a good series applies and exports
# byte for byte, twice; a patch that does not apply stops with its name and
# git's reason; unsaved work in the tree is never thrown away.
. "$(dirname "$0")/lib.sh"
export THUNKLESS_BUILD=$TMP/build TREE=$TMP/tree THUNKLESS_PATCHDIR=$TMP/patches
mkdir -p "$TMP/build" "$TMP/patches"
cp "$TOP/patches/6.1/BASE" "$TMP/patches/"
read -r pkg ver <"$TMP/patches/BASE"

# A base tree as tree.sh would have made it.
git init -q -b series "$TREE"
g() { git -C "$TREE" -c user.name=T -c user.email=t@example.org "$@"; }
printf 'line %s\n' $(seq 1 30) >"$TREE/file.c"
g add file.c && g commit -q -m base && g tag base
g config thunkless.base "$pkg $ver"
g config thunkless.head "$(g rev-parse HEAD)"

# Two commits, exported.
sed -i 's/^line 5$/line five/' "$TREE/file.c" && g commit -q -am "net: first change" -m "Why." -s
sed -i 's/^line 25$/line twenty-five/' "$TREE/file.c" && g commit -q -am "net: second change" -m "Why." -s
printf 'net: a test series\n\nBlurb.\n' >"$TMP/patches/cover-letter.txt"
expect_ok "export" "$S/export.sh"
n=$(wc -l <"$TMP/patches/series")
[ "$n" = 3 ] && echo "ok - series names 3 files" || { echo "not ok - series has $n lines"; fails=$((fails + 1)); }
sum1=$(cat "$TMP/patches"/* | md5sum)
expect_ok "export again" "$S/export.sh"
[ "$sum1" = "$(cat "$TMP/patches"/* | md5sum)" ] && echo "ok - export is byte-stable" ||
	{ echo "not ok - second export changed the patches"; fails=$((fails + 1)); }
grep -q '^Date: Sat, 1 Jan 2000' "$TMP/patches/0000-cover-letter.patch" &&
	echo "ok - cover letter has a fixed date" || { echo "not ok - cover letter date churns"; fails=$((fails + 1)); }

expect_ok "tree up to date" "$S/tree.sh"
echo "uncommitted" >>"$TREE/file.c"
expect_fail "dirty tree is kept" "uncommitted changes" "$S/tree.sh"
g checkout -q file.c
echo "x" >"$TREE/other.c" && g add other.c && g commit -q -m "unsaved"
expect_fail "unexported commit is kept" "not saved" "$S/tree.sh"
FORCE=1 expect_ok "FORCE=1 re-applies" env FORCE=1 "$S/tree.sh"
[ "$(g rev-list --count base..HEAD)" = 2 ] && echo "ok - re-applied 2 patches" ||
	{ echo "not ok - tree has $(g rev-list --count base..HEAD) patches"; fails=$((fails + 1)); }

# A patch whose context is gone.
sed -i 's/line 25/line 99/' "$TMP/patches/0002-net-second-change.patch"
expect_fail "patch that does not apply" "patch 0002-net-second-change.patch does not apply: error: patch failed: file.c" \
	"$S/tree.sh"
expect_fail "series naming a missing file" "names 0009-missing.patch, which does not exist" \
	bash -c "echo 0009-missing.patch >>'$TMP/patches/series' && FORCE=1 '$S/tree.sh'"
done_testing
