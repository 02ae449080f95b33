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
deb=$(apt_deb "$pkg" "$BASE_VER" amd64) || exit 1
ver=${deb##*/"${pkg}"_}
ver=${ver%_amd64.deb}

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
