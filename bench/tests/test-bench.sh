#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tests for bench/bench.sh and bench/guest-run.sh with a fake runner (no
# kernels are booted): option errors, interleaved boot order (reversed in
# even rounds, or as given with --order given), gate A/B in
# the patched boot, raw.csv records and markers, PROGRESS lines, a guest
# panic, a failing scenario, a boot that hangs once (retried) or twice
# (the run stops).  Prints "ok N - ..." / "not ok N - ..."; exit 1 on failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
B=$(dirname "$here")/bench.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t=0
fails=0
ok() { t=$((t + 1)); echo "ok $t - $1"; }
nok() { t=$((t + 1)); fails=$((fails + 1)); echo "not ok $t - $1"; shift; for l in "$@"; do echo "#   $l"; done; }

mkdir -p "$tmp/k"
for k in base patched limit panic; do
	printf '#!/bin/sh\n' >"$tmp/k/$k" && chmod +x "$tmp/k/$k"
done
export THUNKLESS_RUNNER=$here/helpers/fake-runner.sh FAKE_LOG=$tmp/boots
K="base=$tmp/k/base,patched=$tmp/k/patched,limit=$tmp/k/limit"

# ---- errors before any boot -------------------------------------------------
err_case() { # err_case DESC EXPECTED-SUBSTRING ARGS...
	local d=$1 want=$2 err rc
	shift 2
	: >"$FAKE_LOG"
	err=$("$B" --out "$tmp/never" "$@" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -ne 0 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] && [[ $err == *"$want"* ]] &&
		[ ! -s "$FAKE_LOG" ] && [ ! -e "$tmp/never" ]; then
		ok "$d: '$err'"
	else
		nok "$d" "rc=$rc" "stderr: $err" "boots: $(cat "$FAKE_LOG")"
	fi
}
err_case "unknown scenario" "bench: error: unknown scenario 'tc-bogus'" --kernels "$K" --scenarios tc-matchall,tc-bogus
err_case "N <= 0" "bench: error: bad N '0' for tc-matchall" --kernels "$K" --scenarios tc-matchall:1:0
err_case "unknown variant" "bench: error: unknown variant 'avl' for nft-set (known: hash, rbtree, bitmap, pipapo)" --kernels "$K" --scenarios nft-set/hash+avl
err_case "variant of a scenario without variants" "bench: error: scenario 'tc-matchall' has no variants" --kernels "$K" --scenarios tc-matchall/x:1
err_case "empty variant list" "bench: error: bad variant list in 'nft-set/'" --kernels "$K" --scenarios nft-set/
err_case "rounds 0" "bench: error: bad --rounds '0'" --kernels "$K" --rounds 0
err_case "missing kernel" "bench: error: kernel 'limit' missing: $tmp/k/nope" --kernels "base=$tmp/k/base,limit=$tmp/k/nope"
err_case "missing default kernel path" "bench: error: kernel 'nosuch' missing:" --kernels nosuch
err_case "unknown option" "bench: error: unknown option '--fast'" --fast
err_case "bad duration" "bench: error: bad --duration 'x'" --kernels "$K" --duration x
err_case "bad idle timeout" "bench: error: bad --idle-timeout 'x': must be an integer >= 0 (0 = off)" --kernels "$K" --idle-timeout x
err_case "idle timeout shorter than a measurement" \
	"bench: error: bad --idle-timeout '2': must be 0 (off) or more than 2 x --duration (1.2 s)" --kernels "$K" --idle-timeout 2
err_case "bad order" "bench: error: bad --order 'random': must be alternate or given" --kernels "$K" --order random
err_case "order without a value" "bench: error: --order needs an argument" --kernels "$K" --order
THUNKLESS_RUNNER=$tmp/no-runner err_case "missing runner" "bench: error: runner missing" --kernels "$K"

