#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Tests for the scenario scripts that need neither pktgen nor a test kernel:
#  - option errors: one line on stderr, non-zero exit, before any setup;
#  - pg_parse on a real pktgen result block;
#  - when run as root with unshare, nft and python3: nft-set, udp-lookup and
#    egress-bpf end to end in a private network namespace, with pktgen
#    replaced by mock-pktgen.sh (AF_PACKET senders on veth pairs), including
#    the gate A/B logic and broken setups that must fail.
# Prints "ok N - ..." / "not ok N - ..." lines; exit 1 on failure.
# shellcheck disable=SC2031 # lib.sh is sourced in subshells on purpose
set -u
here=$(cd "$(dirname "$0")" && pwd)
S=$(dirname "$here")/scenarios
t=0
fails=0
ok() { t=$((t + 1)); echo "ok $t - $1"; }
nok() { t=$((t + 1)); fails=$((fails + 1)); echo "not ok $t - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
skip() { t=$((t + 1)); echo "ok $t - $1 # SKIP $2"; }

# ---- option errors ----------------------------------------------------------
opt_err() { # opt_err SCENARIO ARGS...: must fail with exactly one stderr line
	local s=$1 err rc
	shift
	err=$("$S/$s.sh" "$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" -ne 0 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] && [[ $err == "$s: error: "* ]]; then
		ok "$s $*: '$err'"
	else
		nok "$s $*: one-line error, non-zero" "rc=$rc" "stderr: $err"
	fi
}
for s in tc-matchall tc-mixed nft-set udp-lookup egress-bpf forward qdisc tc-cls tc-act; do
	opt_err $s -n 0
	opt_err $s -x
done
opt_err tc-matchall -n -5
opt_err tc-matchall -n 1,,10
opt_err tc-matchall -n abc
opt_err tc-matchall -c 0
opt_err tc-matchall -d 0
opt_err tc-matchall -d 1s
opt_err tc-matchall -g maybe
opt_err tc-matchall extra-arg
opt_err tc-matchall -v hash
opt_err nft-set -v btree
opt_err nft-set -n 100000
opt_err udp-lookup -v reuseport,bogus
opt_err forward -n 2
opt_err qdisc -n 2
opt_err qdisc -v pfifo_fast,cake
opt_err tc-cls -v bpf
opt_err tc-cls -n 1001
opt_err tc-act -v flower
opt_err tc-act -n 32

# ---- pg_parse ---------------------------------------------------------------
t0=$EPOCHSECONDS
r=$(
	# shellcheck source-path=SCRIPTDIR source=../scenarios/lib.sh
	. "$S/lib.sh"
	pg_parse "Result: OK: 1502604(c1502437+d167) usec, 577000 (60byte,0frags)
  384000pps 184Mb/sec (184320000bps) errors: 7" && echo "$PG_USEC $PG_PKTS $PG_PPS $PG_ERRORS"
)
if [ "$r" = "1502604 577000 384000 7" ]; then ok "pg_parse"; else nok "pg_parse" "got '$r'"; fi
r=$(
	# shellcheck source-path=SCRIPTDIR source=../scenarios/lib.sh
	. "$S/lib.sh"
	pg_parse "Result: Idle" && echo parsed
)
if [ -z "$r" ]; then ok "pg_parse rejects 'Result: Idle'"; else nok "pg_parse rejects 'Result: Idle'"; fi

# ---- PROGRESS lines from run_scenario ----------------------------------------
# the driver with stub scenario functions and pg_run: a PROGRESS line before
# the setup, each warm-up, each measurement and the teardown, and only
# RESULT lines after the measurements
r=$(
	# shellcheck source-path=SCRIPTDIR source=../scenarios/lib.sh
	. "$S/lib.sh"
	# shellcheck disable=SC2317 # called by run_scenario
	{
		s_setup() { echo "setup $*"; }
		s_rate() { RATE=100000; }
		s_snap() { SNAP=x; }
		s_check() { :; }
		s_teardown() { echo "teardown $*"; }
		pg_run() { PG_PKTS=$1 PG_USEC=1000 PG_PPS=$(($1 * 1000)) PG_ERRORS=0; }
	}
	GATE_KNOB=/nonexistent N_LIST=2 VARIANTS=- COUNT=20000
	run_scenario 2>&1
)
t1=$EPOCHSECONDS
# t=: the Unix time at which the measurement ended
tm=$(echo "$r" | sed -n 's/^RESULT .* t=\([0-9]*\)$/\1/p')
[ -n "$tm" ] && [ "$tm" -ge "$t0" ] && [ "$tm" -le "$t1" ] || tm="not-between-$t0-and-$t1"
want="PROGRESS v=1 scenario=test-scenarios variant=- n=2 step=setup
setup - 2
PROGRESS v=1 scenario=test-scenarios variant=- n=2 step=warm-up gate=none
PROGRESS v=1 scenario=test-scenarios variant=- n=2 step=measure gate=none pkts=20000
RESULT v=1 scenario=test-scenarios variant=- n=2 gate=none pkts=20000 usec=1000 pps=20000000 errors=0 t=$tm
PROGRESS v=1 scenario=test-scenarios variant=- n=2 step=teardown
teardown - 2"
if [ "$r" = "$want" ]; then
	ok "run_scenario: PROGRESS before setup, warm-up, measurement and teardown; t= when the measurement ended"
else
	nok "run_scenario PROGRESS lines" "got:" "$r"
fi

# ---- pktgen errors: the check names the backlog's drops ---------------------
# a stub pg_run that counts 3 errors per run and as many drops in a fake
# softnet_stat: warm-up and measurement, 6 of each
sn=$(mktemp)
printf '00000010 00000005 00000000\n00000001 0000000a 00000000\n' >"$sn"
r=$(
	# shellcheck source-path=SCRIPTDIR source=../scenarios/lib.sh
	. "$S/lib.sh"
	# shellcheck disable=SC2317 # called by run_scenario
	{
		s_setup() { :; }
		s_rate() { RATE=100000; }
		s_snap() { SNAP=x; }
		s_check() { expect_no_pg_errors; }
		s_teardown() { :; }
		pg_run() {
			PG_PKTS=$1 PG_USEC=1000 PG_PPS=$(($1 * 1000)) PG_ERRORS=3
			drops=$((${drops:-10} + 3))
			printf '00000010 00000005 00000000\n00000001 %08x 00000000\n' "$drops" >"$SOFTNET_STAT"
		}
	}
	GATE_KNOB=/nonexistent N_LIST=1 VARIANTS=- COUNT=20000 SOFTNET_STAT=$sn
	(run_scenario 2>&1 >/dev/null)
	echo "rc=$?"
)
want="test-scenarios: error: pktgen errors: got 6, expected 0 (packets dropped at a full backlog meanwhile: 6)
rc=1"
if [ "$r" = "$want" ]; then
	ok "pktgen errors: one line with the backlog's drops during warm-up and measurement"
else
	nok "pktgen errors and backlog drops" "got:" "$r"
fi
r=$(
	# shellcheck source-path=SCRIPTDIR source=../scenarios/lib.sh
	. "$S/lib.sh"
	CHECK_ERRORS=2 BACKLOG_DROPS=
	(expect_no_pg_errors 2>&1)
	echo "rc=$?"
)
if [ "$r" = "test-scenarios: error: pktgen errors: got 2, expected 0 (packets dropped at a full backlog meanwhile: unknown)
rc=1" ]; then
	ok "pktgen errors without softnet_stat: the drops are unknown"
else
	nok "pktgen errors without softnet_stat" "got:" "$r"
fi
rm -f "$sn"

# ---- mock runs --------------------------------------------------------------
mock_ok=1
for tool in unshare nft tc python3 ip; do
	command -v $tool >/dev/null || mock_ok=
done
[ "$(id -u)" -eq 0 ] || mock_ok=
[ -n "$mock_ok" ] && ! unshare -n -m --propagation private sh -c 'mount -t sysfs sysfs /sys' 2>/dev/null && mock_ok=
if [ -z "$mock_ok" ]; then
	skip "mock scenario runs" "needs root, unshare, nft, tc, python3"
	echo "1..$t"
	[ "$fails" -eq 0 ]
	exit
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/pg"
touch "$tmp/pg/pgctrl" "$tmp/pg/kpktgend_0"
export PG_DIR=$tmp/pg BENCH_PKTGEN_MOCK=$here/helpers/mock-pktgen.sh
export GATE_KNOB=$tmp/no-knob

# mock SCENARIO ARGS...: run in a private netns (with its own /sys);
# stdout -> $tmp/out, stderr -> $tmp/err
mock() {
	unshare -n -m --propagation private bash -c \
		'mount -t sysfs sysfs /sys && ip link set lo up && exec "$@"' _ \
		"$S/$1.sh" "${@:2}" >"$tmp/out" 2>"$tmp/err"
}
results_ok() { # results_ok DESC COUNT: every RESULT line well formed, COUNT of them
	local d=$1 want=$2 n bad
	n=$(grep -c '^RESULT ' "$tmp/out")
	bad=$(grep '^RESULT ' "$tmp/out" | grep -Evx 'RESULT v=1 scenario=[a-z-]+ variant=[a-z0-9_-]+ n=[0-9]+ gate=[a-z]+ pkts=[0-9]+ usec=[0-9]+ pps=[0-9]+ errors=[0-9]+ t=[1-9][0-9]*')
	if [ "$n" -eq "$want" ] && [ -z "$bad" ]; then
		ok "$d"
	else
		nok "$d" "want $want RESULT lines, got $n" "bad: $bad" "stderr: $(tail -n 3 "$tmp/err")"
	fi
}

mock nft-set -n 50 -c 2000
rc=$?
[ $rc -eq 0 ] || echo "#   nft-set: $(tail -n 2 "$tmp/err")"
results_ok "mock nft-set: 4 backends measured and checked (rc=$rc)" 4
if grep -q '^RESULT .*variant=pipapo n=50 gate=none pkts=2000 .* errors=2000 t=[0-9]*$' "$tmp/out"; then
	ok "mock nft-set: pipapo line, every packet counted and dropped"
else
	nok "mock nft-set: pipapo line" "$(cat "$tmp/out")"
fi

mock udp-lookup -n 8 -c 3000
rc=$?
[ $rc -eq 0 ] || echo "#   udp-lookup: $(tail -n 2 "$tmp/err")"
results_ok "mock udp-lookup: reuseport, connected and their IPv6 twins measured and checked (rc=$rc)" 4
if grep -q '^RESULT .*variant=reuseport6 n=8 gate=none pkts=3000 .* errors=0 t=[0-9]*$' "$tmp/out" &&
	grep -q '^RESULT .*variant=connected6 n=8 gate=none pkts=3000 .* errors=0 t=[0-9]*$' "$tmp/out"; then
	ok "mock udp-lookup: reuseport6 and connected6 lines"
else
	nok "mock udp-lookup: IPv6 lines" "$(cat "$tmp/out")"
fi

mock egress-bpf -n 1,3 -c 2000
rc=$?
[ $rc -eq 0 ] || echo "#   egress-bpf: $(tail -n 2 "$tmp/err")"
results_ok "mock egress-bpf: n=1 and n=3 (probe, filters, tx counters) (rc=$rc)" 2

# qdisc: the variants whose qdiscs the host kernel has (htb's needs fq_codel)
qv=
for k in pfifo_fast fq_codel htb; do
	need=$k
	[ $k = htb ] && need="htb fq_codel"
	if unshare -n sh -c "ip link add q0 type veth peer name q1 && for q in $need; do tc qdisc add dev q1 root \$q || exit; done" 2>/dev/null; then
		qv+=${qv:+,}$k
	else
		skip "mock qdisc -v $k" "the host kernel lacks ${need// / or }"
	fi
done
if [ -n "$qv" ]; then
	mock qdisc -c 2000 -v "$qv"
	rc=$?
	[ $rc -eq 0 ] || echo "#   qdisc: $(tail -n 2 "$tmp/err")"
	results_ok "mock qdisc -v $qv: each qdisc's sent and drop counters checked (rc=$rc)" "$(echo "${qv//,/ }" | wc -w)"
fi

# gate A/B with a knob (a plain file standing in for the sysctl)
echo auto >"$tmp/knob"
GATE_KNOB=$tmp/knob mock egress-bpf -c 2000 -g on,off
results_ok "gate on,off: two measurements" 2
if grep -q 'gate=on ' "$tmp/out" && grep -q 'gate=off ' "$tmp/out" &&
	[ "$(cat "$tmp/knob")" = auto ]; then
	ok "gate on,off: labelled, knob restored to its original value"
else
	nok "gate labels / knob restore" "$(cat "$tmp/out")" "knob: $(cat "$tmp/knob")"
fi
GATE_KNOB=$tmp/knob mock egress-bpf -c 2000
if grep -q 'gate=auto ' "$tmp/out"; then ok "no -g: current gate value recorded"; else nok "no -g: current gate" "$(cat "$tmp/out")"; fi
mock egress-bpf -c 2000 -g on,off
if [ "$(grep -c '^SKIP .*reason=no-gate-knob' "$tmp/out")" -eq 2 ] && grep -q 'gate=none ' "$tmp/out"; then
	ok "no knob: on/off skipped with SKIP lines, measured once as gate=none"
else
	nok "no knob: SKIP lines" "$(cat "$tmp/out")"
fi

# a broken setup must fail loudly: the mock sends to the wrong address
cat >"$tmp/broken.sh" <<EOB
. "$here/helpers/mock-pktgen.sh"
eval "\$(declare -f pg_write | sed '1s/pg_write/mock_pg_write/')"
pg_write() { case "\$2" in dst_min* | dst_max*) set -- "\$1" "\${2%% *} 10.255.255.1" ;; esac; mock_pg_write "\$@"; }
EOB
BENCH_PKTGEN_MOCK=$tmp/broken.sh mock nft-set -n 50 -c 2000 -v hash
rc=$?
err=$(cat "$tmp/err")
if [ $rc -ne 0 ] && ! grep -q '^RESULT' "$tmp/out" && [[ $err == "nft-set: error: probe: counted 0 packets; expected 3000 to "*" (in set) and none of 1000 to "*" (not in set)" ]]; then
	ok "broken setup fails: '$(tail -n 1 "$tmp/err")'"
else
	nok "broken setup must fail" "rc=$rc" "out: $(cat "$tmp/out")" "err: $err"
fi

# IPv6 without pktgen's UDPCSUM: zero UDP checksums, every packet dropped
# after the lookup as a checksum error; the socket check must catch it
cat >"$tmp/nocsum.sh" <<EOB
. "$here/helpers/mock-pktgen.sh"
eval "\$(declare -f pg_write | sed '1s/pg_write/mock_pg_write/')"
pg_write() { [ "\$2" = "flag UDPCSUM" ] || mock_pg_write "\$@"; }
EOB
BENCH_PKTGEN_MOCK=$tmp/nocsum.sh mock udp-lookup -n 8 -c 3000 -v reuseport6
rc=$?
err=$(cat "$tmp/err")
if [ $rc -ne 0 ] && ! grep -q '^RESULT' "$tmp/out" &&
	[[ $err == "udp-lookup: error: packets that reached the socket group: got 0, expected 4000" ]]; then
	ok "IPv6 without UDPCSUM fails: '$(tail -n 1 "$tmp/err")'"
else
	nok "IPv6 without UDPCSUM must fail" "rc=$rc" "out: $(cat "$tmp/out")" "err: $err"
fi

echo "1..$t"
[ "$fails" -eq 0 ]
