#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh: boot each kernel in turn, round after round, run the scenarios
# inside, collect the RESULT lines into results/<date>-<base>/raw.csv and
# write the report.
#
#   bench/bench.sh [--quick] [--rounds R] [--scenarios S[,S..]] [--kernels K[,K..]]
#                  [--duration SEC] [--gates G,G] [--keep-going] [--out DIR]
#                  [--timeout SEC] [--idle-timeout SEC] [--no-report]
#                  [--allow-stale] [--order alternate|given]
#
#   --scenarios   names from bench/scenarios, each optionally with variants
#                 and sizes: tc-matchall:1:100, nft-set/hash+pipapo
#                 (default: all, default variants and sizes)
#   --kernels     names (build/out/um-NAME/linux, or build/<base>/out/...
#                 with BASE=<base>) or NAME=PATH, each
#                 optionally with @SCENARIO[+SCENARIO..]: that kernel runs
#                 only those of the run's scenarios (base-mod@tc-matchall),
#                 and is left out, with a note, if that leaves none
#                 (default base,patched,limit)
#   --gates       gate settings measured in the boots of patched and of
#                 patched-X kernels (default on,off; the order alternates
#                 between rounds)
#   --order       the kernels' order within a round: alternate (default:
#                 as given in odd rounds, reversed in even rounds, so that
#                 a drift of the host within a round weighs on every
#                 kernel alike over two rounds) or given (every round)
#   --quick       2 rounds, 0.3 s per measurement, tc-matchall at N=1,100,
#                 nft-set hash and pipapo, udp-lookup reuseport and connected6,
#                 tc-cls flower and basic, tc-act mirred and police
#   --keep-going  go on with the next boot when a boot fails twice
#   --allow-stale measure a kernel whose sources moved since it was built
#                 (below), with a note in the output and in raw.csv
#   --timeout     hard limit for one boot (default 900 s)
#   --idle-timeout  the runner kills a boot whose console is silent this
#                 long (default 60 s, or 4 x --duration if longer; 0 = off;
#                 else it must exceed 2 x --duration)
#
# Each round boots every kernel once and runs every scenario in that boot,
# the kernels in the order given in odd rounds and reversed in even ones
# (base, patched, limit, limit, patched, base, base, ...; --order given:
# base, patched, limit, base, ...).  Records go to
# raw.csv (format: bench/README-format) as soon as a boot ends.  A boot that
# fails (runner error, watchdog, timeout, panic, a FAIL line) is reported in
# one line naming the round, the kernel and the scenario, and booted once
# more: the failed attempt's records are dropped, its log kept as
# logs/rR-K.log.failed, and raw.csv gets a "# retried" line.  A second
# failure stops the run (unless --keep-going): raw.csv ends with an
# "# incomplete" line and bench exits non-zero, as after an interrupt.  An
# interrupt or a TERM (^C, or kill PID) stops the boot in progress at once,
# its guest too, and the run: raw.csv keeps every boot that had ended and
# gets "# incomplete reason=interrupted", and bench exits 130.
# Runner: scripts/run-uml.sh, or $THUNKLESS_RUNNER.
#
# bench.sh builds nothing: "make bench" (scripts/bench.sh) builds first.  A
# kernel that scripts/build.sh built as its profile says has a record of
# what it was built from (.thunkless-inputs beside it); when its sources
# have moved since (a commit in the series not yet rebuilt, a changed test
# patch or fragment), bench.sh refuses it, in one line that says what
# moved, unless --allow-stale.  A kernel without a record (an experiment
# built with OUT=, SRC=, MAKEFLAGS_EXTRA= or extra fragments) is measured
# as it is.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
# BASE=<version> (scripts/base.sh): the default kernels are that base's,
# build/<...>/out/um-NAME/linux.
. "$TOP/scripts/base.sh"
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

ALL_SCENARIOS="tc-matchall tc-mixed nft-set udp-lookup egress-bpf forward qdisc tc-cls tc-act"
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
idle_timeout=
report=1
allow_stale=
order=alternate

