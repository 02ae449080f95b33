#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tests for bench/bench.sh and bench/guest-run.sh with a fake runner (no
# kernels are booted): option errors, interleaved boot order, gate A/B in
# the patched boot, raw.csv records and markers, a guest panic, a failing
# scenario.  Prints "ok N - ..." / "not ok N - ..."; exit 1 on failure.
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
THUNKLESS_RUNNER=$tmp/no-runner err_case "missing runner" "bench: error: runner missing" --kernels "$K"

# ---- a good run -------------------------------------------------------------
: >"$FAKE_LOG"
out=$("$B" --rounds 2 --kernels "$K" --scenarios tc-matchall:1:100,egress-bpf --duration 0.1 --out "$tmp/r1" 2>&1)
rc=$?
raw=$tmp/r1/raw.csv
if [ $rc -eq 0 ]; then ok "good run exits 0"; else nok "good run exits 0" "rc=$rc" "$out"; fi
order=$(awk '{ print $1 }' "$FAKE_LOG" | paste -sd' ' -)
if [ "$order" = "base patched limit base patched limit" ]; then ok "boots interleaved: $order"; else nok "boot order" "$order"; fi
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
if [[ $out == *"[1/6] round 1/2: booting base"* && $out == *"[6/6] round 2/2: limit done, 3 results"* ]]; then
	ok "progress line per boot"
else
	nok "progress lines" "$out"
fi
if [ -s "$tmp/r1/report.txt" ] && grep -q '^tc-matchall n=100 *1000000 *1500000 *+50.0 *2000000 *+50.0 *1000000 *+0.0' "$tmp/r1/report.txt"; then
	ok "report written from the run"
else
	nok "report from the run" "$(cat "$tmp/r1/report.txt" 2>&1)"
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
want="tc-matchall:1:100 tc-mixed nft-set/hash+pipapo udp-lookup/reuseport+connected6 egress-bpf"
if [ "$got" = "$want" ]; then ok "--quick scenario set: $got"; else nok "--quick scenario set" "got:  $got" "want: $want"; fi

# ---- a guest panic ----------------------------------------------------------
: >"$FAKE_LOG"
err=$("$B" --rounds 2 --kernels "base=$tmp/k/base,patched=$tmp/k/panic,limit=$tmp/k/limit" \
	--scenarios egress-bpf --out "$tmp/r2" 2>&1 >/dev/null)
rc=$?
raw=$tmp/r2/raw.csv
if [ $rc -ne 0 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] && [[ $err == "bench: error: round 1, patched: runner exit 1: "* ]]; then
	ok "guest panic: one-line error, non-zero: '$err'"
else
	nok "guest panic error" "rc=$rc" "$err"
fi
if [ "$(grep -c '^[0-9]' "$raw")" -eq 1 ] && grep -q '^# failed round=1 kernel=patched' "$raw" &&
	[ "$(tail -n 1 "$raw")" = "# incomplete reason=round 1 kernel patched failed" ] &&
	[ "$(wc -l <"$FAKE_LOG")" -eq 2 ]; then
	ok "guest panic: stops, keeps what it measured, marked incomplete"
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
if [ $rc -ne 0 ] && [ "$(wc -l <"$FAKE_LOG")" -eq 6 ] && [ "$(grep -c '^# failed' "$raw")" -eq 6 ] &&
	[ "$(grep -c '^[0-9]' "$raw")" -eq 8 ] && grep -q '^# incomplete reason=6 boot(s) failed' "$raw" &&
	grep -q 'reason=tc-mixed: error: matchall filters on tlb0 egress: got 0, expected 1' "$raw"; then
	ok "--keep-going: all boots run, other scenarios recorded, failures listed, incomplete"
else
	nok "--keep-going" "rc=$rc" "err: $err" "$(cat "$raw")"
fi

echo "1..$t"
[ "$fails" -eq 0 ]
