# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # variables for the scripts that source this
# Common helpers for the thunkless harness. Sourced, never run.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$TOP/scripts/base.sh"
BUILD=${THUNKLESS_BUILD:-$THUNKLESS_BASE_BUILD}
CACHE=${THUNKLESS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/thunkless}
KVER=$THUNKLESS_BASE
PATCHDIR=${THUNKLESS_PATCHDIR:-$TOP/patches/$KVER}
TESTPATCHDIR=$TOP/test-patches/$KVER
# The upstream release whose own tc wrapper "make bench-upstream" compares
# against: test-patches/<it>/BASE names its linux-source package.
UPSTREAM_KVER=${UPSTREAM_KVER:-6.12}
TREE=${TREE:-$BUILD/linux}
JOBS=${JOBS:-$(nproc)}

# Identity used for every commit in the generated trees, so that
# regenerated patches are byte-identical wherever they are made.
export GIT_COMMITTER_NAME="Thunkless Developers"
export GIT_COMMITTER_EMAIL="thunkless@example.org"
export GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"

prog=$(basename "$0" .sh)

die() {
	echo "$prog: error: $*" >&2
	exit 1
}

warn() {
	echo "$prog: warning: $*" >&2
}

info() {
	echo "$prog: $*" >&2
}

# base_file PATH: the file of PATH's kind for this base: PATH itself for
# the default base, PATH-<base> for another (tests/kselftests-6.12); empty
# when that base has none.  No fallback to the default base's file: its
# lists name what the default base's series has.
base_file() {
	local f=$1
	[ "$KVER" = "$THUNKLESS_DEFAULT_BASE" ] || f=$1-$KVER
	[ -f "$f" ] && echo "$f"
	return 0
}

# tgit ARGS...: git in the kernel tree, quiet about advice.
tgit() {
	git -C "$TREE" -c advice.detachedHead=false -c core.abbrev=12 "$@"
}

# disk_free: "N.N GiB free" on the file system of build/ (or of the
# nearest directory above it that exists), for the messages of a run that
# may have filled it.
disk_free() {
	local d=$BUILD
	while [ ! -d "$d" ] && [ "$d" != / ]; do d=$(dirname "$d"); done
	df -Pk "$d" 2>/dev/null | awk 'NR == 2 { printf "%.1f GiB free", $4 / 1048576 }'
}

# add_worktree DIR REV: a detached worktree of the tree at REV, or die with
# git's own reason and the space left (a full disk shows here first).
add_worktree() {
	local wt=$1 rev=$2 err
	tgit worktree prune
	mkdir -p "$(dirname "$wt")"
	if ! err=$(tgit worktree add -q --detach "$wt" "$rev" 2>&1 >/dev/null); then
		rm -rf "$wt"
		tgit worktree prune
		die "git worktree add $wt failed: $(grep -v '^\s*$' <<<"$err" | tail -n1 | cut -c1-160) ($(disk_free))"
	fi
}

# worktree DIR REV: DIR, a detached worktree of the tree, checked out at
# REV (added when missing; an unfinished git am in it is abandoned).
worktree() {
	local wt=$1 rev=$2
	# A worktree of a tree that was unpacked again since (a new base
	# version) points at a repository that no longer has it: made anew.
	if [ -d "$wt" ] && [ "$(git -C "$wt" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)" != \
		"$(tgit rev-parse --path-format=absolute --git-common-dir)" ]; then
		info "$wt is not a worktree of $TREE (unpacked again since): making it anew"
		rm -rf "$wt"
		tgit worktree prune
	fi
	if [ ! -d "$wt" ]; then
		add_worktree "$wt" "$rev"
	else
		git -C "$wt" am --abort >/dev/null 2>&1 || true
		git -C "$wt" -c advice.detachedHead=false checkout -q -f --detach "$rev" ||
			die "cannot check out $rev in $wt ($(disk_free))"
	fi
}

# drop_worktree DIR: remove a worktree of the tree and its files.
drop_worktree() {
	[ -e "$1" ] || return 0
	tgit worktree remove --force "$1" 2>/dev/null || rm -rf "$1"
	tgit worktree prune
}

