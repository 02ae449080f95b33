# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # variables for the scripts that source this
# The tests behind check.sh.  Sourced.  Each prints a one-line reason last
# when it fails and exits (returns) 0 pass, 4 skip, other fail.

# One scratch worktree of build/linux, build/scratch/linux, serves in turn
# every check that needs a checkout other than build/linux: the series
# applied afresh (series-applies, export-noop, in the first lane), then, on
# the main line, each commit of it (bisect), the base (warnings) and the
# series with a hole in tc's ladder (kunit-broken-ladder).  Its kernel
# builds go to build/scratch/out/.  Once the main line is done with it, it
# is removed (scratch_drop), with the matrix's and the warning builds'
# outputs: a worktree is 1.5 GiB, a kernel's objects 0.3 GiB, and CI's
# disk is shared.  What the others need of the applied series is git's:
# its commits, under refs/thunkless/applied.
SCRATCH=$BUILD/scratch
# Taken (flock) by whatever copies or writes build-x86_64's output while
# the other line may be running: seed_out's copy, kselftest-build's
# headers_install.
X86_LOCK=$BUILD/.x86_64-out.lock
APPLY=$SCRATCH/linux
APPLIED=refs/thunkless/applied
# What this base's series is proved with (scripts/lib.sh base_file): the
# default base's lists, or tests/kselftests-<base> and so on; empty where
# a base has none, and the check that needs it is skipped, saying so.
KSELFTESTS=$(base_file "$TOP/tests/kselftests")
KUNIT_SUITES=$(base_file "$TOP/tests/kunit-suites")
AUDIT_LIST=$(base_file "$TOP/audit/fastpath.list")

# not_on_base WHAT: say that this base's series lacks WHAT and return 4
# (skip); a check function then exits with it.
not_on_base() {
	echo "not on base $KVER: its series has no $*"
	return 4
}

# scratch_drop: remove the scratch worktree and the builds of it.
scratch_drop() {
	drop_worktree "$APPLY"
	rm -rf "$SCRATCH"
}

# keep_log OUT NAME: keep OUT's build logs in the check's logs as
# NAME-<log>, before OUT goes.
keep_log() {
	local f
	for f in "$1"/build.log "$1"/warnings.log; do
		[ -f "$f" ] && cp "$f" "$LOGS/$2-$(basename "$f")"
	done
	return 0
}

# The series, applied afresh on the base with git am (which takes no fuzz).
check_series_applies() (
	tgit update-ref -d "$APPLIED" 2>/dev/null
	worktree "$APPLY" base
	list=$(series_list "$PATCHDIR") || exit 1
	# shellcheck disable=SC2086
	am_patches "$APPLY" patch "" $list
	git -C "$APPLY" update-ref "$APPLIED" HEAD || die "cannot record the applied series"
	echo "$(git -C "$APPLY" rev-list --count base..HEAD) patches apply on $(tgit config thunkless.base)"
)

commits() {
	tgit rev-parse -q --verify "$APPLIED" >/dev/null && tgit rev-list --reverse "base..$APPLIED"
}

# Regenerating the patches from the applied series changes no byte: no
# hunk moved (offset), no stale index line, no date or hash that churns.
check_export_noop() (
	need series-applies || exit 1
	tmp=$(mktemp -d)
	TREE=$APPLY EXPORT_DIR=$tmp "$TOP/scripts/export.sh" || exit 1
	want=$(mktemp -d)
	cp "$PATCHDIR"/series "$want"/
	list=$(series_list "$PATCHDIR") || exit 1
	for p in $list; do cp "$p" "$want"/; done
	if ! diff -ru "$want" "$tmp"; then
		die "make export would change patches/ (offsets, fuzz or stale patches): run make tree && make export"
	fi
	echo "export reproduces all $(wc -l <"$PATCHDIR/series") files byte for byte"
)

# Lists the shell scripts of the harness under DIR (the project by
# default) for check_shellcheck, one per line: where DIR is a checkout,
# git's *.sh files, tracked or new and not ignored; else every *.sh
# outside build/ and results/.
shellcheck_files() {
	local d=${1:-$TOP}
	if git -C "$d" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$d" ls-files --cached --others --exclude-standard -- '*.sh'
	else
		(cd "$d" && find . \( -path ./build -o -path ./results \) -prune -o -name '*.sh' -print | sed 's|^\./||' | sort)
	fi
}

# check_shellcheck [DIR]: shellcheck -x at warning level over every shell
# script of the harness; the first finding is the reason when it fails.
check_shellcheck() (
	d=${1:-$TOP}
	command -v shellcheck >/dev/null || die "shellcheck is not installed (scripts/deps.sh check)"
	files=$(shellcheck_files "$d")
	[ -n "$files" ] || die "no shell script found under $d"
	cd "$d" || exit 1
	n=$(wc -l <<<"$files")
	if ! out=$(xargs -d '\n' shellcheck -x -S warning -f gcc <<<"$files" 2>&1); then
		echo "$out"
		die "shellcheck: $(grep -c . <<<"$out") finding(s) in $n scripts, the first: $(head -n1 <<<"$out" | cut -c1-200)"
	fi
	echo "shellcheck -x -S warning: $n scripts, no finding"
)

