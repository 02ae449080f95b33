# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Polling for the guest-side checks.  Sourced, never run: by
# tests/guest/kselftest.sh and tests/guest/slots-stress.sh.

# wait_while TRIES CMD [ARG...]: while CMD succeeds, sleep 0.1 s and run it
# again, at most TRIES times more.  0 once CMD failed, 1 if it still
# succeeded.  A qdisc kind gives its direct-call slots back from a work
# item after its last qdisc is destroyed: the checks wait up to 5 s
# (TRIES 50) for such a slot to go.
wait_while() {
	local tries=$1
	shift
	while "$@"; do
		[ "$tries" -gt 0 ] || return 1
		tries=$((tries - 1))
		sleep 0.1
	done
	return 0
}
