# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # variables for the scripts that source this
# Which kernel base a command works on.  Sourced (scripts/lib.sh,
# bench/bench.sh) with TOP set, never run.
#
# BASE=<version> (make tree BASE=6.12, or in the environment) chooses the
# series patches/<version>/ with test-patches/<version>/; every command
# honours it.  The default is 6.1 (Debian 12).  The default base keeps its
# generated files directly under build/ (build/linux, build/out, ...), as
# before there was a second base; any other base has its own build/<version>/
# with the same layout, so the two never share a tree, a kernel or a log.
# THUNKLESS_BASE carries the choice to the commands a script starts (BASE
# itself is removed from their environment: kernel and selftest makefiles
# must not see it).
THUNKLESS_DEFAULT_BASE=6.1
THUNKLESS_BASE=${BASE:-${THUNKLESS_BASE:-$THUNKLESS_DEFAULT_BASE}}
unset BASE
if ! [[ $THUNKLESS_BASE =~ ^[0-9]+\.[0-9]+$ ]] || ! [ -d "$TOP/patches/$THUNKLESS_BASE" ]; then
	echo "$(basename "$0" .sh): error: unknown base '$THUNKLESS_BASE' (known: $(cd "$TOP/patches" && ls -d [0-9]* | sort -V | tr '\n' ' ' | sed 's/ $//'))" >&2
	exit 1
fi
export THUNKLESS_BASE
if [ "$THUNKLESS_BASE" = "$THUNKLESS_DEFAULT_BASE" ]; then
	THUNKLESS_BASE_BUILD=$TOP/build
else
	THUNKLESS_BASE_BUILD=$TOP/build/$THUNKLESS_BASE
fi