# ---- a good run -------------------------------------------------------------
: >"$FAKE_LOG"
out=$("$B" --rounds 2 --kernels "$K" --scenarios tc-matchall:1:100,egress-bpf --duration 0.1 --out "$tmp/r1" 2>&1)
rc=$?
raw=$tmp/r1/raw.csv
if [ $rc -eq 0 ]; then ok "good run exits 0"; else nok "good run exits 0" "rc=$rc" "$out"; fi
order=$(awk '{ print $1 }' "$FAKE_LOG" | paste -sd' ' -)
if [ "$order" = "base patched limit limit patched base" ] && grep -q '^# kernels=base patched limit .* order=alternate$' "$raw"; then
	ok "boots interleaved, reversed in the even round: $order"
else
	nok "boot order" "$order" "$(head -n 3 "$raw")"
fi
if grep -q '^patched .*--gates on,off' "$FAKE_LOG" && [ "$(grep -c -- '--gates' "$FAKE_LOG")" -eq 2 ] &&
	sed -n 5p "$FAKE_LOG" | grep -q -- '--gates off,on'; then
	ok "gate settings only in the patched boot, order alternating between rounds"
else
	nok "gate settings" "$(cat "$FAKE_LOG")"
fi
# per round: base 3 + patched 3x2 + limit 3 = 12 records
n=$(grep -c '^[0-9]' "$raw")
if [ "$n" -eq 24 ]; then ok "raw.csv: 24 records"; else nok "raw.csv: 24 records" "got $n" "$(cat "$raw")"; fi
if grep -qx 'ts,round,kernel,gate,scenario,variant,n,pkts,usec,pps,errors' "$raw" &&
	[ "$(tail -n 1 "$raw")" = "# complete" ]; then
	ok "raw.csv: header and '# complete' marker"
else
	nok "raw.csv header/marker" "$(cat "$raw")"
fi
if grep -qE '^[0-9]+,2,patched,off,tc-matchall,-,100,1000000,1000000,1000000,0$' "$raw"; then
	ok "raw.csv: record fields (round 2, patched, gate off)"
else
	nok "raw.csv record fields" "$(cat "$raw")"
fi
# ts: the RESULT line's t= (the fake scenario counts from 1000000001)
bad=$(grep '^[0-9]' "$raw" | awk -F, '$1 < 1000000001 || $1 > 1000000004')
if [ -z "$bad" ] && grep -q '^1000000004,1,patched,off,tc-matchall,-,100,' "$raw"; then
	ok "raw.csv: ts is when each measurement ended (the RESULT line's t=)"
else
	nok "raw.csv ts from t=" "$bad" "$(cat "$raw")"
fi
if [[ $out == *"[1/6] round 1/2: booting base"* && $out == *"[4/6] round 2/2: booting limit"* &&
	$out == *"[6/6] round 2/2: base done, 3 results"* ]]; then
	ok "progress line per boot"
else
	nok "progress lines" "$out"
fi
if [[ $out != *PROGRESS* ]] && [ "$(grep -c '^PROGRESS .*step=measure' "$tmp/r1/logs/r1-patched.log")" -eq 6 ]; then
	ok "PROGRESS lines logged (6 measurements in r1-patched.log), not shown, not counted as records"
else
	nok "PROGRESS lines" "$(grep -c '^PROGRESS' "$tmp/r1/logs/r1-patched.log")" "$out"
fi
if ! grep -q retried "$raw" && [[ $out != *retr* ]]; then ok "good run: no retries"; else nok "good run: no retries" "$out"; fi
if [ -s "$tmp/r1/report.txt" ] && grep -q '^tc-matchall n=100 *1000000 *1500000 *+50.0 *2000000 *+50.0 *1000000 *+0.0' "$tmp/r1/report.txt"; then
	ok "report written from the run"
else
	nok "report from the run" "$(cat "$tmp/r1/report.txt" 2>&1)"
fi

