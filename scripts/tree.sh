#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tree.sh: unpack the base into build/linux as a git repository with one
# commit (tagged "base"), then apply patches/<kver>/series with git am.
#
# An existing tree is reused: it is reset to "base" and the series is
# applied again, unless it holds work that "make export" has not saved
# (FORCE=1 discards it).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

unpack() {
	local deb=$1 tmp
	command -v dpkg-deb >/dev/null || die "dpkg-deb not found (this harness expects Debian)"
	info "unpacking $(basename "$deb")"
	tmp=$BUILD/unpack.$$
	rm -rf "$tmp" && mkdir -p "$tmp"
	dpkg-deb --fsys-tarfile "$deb" 2>/dev/null |
		tar -xf - -C "$tmp" --wildcards '*usr/src/linux-source-*.tar.xz' 2>/dev/null ||
		{ rm -rf "$tmp"; die "corrupt package $deb: no linux-source tarball inside"; }
	tar -xJf "$tmp"/usr/src/linux-source-*.tar.xz -C "$tmp" 2>"$tmp.err" ||
		{ r=$(head -n1 "$tmp.err"); rm -rf "$tmp" "$tmp.err"; die "corrupt tarball in $deb: $r"; }
	rm -f "$tmp.err" "$tmp"/usr/src/linux-source-*.tar.xz
	local src
	src=$(find "$tmp" -maxdepth 1 -mindepth 1 -type d -name 'linux-source-*' | head -n1)
	[ -n "$src" ] && [ -f "$src/Makefile" ] || { rm -rf "$tmp"; die "corrupt tarball in $deb: no kernel Makefile"; }
	rm -rf "$TREE"
	mv "$src" "$TREE"
	rm -rf "$tmp"
	info "creating git repository in $TREE"
	tgit init -q -b series
	tgit config user.name "$GIT_COMMITTER_NAME"
	tgit config user.email "$GIT_COMMITTER_EMAIL"
	tgit config core.autocrlf false
	tgit config gc.auto 0
	tgit add -A -f .
	GIT_AUTHOR_DATE=$GIT_COMMITTER_DATE tgit commit -q -m "base: $BASE_PKG $BASE_VER"
	tgit tag base
	tgit config thunkless.base "$BASE_PKG $BASE_VER"
}

apply_series() {
	local list
	list=$(series_list "$PATCHDIR")
	tgit checkout -q -f -B series base
	# shellcheck disable=SC2086
	am_patches "$TREE" patch "" $list
	tgit config thunkless.series "$(series_hash)"
	tgit config thunkless.head "$(tgit rev-parse HEAD)"
}

read_base
series_list "$PATCHDIR" >/dev/null
mkdir -p "$BUILD"
want="$BASE_PKG $BASE_VER"
if [ -d "$TREE/.git" ] && [ "$(tgit config thunkless.base 2>/dev/null)" = "$want" ] &&
	tgit rev-parse -q --verify base >/dev/null; then
	if [ "${FORCE:-0}" != 1 ]; then
		[ -z "$(tgit status --porcelain --untracked-files=no)" ] ||
			die "$TREE has uncommitted changes: commit them and run 'make export', or FORCE=1 to discard"
		head=$(tgit rev-parse HEAD)
		[ "$head" = "$(tgit config thunkless.head 2>/dev/null)" ] ||
			die "$TREE has commits that 'make export' has not saved: export them, or FORCE=1 to discard"
		if [ "$(tgit config thunkless.series)" = "$(series_hash)" ]; then
			info "$TREE is up to date ($(tgit rev-list --count base..HEAD) patches on $want)"
			exit 0
		fi
	fi
else
	deb=$("$TOP/scripts/fetch-base.sh")
	v=$(basename "$deb" _all.deb)
	BASE_VER=${v#*_}
	unpack "$deb"
fi
apply_series
info "$TREE: $(tgit rev-list --count base..HEAD) patches applied on $BASE_PKG $BASE_VER"
