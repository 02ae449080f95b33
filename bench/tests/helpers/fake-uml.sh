#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Stand-in for a UML kernel binary in bench/tests/test-run-guest.sh: takes
# the command line scripts/run-guest.sh gives UML and does, on the host,
# what scripts/guest-init.sh does in a guest: runs the job's cmd.sh in the
# job's directory with THUNKLESS_OUT set, records the exit status in the
# job's out/rc and prints the THUNKLESS-EXIT marker.
job=
for a in "$@"; do
	case $a in thunkless_job=*) job=${a#*=} ;; esac
done
if [ -z "$job" ] || [ ! -r "$job/cmd.sh" ]; then
	echo "fake-uml: no job (thunkless_job=$job)"
	exit 1
fi
echo "fake-uml: booting"
cd "$(cat "$job/cwd")" || exit 1
THUNKLESS_OUT=$job/out bash "$job/cmd.sh" </dev/null
rc=$?
echo "$rc" >"$job/out/rc"
echo "THUNKLESS-EXIT: $rc"