# ---- RESULT lines without t=, or with a bad one ----------------------------
t0=$(date +%s)
out=$(FAKE_T='' "$B" --rounds 1 --kernels "base=$tmp/k/base" --scenarios tc-matchall:1 --duration 0.1 \
	--no-report --out "$tmp/r1t" 2>&1)
rc=$?
t1=$(date +%s)
bad=$(grep '^[0-9]' "$tmp/r1t/raw.csv" | awk -F, -v a="$t0" -v b="$t1" '$1 < a || $1 > b')
if [ $rc -eq 0 ] && [ -z "$bad" ] && [ "$(grep -c '^[0-9]' "$tmp/r1t/raw.csv")" -eq 1 ]; then
	ok "RESULT without t=: ts is the time the boot's records were collected"
else
	nok "RESULT without t=" "rc=$rc" "$out" "$(cat "$tmp/r1t/raw.csv")"
fi
out=$(FAKE_T=12x "$B" --rounds 1 --kernels "base=$tmp/k/base" --scenarios tc-matchall:1 --duration 0.1 \
	--no-report --out "$tmp/r1u" 2>&1)
if ! grep -q '^[0-9]' "$tmp/r1u/raw.csv" &&
	[[ $out == *"bench: unparsable result line: RESULT v=1 scenario=tc-matchall variant=- n=1 gate=none pkts=1000000 usec=1000000 pps=1000000 errors=0 t=12x"* ]]; then
	ok "RESULT with a t= that is not a Unix time: reported as unparsable, no record"
else
	nok "RESULT with a bad t=" "$out" "$(cat "$tmp/r1u/raw.csv")"
fi

# ---- a TERM sent to bench.sh alone, during a boot ---------------------------
# stops the run at once (not when the boot ends), and the boot with it
: >"$FAKE_LOG"
FAKE_SLOW="limit 31.4159" "$B" --rounds 2 --kernels "$K" --scenarios tc-matchall:1 --duration 0.1 \
	--out "$tmp/rterm" >"$tmp/rterm.out" 2>&1 &
bpid=$!
for ((i = 0; i < 100; i++)); do
	pgrep -f 'sleep 31[.]4159' >/dev/null && break
	sleep 0.1
done
t0=$(date +%s)
kill -TERM "$bpid"
wait "$bpid"
rc=$?
dt=$(($(date +%s) - t0))
sleep 0.5
left=$(pgrep -f 'sleep 31[.]4159')
if [ $rc -eq 130 ] && [ $dt -le 5 ] && [ -z "$left" ] && [ "$(grep -c '^[0-9]' "$tmp/rterm/raw.csv")" -eq 3 ] &&
	[ "$(tail -n 1 "$tmp/rterm/raw.csv")" = "# incomplete reason=interrupted" ] &&
	grep -q 'raw data (INCOMPLETE)' "$tmp/rterm.out" && ! compgen -G "$tmp/rterm/logs/.boot*" >/dev/null; then
	ok "TERM to bench.sh during a boot: stops in ${dt}s with the boot, 2 boots' records kept, incomplete"
else
	[ -z "$left" ] || pkill -f 'sleep 31[.]4159'
	nok "TERM during a boot" "rc=$rc after ${dt}s; left: $left" "$(cat "$tmp/rterm.out")" "$(cat "$tmp/rterm/raw.csv")"
fi

# ---- variants, and what --quick runs -----------------------------------------
: >"$FAKE_LOG"
out=$("$B" --rounds 1 --kernels "$K" --scenarios nft-set/hash+pipapo:10,egress-bpf --gates on \
	--out "$tmp/rv" --no-report 2>&1)
rc=$?
got=$(grep '^[0-9]' "$tmp/rv/raw.csv" | grep -v egress-bpf | cut -d, -f3-7 | sort | paste -sd' ' -)
want="base,none,nft-set,hash,10 base,none,nft-set,pipapo,10 limit,none,nft-set,hash,10 limit,none,nft-set,pipapo,10 patched,on,nft-set,hash,10 patched,on,nft-set,pipapo,10"
if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then
	ok "SCENARIO/V+V:N runs just those variants at that size"