# read_base [FILE]: set BASE_PKG and BASE_VER from FILE, by default
# patches/<kver>/BASE ("<package> <version>").
read_base() {
	local f=${1:-$PATCHDIR/BASE}
	[ -r "$f" ] || die "no base recorded: $f is missing"
	read -r BASE_PKG BASE_VER <"$f" || true
	[ -n "${BASE_PKG:-}" ] && [ -n "${BASE_VER:-}" ] ||
		die "malformed $f: expected '<package> <version>'"
	case $BASE_PKG in
	linux-source-[0-9]*) ;;
	*) die "malformed $f: '$BASE_PKG' is not a linux-source package" ;;
	esac
}

# apt_versions PKG: the versions of PKG that apt's lists know, newest first.
apt_versions() {
	apt-cache madison "$1" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}'
}

# apt_deb PKG VER ARCH [strict]: the path of PKG's .deb at VER (ARCH: all,
# amd64) in the cache, downloaded when it is not there.  Lists that do not
# know PKG, or not VER (lists older than the file that recorded VER), are
# refreshed once; a VER they still lack is gone from the archive: with
# "strict" an error, else the newest is taken, with a warning naming both.
apt_deb() {
	local pkg=$1 ver=$2 arch=$3 strict=${4:-} dl=$CACHE/dl avail deb f newest
	mkdir -p "$dl"
	deb=$dl/${pkg}_${ver}_$arch.deb
	[ -s "$deb" ] && { echo "$deb"; return 0; }
	avail=$(apt_versions "$pkg")
	if ! grep -qxF "$ver" <<<"$avail"; then
		apt-get update -q >/dev/null 2>&1 || true
		avail=$(apt_versions "$pkg")
	fi
	[ -n "$avail" ] || die "package $pkg is not known to apt (check /etc/apt/sources.list)"
	if ! grep -qxF "$ver" <<<"$avail"; then
		# shellcheck disable=SC2086,SC2116 # the versions on one line
		[ -z "$strict" ] || die "unknown base version $pkg $ver (apt has: $(echo $avail))"
		newest=$(head -n1 <<<"$avail")
		warn "$pkg $ver is gone from the archive; using the newest, $newest"
		ver=$newest
		deb=$dl/${pkg}_${ver}_$arch.deb
	fi
	if [ ! -s "$deb" ]; then
		(cd "$dl" && apt-get download -q "$pkg=$ver" >"$dl/download-$pkg.log" 2>&1) ||
			die "apt-get download $pkg=$ver failed: $(grep -m1 '^E:' "$dl/download-$pkg.log" || tail -n1 "$dl/download-$pkg.log")"
		# apt names the file after the version with ':' escaped; normalise.
		f=$(ls -t "$dl"/"${pkg}"_*"${ver#*:}"_"$arch".deb 2>/dev/null | head -n1)
		[ -n "$f" ] || die "apt-get download left no .deb for $pkg=$ver"
		[ "$f" = "$deb" ] || mv "$f" "$deb"
	fi
	echo "$deb"
}

