#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# debian-config.sh: print the path of Debian's own amd64 kernel
# configuration for this base: config.amd64_none_amd64 of the package
# linux-config-<kver> (the configuration of Debian's linux-image-*-amd64,
# named after the base's linux-source-<kver>),
# at the version that patches/<kver>/BASE records for linux-source-<kver>,
# downloaded into the cache and unpacked once.  The security archive keeps
# only the newest builds: when that version is gone, the newest there is
# taken, with a warning that names both (Kconfig's olddefconfig fills in
# what a stable update added or dropped).  scripts/config.sh starts from
# it for a profile whose fragment says "#@ start: debian".
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 0 ] || die "usage: debian-config.sh (BASE=<version> for another base)"
read_base
pkg=linux-config-${BASE_PKG#linux-source-}
dl=$CACHE/dl
mkdir -p "$dl"

avail=$(apt-cache madison "$pkg" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}')
# lists that do not know the package, or not this version (lists older
# than the BASE file), are refreshed once before a fallback
if ! grep -qxF "$BASE_VER" <<<"$avail" && [ ! -s "$dl/${pkg}_${BASE_VER}_amd64.deb" ]; then
	apt-get update -q >/dev/null 2>&1 || true
	avail=$(apt-cache madison "$pkg" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}')
fi
ver=$BASE_VER
if [ ! -s "$dl/${pkg}_${ver}_amd64.deb" ]; then
	[ -n "$avail" ] || die "package $pkg is not known to apt (check /etc/apt/sources.list)"
	if ! grep -qxF "$ver" <<<"$avail"; then
		ver=$(head -n1 <<<"$avail")
		warn "$pkg $BASE_VER is gone from the archive; using the newest, $ver, on the $BASE_VER tree"
	fi
fi
deb=$dl/${pkg}_${ver}_amd64.deb
if [ ! -s "$deb" ]; then
	(cd "$dl" && apt-get download -q "$pkg=$ver" >"$dl/download-$pkg.log" 2>&1) ||
		die "apt-get download $pkg=$ver failed: $(grep -m1 '^E:' "$dl/download-$pkg.log" || tail -n1 "$dl/download-$pkg.log")"
	f=$(ls -t "$dl"/"${pkg}"_*"${ver#*:}"_amd64.deb 2>/dev/null | head -n1)
	[ -n "$f" ] || die "apt-get download left no .deb for $pkg=$ver"
	[ "$f" = "$deb" ] || mv "$f" "$deb"
fi

conf=$CACHE/debian-config/${pkg}_${ver}.amd64_none_amd64
if [ ! -s "$conf" ]; then
	mkdir -p "$(dirname "$conf")"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	dpkg-deb -x "$deb" "$tmp" 2>/dev/null || die "cannot unpack $deb: a corrupt package? (remove it to download it again)"
	xz=$tmp/usr/src/$pkg/config.amd64_none_amd64.xz
	[ -f "$xz" ] || die "$(basename "$deb") has no usr/src/$pkg/config.amd64_none_amd64.xz"
	xz -dc "$xz" >"$conf.tmp" || die "cannot decompress $xz"
	grep -q '^CONFIG_X86_64=y$' "$conf.tmp" || die "$xz is not an x86_64 kernel configuration"
	mv "$conf.tmp" "$conf"
fi
echo "$conf"