else
	nok "variant spec" "rc=$rc" "got:  $got" "want: $want" "$out"
fi
: >"$FAKE_LOG"
"$B" --quick --rounds 1 --kernels "$K" --out "$tmp/rq" --no-report >/dev/null 2>&1
got=$(sed -n 1p "$FAKE_LOG" | grep -o 'tc-matchall.*')
want="tc-matchall:1:100 tc-mixed nft-set/hash+pipapo udp-lookup/reuseport+connected6 egress-bpf forward qdisc tc-cls/flower+basic tc-act/mirred+police"
if [ "$got" = "$want" ]; then ok "--quick scenario set: $got"; else nok "--quick scenario set" "got:  $got" "want: $want"; fi

# ---- a guest panic ----------------------------------------------------------
: >"$FAKE_LOG"
err=$("$B" --rounds 2 --kernels "base=$tmp/k/base,patched=$tmp/k/panic,limit=$tmp/k/limit" \
	--scenarios egress-bpf --out "$tmp/r2" 2>&1 >/dev/null)
rc=$?
raw=$tmp/r2/raw.csv
want="bench: error: round 1, patched: before the first scenario: runner exit 1: run-uml: error: guest panicked; failed twice (log: $tmp/r2/logs/r1-patched.log)"
if [ $rc -ne 0 ] && [ "$err" = "$want" ]; then
	ok "guest panic: one-line error, non-zero: '$err'"
else
	nok "guest panic error" "rc=$rc" "want: $want" "got:  $err"
fi
if [ "$(grep -c '^[0-9]' "$raw")" -eq 1 ] && grep -q '^# retried round=1 kernel=patched: before the first scenario: runner exit 1' "$raw" &&
	grep -q '^# failed round=1 kernel=patched' "$raw" &&
	[ "$(tail -n 1 "$raw")" = "# incomplete reason=round 1 kernel patched failed twice" ] &&
	[ "$(awk '{ print $1 }' "$FAKE_LOG" | paste -sd' ' -)" = "base panic panic" ] &&
	[ -s "$tmp/r2/logs/r1-patched.log.failed" ] && [ -s "$tmp/r2/logs/r1-patched.log" ]; then
	ok "guest panic: retried once, then stops, keeps what it measured, marked incomplete"
else
	nok "guest panic: raw" "$(cat "$raw")" "boots: $(cat "$FAKE_LOG")"
fi
if grep -q "INCOMPLETE RUN" "$tmp/r2/report.txt" 2>/dev/null; then ok "guest panic: report says INCOMPLETE"; else nok "incomplete report"; fi

# ---- --keep-going past a failing scenario -----------------------------------
: >"$FAKE_LOG"
err=$(FAKE_FAIL=tc-mixed "$B" --rounds 2 --keep-going --kernels "$K" --scenarios tc-mixed,egress-bpf \
	--out "$tmp/r3" 2>&1 >/dev/null)
rc=$?
raw=$tmp/r3/raw.csv
# each boot twice (retry); egress-bpf recorded from the second attempts
# only: 8 records, not 16
if [ $rc -ne 0 ] && [ "$(wc -l <"$FAKE_LOG")" -eq 12 ] && [ "$(grep -c '^# failed' "$raw")" -eq 6 ] &&
	[ "$(grep -c '^# retried' "$raw")" -eq 6 ] && [ "$(echo "$err" | grep -c '^bench: error: ')" -eq 6 ] &&
	[ "$(grep -c '^[0-9]' "$raw")" -eq 8 ] && grep -q '^# incomplete reason=6 boot(s) failed twice' "$raw" &&
	grep -qx '# failed round=2 kernel=limit: scenario tc-mixed failed (rc 1): tc-mixed: error: matchall filters on tlb0 egress: got 0, expected 1' "$raw"; then
	ok "--keep-going: all boots run and retried, failed attempts' records dropped, failures listed, incomplete"