# start_config ARCH FRAGMENT...: the configuration to start from in place of
# the arch's own when a fragment says so ("#@ start: debian": Debian's, from
# scripts/debian-config.sh, for x86_64 only); nothing otherwise.
start_config() {
	local arch=$1
	shift
	[ $# -gt 0 ] && grep -qx '#@ start: debian' "$@" || return 0
	[ "$arch" = x86_64 ] || die "'#@ start: debian' is for x86_64, not $arch"
	"$TOP/scripts/debian-config.sh"
}

# unpack_base DEB DIR BRANCH: extract the linux-source tarball of the
# package DEB into DIR (replacing DIR) and make DIR a git repository with one
# commit on BRANCH, tagged "base", recording "$BASE_PKG $BASE_VER" in its
# config as thunkless.base.  BASE_VER is set from DEB's name
# (<package>_<version>_all.deb: fetch-base.sh may have fallen back to
# another version than BASE recorded).
unpack_base() {
	local deb=$1 dest=$2 branch=$3 tmp src r v
	v=$(basename "$deb" _all.deb)
	BASE_VER=${v#*_}
	command -v dpkg-deb >/dev/null || die "dpkg-deb not found (this harness expects Debian)"
	info "unpacking $(basename "$deb")"
	mkdir -p "$(dirname "$dest")"
	tmp=$(dirname "$dest")/unpack.$$
	rm -rf "$tmp" && mkdir -p "$tmp"
	dpkg-deb --fsys-tarfile "$deb" 2>/dev/null |
		tar -xf - -C "$tmp" --wildcards '*usr/src/linux-source-*.tar.xz' 2>/dev/null ||
		{ rm -rf "$tmp"; die "corrupt package $deb: no linux-source tarball inside"; }
	tar -xJf "$tmp"/usr/src/linux-source-*.tar.xz -C "$tmp" 2>"$tmp.err" ||
		{ r=$(head -n1 "$tmp.err"); rm -rf "$tmp" "$tmp.err"; die "corrupt tarball in $deb: $r"; }
	rm -f "$tmp.err" "$tmp"/usr/src/linux-source-*.tar.xz
	src=$(find "$tmp" -maxdepth 1 -mindepth 1 -type d -name 'linux-source-*' | head -n1)
	[ -n "$src" ] && [ -f "$src/Makefile" ] || { rm -rf "$tmp"; die "corrupt tarball in $deb: no kernel Makefile"; }
	rm -rf "$dest"
	mv "$src" "$dest"
	rm -rf "$tmp"
	info "creating git repository in $dest"
	git -C "$dest" init -q -b "$branch"
	git -C "$dest" config user.name "$GIT_COMMITTER_NAME"
	git -C "$dest" config user.email "$GIT_COMMITTER_EMAIL"
	git -C "$dest" config core.autocrlf false
	git -C "$dest" config gc.auto 0
	git -C "$dest" add -A -f .
	GIT_AUTHOR_DATE=$GIT_COMMITTER_DATE git -C "$dest" commit -q -m "base: $BASE_PKG $BASE_VER"
	git -C "$dest" tag base
	git -C "$dest" config thunkless.base "$BASE_PKG $BASE_VER"
}

# series_list DIR: the patch files named by DIR/series, in order.
series_list() {
	local dir=$1 p
	[ -f "$dir/series" ] || return 0
	while read -r p; do
		case $p in '' | '#'*) continue ;; esac
		[ -f "$dir/$p" ] || die "$dir/series names $p, which does not exist"
		echo "$dir/$p"
	done <"$dir/series"
}

# kmake ARCH O [ARGS...]: make in the kernel tree with ccache.
kmake() {
	local arch=$1 out=$2
	shift 2
	make -s -C "${SRC:-$TREE}" O="$out" ARCH="$arch" CC="$KCC" HOSTCC="$KHOSTCC" \
		-j"$JOBS" "$@"
}

setup_ccache() {
	export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
	export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$TOP}
	export CCACHE_SLOPPINESS=${CCACHE_SLOPPINESS:-time_macros,include_file_mtime,include_file_ctime}
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
	# Debug info embeds the build directory; without this a second clone
	# (CI) would miss every object that the first one cached.
	export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
	# Depend mode: a miss compiles once, taking the includes from the
	# dependency file kbuild asks for (-Wp,-MMD), instead of running the
	# preprocessor first to hash its output; a cold build's compiles took
	# about a tenth less CPU (net/core/dev.o, 2026-12-05, Zen 5).
	export CCACHE_DEPEND=${CCACHE_DEPEND:-1}
	export KBUILD_BUILD_TIMESTAMP=${KBUILD_BUILD_TIMESTAMP:-2000-01-01}
	export KBUILD_BUILD_USER=thunkless KBUILD_BUILD_HOST=thunkless
	# The kernel's compiler goes through cc-ccache.sh, which leaves out of
	# the cache the sources that read a file with .incbin (depend mode
	# does not hash that file: a stale piggy.o put an old kernel in a new
	# bzImage).  The host programs read none.
	if command -v ccache >/dev/null; then
		KCC="$TOP/scripts/cc-ccache.sh gcc"
		KHOSTCC="ccache gcc"
	else
		KCC=gcc
		KHOSTCC=gcc
	fi
}

