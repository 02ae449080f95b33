#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh: boot each kernel in turn, round after round, run the scenarios
# inside, collect the RESULT lines into results/<date>-<base>/raw.csv and
# write the report.
#
#   bench/bench.sh [--quick] [--rounds R] [--scenarios S[,S..]] [--kernels K[,K..]]
#                  [--duration SEC] [--gates G,G] [--keep-going] [--out DIR]
#                  [--timeout SEC] [--no-report]
#
#   --scenarios   names from bench/scenarios, each optionally with variants
#                 and sizes: tc-matchall:1:100, nft-set/hash+pipapo
#                 (default: all, default variants and sizes)
#   --kernels     names (build/out/um-NAME/linux) or NAME=PATH
#                 (default base,patched,limit)
#   --gates       gate settings measured in the patched boot (default on,off;
#                 the order alternates between rounds)
#   --quick       2 rounds, 0.3 s per measurement, tc-matchall at N=1,100,
#                 nft-set hash and pipapo, udp-lookup reuseport and connected6
#   --keep-going  go on with the next boot when a boot fails
#
# Each round boots every kernel once, in the order given (base, patched,
# limit, base, ...), and runs every scenario in that boot.  Records go to
# raw.csv (format: bench/README-format) as soon as a boot ends; a run that
# stops early (failure, panic, timeout, interrupt) ends raw.csv with an
# "# incomplete" line and exits non-zero.  Runner: scripts/run-uml.sh, or
# $THUNKLESS_RUNNER.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BENCH=$TOP/bench
RUNNER=${THUNKLESS_RUNNER:-$TOP/scripts/run-uml.sh}
prog=bench

die() {
	echo "$prog: error: $*" >&2
	exit 1
}
say() {
	echo "$prog: $*"
}

ALL_SCENARIOS="tc-matchall tc-mixed nft-set udp-lookup egress-bpf"
rounds=5
rounds_set=
scen_arg=
kernels_arg=base,patched,limit
duration=1.2
duration_set=
gates=on,off
quick=
keep_going=
outdir=
timeout=900
report=1

while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1; shift ;;
	--rounds | --scenarios | --kernels | --duration | --gates | --out | --timeout)
		[ $# -ge 2 ] || die "$1 needs an argument"
		case $1 in
		--rounds) rounds=$2; rounds_set=1 ;;
		--scenarios) scen_arg=$2 ;;
		--kernels) kernels_arg=$2 ;;
		--duration) duration=$2; duration_set=1 ;;
		--gates) gates=$2 ;;
		--out) outdir=$2 ;;
		--timeout) timeout=$2 ;;
		esac
		shift 2
		;;
	--keep-going) keep_going=1; shift ;;
	--no-report) report=; shift ;;
	-h | --help) sed -n '4,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown option '$1'" ;;
	esac
done

posint() {
	case $1 in '' | *[!0-9]*) return 1 ;; esac
	[ ${#1} -le 9 ] && [ "$((10#$1))" -gt 0 ]
}

if [ -n "$quick" ]; then
	[ -n "$rounds_set" ] || rounds=2
	[ -n "$duration_set" ] || duration=0.3
fi
posint "$rounds" || die "bad --rounds '$rounds': must be an integer > 0"
posint "$timeout" || die "bad --timeout '$timeout': must be an integer > 0"
if ! [[ $duration =~ ^[0-9]{1,3}(\.[0-9]{1,3})?$ ]] ||
	! awk -v d="$duration" 'BEGIN { exit !(d > 0) }'; then
	die "bad --duration '$duration'"
fi
for g in ${gates//,/ }; do
	case $g in on | off | auto) ;; *) die "bad gate '$g' in --gates" ;; esac
done

# Scenario specs: NAME[:N[:N...]]
specs=()
if [ -z "$scen_arg" ]; then
	for s in $ALL_SCENARIOS; do
		if [ -n "$quick" ]; then
			case $s in
			tc-matchall) s=tc-matchall:1:100 ;;
			nft-set) s=nft-set/hash+pipapo ;;
			udp-lookup) s=udp-lookup/reuseport+connected6 ;;
			esac
		fi
		specs+=("$s")
	done
