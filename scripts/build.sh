#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build.sh PROFILE [EXTRA_FRAGMENT...]: configure and build one kernel named
# in configs/profiles, out of tree in build/out/PROFILE, with ccache.  Prints
# the path of the image.  A build whose inputs (source commit, uncommitted
# changes, fragments) are unchanged is skipped.
#
# BASE=<version> builds from that base's tree (scripts/base.sh).
# OUT=dir overrides the output directory; TARGETS="net/sched/ ..." builds
# just those directories (no image, no skipping), TARGETS=.config only
# configures; MAKEFLAGS_EXTRA="W=1 C=1".
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: build.sh PROFILE [FRAGMENT...]"
profile=$1
shift
line=$(awk -v p="$profile" '$1 == p' "$TOP/configs/profiles")
[ -n "$line" ] || die "unknown kernel profile '$profile' (see configs/profiles)"
read -r _ arch source frags <<<"$line"

# A kernel built as the profile says, from its own trees into its own
# directory, records what it was built from (scripts/inputs.sh) in
# .thunkless-inputs, which bench/bench.sh checks; any override below makes
# it an experiment, with no record.
default_build=1
[ -z "${SRC:-}${OUT:-}${MAKEFLAGS_EXTRA:-}${TARGETS:-}" ] && [ $# -eq 0 ] || default_build=
record_inputs() {
	rm -f "$out/.thunkless-inputs"
	[ -n "$default_build" ] || return 0
	if "$TOP/scripts/inputs.sh" "$profile" >"$out/.thunkless-inputs.tmp"; then
		mv "$out/.thunkless-inputs.tmp" "$out/.thunkless-inputs"
	else
		rm -f "$out/.thunkless-inputs.tmp"
		warn "$profile: no record of its sources written"
	fi
}

# SRC=dir builds another checkout (a bisect step) with this profile's config.
SRC=${SRC:-$("$TOP/scripts/src.sh" "$source")}
export SRC
# shellcheck disable=SC2086 # frags: the profile's names, one word each
mapfile -t fragments < <(profile_fragments $frags)
for f in "$@"; do fragments+=("$(realpath -e "$f" 2>/dev/null || die "no such fragment: $f")"); done

out=${OUT:-$BUILD/out/$profile}
mkdir -p "$out"
out=$(cd "$out" && pwd)
case $arch in
x86_64) image=arch/x86/boot/bzImage target=bzImage ;;
um) image=linux target=linux ;;
esac

# Debian's configuration, for a profile that starts from it
# (configs/debian.config): a newer linux-config package changes the build.
debconf=$(start_config "$arch" "${fragments[@]}") || exit 1
debconf=${debconf:-/dev/null}

# Everything that decides what gets built.
uncommitted=$(mktemp)
trap 'rm -f "$uncommitted"' EXIT
git -C "$SRC" diff HEAD >"$uncommitted"
commit=$(git -C "$SRC" rev-parse HEAD)
stamp=$({
	cat "$debconf"
	echo "$line ${TARGETS:-} ${MAKEFLAGS_EXTRA:-}"
	echo "$commit"
	cat "$uncommitted"
	cat "${fragments[@]}"
} | sha256sum | cut -c1-32)
# The same, one line per part (.thunkless-built), so that a rebuild can say
# what moved (build_moved in lib.sh).
built=$(
	echo "commit $commit"
	echo "uncommitted $(h16 <"$uncommitted")"
	echo "start $(h16 <"$debconf")"
	echo "flags $(tr -s ' \t' ' ' <<<"$line ${TARGETS:-} ${MAKEFLAGS_EXTRA:-}")"
	echo "fragments $(cat "${fragments[@]}" | h16)"
)

if [ -z "${TARGETS:-}" ] && [ -f "$out/$image" ] && [ "$(cat "$out/.thunkless-stamp" 2>/dev/null)" = "$stamp" ]; then
	info "$profile is up to date"
	echo "$built" >"$out/.thunkless-built"
	record_inputs
	echo "$out/$image"
	exit 0