# h16: a short digest of stdin, 16 hex digits.
h16() {
	sha256sum | cut -c1-16
}

# series_hash [DIR]: a digest of DIR's series file and the patches it
# names (DIR: by default the series, $PATCHDIR).
series_hash() {
	local dir=${1:-$PATCHDIR}
	{ cat "$dir/series" 2>/dev/null || true; series_list "$dir" | xargs -r cat; } | h16
}

# profile_fragments NAME...: the files of a profile's fragment names, in
# order.  configs/NAME-<base>.config, where it exists, follows
# configs/NAME.config for that base: what differs there (a renamed or
# removed symbol).
profile_fragments() {
	local f
	for f in "$@"; do
		echo "$TOP/configs/$f.config"
		[ ! -f "$TOP/configs/$f-$KVER.config" ] || echo "$TOP/configs/$f-$KVER.config"
	done
}

# build_moved RECORD SRC: what moved between a kernel's last build, as
# build.sh recorded it in RECORD (.thunkless-built: "commit", "uncommitted",
# "start", "flags", "fragments", one line each), and the record on stdin,
# in words, "; " between them.  SRC is the tree, to tell a commit re-made
# with the same content ("make tree" again) from a change.
build_moved() {
	local rec=$1 src=$2 key was now why=() old new
	if [ ! -f "$rec" ]; then
		echo "its last build left no record of what it was built from"
		return 0
	fi
	while IFS=$'\t' read -r key was now; do
		case $key in
		commit)
			old=$(git -C "$src" rev-parse -q --verify "$was^{tree}" 2>/dev/null) || old=
			new=$(git -C "$src" rev-parse -q --verify "$now^{tree}" 2>/dev/null) || new=
			if [ -n "$old" ] && [ "$old" = "$new" ]; then
				why+=("its tree's commit moved from ${was:0:12} to ${now:0:12}, with the same content (the kernel's release names the commit)")
			else
				why+=("its tree moved from ${was:0:12} to ${now:0:12}")
			fi
			;;
		uncommitted) why+=("the uncommitted changes of its tree differ") ;;
		start) why+=("Debian's configuration it starts from changed") ;;
		flags) why+=("its profile's line or make flags changed") ;;
		fragments) why+=("its config fragments changed") ;;
		*) why+=("its record's $key changed") ;;
		esac
	done < <(awk 'NR == FNR { k = $1; sub(/^[^ ]* /, ""); was[k] = $0; next }
		{ k = $1; sub(/^[^ ]* /, "") }
		was[k] != $0 { print k "\t" (was[k] == "" ? "-" : was[k]) "\t" $0 }' "$rec" -)
	if [ ${#why[@]} -eq 0 ]; then
		echo "its stamp differs, but not its record's parts"
		return 0
	fi
	local msg='' r
	for r in "${why[@]}"; do msg+=${msg:+; }$r; done
	echo "$msg"
}

# am_patches DIR WHAT WHERE PATCH...: git am each patch (no 3-way, so no
# fuzz) in the git checkout DIR, skipping cover letters.  On failure: git's
# output, the am aborted, and "WHAT <name> does not apply WHERE: <reason>".
am_patches() {
	local dir=$1 what=$2 where=$3 p log reason
	shift 3
	log=$(mktemp)
	for p in "$@"; do
		case $(basename "$p") in 0000-*) continue ;; esac
		if ! git -C "$dir" am -q --no-3way --committer-date-is-author-date "$p" >"$log" 2>&1; then
			cat "$log" >&2
			reason=$(grep -m1 -E '^error:' "$log" || grep -m1 -v '^\s*$' "$log" || echo "git am failed")
			git -C "$dir" am --abort >/dev/null 2>&1 || true
			rm -f "$log"
			die "$what $(basename "$p") does not apply${where:+ $where}: $reason"
		fi
	done
	rm -f "$log"
}