else
	case $scen_arg in ,* | *, | *,,*) die "bad --scenarios list '$scen_arg'" ;; esac
	for s in ${scen_arg//,/ }; do
		head=${s%%:*}
		name=${head%%/*}
		case " $ALL_SCENARIOS " in
		*" $name "*) ;;
		*) die "unknown scenario '$name' (known: ${ALL_SCENARIOS// /, })" ;;
		esac
		if [ "$head" != "$name" ]; then
			vs=${head#*/}
			known=$(sed -n 's/^ALL_VARIANTS=//p' "$BENCH/scenarios/$name.sh")
			[ -n "$known" ] || die "scenario '$name' has no variants"
			case +$vs+ in *++*) die "bad variant list in '$s'" ;; esac
			for v in ${vs//+/ }; do
				case ",$known," in
				*",$v,"*) ;;
				*) die "unknown variant '$v' for $name (known: ${known//,/, })" ;;
				esac
			done
		fi
		if [[ $s == *:* ]]; then
			IFS=: read -r -a ns <<<"${s#*:}"
			[ ${#ns[@]} -gt 0 ] || die "bad sizes in '$s'"
			for n in "${ns[@]}"; do
				posint "$n" || die "bad N '$n' for $name: must be an integer > 0"
			done
		fi
		specs+=("$s")
	done
fi

# Kernels: NAME or NAME=PATH
knames=()
kpaths=()
case $kernels_arg in '' | ,* | *, | *,,*) die "bad --kernels list '$kernels_arg'" ;; esac
for k in ${kernels_arg//,/ }; do
	name=${k%%=*}
	path=$TOP/build/out/um-$name/linux
	[ "$name" != "$k" ] && path=${k#*=}
	[[ $name =~ ^[A-Za-z0-9_.+-]+$ ]] || die "bad kernel name '$name'"
	if [ ! -f "$path" ] || [ ! -x "$path" ]; then
		die "kernel '$name' missing: $path"
	fi
	knames+=("$name")
	kpaths+=("$(cd "$(dirname "$path")" && pwd)/$(basename "$path")")
done
[ -x "$RUNNER" ] || die "runner missing: $RUNNER"

# Output directory
base=unknown
if [ -r "$TOP/patches/6.1/BASE" ]; then
	read -r _ base <"$TOP/patches/6.1/BASE" || true
fi
if [ -z "$outdir" ]; then
	outdir=$TOP/results/$(date -u +%Y%m%d-%H%M%S)-$base
fi
[ -e "$outdir/raw.csv" ] && die "$outdir/raw.csv already exists"
mkdir -p "$outdir/logs" || die "cannot create $outdir"
raw=$outdir/raw.csv
{
	echo "# thunkless bench raw v1"
	echo "# started=$(date -u +%Y-%m-%dT%H:%M:%SZ) base=$base rounds=$rounds duration=$duration"
	echo "# kernels=${knames[*]} scenarios=${specs[*]} gates=$gates"
	echo "ts,round,kernel,gate,scenario,variant,n,pkts,usec,pps,errors"
} >"$raw"

finished=
# shellcheck disable=SC2317 # run from the EXIT trap
finish() {
	local rc=$?
	if [ -z "$finished" ]; then
		echo "# incomplete reason=${stop_reason:-interrupted}" >>"$raw"
		say "raw data (INCOMPLETE): $raw"
		[ -n "$report" ] && make_report
	fi
	exit "$rc"
}
trap finish EXIT
trap 'stop_reason=interrupted; exit 130' INT TERM

make_report() {
	if make -s -C "$BENCH" report >/dev/null 2>&1 && [ -x "$BENCH/report" ]; then
		"$BENCH/report" "$raw" || say "report failed (raw data kept)"
	else
		say "cannot build bench/report; raw data: $raw"
	fi
}

# result_to_csv ROUND KERNEL < RESULT lines: CSV records on stdout; a line
# that does not parse is reported on stderr and skipped.
result_to_csv() {
	awk -v round="$1" -v kernel="$2" -v ts="$(date +%s)" -F' ' '
	$1 == "RESULT" {
		delete f
		for (i = 2; i <= NF; i++) {
			p = index($i, "="); if (p) f[substr($i, 1, p - 1)] = substr($i, p + 1)
		}
		ok = f["v"] == "1"
		split("gate scenario variant n pkts usec pps errors", need, " ")
		for (k in need) if (!(need[k] in f) || f[need[k]] == "" || f[need[k]] ~ /,/) ok = 0
		if (!ok) { print "bench: unparsable result line: " $0 > "/dev/stderr"; next }
		print ts "," round "," kernel "," f["gate"] "," f["scenario"] "," f["variant"] "," \
			f["n"] "," f["pkts"] "," f["usec"] "," f["pps"] "," f["errors"]
	}'
}

# pretty-print guest lines on the terminal while logging everything
progress_filter() {
	local k=$1 line
	while IFS= read -r line; do
		echo "$line" >>"$LOG"
		case $line in
		RESULT*)
			echo "$line" | awk -v k="$k" '{
				for (i = 2; i <= NF; i++) { p = index($i, "="); f[substr($i, 1, p - 1)] = substr($i, p + 1) }
				v = f["variant"] == "-" ? "" : "/" f["variant"]
				printf("bench:     %-8s gate=%-4s %-22s n=%-5s %10.0f pps\n", k, f["gate"], f["scenario"] v, f["n"], f["pps"])
			}' ;;
		FAIL* | SKIP*) echo "bench:     $k: $line" ;;
		esac
	done
}

