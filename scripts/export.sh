#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# export.sh: regenerate patches/<kver>/*.patch and series from the commits
# base..HEAD of build/linux, and the cover letter from cover-letter.txt
# (first line: subject; the rest: body).  The output depends only on the
# commits, so running it twice changes nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -e "$TREE/.git" ] || die "no kernel tree at $TREE (run 'make tree')"
tgit rev-parse -q --verify base >/dev/null || die "$TREE has no 'base' tag"
[ -z "$(tgit status --porcelain --untracked-files=no)" ] ||
	die "$TREE has uncommitted changes: commit them first"
n=$(tgit rev-list --count base..HEAD)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cover=()
[ "$n" -gt 0 ] && [ -f "$PATCHDIR/cover-letter.txt" ] && cover=(--cover-letter)
if [ "$n" -gt 0 ]; then
	tgit -c diff.noprefix=false -c diff.renames=true -c format.signoff=false \
		format-patch -q --zero-commit --no-signature --numbered "${cover[@]}" \
		--subject-prefix=PATCH -o "$tmp" base..HEAD
fi
if [ ${#cover[@]} -gt 0 ]; then
	c=$tmp/0000-cover-letter.patch
	subject=$(head -n1 "$PATCHDIR/cover-letter.txt")
	tail -n +3 "$PATCHDIR/cover-letter.txt" >"$tmp/blurb"
	awk -v subj="$subject" -v blurbf="$tmp/blurb" '
		/^Date: / { print "Date: Sat, 1 Jan 2000 00:00:00 +0000"; next }
		/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subj) }
		/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < blurbf) > 0) print l; next }
		{ print }
	' "$c" >"$c.new" && mv "$c.new" "$c"
fi
# EXPORT_DIR=dir writes there instead (make check compares the two).
dest=${EXPORT_DIR:-$PATCHDIR}
mkdir -p "$dest"
rm -f "$dest"/[0-9][0-9][0-9][0-9]-*.patch
: >"$dest/series"
for p in "$tmp"/*.patch; do
	[ -e "$p" ] || continue
	cp "$p" "$dest/"
	echo "$(basename "$p")" >>"$dest/series"
done
[ -z "${EXPORT_DIR:-}" ] || exit 0
tgit config thunkless.head "$(tgit rev-parse HEAD)"
tgit config thunkless.series "$(series_hash)"
info "exported $n patches to ${PATCHDIR#"$TOP"/}"
