#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-run.sh: run a list of scenarios inside one boot (what bench.sh hands
# to scripts/run-uml.sh).  Runs as root; also usable by hand on bare metal.
#
#   bench/guest-run.sh [--gates G[,G..]] [--duration S] SPEC...
#
# SPEC is SCENARIO[/VARIANT[+VARIANT...]][:N[:N...]]: variants are passed as
# -v V,V... and sizes as -n N,N...
# Prints, besides the scenarios' own RESULT/SKIP/PROGRESS lines:
#   BEGIN scenario=S             before each scenario
#   FAIL scenario=S rc=RC reason=TEXT   when one fails (the others still run)
# and appends RESULT/SKIP/FAIL lines to $THUNKLESS_OUT/results.txt when
# THUNKLESS_OUT is set.  Exit status: 0 if every scenario passed, 1 if any
# failed, 2 on a usage error.
set -u
here=$(cd "$(dirname "$0")" && pwd)
scen_dir=${BENCH_SCENARIO_DIR:-$here/scenarios}	# tests override this
gates=
duration=
specs=()

die() {
	echo "guest-run: error: $*" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--gates) [ $# -ge 2 ] || die "--gates needs an argument"; gates=$2; shift 2 ;;
	--duration) [ $# -ge 2 ] || die "--duration needs an argument"; duration=$2; shift 2 ;;
	-*) die "unknown option $1" ;;
	*) specs+=("$1"); shift ;;
	esac
done
[ ${#specs[@]} -gt 0 ] || die "no scenarios given"

out=/dev/null
if [ -n "${THUNKLESS_OUT:-}" ]; then
	out=$THUNKLESS_OUT/results.txt
	: >>"$out" || die "cannot write $out"
fi

emit() {
	echo "$1"
	echo "$1" >>"$out"
}

status=0
for spec in "${specs[@]}"; do
	name=${spec%%:*}
	args=()
	if [ "$name" != "$spec" ]; then
		ns=${spec#*:}
		args+=(-n "${ns//:/,}")
	fi
	if [[ $name == */* ]]; then
		vs=${name#*/}
		name=${name%%/*}
		args+=(-v "${vs//+/,}")
	fi
	[ -n "$gates" ] && args+=(-g "$gates")
	[ -n "$duration" ] && args+=(-d "$duration")
	script=$scen_dir/$name.sh
	if [ ! -x "$script" ]; then
		emit "FAIL scenario=$name rc=127 reason=no such scenario"
		status=1
		continue
	fi
	echo "BEGIN scenario=$name ${args[*]}"
	errf=$(mktemp)
	# stdout and stderr through one pipe (no process substitution: UML
	# guests have no /dev/fd); PROGRESS lines go to the console only (they
	# keep the host's watchdog quiet; never a result, never a FAIL reason);
	# everything but RESULT/SKIP/PROGRESS is diagnostics
	"$script" "${args[@]}" 2>&1 | while IFS= read -r line; do
		case $line in
		RESULT* | SKIP*) emit "$line" ;;
		PROGRESS*) echo "$line" ;;
		*)
			echo "$line" >&2
			echo "$line" >>"$errf"
			;;
		esac
	done
	rc=${PIPESTATUS[0]}
	if [ "$rc" -ne 0 ]; then
		reason=$(grep -v '^$' "$errf" | tail -n 1 | tr -d '\r')
		emit "FAIL scenario=$name rc=$rc reason=${reason:-exit status $rc}"
		status=1
	fi
	rm -f "$errf"
done
exit $status
