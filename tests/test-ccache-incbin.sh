#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel's compiler command (setup_ccache's KCC, scripts/cc-ccache.sh):
# a source that reads a file with .incbin must be compiled again when only
# that file changed (ccache's depend mode hashes the source, never the
# file: a stale arch/x86/boot/compressed/piggy.o put an old kernel in a
# new bzImage), and an ordinary source must still be served by the cache.
. "$(dirname "$0")/lib.sh"
# shellcheck source=../scripts/lib.sh
. "$S/lib.sh"
if ! command -v ccache >/dev/null; then
	echo "no ccache here: nothing to test"
	exit 4
fi
export CCACHE_DIR=$TMP/ccache CCACHE_BASEDIR=$TMP
unset CCACHE_DISABLE CCACHE_RECACHE
setup_ccache
read -r -a cc <<<"$KCC"
cd "$TMP" || exit 1
printf '.section .rodata\n.incbin "blob.bin"\n' >t.S
printf 'int f(void) { return 1; }\n' >c.c
blob() { objcopy -O binary --only-section=.rodata t.o /dev/stdout; }
build() { "$@" -Wp,-MMD,.t.o.d -c t.S -o t.o; }

if [ "$KCC" = "$S/cc-ccache.sh gcc" ]; then
	echo "ok - KCC is cc-ccache.sh"
else
	echo "not ok - KCC is '$KCC', not '$S/cc-ccache.sh gcc'"
	fails=$((fails + 1))
fi
echo A >blob.bin
build "${cc[@]}"
echo B >blob.bin
build "${cc[@]}"
got=$(blob)
if [ "$got" = B ]; then
	echo "ok - a .incbin source changed only in its blob is compiled again"
else
	echo "not ok - a .incbin source kept its old blob: '$got', wanted 'B'"
	fails=$((fails + 1))
fi

# What it guards against, for the record (not a failure if ccache changes).
echo A >blob.bin
build ccache gcc
echo B >blob.bin
build ccache gcc
echo "# plain 'ccache gcc' in depend mode, the same two builds: blob '$(blob)'"

hits() { ccache --print-stats | awk '$1 == "direct_cache_hit" { print $2 }'; }
h0=$(hits)
"${cc[@]}" -Wp,-MMD,.c.o.d -c c.c -o c.o
"${cc[@]}" -Wp,-MMD,.c.o.d -c c.c -o c.o
h1=$(hits)
if [ -n "$h0" ] && [ -n "$h1" ] && [ "$h1" -gt "$h0" ]; then
	echo "ok - an ordinary source is served by the cache the second time ($h0 -> $h1 hits)"
else
	echo "not ok - an ordinary source was not served by the cache (hits '$h0' -> '$h1')"
	fails=$((fails + 1))
fi
expect_fail "cc-ccache.sh without a compiler" 'usage: cc-ccache.sh' "$S/cc-ccache.sh"
done_testing