else
	nok "--keep-going" "rc=$rc" "err: $err" "$(cat "$raw")"
fi

# ---- a boot that hangs once: retried, the run completes ----------------------
# the 2nd boot of limit (round 2) hangs in egress-bpf after tc-matchall ran;
# its retry (limit's 3rd boot) passes
: >"$FAKE_LOG"
out=$(FAKE_HANG="limit egress-bpf 2" "$B" --rounds 3 --kernels "$K" --scenarios tc-matchall:1,egress-bpf \
	--idle-timeout 45 --out "$tmp/r4" 2>"$tmp/err4")
rc=$?
raw=$tmp/r4/raw.csv
reason="scenario egress-bpf hung (no progress for 45s; last step: setup n=1)"
if [ $rc -eq 0 ] && [ ! -s "$tmp/err4" ] && [ "$(tail -n 1 "$raw")" = "# complete" ]; then
	ok "hang once: exit 0, nothing on stderr, raw.csv complete"
else
	nok "hang once: complete run" "rc=$rc" "stderr: $(cat "$tmp/err4")" "$(tail -n 3 "$raw")"
fi
order=$(awk '{ print $1 }' "$FAKE_LOG" | paste -sd' ' -)
if [ "$order" = "base patched limit limit limit patched base base patched limit" ]; then
	ok "hang once: the failed boot is booted again at once: $order"
else
	nok "hang once: boot order" "$order"
fi
# 8 records per round (base 2, patched 4, limit 2); the failed attempt's
# tc-matchall record is not among them
if [ "$(grep -c '^[0-9]' "$raw")" -eq 24 ] && [ "$(grep -c '^[0-9]*,2,limit,' "$raw")" -eq 2 ] &&
	grep -qx "# retried round=2 kernel=limit: $reason" "$raw" &&
	[ "$(grep -n '^# retried' "$raw" | cut -d: -f1)" -lt "$(grep -n '^# complete' "$raw" | cut -d: -f1)" ]; then
	ok "hang once: 24 records (the failed attempt's dropped), '# retried' line before '# complete'"
else
	nok "hang once: raw.csv" "$(cat "$raw")"
fi
if [[ $out == *"bench: [4/9] round 2/3: limit failed: $reason; retrying once (1 results discarded; log: $tmp/r4/logs/r2-limit.log.failed)"* &&
	$out == *"bench:   retried round=2 kernel=limit: $reason"* ]]; then
	ok "hang once: bench says so when it happens and again at the end"
else
	nok "hang once: bench output" "$out"
fi
if grep -q '^BEGIN scenario=egress-bpf' "$tmp/r4/logs/r2-limit.log.failed" &&
	grep -q 'no progress for 45s' "$tmp/r4/logs/r2-limit.log.failed" &&
	[ "$(grep -c '^RESULT' "$tmp/r4/logs/r2-limit.log")" -eq 2 ] &&
	! grep -q 'no progress' "$tmp/r4/logs/r2-limit.log"; then
	ok "hang once: failed attempt's log kept as r2-limit.log.failed, the retry's as r2-limit.log"
else
	nok "hang once: logs" "$(ls "$tmp/r4/logs")"
fi
if grep -q '^1 boot(s) retried after a failure' "$tmp/r4/report.txt" &&
	grep -qF "round=2 kernel=limit: $reason" "$tmp/r4/report.txt" && ! grep -q INCOMPLETE "$tmp/r4/report.txt"; then
	ok "hang once: the report is complete and lists the retry"
else
	nok "hang once: report" "$(cat "$tmp/r4/report.txt")"
fi

