#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# seed_out (check-lib.sh), which starts the bisect's, the matrix's and the
# broken ladder's builds from a copy of build-x86_64's objects: it copies
# only when the source is exactly what build-x86_64 built, points a
# worktree's copy at the worktree, and dates the worktree back so that
# only files changed afterwards rebuild.
. "$(dirname "$0")/lib.sh"
export THUNKLESS_BUILD=$TMP/build
unset TREE
# shellcheck source=../scripts/lib.sh
. "$S/lib.sh"
# shellcheck source=../scripts/check-lib.sh
. "$S/check-lib.sh"
declare -A STATUS
STATUS[build-x86_64]=ok
check() {
	if eval "$2"; then echo "ok - $1"; else echo "not ok - $1"; fails=$((fails + 1)); fi
}

mkdir -p "$TREE/include" "$BUILD/out/x86_64/net"
g() { tgit -c user.name=T -c user.email=t@example.org "$@"; }
g init -q
echo 'int a;' >"$TREE/a.c"
echo '#define H 1' >"$TREE/include/h.h"
g add . && g commit -q -m one
from=$BUILD/out/x86_64
echo "deps_a.o := $TREE/a.c $TREE/include/h.h include/generated/autoconf.h" >"$from/net/.a.o.cmd"
echo obj >"$from/net/a.o"
mkdir -p "$from/tools/objtool"
echo "cmd_x := gcc -I$from/tools/objtool/include -I$TREE/tools/include" >"$from/tools/objtool/.x.o.cmd"
echo stamp >"$from/.thunkless-stamp"
wt=$BUILD/bisect/linux
worktree "$wt" "$(tgit rev-parse HEAD)"

out=$BUILD/bisect/out/x86_64
seed_out "$wt" "$out" >/dev/null
check "a worktree of the same tree gets a copy" '[ -f "$out/net/a.o" ] && [ ! -f "$out/.thunkless-stamp" ]'
check "its .cmd files name the worktree" \
	'grep -qx "deps_a.o := $wt/a.c $wt/include/h.h include/generated/autoconf.h" "$out/net/.a.o.cmd"'
check "the tools' .cmd files name the copy and the worktree" \
	'grep -qx "cmd_x := gcc -I$out/tools/objtool/include -I$wt/tools/include" "$out/tools/objtool/.x.o.cmd"'
check "the copy's files all have one date, no older than the worktree's" \
	'[ "$(find "$out" -printf "%T@\n" | sort -u | wc -l)" = 1 ] &&
	 [ -z "$(find "$wt" -path "$wt/.git" -prune -o -newer "$out/net/a.o" -print)" ]'
check "build-x86_64's own copy is untouched" 'grep -q "$TREE/a.c" "$from/net/.a.o.cmd"'

out=$BUILD/out/matrix-x
seed_out "$TREE" "$out" >/dev/null
check "build/linux itself: a copy, paths kept" 'grep -q "$TREE/a.c" "$out/net/.a.o.cmd"'
check "build/linux itself: the tools' .cmd files name the copy" \
	'grep -qx "cmd_x := gcc -I$out/tools/objtool/include -I$TREE/tools/include" "$out/tools/objtool/.x.o.cmd"'

echo 'int b;' >>"$TREE/a.c"
out=$BUILD/dirty
seed_out "$wt" "$out"
check "no copy while build/linux has uncommitted changes" '[ ! -e "$out" ]'
g checkout -q -- a.c

echo 'int c;' >>"$wt/a.c"
seed_out "$wt" "$out"
check "no copy while the worktree has uncommitted changes" '[ ! -e "$out" ]'
git -C "$wt" checkout -q -- a.c

echo 'int d;' >>"$TREE/a.c"
g commit -q -am two
worktree "$wt" "$(tgit rev-parse HEAD~1)"
seed_out "$wt" "$out"
check "no copy for another commit's tree" '[ ! -e "$out" ]'
worktree "$wt" "$(tgit rev-parse HEAD)"

# shellcheck disable=SC2034 # seed_out reads it
STATUS[build-x86_64]=fail
seed_out "$wt" "$out"
check "no copy when build-x86_64 did not pass" '[ ! -e "$out" ]'

# A tree unpacked again (a new base version: tree.sh replaces the
# repository) leaves its old worktrees pointing nowhere: worktree makes
# them anew rather than failing.
rm -rf "$TREE/.git"
g init -q
g add . && g commit -q -m again
worktree "$wt" "$(tgit rev-parse HEAD)" 2>"$TMP/wt.err"
check "a worktree of a repository unpacked again is made anew" \
	'[ "$(git -C "$wt" rev-parse HEAD)" = "$(tgit rev-parse HEAD)" ] && grep -q "making it anew" "$TMP/wt.err"'
done_testing
