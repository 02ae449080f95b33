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
	unpack_base "$deb" "$TREE" series
fi
apply_series
info "$TREE: $(tgit rev-list --count base..HEAD) patches applied on $BASE_PKG $BASE_VER"