while [ $# -gt 0 ]; do
	case $1 in
	--quick) quick=1; shift ;;
	--rounds | --scenarios | --kernels | --duration | --gates | --out | --timeout | --idle-timeout | --order)
		[ $# -ge 2 ] || die "$1 needs an argument"
		case $1 in
		--rounds) rounds=$2; rounds_set=1 ;;
		--scenarios) scen_arg=$2 ;;
		--kernels) kernels_arg=$2 ;;
		--duration) duration=$2; duration_set=1 ;;
		--gates) gates=$2 ;;
		--out) outdir=$2 ;;
		--timeout) timeout=$2 ;;
		--idle-timeout) idle_timeout=$2 ;;
		--order) order=$2 ;;
		esac
		shift 2
		;;
	--keep-going) keep_going=1; shift ;;
	--allow-stale) allow_stale=1; shift ;;
	--no-report) report=; shift ;;
	-h | --help) awk 'NR < 4 { next } !/^#/ { exit } { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
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
case $order in
alternate | given) ;;
*) die "bad --order '$order': must be alternate or given" ;;
esac
posint "$rounds" || die "bad --rounds '$rounds': must be an integer > 0"
posint "$timeout" || die "bad --timeout '$timeout': must be an integer > 0"
if ! [[ $duration =~ ^[0-9]{1,3}(\.[0-9]{1,3})?$ ]] ||
	! awk -v d="$duration" 'BEGIN { exit !(d > 0) }'; then
	die "bad --duration '$duration'"
fi
# the watchdog must outlast one healthy measurement (a warm-up of a
# fifteenth of --duration, then --duration) with room to spare
if [ -z "$idle_timeout" ]; then
	idle_timeout=$(awk -v d="$duration" 'BEGIN { t = int(4 * d + 0.999); print (t > 60 ? t : 60) }')
else
	case $idle_timeout in
	'' | *[!0-9]* | ??????????*) die "bad --idle-timeout '$idle_timeout': must be an integer >= 0 (0 = off)" ;;
	esac
	idle_timeout=$((10#$idle_timeout))
	if [ "$idle_timeout" -gt 0 ] &&
		! awk -v t="$idle_timeout" -v d="$duration" 'BEGIN { exit !(t > 2 * d) }'; then
		die "bad --idle-timeout '$idle_timeout': must be 0 (off) or more than 2 x --duration ($duration s)"
	fi
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
			tc-cls) s=tc-cls/flower+basic ;;
			tc-act) s=tc-act/mirred+police ;;
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