# ---- the same boot hangs twice: the run stops --------------------------------
# (--order given: the kernels in the order given in every round)
: >"$FAKE_LOG"
out=$(FAKE_HANG="limit egress-bpf 2,3" "$B" --rounds 3 --kernels "$K" --scenarios tc-matchall:1,egress-bpf \
	--order given --out "$tmp/r5" 2>"$tmp/err5")
rc=$?
raw=$tmp/r5/raw.csv
err=$(cat "$tmp/err5")
reason="scenario egress-bpf hung (no progress for 60s; last step: setup n=1)"
want="bench: error: round 2, limit: $reason; failed twice (log: $tmp/r5/logs/r2-limit.log)"
if [ $rc -eq 1 ] && [ "$err" = "$want" ]; then
	ok "hang twice: exit 1, one line naming round, kernel and scenario: '$err'"
else
	nok "hang twice: error" "rc=$rc" "want: $want" "got:  $err"
fi
order=$(awk '{ print $1 }' "$FAKE_LOG" | paste -sd' ' -)
# round 1: 8 records; round 2: base 2, patched 4, and the second limit
# attempt's tc-matchall record (a boot that failed twice keeps its records)
if [ "$order" = "base patched limit base patched limit limit" ] &&
	[ "$(grep -c '^[0-9]' "$raw")" -eq 15 ] &&
	grep -qx "# retried round=2 kernel=limit: $reason" "$raw" &&
	grep -qx "# failed round=2 kernel=limit: $reason" "$raw" &&
	[ "$(tail -n 1 "$raw")" = "# incomplete reason=round 2 kernel limit failed twice" ]; then
	ok "hang twice: stops after the retry, '# retried' and '# failed' lines, incomplete"
else
	nok "hang twice: raw.csv" "boots: $order" "$(cat "$raw")"
fi
if grep -q "INCOMPLETE RUN: round 2 kernel limit failed twice" "$tmp/r5/report.txt" &&
	grep -q '^1 boot(s) retried after a failure' "$tmp/r5/report.txt"; then
	ok "hang twice: report says INCOMPLETE and lists the retry"
else
	nok "hang twice: report" "$(cat "$tmp/r5/report.txt")"
fi

# the default idle limit grows with --duration: 4 x 30 s
err=$(FAKE_HANG="base tc-matchall all" "$B" --rounds 1 --kernels "$K" --scenarios tc-matchall:1 \
	--duration 30 --out "$tmp/r6" --no-report 2>&1 >/dev/null)
want="bench: error: round 1, base: scenario tc-matchall hung (no progress for 120s; last step: setup n=1); failed twice (log: $tmp/r6/logs/r1-base.log)"
if [ "$err" = "$want" ]; then
	ok "--duration 30: default idle limit 120s; a hang in the first scenario"
else
	nok "default idle limit for --duration 30" "want: $want" "got:  $err"
fi

# ---- a kernel restricted to some scenarios; gates for patched-X -------------
for k in base-mod patched-mod; do cp "$tmp/k/base" "$tmp/k/$k"; done
err_case "@ unknown scenario" "bench: error: unknown scenario 'tc-bogus' for kernel 'base-mod'" \
	--kernels "$K,base-mod=$tmp/k/base-mod@tc-bogus"
err_case "@ no kernel left" "bench: error: no kernel runs any of the scenarios" \
	--kernels "base-mod=$tmp/k/base-mod@tc-mixed" --scenarios tc-matchall:1
: >"$FAKE_LOG"
out=$("$B" --rounds 1 --kernels "$K,base-mod=$tmp/k/base-mod@tc-mixed" --scenarios tc-matchall:1 \
	--duration 0.1 --out "$tmp/r7" --no-report 2>&1)
rc=$?
if [ $rc -eq 0 ] && [[ $out == *"bench: kernel base-mod runs none of the scenarios (@tc-mixed): left out"* ]] &&
	[ "$(awk '{ print $1 }' "$FAKE_LOG" | paste -sd' ' -)" = "base patched limit" ]; then
	ok "@: a kernel that runs none of the scenarios is left out, with a note"
