#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# deps.sh GROUP...: make sure the Debian packages for GROUP are installed,
# installing the missing ones with apt-get.  Groups: build qemu bench check.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

declare -A pkgs
pkgs[build]="make gcc libc6-dev bc bison flex libelf-dev libssl-dev cpio dwarves kmod
xz-utils ccache git perl python3 rsync"
pkgs[qemu]="qemu-system-x86 iproute2 nftables ethtool procps iputils-ping python3
socat netcat-openbsd libcap2-bin iptables netsniff-ng jq"
pkgs[uml]="iproute2 nftables ethtool procps iputils-ping python3
socat netcat-openbsd libcap2-bin iptables netsniff-ng jq"
pkgs[check]="sparse codespell python3-ply python3-git shellcheck"
pkgs[bench]="gnuplot-nox"

want=()
for g in "$@"; do
	{ [ -n "$g" ] && [ -n "${pkgs[$g]+x}" ]; } || die "unknown dependency group '$g'"
	read -ra list <<<"${pkgs[$g]//$'\n'/ }"
	want+=("${list[@]}")
done

missing=()
for p in $(printf '%s\n' "${want[@]}" | sort -u); do
	s=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$s" = installed ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

mkdir -p "$BUILD"
[ "$(id -u)" = 0 ] || die "missing packages: ${missing[*]} (run: sudo apt-get install ${missing[*]})"
info "installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >"$BUILD/apt.log" 2>&1; then
	apt-get update -q >>"$BUILD/apt.log" 2>&1 || true
	apt-get install -y -q --no-install-recommends "${missing[@]}" >>"$BUILD/apt.log" 2>&1 ||
		die "apt-get install ${missing[*]} failed: $(grep -m1 '^E:' "$BUILD/apt.log" || tail -n1 "$BUILD/apt.log")"
fi
