#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# guest-test.sh qemu|uml KERNEL: the runner passes the guest's output and
# exit status back, and turns a panic, an oops or a hang into a one-line
# failure instead of a hang or a pass.
. "$(dirname "$0")/lib.sh"
kind=${1:?usage: guest-test.sh qemu|uml KERNEL} kernel=${2:?}
R=("$S/run-$kind.sh" --kernel "$kernel")

"${R[@]}" --timeout 120 -- bash -c 'echo guest-says-hello; exit 7' >"$TMP/o" 2>"$TMP/e"
rc=$?
if [ $rc = 7 ] && grep -q '^guest-says-hello$' "$TMP/o"; then
	echo "ok - exit status 7 and output come back"
else
	echo "not ok - wanted exit 7 and the output, got exit $rc: $(tail -n1 "$TMP/e")"
	fails=$((fails + 1))
fi
expect_ok "exit status 0" "${R[@]}" --timeout 120 -- true
# kselftest.sh -s: a direct-call slot must hold the named function during
# the run (the loopback device's transmit takes one when the guest sets it
# up, 0017 and 0038).
K=(bash "$TOP/tests/guest/kselftest.sh")
expect_ok "kselftest.sh -s: loopback_xmit in a transmit slot" "${R[@]}" --timeout 120 -- \
	"${K[@]}" -s '^netdev_xmit [0-9]+ [0-9]+ loopback_xmit' -- /bin/sh -c 'echo "ok 1 - x"'
"${R[@]}" --timeout 120 -- "${K[@]}" -s '^netdev_xmit [0-9]+ [0-9]+ nosuch_xmit' -- \
	/bin/sh -c 'echo "ok 1 - x"' >"$TMP/o" 2>"$TMP/e"
rc=$?
if [ $rc != 0 ] && grep -q "no direct-call slot matched '.*nosuch_xmit' during the run" "$TMP/o"; then
	echo "ok - kselftest.sh -s: a function in no slot fails the run"
else
	echo "not ok - kselftest.sh -s: wanted a failure naming the missing slot, got exit $rc"
	fails=$((fails + 1))
fi
# ... and one that a slot holds only while the test runs passes: a bfifo
# qdisc's enqueue, whose slot goes back once the test has deleted its
# device, and so its only bfifo (0039)
expect_ok "kselftest.sh -s: a slot held during the run only" "${R[@]}" --timeout 120 -- \
	"${K[@]}" -s '^qdisc_enqueue [0-9]+ [0-9]+ bfifo_enqueue' -- /bin/sh -c \
	'ip link add tq0 type dummy && tc qdisc add dev tq0 root bfifo && sleep 1 && ip link del tq0 && sleep 1 && echo "ok 1 - x"'
expect_fail "panic" "guest kernel failure: .*Kernel panic" \
	"${R[@]}" --timeout 120 -- bash -c 'echo c >/proc/sysrq-trigger; sleep 60'
expect_fail "hang" "guest timed out after 20s; last line: " \
	"${R[@]}" --timeout 20 -- bash -c 'echo about-to-hang; sleep 600'
expect_fail "silent guest" "guest made no progress for 10s; last line: " \
	"${R[@]}" --timeout 120 --idle-timeout 10 -- bash -c 'echo going-quiet; sleep 600'
# UML: the watchdog has the guest show its blocked tasks first, apart from
# the console's tail (whose last line stays the guest's own)
if [ "$kind" = uml ]; then
	if grep -v '^\s*$' "$TMP/err" | tail -n1 | grep -q 'last line: going-quiet$' &&
		grep -q '^sysrq: Show Blocked State' "$TMP/err" &&
		grep -q '^now at [0-9]* nsecs' "$TMP/err" &&
		grep -q "^---- the guest's blocked tasks and timers when it stalled" "$TMP/err"; then
		echo "ok - silent guest: its blocked tasks and timers are shown (sysrq w, q through the management console)"
	else
		echo "not ok - silent guest: no 'Show Blocked State' and timer dump on stderr, or the last line is not the guest's"
		fails=$((fails + 1))
	fi
fi
# A TERM to the runner alone (bench.sh stops a boot that way): it exits
# within seconds, and takes its guest with it (the marker on the kernel's
# command line finds the guest's processes).
mark=thunkless_term_test=$$
"${R[@]}" --timeout 300 --append "$mark" -- bash -c 'echo term-me; sleep 600' >"$TMP/o" 2>"$TMP/e" </dev/null &
rp=$!
for ((i = 0; i < 2400; i++)); do
	grep -q '^term-me' "$TMP/o" 2>/dev/null && break
	kill -0 "$rp" 2>/dev/null || break
	sleep 0.1
done
t0=$SECONDS
kill -TERM "$rp" 2>/dev/null
wait "$rp"
rc=$?
dt=$((SECONDS - t0))
for ((i = 0; i < 50; i++)); do
	pgrep -f -- "$mark" >/dev/null || break
	sleep 0.1
done
left=$(pgrep -f -- "$mark")
if grep -q '^term-me' "$TMP/o" && [ $rc -eq 143 ] && [ $dt -le 15 ] && [ -z "$left" ]; then
	echo "ok - TERM to the runner: exit 143 in ${dt}s, guest gone"
else
	[ -z "$left" ] || kill -KILL $left 2>/dev/null
	echo "not ok - TERM to the runner: exit $rc after ${dt}s, guest processes left: ${left:-none}; $(tail -n1 "$TMP/e")"
	fails=$((fails + 1))
fi
expect_fail "missing kernel" "no kernel at" \
	"$S/run-$kind.sh" --kernel "$TMP/nope" -- true
expect_fail "bad timeout" "bad --timeout" \
	"${R[@]}" --timeout abc -- true
done_testing
