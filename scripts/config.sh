#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# config.sh ARCH OUT FRAGMENT...: write OUT/.config for ARCH (x86_64 or um)
# from the arch's starting point (tinyconfig for x86_64, defconfig for um)
# plus the fragments, in order, then check that every symbol a fragment asks
# for has that value.  A fragment line "#@ start: debian" (x86_64 only)
# starts from Debian's own amd64 configuration for the base instead
# (scripts/debian-config.sh).  A fragment line "#@ unverified: GLOB..." exempts the
# matching symbols of earlier fragments (a variant that turns off a parent).
# "#@ may-be-absent: GLOB..." exempts the matching symbols named so far (in
# earlier fragments or above it in its own) only where no Kconfig file of
# the source tree defines the symbol (a symbol another kernel release
# removed); where the tree defines it, it is checked as usual.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || die "usage: config.sh ARCH OUT [FRAGMENT...]"
arch=$1 out=$2
shift 2
case $arch in
x86_64) start=tinyconfig ;;
um) start=defconfig ;;
*) die "unknown arch '$arch' (x86_64 or um)" ;;
esac
frags=()
for f in "$@"; do
	[ -r "$f" ] || die "no such config fragment: $f"
	frags+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")")
done
set -- "${frags[@]}"
debian=$(start_config "$arch" "$@") || exit 1
[ -f "${SRC:-$TREE}/Makefile" ] || die "no kernel tree at ${SRC:-$TREE} (run 'make tree')"
setup_ccache
mkdir -p "$out"
out=$(cd "$out" && pwd)
log=$out/config.log
{
	if [ -n "$debian" ]; then
		cp "$debian" "$out/.config"
	else
		kmake "$arch" "$out" "$start"
	fi &&
		(cd "$out" && "${SRC:-$TREE}/scripts/kconfig/merge_config.sh" -m -O "$out" .config "$@") &&
		kmake "$arch" "$out" olddefconfig
} >"$log" 2>&1 || die "configuring $arch in $out failed: $(grep -m1 -iE 'error|\*\*\*' "$log" || tail -n1 "$log")"

# Requested value of each symbol: the last fragment that names it wins.
# CONFIG_NOVERIFY="name..." skips the symbols of configs/<name>.config and
# of its addendum configs/<name>-<base>.config (the series' own options,
# when building a commit that predates them).
bad=$(awk -v skip=" ${CONFIG_NOVERIFY:-} " -v kver="$KVER" '
	FNR == 1 {
		fi++; f = FILENAME; sub(/.*\//, "", f); sub(/\.config$/, "", f)
		# the addendum NAME-<base> goes with NAME
		g = f; if (substr(g, length(g) - length(kver)) == "-" kver) g = substr(g, 1, length(g) - length(kver) - 1)
		ign = index(skip, " " f " ") > 0 || index(skip, " " g " ") > 0
	}
	ign { next }
	/^#@ unverified:/ {
		for (i = 3; i <= NF; i++) {
			g = $i; gsub(/\*/, ".*", g)
			for (s in want) if (s ~ ("^" g "$") && src[s] < fi) delete want[s]
		}
		next
	}
	/^#@ may-be-absent:/ {
		for (i = 3; i <= NF; i++) {
			g = $i; gsub(/\*/, ".*", g)
			for (s in want) if (s ~ ("^" g "$") && src[s] <= fi) opt[s] = 1
		}
		next
	}
	/^CONFIG_[A-Za-z0-9_]+=/ { s = $0; sub(/=.*/, "", s); v = $0; sub(/^[^=]*=/, "", v); want[s] = v; src[s] = fi; delete opt[s]; next }
	/^# CONFIG_[A-Za-z0-9_]+ is not set/ { want[$2] = "n"; src[$2] = fi; delete opt[$2]; next }
	END { for (s in want) print s, want[s], (s in opt) }
' "$@" | while read -r sym val opt; do
	got=$(grep -E "^$sym=" "$out/.config" | head -n1 | cut -d= -f2-)
	[ -n "$got" ] || got=n
	[ "$got" = "$val" ] && continue
	if [ "$opt" = 1 ] && ! grep -rqsE "^[[:space:]]*(menu)?config[[:space:]]+${sym#CONFIG_}[[:space:]]*$" \
		--include='Kconfig*' "${SRC:-$TREE}"; then
		continue
	fi
	echo "$sym=$val (got $got)"
done | sort | tr '\n' ' ')
[ -z "$bad" ] || die "config symbols did not stick in $out/.config: $bad"
exit 0