fi
# A kernel that this directory held, built here (a seeded copy has no stamp).
if [ -z "${TARGETS:-}" ] && [ -f "$out/$image" ] && [ -f "$out/.thunkless-stamp" ]; then
	info "$profile: rebuilding: $(build_moved "$out/.thunkless-built" "$SRC" <<<"$built")"
fi
rm -f "$out/.thunkless-stamp" "$out/.thunkless-inputs" "$out/.thunkless-built"

# The .config depends only on the fragments, the tree's Kconfig files and
# starting configs, and the tools Kconfig asks about; when none of them
# changed since this output directory was configured (a bisect step that
# touches no Kconfig), reuse it: configuring costs three kbuild runs.
cstamp=$({
	echo "$arch ${CONFIG_NOVERIFY:-}"
	cat "$debconf"
	cat "${fragments[@]}"
	git -C "$SRC" ls-tree -r HEAD | grep -E $'\t(.*/)?(Kconfig[^/]*|configs/[^/]*|kconfig/.*)$'
	git -C "$SRC" diff HEAD -- ':(glob)**/Kconfig*' ':(glob)**/configs/*' 'scripts/kconfig'
	gcc --version | head -n1
	ld --version | head -n1
	pahole --version 2>/dev/null || true
} | sha256sum | cut -c1-32)
if [ -f "$out/.config" ] && [ "$(cat "$out/.thunkless-config-stamp" 2>/dev/null)" = "$cstamp" ]; then
	info "$profile: configuration unchanged, reusing $out/.config"
else
	rm -f "$out/.thunkless-config-stamp"
	"$TOP/scripts/config.sh" "$arch" "$out" "${fragments[@]}"
	echo "$cstamp" >"$out/.thunkless-config-stamp"
fi
if [ "${TARGETS:-}" = .config ]; then
	echo "$out"
	exit 0
fi
# A kernel with modules gets them built and installed under $out/modroot,
# where the guest's modprobe finds them (scripts/guest-init.sh).
mods=0
grep -q '=m$' "$out/.config" && mods=1
[ $mods = 0 ] || target="$target modules"
setup_ccache
log=$out/build.log
info "building $profile (${TARGETS:-$target}) in $out"
# shellcheck disable=SC2086
if ! kmake "$arch" "$out" ${MAKEFLAGS_EXTRA:-} ${TARGETS:-$target} >"$log" 2>&1; then
	grep -E 'error:|Error [0-9]|undefined reference' "$log" | head -n 20 >&2 || true
	die "building $profile failed: $(grep -m1 -E 'error:|undefined reference' "$log" || tail -n1 "$log") (log: $log)"
fi
# An x86 bzImage must carry this build's vmlinux, whenever the targets name
# it (the broken-ladder kernel is built as TARGETS=bzImage): piggy.o holds the
# compressed kernel, read with .incbin, which a compiler cache can miss
# (scripts/cc-ccache.sh; a stale piggy.o once booted another build's kernel).
piggy=$out/arch/x86/boot/compressed/piggy
if [[ " ${TARGETS:-$target} " == *" bzImage "* ]] && [ -f "$piggy.o" ]; then
	z=$(sed -n 's/^\.incbin "\(.*\)"$/\1/p' "$piggy.S")
	[ -n "$z" ] && [ -f "$out/$z" ] || die "$piggy.S names no compressed kernel of $out"
	objcopy -O binary --only-section=.rodata..compressed "$piggy.o" "$piggy.payload" &&
		cmp -s "$piggy.payload" "$out/$z" ||
		die "$image of $profile does not carry this build's vmlinux ($piggy.o is not $z's)"
	rm -f "$piggy.payload"
fi
if [ -n "${TARGETS:-}" ]; then
	echo "$out"
	exit 0
fi
[ -f "$out/$image" ] || die "building $profile produced no $image"
rm -rf "$out/modroot"
if [ $mods = 1 ]; then
	kmake "$arch" "$out" modules_install INSTALL_MOD_PATH="$out/modroot" INSTALL_MOD_STRIP=1 \
		DEPMOD=/usr/sbin/depmod >>"$log" 2>&1 ||
		die "installing the modules of $profile failed (log: $log)"
fi
echo "$stamp" >"$out/.thunkless-stamp"
echo "$built" >"$out/.thunkless-built"
record_inputs
echo "$out/$image"
