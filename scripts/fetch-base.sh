#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fetch-base.sh [BASE]: download the linux-source package recorded in the
# file BASE ("<package> <version>"; default patches/<kver>/BASE, the base of
# the series; test-patches/<upstream>/BASE for the upstream comparison tree)
# into the cache and print the path of the .deb.
# BASE_VERSION=<v> asks for another version; it must exist.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -le 1 ] || die "usage: fetch-base.sh [BASE-FILE]"
read_base "${1:-}"
ver=${BASE_VERSION:-$BASE_VER}
dl=$CACHE/dl
mkdir -p "$dl"
deb=$dl/${BASE_PKG}_${ver}_all.deb

if [ ! -s "$deb" ]; then
	avail=$(apt-cache madison "$BASE_PKG" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}')
	# lists that do not know the package, or not this version (lists
	# older than the BASE file), are refreshed once before a fallback
	if ! grep -qxF "$ver" <<<"$avail"; then
		apt-get update -q >/dev/null 2>&1 || true
		avail=$(apt-cache madison "$BASE_PKG" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}')
	fi
	[ -n "$avail" ] || die "package $BASE_PKG is not known to apt (check /etc/apt/sources.list)"
	if ! grep -qxF "$ver" <<<"$avail"; then
		[ -z "${BASE_VERSION:-}" ] || die "unknown base version $BASE_PKG $ver (apt has: $(echo $avail))"
		newest=$(head -n1 <<<"$avail")
		warn "$BASE_PKG $ver is gone from the archive; using the newest, $newest"
		ver=$newest
		deb=$dl/${BASE_PKG}_${ver}_all.deb
	fi
	if [ ! -s "$deb" ]; then
		(cd "$dl" && apt-get download -q "$BASE_PKG=$ver" >"$dl/download.log" 2>&1) ||
			die "apt-get download $BASE_PKG=$ver failed: $(grep -m1 '^E:' "$dl/download.log" || tail -n1 "$dl/download.log")"
		# apt names the file after the version with ':' escaped; normalise.
		f=$(ls -t "$dl"/"${BASE_PKG}"_*"${ver#*:}"_all.deb 2>/dev/null | head -n1)
		[ -n "$f" ] || die "apt-get download left no .deb for $BASE_PKG=$ver"
		[ "$f" = "$deb" ] || mv "$f" "$deb"
	fi
fi
echo "$deb"
