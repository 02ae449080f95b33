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
# a version asked for with BASE_VERSION must exist: no fallback
apt_deb "$BASE_PKG" "${BASE_VERSION:-$BASE_VER}" all ${BASE_VERSION:+strict}