# waivers: the checkpatch waivers of the series, "<patch-glob> <TYPE>
# <reason>" one per line, without comments and blank lines; a waiver
# without a reason stops the check.
waivers() {
	local glob type reason
	[ -f "$PATCHDIR/checkpatch-waivers" ] || return 0
	while read -r glob type reason; do
		case $glob in '' | '#'*) continue ;; esac
		[ -n "$reason" ] || die "waiver for $glob $type has no reason"
		echo "$glob $type $reason"
	done <"$PATCHDIR/checkpatch-waivers"
}

# check_waivers: every checkpatch waiver names a patch of the series, so
# that a renumbered patch cannot leave its waiver behind, silently unused,
# while its own warning fails (or another patch takes the waiver).
check_waivers() (
	w=$(waivers) || exit 1
	patches=$(series_list "$PATCHDIR") || exit 1
	n=0
	while read -r glob type _; do
		[ -n "$glob" ] || continue
		hit=
		for p in $patches; do
			# shellcheck disable=SC2053
			[[ ${p##*/} == $glob ]] && hit=${p##*/}
		done
		[ -n "$hit" ] || die "checkpatch-waivers: '$glob' ($type) names no patch of the series"
		echo "$glob $type: $hit"
		n=$((n + 1))
	done <<<"$w"
	echo "$n waivers, each naming a patch"
)

check_checkpatch() (
	p=$1
	ign=()
	base=$(basename "$p")
	w=$(waivers) || exit 1
	while read -r glob type _; do
		# shellcheck disable=SC2053
		[ -n "$glob" ] && [[ $base == $glob ]] && ign+=("--ignore=$type")
	done <<<"$w"
	cd "$TREE" || exit 1
	# Debian's python3 first: checkpatch's SPDX check needs its python3-ply.
	out=$(PATH=/usr/bin:/bin:$PATH perl scripts/checkpatch.pl --strict --showfile --color=never \
		"${ign[@]}" "$p" 2>&1)
	rc=$?
	echo "$out"
	! grep -q '^Traceback' <<<"$out" || die "checkpatch could not run one of its checks (see log)"
	[ $rc -eq 0 ] || die "checkpatch --strict: $(grep -m1 -E '(^|: )(ERROR|WARNING|CHECK):' <<<"$out")"
)

# What the series builds code in: each directory under net/ and drivers/
# where it changes a C file, whole, so that a touched header is caught
# through the files there that include it; elsewhere (kernel/, lib/,
# arch/: single files on the fast path, such as the softirq core's or
# rhashtable's) the objects of the files it changes, alone, as those
# directories hold much that no networking header reaches, and the bisect
# and the matrix would rebuild it at every step that changes a header.
series_dirs() {
	local f d dirs=
	for f in $(tgit diff --name-only "base..$APPLIED" -- '*.c'); do
		d=$(dirname "$f")
		case $d in
		tools/* | Documentation/* | scripts/* | samples/*) continue ;;
		net | net/* | drivers/*) dirs="$dirs $d/" ;;
		*) dirs="$dirs ${f%.c}.o" ;;
		esac
	done
	# shellcheck disable=SC2086 # one word per line
	[ -z "$dirs" ] || dirs=$(printf '%s\n' $dirs | sort -u | tr '\n' ' ')
	echo " ${dirs:-net/sched/}"
}

# series_cobjs: the objects of every kernel .c file the series adds or
# changes, whatever builds them.
series_cobjs() {
	local f
	for f in $(tgit diff --name-only --diff-filter=AM "base..$APPLIED" -- '*.c'); do
		case $f in tools/* | Documentation/* | scripts/* | samples/*) continue ;; esac
		echo "${f%.c}.o"
	done
}

# configured_objs OUT TARGET...: the objects kbuild builds for those
# targets (directories, objects) with OUT's configuration, up to date or
# not: a dry run (make -n) in which every object's command line has
# changed, so that each is listed.  SRC as for kmake.
configured_objs() {
	local out=$1
	shift
	setup_ccache
	kmake x86_64 "$out" -n KCFLAGS="${KCFLAGS:-} -DTHUNKLESS_DRY_RUN" "$@" 2>/dev/null |
		grep -oE ' -o [^ ]+\.o( |$)' | awk '{ print $2 }' | sort -u
}

# series_configured OUT TARGET...: what a bisect step and a matrix
# variant build by default (make check without --long, which builds
# series_dirs instead), and build-x86_64-objs: the series' objects
# (series_cobjs) among those kbuild builds for TARGET... with OUT's
# configuration (configured_objs; SRC as for kmake).  A header the series
# changes is then compiled through the series' own files that include it,
# the users of what it adds, rather than through every file of their
# directories.  On the slow 2-core Zen 5 host of 2026-12-05 (a kernel built
# 2.4 to 2.9 times slower than on the Xeon of the README's timing table),
# CI's cold run of the 6.1 part alone took 88 minutes, with the bisection
# of the header patches its largest part.
series_configured() {
	local configured o
	configured=$(configured_objs "$@")
	[ -n "$configured" ] || die "a dry run of kbuild over ${*:2} listed no object"
	for o in $(series_cobjs); do
		grep -qxF "$o" <<<"$configured" && echo "$o"
	done
	return 0
}

# warnings_in_series LOG: the compiler warnings in a build log that point
# at a file the series changes.  The series' files must build without any;
# warnings of other files are the base's.  (A log shows the warnings of the
# objects that build compiled; ccache replays a cached object's warnings.)
warnings_in_series() {
	local files
	files=$(tgit diff --name-only "base..$APPLIED") || return 1
	sed -n -E 's/^([^ :]+):[0-9]+(:[0-9]+)?: warning: (.*)/\1: \3/p' "$1" |
		sed -E 's|^(\.\./)+[^/]+/||; s|^/.*/build/([^/]+/)*linux/||' |
		awk 'NR == FNR { f[$1] = 1; next } { p = $1; sub(/:$/, "", p) } p in f' <(echo "$files") -
}

# no_series_warnings LOG: fail, listing them, if LOG has any.
no_series_warnings() {
	local w
	w=$(warnings_in_series "$1") || die "cannot list the series' files"
	[ -z "$w" ] || { echo "$w"; die "$(wc -l <<<"$w") compiler warnings in the series' files, first: $(head -n1 <<<"$w")"; }
}

# seed_out SRC OUT: make OUT a copy of build-x86_64's output directory for
# a build of SRC (build/linux itself, or a worktree of it) whose files are
# those build-x86_64 built: every object of the copy is then current, and
# the build compiles only what SRC changes afterwards (a cut ladder, an
# older commit) and what includes that.  kbuild writes the source tree's
# absolute path into every .cmd file, and the tools' build (objtool, which
# every object depends on) the output directory's: the copy's are rewritten
# to SRC and OUT.  Then every file of the copy gets one date, now: none is
# older than another, or than any file of SRC, and only a file SRC changes
# afterwards is newer.  When SRC's tree is not build/linux's HEAD, or either
# has uncommitted changes, OUT is left alone: a full build, which ccache
# serves.
seed_out() {
	local src=$1 out=$2 from=${SEED_FROM:-$BUILD/out/x86_64}
	[ "${STATUS[${SEED_BUILD:-build-x86_64}]:-}" = ok ] && [ -f "$from/.thunkless-stamp" ] || return 0
	[ "$(git -C "$src" rev-parse 'HEAD^{tree}')" = "$(tgit rev-parse 'HEAD^{tree}')" ] || return 0
	tgit diff --quiet HEAD && git -C "$src" diff --quiet HEAD || return 0
	rm -rf "$out"
	mkdir -p "$(dirname "$out")"
	# kselftest-build installs headers into it, maybe in the other line
	{ flock 9 && cp -a "$from" "$out"; } 9>"$X86_LOCK" || die "cannot copy $from to $out"
	rm -f "$out/.thunkless-stamp"
	local edit
	edit="s#$(realpath "$from")/#$(realpath "$out")/#g"
	[ "$(realpath "$src")" = "$(realpath "$TREE")" ] || edit="$edit; s#$(realpath "$TREE")/#$(realpath "$src")/#g"
	find "$out" \( -name '*.cmd' -o -name '*.d' \) -print0 | xargs -0 sed -i "$edit" ||
		die "cannot rewrite $out's .cmd files"
	find "$out" -print0 | xargs -0 touch -h -d "@$(date +%s.%N)" || die "cannot date $out"
	echo "seeded $out from $from"
}

# check_x86_64_objs: the build proofs' x86_64 output, when the base's
# kernels are not built (BUILDS_ONLY in check.sh): build/linux configured
# as build-x86_64 and prepared, and the series' objects that this
# configuration builds (a dry run of kbuild over series_dirs lists them),
# compiled, with no compiler warning in the series' files.  The bisect and
# the matrix start from a copy of it (seed_out), as from build-x86_64's.
check_x86_64_objs() (
	need tree series-applies || exit 1
	out=$SEED_FROM
	rm -rf "$out"
	OUT=$out TARGETS=prepare "$TOP/scripts/build.sh" x86_64 >/dev/null || exit 1
	# shellcheck disable=SC2046 # one directory or object per word
	objs=$(series_configured "$out" $(series_dirs)) || exit 1
	[ -n "$objs" ] || die "the x86_64 configuration builds none of the series' files"
	OUT=$out TARGETS="$(echo $objs)" "$TOP/scripts/build.sh" x86_64 || exit 1
	no_series_warnings "$out/build.log"
	tgit rev-parse HEAD >"$out/.thunkless-stamp"
	echo "built the series' $(wc -w <<<"$objs") objects of $KVER's x86_64 configuration"
)

# check_bisect COMMIT: the series' objects that exist at this commit and
# that its configuration builds (with --long its directories whole,
# series_dirs) build at this commit, with no compiler
# warning in a file the series changes.  W=1 and sparse are
# check_warnings' job, on the whole series: the bisect steps build with the
# flags of build-x86_64, and their worktree and output directory sit at the
# same relative places as build/linux and build/out/x86_64, so ccache serves
# every object this commit does not change.  A step whose commit changes no
# Kconfig reuses the previous step's configuration (scripts/build.sh).
check_bisect() (
	need series-applies || exit 1
	wt=$APPLY out=$SCRATCH/out/x86_64
	worktree "$wt" "$1"
	seed_out "$wt" "$out"
	git -C "$wt" log --oneline -1
	# the series' directories and other objects that exist at this commit
	there=
	for d in $(series_dirs); do
		[ -d "$wt/$d" ] || [ -f "$wt/${d%.o}.c" ] && there="$there $d"
	done
	dirs=
	if [ "${SCOPE:-objects}" = dirs ]; then
		dirs=$there
	else
		# The series' objects that exist at this commit and that its
		# configuration builds: a file may come before the option that
		# builds it (6.12's 0001 adds net/core/direct_calls.c, which
		# nothing selects before 0002).  What kbuild builds changes only
		# with a Kconfig or a Makefile: listed again only then.
		key=$(git -C "$wt" ls-tree -r HEAD | grep -E $'\t(.*/)?(Kconfig[^/]*|Makefile|Kbuild)$' |
			sha256sum | cut -c1-32)
		list=$out/.thunkless-objs-$key
		if [ ! -f "$list" ]; then
			SRC=$wt OUT=$out TARGETS=prepare CONFIG_NOVERIFY="thunkless slots thunkless-path kunit" \
				"$TOP/scripts/build.sh" x86_64 >/dev/null || exit 1
			# shellcheck disable=SC2086 # one directory or object per word
			SRC=$wt series_configured "$out" $there >"$list.tmp" || exit 1
			mv "$list.tmp" "$list"
		fi
		for o in $(cat "$list"); do
			[ -f "$wt/${o%.o}.c" ] && dirs="$dirs $o"
		done
	fi
	[ "${SCOPE:-objects}" = dirs ] || dirs=${dirs:- prepare}
	echo "building:$dirs"
	SRC=$wt OUT=$out TARGETS="${dirs:-net/sched/}" CONFIG_NOVERIFY="thunkless slots thunkless-path kunit" \
		"$TOP/scripts/build.sh" x86_64 || exit 1
	no_series_warnings "$out/build.log"
)

# check_matrix VARIANT: the series' objects (with --long its directories
# whole) build with that config.  A variant that only changes tc's shape
# names the directories it can affect ("#@ dirs: net/sched/ ..." in its
# fragment): the series' objects there, or those of them that the series
# builds in, are built; every other variant builds all of them.
check_matrix() (
	need tree series-applies || exit 1
	v=$1
	dirs=$(series_dirs)
	f=$TOP/configs/variants/$v.config
	[ -f "$f" ] || die "no variant fragment $f"
	only=$(sed -n 's/^#@ dirs://p' "$f")
	if [ -n "$only" ]; then
		# A directory the series does not build in on this base is
		# left out (a series with no netfilter patch, say); one
		# that the tree lacks is a typo.
		keep=
		for d in $only; do
			[ -d "$TREE/$d" ] || die "$f: '#@ dirs:' names $d, which $TREE does not have"
			[[ " $dirs " == *" $d "* ]] && keep="$keep $d"
		done
		[ -n "$keep" ] || die "$f: '#@ dirs:' names none of the directories the series builds in ($dirs)"
		dirs=${keep# }
	fi
	out=$BUILD/out/matrix-$v
	# shellcheck disable=SC2064
	trap "keep_log '$out' matrix-$v; rm -rf '$out' '$out.config'" EXIT
	# A variant whose configuration is build-x86_64's on this base (a
	# fragment that turns off what this base's series does not have)
	# builds nothing that build-x86_64 did not: skipped, saying so.
	rm -rf "$out.config"
	OUT=$out.config TARGETS=.config "$TOP/scripts/build.sh" x86_64 "$f" >/dev/null || exit 1
	from=${SEED_FROM:-$BUILD/out/x86_64}
	if [ "${STATUS[${SEED_BUILD:-build-x86_64}]:-}" = ok ] && cmp -s "$out.config/.config" "$from/.config"; then
		echo "$v's configuration is ${SEED_BUILD:-build-x86_64}'s on $KVER: nothing to build that it did not"
		exit 4
	fi
	rm -rf "$out.config"
	seed_out "$TREE" "$out"
	# By default the series' objects under those directories that this
	# configuration builds (configured_objs: a variant turns off some of
	# the series' own options, or tc's actions; kbuild compiles again
	# those of them that the variant changes), with --long the
	# directories whole.
	if [ "${SCOPE:-objects}" = objects ]; then
		OUT=$out TARGETS=prepare "$TOP/scripts/build.sh" x86_64 "$f" >/dev/null || exit 1
		# shellcheck disable=SC2086 # one directory per word
		objs=$(series_configured "$out" $dirs) || exit 1
		[ -n "$objs" ] || die "$f: this configuration builds none of the series' objects under $dirs"
		dirs=$(echo $objs)
	fi
	echo "building: $dirs"
	OUT=$out TARGETS="$dirs" "$TOP/scripts/build.sh" x86_64 "$f" || exit 1
	no_series_warnings "$out/build.log"
)

# check_debian: the series in Debian's own amd64 configuration for this
# base (configs/debian.config, scripts/debian-config.sh), with the series'
# opt-in turned on as a distribution that takes it would: the opt-in's
# options stick there (scripts/config.sh checks every symbol the fragments
# ask for), and the series' objects that this configuration compiles (a
# dry run of kbuild over series_dirs lists them; with --long those
# directories whole), built in or as modules as Debian builds them, build
# with no compiler warning in the series' files; in them every dispatch
# point calls its slots' static calls and the calls by name are direct
# (audit/slots.list, checked by audit/obj-sites.sh from the objects'
# relocations: no vmlinux of that configuration is linked).  Its own configuration,
# so no copy of build-x86_64's objects: prepared and built from scratch
# (ccache serves a second run).
check_debian() (
	need tree series-applies || exit 1
	out=$BUILD/out/x86_64-debian
	# shellcheck disable=SC2064
	trap "keep_log '$out' x86_64-debian; rm -rf '$out'" EXIT
	rm -rf "$out"
	OUT=$out TARGETS=prepare "$TOP/scripts/build.sh" x86_64-debian >/dev/null || exit 1
	dirs=$(series_dirs)
	# shellcheck disable=SC2086 # one directory or object per word
	objs=$(series_configured "$out" $dirs) || exit 1
	[ -n "$objs" ] || die "Debian's configuration builds none of the series' objects"
	[ "${SCOPE:-objects}" = dirs ] || dirs=$(echo $objs)
	echo "building: $dirs"
	OUT=$out TARGETS="$dirs" "$TOP/scripts/build.sh" x86_64-debian || exit 1
	no_series_warnings "$out/build.log"
	# every dispatch point compiles its slots' static calls, and the calls
	# by name are direct, in Debian's configuration too (the vmlinux
	# audit checks the same in build-x86_64's)
	list=$(base_file "$TOP/audit/slots.list")
	[ -n "$list" ] || die "no audit/slots.list for $KVER"
	"$TOP/audit/obj-sites.sh" slots "$list" "$out" || die "a dispatch point of the series is not as $(basename "$list") says in Debian's configuration"
	# what Debian builds in and what as modules, of the series' objects
	bi='' mods=''
	for o in $objs; do
		c=$out/$(dirname "$o")/.$(basename "$o").cmd
		[ -f "$c" ] || die "built $o, but found no $c"
		if grep -q -- '-DMODULE' "$c"; then mods="$mods ${o%.o}"; else bi="$bi ${o%.o}"; fi
	done
	echo "Debian's configuration ($(basename "$("$TOP/scripts/debian-config.sh")")) with the series' opt-in:"
	# (a symbol that this base's Kconfig lacks, "#@ may-be-absent", is
	# left out: one that did not stick failed the configuration)
	# shellcheck disable=SC2046 # one fragment per word
	grep -hoE '^CONFIG_[A-Z0-9_]+=[^ ]*' $(profile_fragments thunkless slots thunkless-path) | cut -d= -f1 | sort -u |
		while read -r s; do grep -E "^$s=" "$out/.config" | sed 's/^/  /'; done
	echo "  built in ($(wc -w <<<"$bi")):$bi"
	echo "  modules ($(wc -w <<<"$mods")):$mods"
)

# W=1 and sparse (C=2) on every .c file the series touches, against the
# same files in the base: no warning that the base does not already have.
# Configured as build-x86_64 plus configs/warnings.config, which turns on
# the subsystems the guest leaves out and the series touches (mac80211).
# collect SRC OUT OBJ...: the normalised warnings of those objects.
collect_warnings() {
	local src=$1 out=$2
	shift 2
	SRC=$src OUT=$out TARGETS="prepare" CONFIG_NOVERIFY="thunkless slots thunkless-path kunit" \
		"$TOP/scripts/build.sh" x86_64 "$TOP/configs/warnings.config" >/dev/null || return 1
	setup_ccache
	SRC=$src kmake x86_64 "$out" -k W=1 C=2 "$@" >"$out/warnings.log" 2>&1
	local rc=$?
	sed -n -E 's/^([^ :]+):[0-9]+:[0-9]+: (warning|error): (.*)/\1: \2: \3/p' "$out/warnings.log" |
		sed -E "s|^$src/||; s|^(\.\./)+||" | sort -u
	return $rc
}

check_warnings() (
	need tree series-applies || exit 1
	files=$(tgit diff --name-only --diff-filter=AM "base..$APPLIED" -- '*.c' |
		grep -vE '^(tools|Documentation|scripts|samples)/' || true)
	[ -n "$files" ] || { echo "the series touches no kernel .c file"; exit 4; }
	basesrc=$APPLY wb=$SCRATCH/out/warn-base ws=$BUILD/out/warn-series
	# shellcheck disable=SC2064
	trap "keep_log '$wb' warn-base; keep_log '$ws' warn-series; rm -rf '$wb' '$ws'" EXIT
	worktree "$basesrc" base
	objs=() baseobjs=()
	for f in $files; do
		objs+=("${f%.c}.o")
		[ -f "$basesrc/$f" ] && baseobjs+=("${f%.c}.o")
	done
	if [ ${#baseobjs[@]} -gt 0 ]; then
		collect_warnings "$basesrc" "$wb" "${baseobjs[@]}" >"$LOGS/warnings-base.txt" ||
			die "base build for the warning baseline failed: $(grep -m1 -E 'error|Error' "$wb/warnings.log")"
	else
		: >"$LOGS/warnings-base.txt"
	fi
	collect_warnings "$TREE" "$ws" "${objs[@]}" >"$LOGS/warnings-series.txt" ||
		die "the series' touched files do not build with W=1 C=2: $(grep -m1 -E 'error|Error' "$ws/warnings.log")"
	new=$(comm -13 "$LOGS/warnings-base.txt" "$LOGS/warnings-series.txt")
	echo "checked: $files"
	if [ -n "$new" ]; then
		echo "$new"
		die "$(wc -l <<<"$new") new W=1/sparse warnings in touched files"
	fi
	echo "no new W=1/sparse warnings in ${#objs[@]} files ($(wc -l <"$LOGS/warnings-base.txt") already in the base)"
)

# check_audit BUILD VMLINUX: no unexpected indirect call, thunk call, jump
# table or out-of-line must-inline callee in the fast-path functions.
check_audit() (
	[ -n "$AUDIT_LIST" ] || { not_on_base "fast-path audit list (audit/fastpath.list-$KVER)"; exit; }
	need "$1" || exit 1
	make -s -C "$TOP/audit" >/dev/null || die "building audit/audit failed"
	"$TOP/audit/audit" -l "$AUDIT_LIST" -k patched "$2"
)

image_of() {
	case $1 in
	qemu) echo "$BUILD/out/x86_64/arch/x86/boot/bzImage" ;;
	uml) echo "$BUILD/out/um-census-mod/linux" ;;
	esac
}

# build_of KIND: the check that builds KIND's kernel.
build_of() {
	case $1 in
	qemu) echo build-x86_64 ;;
	uml) echo build-um-census-mod ;;
	esac
}

check_boot() (
	kind=$1
	need "$(build_of "$1")" || exit 1
	"$TOP/scripts/run-$kind.sh" --kernel "$(image_of "$kind")" --timeout 120 -- bash "$TOP/tests/guest/smoke.sh"
)

# The runner itself: status, output, panic and hang handling, per kind.
check_guest_harness() (
	need "$(build_of "$1")" || exit 1
	bash "$TOP/tests/guest-test.sh" "$1" "$(image_of "$1")"
)

# check_kunit [PROFILE]: the KUnit suites, built in, as build-PROFILE's
# kernel (x86_64 by default) ran them at boot, with no splat in its log;
# x86_64-debug (--long) runs them under KASAN and lockdep, whose RCU checks
# watch the direct-call slots' fast path.
check_kunit() (
	[ -n "$KUNIT_SUITES" ] || { not_on_base "KUnit suite (tests/kunit-suites-$KVER)"; exit; }
	p=${1:-x86_64} tmo=180
	need "build-$p" || exit 1
	[ "$p" = x86_64 ] || tmo=600
	"$TOP/scripts/run-qemu.sh" --kernel "$BUILD/out/$p/arch/x86/boot/bzImage" --timeout $tmo -- \
		bash "$TOP/tests/guest/kunit.sh" "$KUNIT_SUITES"
)

# A ladder with a hole must fail the KUnit suite cleanly, naming the
# function that is missing, and must not run the real op on the suite's
# fake filter (which oopses): the x86_64 kernel built from the scratch
# worktree at the series with matchall's entry cut out of tc_classify().
# It starts from a copy of build-x86_64's objects (seed_out), so only the
# objects that include tc_wrapper.h compile.
check_kunit_broken() (
	need build-x86_64 series-applies || exit 1
	BROKEN=$APPLY bout=$SCRATCH/out/x86_64
	worktree "$BROKEN" "$(tgit rev-parse HEAD)"
	seed_out "$BROKEN" "$bout"
	h=$BROKEN/include/net/tc_wrapper.h
	# A mark no earlier build had: every includer compiled from the cut
	# header carries it (in a .discard section, which vmlinux drops), and
	# no cache can serve an object of an earlier cut.
	mark=tc-broken-ladder-$(date +%s%N)-$$
	python3 - "$h" "$mark" <<'PY' || die "cannot cut matchall out of $h"
import re, sys
p, mark = sys.argv[1:]
s = open(p).read()
entry = re.compile(r"#if IS_BUILTIN\(CONFIG_NET_CLS_MATCHALL\)\n.*?#endif\n", re.S)
s, n = entry.subn("", s)
if n != 1:
    sys.exit("expected one matchall entry, found %d" % n)
guard = "#define __NET_TC_WRAPPER_H\n"
if s.count(guard) != 1:
    sys.exit("expected one include guard")
s = s.replace(guard, guard + 'asm(".pushsection .discard.tc_broken_ladder\\n"\n'
              '    ".ascii \\"%s\\"\\n.popsection");\n' % mark)
open(p, "w").write(s)
PY
	# The seeded objects that include the header go, so that they are
	# compiled again whatever make makes of the copies' dates.
	incl=$(grep -rl --include='*.cmd' 'include/net/tc_wrapper\.h' "$bout" | while read -r c; do
		d=$(dirname "$c") f=$(basename "$c" .cmd)
		echo "$d/${f#.}"
	done)
	[ -n "$incl" ] || die "no object in $bout includes tc_wrapper.h"
	# shellcheck disable=SC2086 # one path per word
	rm -f $incl
	# bzImage only: the KUnit suites are built in, and no module is loaded.
	# The mark makes every includer a cache miss, and build.sh checks that
	# the bzImage carries this vmlinux (a stale piggy.o was the flake's
	# cause, 2026-12-08, not the objects).
	SRC="$BROKEN" OUT="$bout" TARGETS=bzImage "$TOP/scripts/build.sh" x86_64 >/dev/null ||
		die "building the broken-ladder kernel failed"
	# The built-in includers (modules are not built) were compiled from the
	# cut header: two fresh-clone checks of 2026-12-07 booted a kernel
	# whose ladder still had matchall.
	[ -f "$bout/net/sched/tc_wrapper_test.o" ] || die "the broken-ladder build made no net/sched/tc_wrapper_test.o"
	n=0
	for o in $incl; do
		[ -f "$o" ] || continue
		grep -qF "$mark" "$o" || die "${o#"$bout"/} was not compiled from the cut tc_wrapper.h"
		n=$((n + 1))
	done
	echo "$n objects compiled from the cut tc_wrapper.h"
	git -C "$BROKEN" checkout -q -- include/net/tc_wrapper.h
	log=$(mktemp)
	"$TOP/scripts/run-qemu.sh" --kernel "$bout/arch/x86/boot/bzImage" \
		--timeout 180 -- bash "$TOP/tests/guest/kunit.sh" "$KUNIT_SUITES" >"$log" 2>&1
	rc=$?
	cat "$log"
	msg=$(grep -m1 'mall_classify is not in the ladder' "$log")
	rm -f "$log"
	[ "$rc" -ne 0 ] || die "the KUnit suite passed with matchall cut out of the ladder"
	[ -n "$msg" ] || die "the KUnit suite failed without naming mall_classify (exit $rc)"
	echo "clean KUnit failure: ${msg#"${msg%%[! ]*}"}"
)

# Direct-call slots under churn: modules loaded and unloaded while pktgen
# sends through filters of other modules; exhaustion, reuse, every packet
# counted, no splat (tests/guest/slots-stress.sh).
# check_slots_stress [PROFILE]: in the x86_64 guest, on build-PROFILE's
# kernel (x86_64 by default), where static calls are patched inline for
# real and two CPUs run at once.  Under TCG a churn round takes about 19 s
# of a core there, against 4 s natively in UML, so the x86_64 kernel runs
# $STRESS_ROUNDS_QEMU rounds and the UML census kernel the script's 20
# (check_slots_stress_uml).  x86_64-debug (KASAN, lockdep, the
# atomic-sleep check; several times slower, --long only) runs all 20.
STRESS_ROUNDS_QEMU=6
check_slots_stress() (
	p=${1:-x86_64}
	need "build-$p" || exit 1
	tmo=600 rounds=$STRESS_ROUNDS_QEMU
	[ "$p" = x86_64 ] || tmo=2400 rounds=20
	"$TOP/scripts/run-qemu.sh" --kernel "$BUILD/out/$p/arch/x86/boot/bzImage" \
		--timeout $tmo --idle-timeout 300 -- bash "$TOP/tests/guest/slots-stress.sh" \
		-r $rounds ${STRESS_POINTS:+-p "$STRESS_POINTS"}
)

# check_slots_stress_uml: the same 20 rounds natively in the UML census
# kernel, where every classifier and action is a module (as distributions
# build them) and static calls and jump labels are the test patches'.
check_slots_stress_uml() { census_guest slots-stress.sh ${STRESS_POINTS:+-p "$STRESS_POINTS"}; }

# census_guest SCRIPT [ARG...]: tests/guest/SCRIPT in the UML census kernel.
# The scripts print a progress line at least every few seconds, so a
# console silent for 300 s is a hung guest: it fails then, naming its last
# line, instead of at the 900 s limit.
census_guest() (
	need build-um-census-mod || exit 1
	"$TOP/scripts/run-uml.sh" --kernel "$BUILD/out/um-census-mod/linux" --timeout 900 --idle-timeout 300 -- \
		bash "$TOP/tests/guest/$1" "${@:2}"
)

# The thunk census kernel counts the retpolines each packet pays: none
# from tc, and (-x: the census kernel has NET_PATH_DIRECT_CALLS) none from
# the drivers' transmit, ndo_features_check or dst_input() on a forwarded
# packet, with the gate on (tests/guest/thunks.sh).
check_thunks() { census_guest thunks.sh $THUNKS_ARGS; }

# Per kind (tests/guest/thunks.sh -k): each classifier and each action of
# the tc-cls and tc-act scenarios alone: none from tc's call sites with the
# gate on, and none from the calls the series made direct inside a kind
# (flower's hash, the ematches' match, mirred's transmit).
check_thunks_kinds() { census_guest thunks.sh $THUNKS_KINDS_ARGS; }

# The modules' slots on the census kernel: cls_matchall and act_gact are
# modules, sit in tc's slots, and 10 filters enter no thunk from tc's call
# sites with the gate on.
check_slots_uml() { census_guest slots.sh -e slots; }

# act_ct's reassembled datagrams are fragmented again when mirred sends
# them, the others sent whole, in both gate states (tests/guest/ct-frag.sh):
# since 0031 (6.12's 0020) tcf_dev_queue_xmit() takes sch_frag_xmit_hook()
# only for a packet that needs it.
check_ct_frag_uml() { census_guest ct-frag.sh; }

# The census kernel inlines its static calls, as x86 does with
# HAVE_STATIC_CALL_INLINE (test patch "um: optionally inline the static
# calls of the kernel's text"): its boot must have made direct exactly the
# call sites to a trampoline that objdump lists in its text, and at least
# one (tests/static-call-sites.py).
check_static_calls_uml() (
	need build-um-census-mod || exit 1
	k=$BUILD/out/um-census-mod/linux
	log=$(mktemp)
	trap 'rm -f "$log"' EXIT
	if ! "$TOP/scripts/run-uml.sh" --kernel "$k" --timeout 120 -- dmesg >"$log" 2>&1; then
		tail -n 20 "$log"
		echo "booting $k for its console failed"
		exit 1
	fi
	python3 "$TOP/tests/static-call-sites.py" "$k" "$log"
)

# Selftests: tests/kselftests names them.  Their directories are copied
# to build/kselftest/ (the tree stays clean) and the C programs it lists
# are compiled there against the x86_64 kernel's UAPI headers.
KSTAGE=$BUILD/kselftest
kselftest_list() { [ -z "$KSELFTESTS" ] || grep -vE '^\s*(#|$)' "$KSELFTESTS" | sed -E 's/^(short|long)\s+//'; }

check_kselftest_build() (
	need build-x86_64 || exit 1
	rm -rf "$KSTAGE"
	mkdir -p "$KSTAGE"
	setup_ccache
	# It writes into build-x86_64's output (usr/include), which seed_out
	# may be copying in the other line: one at a time.
	{ flock 9 && kmake x86_64 "$BUILD/out/x86_64" headers_install INSTALL_HDR_PATH="$KSTAGE/usr" \
		>"$KSTAGE/headers.log" 2>&1; } 9>"$X86_LOCK" ||
		die "make headers_install failed: $(tail -n1 "$KSTAGE/headers.log")"
	dirs=$(kselftest_list | awk '$1 == "build" { print $2; next } { sub("/[^/]*$", "", $1); print $1 }' | sort -u)
	for d in $dirs; do
		src=$TREE/tools/testing/selftests/$d
		[ -d "$src" ] || die "no selftest directory $d in the tree"
		mkdir -p "$KSTAGE/$d"
		cp -a "$src/." "$KSTAGE/$d/"
	done
	kselftest_list | while read -r kw d progs; do
		[ "$kw" = build ] || continue
		targets=()
		for p in $progs; do targets+=("$KSTAGE/$d/$p"); done
		make -C "$TREE/tools/testing/selftests/$d" OUTPUT="$KSTAGE/$d" \
			KHDR_INCLUDES="-isystem $KSTAGE/usr/include" "${targets[@]}" \
			>"$KSTAGE/build-${d//\//-}.log" 2>&1 ||
			die "building $d selftests ($progs) failed: $(grep -m1 -E 'error' "$KSTAGE/build-${d//\//-}.log")"
		echo "built $d: $progs"
	done
)

# check_kselftest PATH TIMEOUT [-K qemu|uml] [OPTION...] [-- ARG...]: PATH
# (under build/kselftest/) in a guest through tests/guest/kselftest.sh with
# those options, and with ARGs for the selftest itself.  The guest is the
# x86_64 QEMU guest, or the UML (census) kernel with -K uml.  (UML runs
# kernel code natively, but every system call of the guest's processes
# is a ptrace round trip on the host: tc_wrapper.sh, which runs ip, tc and
# ping hundreds of times, took 554 s there against 252 s under QEMU TCG.)
check_kselftest() (
	path=$1 tmo=$2 kind=qemu
	shift 2
	if [ "${1:-}" = -K ]; then
		kind=$2
		shift 2
	fi
	case $kind in
	uml | qemu) need kselftest-build "$(build_of "$kind")" || exit 1 ;;
	*) die "bad guest kind '$kind' for $path in tests/kselftests (uml or qemu)" ;;
	esac
	opts=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		opts+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	dir=$KSTAGE/$(dirname "$path")
	[ -x "$dir/$(basename "$path")" ] || die "no selftest $path in $KSTAGE"
	cd "$dir" || exit 1
	# The wall-clock limit is generous (the lane shares the CPU with the
	# builds); a guest whose console stays silent for 10 minutes is hung.
	"$TOP/scripts/run-$kind.sh" --kernel "$(image_of "$kind")" --timeout "$tmo" --idle-timeout 600 -- \
		bash "$TOP/tests/guest/kselftest.sh" "${opts[@]}" -- "./$(basename "$path")" "$@"
)