else
	nok "@ left out" "rc=$rc" "$out" "$(cat "$FAKE_LOG")"
fi
err_case "@ empty list" "bench: error: bad scenario list '@' for kernel 'base-mod'" \
	--kernels "$K,base-mod=$tmp/k/base-mod@"
: >"$FAKE_LOG"
out=$("$B" --rounds 1 --kernels "$K,base-mod=$tmp/k/base-mod@tc-matchall,patched-mod=$tmp/k/patched-mod@tc-matchall" \
	--scenarios tc-matchall:1:100,egress-bpf --duration 0.1 --out "$tmp/r8" --no-report 2>&1)
rc=$?
raw=$tmp/r8/raw.csv
if [ $rc -eq 0 ] && grep -qx 'base .* tc-matchall:1:100 egress-bpf' "$FAKE_LOG" &&
	grep -qx 'base-mod .*--duration 0.1 tc-matchall:1:100' "$FAKE_LOG" &&
	grep -qx 'patched-mod .*--gates on,off tc-matchall:1:100' "$FAKE_LOG" &&
	[ "$(grep -c ',base-mod,.*,egress-bpf,' "$raw")" -eq 0 ] &&
	[ "$(grep -c ',base-mod,.*,tc-matchall,' "$raw")" -eq 2 ] &&
	[ "$(grep -c ',patched-mod,off,tc-matchall,' "$raw")" -eq 2 ] &&
	[ "$(grep -c ',base,.*,egress-bpf,' "$raw")" -eq 1 ]; then
	ok "@: base-mod and patched-mod run tc-matchall only; patched-mod gets the gates"
else
	nok "@ restriction" "rc=$rc" "$(cat "$FAKE_LOG")" "$(cat "$raw")" "$out"
fi

# ---- a kernel whose sources moved since it was built --------------------------
# build.sh records what a kernel was built from (.thunkless-inputs);
# THUNKLESS_INPUTS stands in for scripts/inputs.sh, which says what its
# profile is built from now.
mkdir -p "$tmp/kst"
cp "$tmp/k/base" "$tmp/kst/stalek"
cat >"$tmp/kst/.thunkless-inputs" <<'EOR'
profile um-x base 6.12
line um-x um series+test net uml
tree series+test aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
test-patches 1111111111111111
fragments 2222222222222222
EOR
cat >"$tmp/inputs-now.sh" <<'EOS'
#!/bin/sh
[ "$1" = um-x ] || { echo "inputs: error: unknown kernel profile '$1'" >&2; exit 1; }
[ "$THUNKLESS_BASE" = 6.12 ] || { echo "inputs: error: wrong base '$THUNKLESS_BASE'" >&2; exit 1; }
cat "$FAKE_INPUTS"
EOS
chmod +x "$tmp/inputs-now.sh"
export THUNKLESS_INPUTS=$tmp/inputs-now.sh FAKE_INPUTS=$tmp/inputs-now
KS="$K,x=$tmp/kst/stalek"
cp "$tmp/kst/.thunkless-inputs" "$FAKE_INPUTS"
: >"$FAKE_LOG"
out=$("$B" --rounds 1 --kernels "$KS" --scenarios tc-matchall:1 --duration 0.1 --out "$tmp/r9" 2>&1)
rc=$?
if [ $rc -eq 0 ] && grep -q '^stalek ' "$FAKE_LOG" && ! grep -q stale "$tmp/r9/raw.csv" &&
	[[ $out != *stale* ]]; then
	ok "a kernel built from what its profile names now runs, with no note"
else
	nok "current kernel" "rc=$rc" "$out" "$(cat "$FAKE_LOG")"
