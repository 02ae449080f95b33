#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tests/guest/kunit.sh reads the KUnit results from the kernel log: every
# listed suite ran and passed, no test failed, and the log holds no splat
# (lockdep's "suspicious RCU usage" from a suite, a WARN, KASAN).  Run here
# with a stand-in dmesg.
. "$(dirname "$0")/lib.sh"
mkdir -p "$TMP/bin"
cat >"$TMP/bin/dmesg" <<'SH'
#!/bin/sh
cat "$KLOG"
SH
chmod +x "$TMP/bin/dmesg"
echo tc_wrapper >"$TMP/suites"
pass='[    1.000000]     ok 1 tc_classify_builtin
[    1.000001] ok 1 tc_wrapper'
# case NAME WANT-RC WANT-LAST-LINE-PATTERN LOG
case_() {
	local name=$1 want=$2 pat=$3 rc last
	printf '%s\n' "$4" >"$TMP/klog"
	KLOG=$TMP/klog PATH=$TMP/bin:$PATH bash "$TOP/tests/guest/kunit.sh" "$TMP/suites" >"$TMP/out" 2>&1
	rc=$?
	last=$(tail -n1 "$TMP/out")
	if [ $rc -eq "$want" ] && grep -qE "$pat" "$TMP/out"; then
		echo "ok - $name: exit $rc, '$last'"
	else
		echo "not ok - $name: exit $rc (wanted $want), no /$pat/ in:"
		sed 's/^/#   /' "$TMP/out"
		fails=$((fails + 1))
	fi
}
case_ "a clean log passes" 0 'all 1 expected suites passed' "$pass"
case_ "lockdep's RCU report fails it" 1 'splat: WARNING: suspicious RCU usage' "$pass
[    1.5] =============================
[    1.5] WARNING: suspicious RCU usage
[    1.5] include/net/direct_calls.h:149 direct-call slot matched outside an RCU read-side critical section!"
case_ "a KASAN report fails it" 1 'splat: BUG: KASAN: slab-use-after-free' "$pass
[    2.0] BUG: KASAN: slab-use-after-free in net_dc_slot_put+0x10/0x20"
case_ "a failed test fails it" 1 'a KUnit test failed' '[    1.0]     not ok 1 tc_classify_builtin
[    1.0] ok 1 tc_wrapper'
case_ "a suite that did not run fails it" 1 'suite tc_wrapper did not run' '[    1.0] ok 1 other_suite'
done_testing
