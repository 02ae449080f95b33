#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh [bench/bench.sh options]: install what is missing, build the three
# UML kernels (base, patched, limit; cached), then run the pktgen A/B
# benchmark.  Options are passed to bench/bench.sh (--quick, --rounds R, ...).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/deps.sh" build bench uml
"$TOP/scripts/tree.sh"
for k in um-base um-patched um-limit; do
	"$TOP/scripts/build.sh" "$k" >/dev/null
done
make -s -C "$TOP/bench" report >/dev/null || die "building the report tool failed"
exec "$TOP/bench/bench.sh" "$@"
