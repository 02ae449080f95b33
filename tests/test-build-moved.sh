#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build_moved (scripts/lib.sh), the words scripts/build.sh prints when it
# rebuilds a kernel that its output directory already held: what moved
# between the record of the last build (.thunkless-built) and now, and a
# commit re-made with the same content ("make tree" again) told from a
# change.
. "$(dirname "$0")/lib.sh"
export THUNKLESS_BUILD=$TMP/build
# shellcheck source=../scripts/lib.sh
. "$S/lib.sh"
check() { # NAME WANTED GOT
	if [ "$2" = "$3" ]; then echo "ok - $1"; else
		echo "not ok - $1: got '$3', wanted '$2'"
		fails=$((fails + 1))
	fi
}

t=$TMP/linux
mkdir -p "$t"
g() { git -C "$t" -c user.name=T -c user.email=t@example.org "$@"; }
g init -q
echo a >"$t/a" && g add a && g commit -q -m one
c1=$(g rev-parse HEAD)
g commit -q --amend -m "one, re-made" --date=2000-01-01T00:00:00
c2=$(g rev-parse HEAD)
echo b >"$t/a" && g commit -q -am two
c3=$(g rev-parse HEAD)

rec() { # COMMIT START FRAGMENTS
	printf '%s\n' "commit $1" "uncommitted e3b0c44298fc1c14" "start $2" \
		"flags um-base um base+test net uml " "fragments $3"
}
rec "$c1" s1 f1 >"$TMP/built"
moved() { build_moved "$TMP/built" "$t"; }

check "no record: says so" "its last build left no record of what it was built from" \
	"$(build_moved "$TMP/none" "$t" < <(rec "$c1" s1 f1))"
check "the same record: says that only the stamp differs" "its stamp differs, but not its record's parts" \
	"$(moved < <(rec "$c1" s1 f1))"
check "a commit re-made with the same content" \
	"its tree's commit moved from ${c1:0:12} to ${c2:0:12}, with the same content (the kernel's release names the commit)" \
	"$(moved < <(rec "$c2" s1 f1))"
check "a commit that changes the tree" "its tree moved from ${c1:0:12} to ${c3:0:12}" \
	"$(moved < <(rec "$c3" s1 f1))"
check "every part that moved, in the record's order" \
	"Debian's configuration it starts from changed; its config fragments changed" \
	"$(moved < <(rec "$c1" s2 f2))"
check "a profile line with spaces, changed" "its profile's line or make flags changed" \
	"$(moved < <(rec "$c1" s1 f1 | sed 's/^flags .*/flags um-base um base+test net uml uml-retpoline /'))"
check "a commit unknown to the tree is a move" "its tree moved from ${c1:0:12} to 000000000000" \
	"$(moved < <(rec 0000000000000000000000000000000000000000 s1 f1))"
done_testing