fi
sed -i 's/^tree series+test a*/tree series+test bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb/' "$FAKE_INPUTS"
err_case "stale: the series moved" "bench: error: kernel 'x' is stale: its series+test tree is at bbbbbbbbbbbb, the kernel was built from aaaaaaaaaaaa (rebuild it: BASE=6.12 scripts/build.sh um-x; or --allow-stale)" \
	--kernels "$KS" --scenarios tc-matchall:1
cp "$tmp/kst/.thunkless-inputs" "$FAKE_INPUTS"
sed -i 's/^fragments .*/fragments 3333333333333333/' "$FAKE_INPUTS"
err_case "stale: a fragment changed" "bench: error: kernel 'x' is stale: its config fragments changed since its build" \
	--kernels "$KS" --scenarios tc-matchall:1
sed -i 's/^fragments .*/fragments 2222222222222222/; s/^test-patches .*/test-patches 4444444444444444/' "$FAKE_INPUTS"
err_case "stale: a test patch changed" "bench: error: kernel 'x' is stale: the test patches changed since its build" \
	--kernels "$KS" --scenarios tc-matchall:1
sed -i 's/^profile um-x .*/profile um-y base 6.12/' "$tmp/kst/.thunkless-inputs"
err_case "record of an unknown profile" "bench: error: kernel 'x' is stale: cannot read what um-y is built from now: inputs: error: unknown kernel profile 'um-y'" \
	--kernels "$KS" --scenarios tc-matchall:1
sed -i 's/^profile um-y .*/profile um-x base 6.12/' "$tmp/kst/.thunkless-inputs"
: >"$FAKE_LOG"
out=$("$B" --rounds 1 --allow-stale --kernels "$KS" --scenarios tc-matchall:1 --duration 0.1 --out "$tmp/r10" 2>&1)
rc=$?
note='stale kernel=x: the test patches changed since its build'
if [ $rc -eq 0 ] && grep -q '^stalek ' "$FAKE_LOG" && grep -qx "# $note" "$tmp/r10/raw.csv" &&
	[[ $out == *"bench: measured as it is (--allow-stale): $note"* ]] &&
	grep -q 'measured although their sources had moved' "$tmp/r10/report.txt" &&
	grep -q '"stale": \["kernel=x: the test patches changed' "$tmp/r10/summary.json"; then
	ok "--allow-stale: measured, with a note in the output, raw.csv, report.txt and summary.json"
else
	nok "--allow-stale" "rc=$rc" "$out" "$(cat "$tmp/r10/raw.csv" 2>&1)"
fi
unset THUNKLESS_INPUTS FAKE_INPUTS

# ---- guest-run.sh: PROGRESS lines are console only ---------------------------
sd=$tmp/scen
mkdir -p "$sd" "$tmp/gout"
cat >"$sd/tc-mixed.sh" <<'EOS'
#!/bin/bash
echo "PROGRESS v=1 scenario=tc-mixed variant=- n=1 step=setup"
echo "tc-mixed: error: boom" >&2
echo "PROGRESS v=1 scenario=tc-mixed variant=- n=1 step=teardown"
exit 1
EOS
chmod +x "$sd/tc-mixed.sh"
gout=$(BENCH_SCENARIO_DIR=$sd THUNKLESS_OUT=$tmp/gout "$(dirname "$B")/guest-run.sh" tc-mixed 2>/dev/null)
rc=$?
if [ $rc -eq 1 ] && [ "$(grep -c '^PROGRESS' <<<"$gout")" -eq 2 ] &&
	[ "$(cat "$tmp/gout/results.txt")" = "FAIL scenario=tc-mixed rc=1 reason=tc-mixed: error: boom" ]; then
	ok "guest-run: PROGRESS lines on stdout, not in results.txt, never the FAIL reason"
else
	nok "guest-run: PROGRESS lines" "rc=$rc" "stdout: $gout" "results: $(cat "$tmp/gout/results.txt")"
fi

echo "1..$t"
[ "$fails" -eq 0 ]