# stale REC PROFILE BASE: empty when the record REC (.thunkless-inputs,
# of PROFILE on BASE) matches what PROFILE is built from now; else what
# moved.
INPUTS=${THUNKLESS_INPUTS:-$TOP/scripts/inputs.sh}
stale() {
	local rec=$1 prof=$2 kbase=$3 now what
	if ! now=$(THUNKLESS_BASE=$kbase "$INPUTS" "$prof" 2>&1); then
		echo "cannot read what $prof is built from now: ${now##*$'\n'}"
		return 0
	fi
	[ "$now" != "$(cat "$rec")" ] || return 0
	what=$(awk 'NR == FNR { was[$1] = $0; next }
		was[$1] != $0 {
			split(was[$1], w, " ")
			if ($1 == "tree") printf "its %s tree is at %.12s, the kernel was built from %.12s", $2, $3, w[3]
			else if ($1 == "test-patches") printf "the test patches changed since its build"
			else if ($1 == "fragments") printf "its config fragments changed since its build"
			else if ($1 == "uncommitted") printf "the uncommitted changes of its tree differ from its build"
			else printf "its profile changed since its build (%s)", $1
			exit
		}' "$rec" - <<<"$now")
	echo "${what:-its record differs from what $prof is built from now}"
}
stale_notes=()

# Kernels: NAME or NAME=PATH, then optionally @SCEN[+SCEN..]
knames=()
kpaths=()
kspecs=()
case $kernels_arg in '' | ,* | *, | *,,*) die "bad --kernels list '$kernels_arg'" ;; esac
for k in ${kernels_arg//,/ }; do
	only=
	if [[ $k == *@* ]]; then
		only=${k#*@}
		k=${k%%@*}
		case +$only+ in *++* | *@*) die "bad scenario list '@$only' for kernel '${k%%=*}'" ;; esac
	fi
	name=${k%%=*}
	path=${THUNKLESS_BUILD:-$THUNKLESS_BASE_BUILD}/out/um-$name/linux
	[ "$name" != "$k" ] && path=${k#*=}
	[[ $name =~ ^[A-Za-z0-9_.+-]+$ ]] || die "bad kernel name '$name'"
	# the specs this kernel runs, space-separated
	ks="${specs[*]}"
	if [ -n "$only" ]; then
		ks=
		for o in ${only//+/ }; do
			case " $ALL_SCENARIOS " in
			*" $o "*) ;;
			*) die "unknown scenario '$o' for kernel '$name' (known: ${ALL_SCENARIOS// /, })" ;;
			esac
			for s in "${specs[@]}"; do
				n=${s%%:*}
				[ "${n%%/*}" = "$o" ] && ks+="${ks:+ }$s"
			done
		done
		if [ -z "$ks" ]; then
			say "kernel $name runs none of the scenarios (@$only): left out"
			continue
		fi
	fi
	if [ ! -f "$path" ] || [ ! -x "$path" ]; then
		die "kernel '$name' missing: $path"
	fi
	rec=$(dirname "$path")/.thunkless-inputs
	why=
	if [ -f "$rec" ]; then
		read -r _ prof _ kbase <"$rec"
		why=$(stale "$rec" "$prof" "$kbase")
	fi
	if [ -n "$why" ]; then
		[ -n "$allow_stale" ] ||
			die "kernel '$name' is stale: $why (rebuild it: $([ "$kbase" = "$THUNKLESS_DEFAULT_BASE" ] || echo "BASE=$kbase ")scripts/build.sh $prof; or --allow-stale)"
		stale_notes+=("kernel=$name: $why")
	fi
	knames+=("$name")
	kpaths+=("$(cd "$(dirname "$path")" && pwd)/$(basename "$path")")
	kspecs+=("$ks")
done
[ ${#knames[@]} -gt 0 ] || die "no kernel runs any of the scenarios"
[ -x "$RUNNER" ] || die "runner missing: $RUNNER"

# Output directory
base=unknown
if [ -r "$TOP/patches/$THUNKLESS_BASE/BASE" ]; then
	read -r _ base <"$TOP/patches/$THUNKLESS_BASE/BASE" || true
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
	echo "# kernels=${knames[*]} scenarios=${specs[*]} gates=$gates order=$order"
	for x in "${stale_notes[@]}"; do echo "# stale $x"; done
	echo "ts,round,kernel,gate,scenario,variant,n,pkts,usec,pps,errors"
} >"$raw"
for x in "${stale_notes[@]}"; do say "measured as it is (--allow-stale): stale $x"; done

finished=
# The boot in progress (background job boot_job) runs in a session of its
# own (setsid, below), whose id its first process writes to boot_pidf: an
# interrupt stops that whole session, the runner and the guest it started,
# before the run is marked incomplete.
boot_job=
boot_pidf=$outdir/logs/.boot-pid
boot_rcf=$outdir/logs/.boot-rc
# shellcheck disable=SC2317 # run from the EXIT trap
stop_boot() {
	local sid w
	[ -n "$boot_job" ] && kill -0 "$boot_job" 2>/dev/null || return 0
	# (a signal in the first moments of a boot may come before the id)
	for ((w = 0; w < 20; w++)); do
		[ -s "$boot_pidf" ] && break
		sleep 0.1
	done
	[ -s "$boot_pidf" ] && read -r sid <"$boot_pidf" || return 0
	kill -TERM -- "-$sid" 2>/dev/null
	# (and KILL what is left of it after 15 s: the runner's guest has 10 s)
	for ((w = 0; w < 150; w++)); do
		kill -0 -- "-$sid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL -- "-$sid" 2>/dev/null
	wait "$boot_job" 2>/dev/null
}
# shellcheck disable=SC2317 # run from the EXIT trap
finish() {
	local rc=$?
	stop_boot
	rm -f "$boot_pidf" "$boot_rcf"
	if [ -z "$finished" ]; then
		echo "# incomplete reason=${stop_reason:-interrupted}" >>"$raw"
		say_retried
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
# that does not parse (a t= that is not a Unix time among them) is reported
# on stderr and skipped.  ts is the line's t= (when its measurement ended; a
# guest's clock is the host's), or for a line without one (scenarios before
# t= existed) the time of collection.
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
		if ("t" in f && f["t"] !~ /^[1-9][0-9]*$/) ok = 0
		if (!ok) { print "bench: unparsable result line: " $0 > "/dev/stderr"; next }
		t = "t" in f ? f["t"] : ts
		print t "," round "," kernel "," f["gate"] "," f["scenario"] "," f["variant"] "," \
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

# boot_records: the boot's guest lines, from the --out file when the runner
# provided it, else from the console log (without the console tail the
# runner repeats on stderr after a failure)
boot_records() {
	if [ -s "$gout/results.txt" ]; then
		tr -d '\r' <"$gout/results.txt"
	else
		sed '/^---- last console lines/,$d' "$LOG" | tr -d '\r'
	fi
}

# boot_reason RC: one line saying why the boot that logged to $LOG failed,
# naming the scenario.  A runner watchdog or timeout names the scenario the
# last BEGIN line started (and the last PROGRESS step after it); else the
# first FAIL line names it; else the runner's exit status and last line.
boot_reason() {
	local rc=$1 last scen detail where n f
	last=$(tr -d '\r' <"$LOG" | grep -v '^[[:space:]]*$' | tail -n 1)
	IFS='|' read -r scen detail < <(tr -d '\r' <"$LOG" | awk '
		/^BEGIN scenario=/ { s = substr($2, 10); d = "" }
		/^PROGRESS / && s != "" {
			delete f
			for (i = 2; i <= NF; i++) { p = index($i, "="); if (p) f[substr($i, 1, p - 1)] = substr($i, p + 1) }
			d = "last step: " f["step"]
			if (f["variant"] != "" && f["variant"] != "-") d = d " " f["variant"]
			if (f["n"] != "") d = d " n=" f["n"]
			if (f["gate"] != "") d = d " gate=" f["gate"]
		}
		END { print s "|" d }')
	where="scenario $scen"
	[ -n "$scen" ] || where="the guest, before the first scenario,"
	n=$(echo "$last" | sed -n 's/.*guest made no progress for \([0-9]*\)s.*/\1/p')
	if [ -n "$n" ]; then
		echo "$where hung (no progress for ${n}s${detail:+; $detail})"
		return
	fi
	n=$(echo "$last" | sed -n 's/.*guest timed out after \([0-9]*\)s.*/\1/p')
	if [ -n "$n" ]; then
		echo "$where did not finish (guest timed out after ${n}s${detail:+; $detail})"
		return
	fi
	f=$(boot_records | grep -m1 '^FAIL ')
	if [ -n "$f" ]; then
		echo "$f" | awk '{
			s = $2; sub(/^scenario=/, "", s); r = $3; sub(/^rc=/, "", r)
			m = $0; sub(/^FAIL scenario=[^ ]* rc=[^ ]* reason=/, "", m)
			printf("scenario %s failed (rc %s): %s\n", s, r, m)
		}'
		return
	fi
	[ -n "$scen" ] && where="during scenario $scen"
	[ -n "$scen" ] || where="before the first scenario"
	echo "$where: runner exit $rc: ${last:-no output}"
}

retried=()
say_retried() {
	local x
	[ ${#retried[@]} -gt 0 ] || return 0
	say "${#retried[@]} boot(s) retried after a failure (records of the failed attempt discarded, log kept as *.log.failed):"
	for x in "${retried[@]}"; do
		say "  retried $x"
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
	for ((j = 0; j < ${#knames[@]}; j++)); do
		# the j-th boot of the round: reversed in even rounds
		i=$j
		[ "$order" = given ] || ((r % 2)) || i=$((${#knames[@]} - 1 - j))
		k=${knames[i]}
		boot=$((boot + 1))
		gargs=()
		read -r -a kscen <<<"${kspecs[i]}"
		if [ "$k" = patched ] || [[ $k == patched-* ]]; then
			g=$gates
			# alternate the order of the gate settings between rounds
			if ((r % 2 == 0)); then
				g=$(echo "$gates" | tr ',' '\n' | tac | paste -sd, -)
			fi
			gargs=(--gates "$g")
		fi
		LOG=$outdir/logs/r$r-$k.log
		gout=$outdir/logs/r$r-$k.out
		for attempt in 1 2; do
			rm -rf "$gout"
			mkdir -p "$gout"
			: >"$gout/results.txt" 2>/dev/null
			chmod 0777 "$gout" 2>/dev/null
			: >"$LOG"
			again=
			[ "$attempt" -eq 1 ] || again=" again"
			say "[$boot/$nb] round $r/$rounds: booting $k$again ($(($(date +%s) - t_start))s elapsed)"
			t0=$(date +%s)
			# The runner runs in a background job, in a session of its own,
			# and bench.sh waits for the job: an INT or a TERM sent to
			# bench.sh alone (kill PID, not the terminal's ^C) then stops
			# the run at once, where bash would have held it until the end
			# of a foreground pipeline, the whole boot.
			rm -f "$boot_pidf" "$boot_rcf"
			{
				# shellcheck disable=SC2016 # $$: the new session's
				setsid -w bash -c 'echo $$ >"$0" && exec "$@"' "$boot_pidf" \
					"$RUNNER" --kernel "${kpaths[i]}" --timeout "$timeout" \
					--idle-timeout "$idle_timeout" --out "$gout" -- \
					bench/guest-run.sh --duration "$duration" "${gargs[@]}" "${kscen[@]}" 2>&1
				echo $? >"$boot_rcf"
			} | progress_filter "$k" &
			boot_job=$!
			wait "$boot_job"
			boot_job=
			rm -f "$boot_pidf"
			rc=255
			[ -s "$boot_rcf" ] && read -r rc <"$boot_rcf"
			recs=$(boot_records | grep '^RESULT ' | result_to_csv "$r" "$k")
			nrec=0
			[ -z "$recs" ] || nrec=$(echo "$recs" | wc -l)
			nfail=$(boot_records | grep -c '^FAIL ')
			dt=$(($(date +%s) - t0))
			if [ "$rc" -eq 0 ] && [ "$nfail" -eq 0 ]; then
				[ -z "$recs" ] || echo "$recs" >>"$raw"
				say "[$boot/$nb] round $r/$rounds: $k done, $nrec results in ${dt}s"
				break
			fi
			why=$(boot_reason "$rc")
			if [ "$attempt" -eq 1 ]; then
				# drop what the failed attempt measured, keep its logs
				rm -rf "$LOG.failed" "$gout.failed"
				mv "$LOG" "$LOG.failed"
				mv "$gout" "$gout.failed"
				echo "# retried round=$r kernel=$k: $why" >>"$raw"
				retried+=("round=$r kernel=$k: $why")
				say "[$boot/$nb] round $r/$rounds: $k failed: $why; retrying once ($nrec results discarded; log: $LOG.failed)"
				continue
			fi
			# a second failure: keep what it measured, as any failed boot
			[ -z "$recs" ] || echo "$recs" >>"$raw"
			failed=$((failed + 1))
			echo "# failed round=$r kernel=$k: $why" >>"$raw"
			echo "$prog: error: round $r, $k: $why; failed twice (log: $LOG)" >&2
			stop_reason="round $r kernel $k failed twice"
			[ -n "$keep_going" ] || exit 1
		done
	done
done

if [ "$failed" -gt 0 ]; then
	stop_reason="$failed boot(s) failed twice"
	exit 1
fi
echo "# complete" >>"$raw"
finished=1
say "done in $(($(date +%s) - t_start))s: $raw"
say_retried
[ -n "$report" ] && make_report
exit 0