nb=$((rounds * ${#knames[@]}))
say "$rounds round(s) x ${#knames[@]} kernel(s) = $nb boots; scenarios: ${specs[*]}; ${duration}s per measurement"
say "raw data: $raw"
boot=0
failed=0
stop_reason=
t_start=$(date +%s)
for ((r = 1; r <= rounds; r++)); do
	for ((i = 0; i < ${#knames[@]}; i++)); do
		k=${knames[i]}
		boot=$((boot + 1))
		gargs=()
		if [ "$k" = patched ]; then
			g=$gates
			# alternate the order of the gate settings between rounds
			if ((r % 2 == 0)); then
				g=$(echo "$gates" | tr ',' '\n' | tac | paste -sd, -)
			fi
			gargs=(--gates "$g")
		fi
		LOG=$outdir/logs/r$r-$k.log
		gout=$outdir/logs/r$r-$k.out
		mkdir -p "$gout"
		: >"$gout/results.txt" 2>/dev/null
		chmod 0777 "$gout" 2>/dev/null
		say "[$boot/$nb] round $r/$rounds: booting $k ($(($(date +%s) - t_start))s elapsed)"
		t0=$(date +%s)
		"$RUNNER" --kernel "${kpaths[i]}" --timeout "$timeout" --out "$gout" -- \
			bench/guest-run.sh --duration "$duration" "${gargs[@]}" "${specs[@]}" 2>&1 |
			progress_filter "$k"
		rc=${PIPESTATUS[0]}
		# results: the --out file when the runner provided it, else the console
		if [ -s "$gout/results.txt" ]; then
			src=$gout/results.txt
		else
			src=$LOG
		fi
		nrec=$(grep '^RESULT ' "$src" | tr -d '\r' | result_to_csv "$r" "$k" | tee -a "$raw" | wc -l)
		nfail=$(grep -c '^FAIL ' "$src")
		dt=$(($(date +%s) - t0))
		if [ "$rc" -eq 0 ] && [ "$nfail" -eq 0 ]; then
			say "[$boot/$nb] round $r/$rounds: $k done, $nrec results in ${dt}s"
			continue
		fi
		failed=$((failed + 1))
		why=$(grep -m1 '^FAIL ' "$src" | sed 's/^FAIL //')
		[ -n "$why" ] || why="runner exit $rc: $(grep -v '^$' "$LOG" | tail -n 1)"
		echo "# failed round=$r kernel=$k: $why" >>"$raw"
		echo "$prog: error: round $r, $k: $why (log: $LOG)" >&2
		stop_reason="round $r kernel $k failed"
		[ -n "$keep_going" ] || exit 1
	done
done

if [ "$failed" -gt 0 ]; then
	stop_reason="$failed boot(s) failed"
	exit 1
fi
echo "# complete" >>"$raw"
finished=1
say "done in $(($(date +%s) - t_start))s: $raw"
[ -n "$report" ] && make_report
exit 0
