#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tests for the progress watchdog of scripts/run-guest.sh (--idle-timeout),
# with helpers/fake-uml.sh as the "kernel" (it runs the job on the host): a
# guest that goes quiet is killed, whole process group, within the limit and
# with a one-line reason; a guest that keeps printing is left alone; 0 turns
# the watchdog off; bad values are one-line errors; and bench.sh on top of
# it retries a boot that hung.  Every run is wrapped in
# timeout, so a broken watchdog fails the test instead of hanging it.
# Prints "ok N - ..." / "not ok N - ..."; exit 1 on failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
RUN=$top/scripts/run-uml.sh
K=$here/helpers/fake-uml.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export THUNKLESS_BUILD=$tmp/build
t=0
fails=0
ok() { t=$((t + 1)); echo "ok $t - $1"; }
nok() { t=$((t + 1)); fails=$((fails + 1)); echo "not ok $t - $1"; shift; for l in "$@"; do echo "#   $l"; done; }

# guest ARGS...: run-uml.sh with the fake kernel, at most 30 s; sets rc,
# secs (wall time), out, err (last stderr line), errn (stderr lines)
guest() {
	local t0=$SECONDS
	timeout -k 5 30 "$RUN" --kernel "$K" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	secs=$((SECONDS - t0))
	out=$(cat "$tmp/out")
	err=$(tail -n 1 "$tmp/err")
	errn=$(wc -l <"$tmp/err")
}

