#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# obj-sites.sh: the call sites of unlinked x86_64 objects, from their
# relocations, where no vmlinux was linked (a configuration whose whole
# kernel would take hours on two cores: Debian's, check_debian).  A
# function FUNC counts with its .cold/.isra/.constprop/.part clones; FUNC
# may be "a|b" (a static function that the compiler may inline into its
# caller).
#
# obj-sites.sh compare BASE_OUT SERIES_OUT OBJ:FUNC...: in two build
#   directories of one configuration, the base's and the series', one line
#   per OBJ:FUNC: OBJ FUNC, the retpoline thunk call sites (a call or jump
#   relocated to __x86_indirect_thunk_*) in base and series, and the
#   static-call sites (to a __SCT__* trampoline, which the kernel patches
#   into a direct call) in base and series; "-" where the object or the
#   function is not there.
# obj-sites.sh slots LIST OUT: every line "OBJ FUNC POINT N" of LIST
#   (comments with #) holds: FUNC in OUT/OBJ calls the static calls of
#   POINT's N direct-call slots, __SCT__POINT_0 to __SCT__POINT_<N-1>, each
#   at least once, and no other of POINT's.  One line per dispatch point;
#   exit 1 if any does not hold.  A line "OBJ FUNC call CALLEE": FUNC
#   calls CALLEE directly (a call relocated to it: CALLEE is not static in
#   OBJ, whose own static functions a relocation names by section only).
# Exit 2 on bad input.
set -uo pipefail
die() { echo "obj-sites: error: $*" >&2; exit 2; }

# fn_lines OBJ FUNC: the disassembly of FUNC (and its clones) in OBJ, with
# relocations; fails when OBJ has no such function
fn_lines() {
	objdump -dr --no-show-raw-insn "$1" 2>/dev/null | awk -v fn="^($2)$" '
		/^[0-9a-f]+ <[^>]+>:$/ {
			f = $2; gsub(/[<>:]/, "", f); sub(/\.(cold|isra|constprop|part)(\.[0-9]+)*$/, "", f)
			inside = (f ~ fn); seen += inside; next
		}
		inside { print }
		END { exit !seen }'
}

# sites OBJ FUNC: "THUNKS STATIC_CALLS", or "- -"
sites() {
	local l
	[ -f "$1" ] && l=$(fn_lines "$1" "$2") || { echo "- -"; return 0; }
	echo "$(grep -cE 'R_X86_64_(PLT32|PC32)[[:space:]]+__x86_indirect_thunk_' <<<"$l") $(grep -cE 'R_X86_64_(PLT32|PC32)[[:space:]]+__SCT__' <<<"$l")"
}

compare() {
	[ $# -ge 3 ] || die "usage: obj-sites.sh compare BASE_OUT SERIES_OUT OBJ:FUNC..."
	local b=$1 s=$2 a o f bt bc st sc
	shift 2
	[ -d "$b" ] || die "no directory $b"
	[ -d "$s" ] || die "no directory $s"
	echo "# object function thunk-sites(base series) static-call-sites(base series)"
	for a in "$@"; do
		o=${a%%:*} f=${a#*:}
		[[ $a == *:* ]] && [ -n "$o" ] && [ -n "$f" ] || die "'$a' is not OBJ:FUNC"
		read -r bt bc <<<"$(sites "$b/$o" "$f")"
		read -r st sc <<<"$(sites "$s/$o" "$f")"
		echo "$o $f $bt $st $bc $sc"
	done
}

slots() {
	[ $# -eq 2 ] || die "usage: obj-sites.sh slots LIST OUT"
	local list=$1 out=$2 o f p n extra l got want bad=0 ln=0
	[ -r "$list" ] || die "cannot read $list"
	[ -d "$out" ] || die "no directory $out"
	while read -r o f p n extra; do
		ln=$((ln + 1))
		case $o in '' | '#'*) continue ;; esac
		{ [ "$p" = call ] && [[ $n =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] ||
			{ [[ $p =~ ^[a-z0-9_]+$ ]] && [[ $n =~ ^[1-9][0-9]*$ ]]; }; } && [ -z "$extra" ] ||
			die "$list:$ln: expected 'OBJ FUNC POINT N' or 'OBJ FUNC call CALLEE'"
		[ -f "$out/$o" ] || { echo "not ok - $o: not built in $out"; bad=1; continue; }
		l=$(fn_lines "$out/$o" "$f") || { echo "not ok - $o: no function $f"; bad=1; continue; }
		if [ "$p" = call ]; then
			if grep -qE "R_X86_64_(PLT32|PC32)[[:space:]]+$n([+-]0x[0-9a-f]+)?$" <<<"$l"; then
				echo "ok - $o $f: calls $n directly"
			else
				echo "not ok - $o $f: no direct call to $n"
				bad=1
			fi
			continue
		fi
		got=$(grep -oE "R_X86_64_(PLT32|PC32)[[:space:]]+__SCT__${p}_[0-9]+" <<<"$l" |
			sed -E 's/.*_([0-9]+)$/\1/' | sort -nu | tr '\n' ' ' | sed 's/ $//')
		want=$(seq -s ' ' 0 $((n - 1)))
		if [ "$got" = "$want" ]; then
			echo "ok - $o $f: the $n slots of $p"
		else
			echo "not ok - $o $f: the static calls of $p's slots: ${got:-none} (wanted $want)"
			bad=1
		fi
	done <"$list"
	[ $ln -gt 0 ] || die "$list is empty"
	return $bad
}

[ $# -ge 1 ] || die "usage: obj-sites.sh compare|slots ..."
cmd=$1
shift
case $cmd in
compare) compare "$@" ;;
slots) slots "$@" ;;
*) die "unknown command '$cmd' (compare or slots)" ;;
esac
