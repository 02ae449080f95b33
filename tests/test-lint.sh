#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check_shellcheck (check-lib.sh), make check's harness-shellcheck: it
# passes a clean tree of scripts, fails with the first finding as its
# one-line reason, sees a new script git does not track yet, and leaves
# out what git ignores and, outside a checkout, build/ and results/.
. "$(dirname "$0")/lib.sh"
# shellcheck source=../scripts/lib.sh
. "$S/lib.sh"
# shellcheck source=../scripts/check-lib.sh
. "$S/check-lib.sh"
command -v shellcheck >/dev/null || { echo "not ok - shellcheck is not installed (scripts/deps.sh check)"; exit 1; }

d=$TMP/plain
mkdir -p "$d/sub" "$d/build" "$d/results"
printf '#!/bin/bash\nset -u\necho "$1"\n' >"$d/good.sh"
printf '#!/bin/bash\nx= y=1\necho "$x$y"\n' >"$d/build/bad.sh"
cp "$d/build/bad.sh" "$d/results/bad.sh"
expect_ok "a clean tree passes; build/ and results/ are not the harness's" check_shellcheck "$d"
printf '#!/bin/bash\nfor f in $(ls); do echo "$f"; done\n' >"$d/sub/bad.sh"
expect_fail "a finding fails it, named in the reason" 'sub/bad\.sh:2:.*SC2045' check_shellcheck "$d"
rm "$d/sub/bad.sh"
expect_fail "an empty directory is no pass" 'no shell script found' check_shellcheck "$TMP/none"

r=$TMP/repo
mkdir -p "$r"
git -C "$r" init -q
printf '#!/bin/bash\necho ok\n' >"$r/a.sh"
printf 'ignored.sh\n' >"$r/.gitignore"
printf '#!/bin/bash\nx= y=1\necho "$x$y"\n' >"$r/ignored.sh"
git -C "$r" add a.sh .gitignore
expect_ok "in a checkout, what git ignores is left out" check_shellcheck "$r"
cp "$r/ignored.sh" "$r/new.sh"
expect_fail "in a checkout, a new untracked script is checked" 'new\.sh:2:.*SC1007' check_shellcheck "$r"

done_testing