# alive PID: the process exists and is not a zombie
alive() {
	local st
	st=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	st=${st##*) }
	[ "${st%% *}" != Z ]
}

# ---- a guest that hangs after printing a line --------------------------------
pids=$tmp/pids
# shellcheck disable=SC2016 # expanded by the "guest"
guest --idle-timeout 3 --timeout 60 -- bash -c \
	'echo $$ >"$1"; echo "BEGIN scenario=egress-bpf -n 1"; sleep 1000 & echo $! >>"$1"; wait' _ "$pids"
want="run-uml: error: guest made no progress for 3s; last line: BEGIN scenario=egress-bpf -n 1"
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$err" = "$want" ]; then
	ok "quiet guest: killed, one-line reason: '$err'"
else
	nok "quiet guest: killed with a reason" "rc=$rc" "want: $want" "got:  $err"
fi
if [ "$secs" -ge 3 ] && [ "$secs" -le 10 ]; then
	ok "quiet guest: killed after ${secs}s (limit 3s, polled every second)"
else
	nok "quiet guest: killed after 3 to 10s" "took ${secs}s"
fi
left=
read -r p1 p2 _ < <(tr '\n' ' ' <"$pids" 2>/dev/null)
for p in ${p1:-} ${p2:-}; do
	alive "$p" && left+=" $p"
done
if [ -n "${p2:-}" ] && [ -z "$left" ]; then
	ok "quiet guest: its processes are gone (the whole process group was killed)"
else
	nok "quiet guest: processes left" "pids: $(cat "$pids" 2>&1)" "alive:$left"
	for p in $left; do kill -KILL "$p" 2>/dev/null; done
fi
if ! grep -q 'Killed' "$tmp/err" && grep -q '^---- last console lines' "$tmp/err"; then
	ok "quiet guest: console tail on stderr, no shell 'Killed' noise"
else
	nok "quiet guest: stderr" "$(cat "$tmp/err")"
fi
if [ -z "$(ls -A "$THUNKLESS_BUILD/jobs" 2>/dev/null)" ]; then
	ok "quiet guest: job directory removed"
else
	nok "quiet guest: job directory left" "$(ls -A "$THUNKLESS_BUILD/jobs")"
fi

# ---- a guest that keeps printing, for longer than the limit -------------------
# shellcheck disable=SC2016 # expanded by the "guest"
guest --idle-timeout 3 --timeout 60 -- bash -c 'for i in 1 2 3 4 5 6; do echo "PROGRESS tick $i"; sleep 1; done; exit 3'
if [ "$rc" -eq 3 ] && [[ $out == *"PROGRESS tick 6"* ]] && [ "$errn" -eq 0 ] && [ "$secs" -ge 6 ]; then
	ok "guest printing every second for ${secs}s with a 3s limit: runs to the end, exit status 3 comes back"
else
	nok "steady guest left alone" "rc=$rc secs=$secs" "out: $out" "err: $(cat "$tmp/err")"
fi
guest --idle-timeout 3 -- bash -c 'echo start; sleep 2; echo done'
if [ "$rc" -eq 0 ] && [[ $out == *done* ]] && [ "$errn" -eq 0 ]; then
	ok "a 2s pause under a 3s limit passes"
else
	nok "2s pause under a 3s limit" "rc=$rc" "out: $out" "err: $(cat "$tmp/err")"
fi

# ---- 0 = off: the hard --timeout still applies ---------------------------------
guest --idle-timeout 0 --timeout 4 -- bash -c 'echo hello; sleep 1000'
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$err" = "run-uml: error: guest timed out after 4s; last line: hello" ] && [ "$secs" -ge 4 ]; then
	ok "--idle-timeout 0: no watchdog, --timeout still ends it: '$err'"
else
	nok "--idle-timeout 0" "rc=$rc secs=$secs" "err: $err"
fi

# ---- bad values -----------------------------------------------------------------
bad() { # bad DESC WANT ARGS...: run-uml.sh ARGS must fail at once, one line
	local d=$1 want=$2
	shift 2
	guest "$@"
	if [ "$rc" -ne 0 ] && [ "$errn" -eq 1 ] && [ "$err" = "$want" ] && [ -z "$out" ]; then
		ok "$d: '$err'"
	else
		nok "$d" "rc=$rc" "want: $want" "stderr: $(cat "$tmp/err")" "stdout: $out"
	fi
}
bad "non-numeric --idle-timeout" "run-guest: error: bad --idle-timeout 'abc': must be an integer >= 0 (0 = off)" --idle-timeout abc -- bash -c "echo booted"
bad "negative --idle-timeout" "run-guest: error: bad --idle-timeout '-1': must be an integer >= 0 (0 = off)" --idle-timeout -1 -- bash -c "echo booted"
bad "--idle-timeout without a value" "run-guest: error: --idle-timeout needs an argument" --idle-timeout

# ---- end to end: bench.sh -> run-uml.sh -> fake UML -> guest-run.sh ----------
# egress-bpf hangs in its first boot (sleeps after a PROGRESS line); the
# real watchdog kills it, bench.sh names the scenario and retries; the
# retry passes
sd=$tmp/scen
mkdir -p "$sd"
ln -s "$here/helpers/fake-scenario.sh" "$sd/tc-matchall.sh"
cat >"$sd/egress-bpf.sh" <<EOS
#!/bin/bash
if [ ! -e "$tmp/hung-once" ]; then
	touch "$tmp/hung-once"
	echo "PROGRESS v=1 scenario=egress-bpf variant=- n=1 step=measure gate=none pkts=9"
	sleep 1000
fi
. "$here/helpers/fake-scenario.sh" "\$@"
EOS
chmod +x "$sd/egress-bpf.sh"
t0=$SECONDS
out=$(cd "$top" && BENCH_SCENARIO_DIR=$sd FAKE_KERNEL=limit timeout -k 5 60 bench/bench.sh --rounds 1 \
	--kernels "limit=$K" --scenarios tc-matchall:1,egress-bpf --duration 0.1 --idle-timeout 3 \
	--out "$tmp/bench" --no-report 2>"$tmp/err")
rc=$?
secs=$((SECONDS - t0))
raw=$tmp/bench/raw.csv
reason="scenario egress-bpf hung (no progress for 3s; last step: measure n=1 gate=none)"
if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && grep -qx "# retried round=1 kernel=limit: $reason" "$raw" &&
	[ "$(grep -c '^[0-9]' "$raw")" -eq 2 ] && [ "$(tail -n 1 "$raw")" = "# complete" ] &&
	[[ $out == *"limit failed: $reason; retrying once (1 results discarded"* ]] &&
	grep -q '^run-uml: error: guest made no progress for 3s; last line: PROGRESS v=1 scenario=egress-bpf' \
		"$tmp/bench/logs/r1-limit.log.failed"; then
	ok "bench.sh with the real runner: a hang is killed, named, retried, the run completes (${secs}s)"
else
	nok "bench.sh with the real runner" "rc=$rc secs=$secs" "stderr: $(cat "$tmp/err")" "$out" "$(cat "$raw" 2>&1)"
fi

echo "1..$t"
[ "$fails" -eq 0 ]
