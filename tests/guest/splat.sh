# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034
# (SC2034: set here for the guest scripts that source this file)
#
# What a guest-side check counts as a splat in the kernel log: a WARN, a BUG
# or an oops, a KASAN or UBSAN report, lockdep's reports (a possible
# deadlock, "suspicious RCU usage") and a sleeping-function report.  The
# runner (scripts/run-guest.sh) fails a guest on the console's own splat
# lines, which the console prints at warning level and above; a check that
# reads dmesg also sees what the console left out.  Sourced, never run: by
# tests/guest/kunit.sh and tests/guest/slots-stress.sh.
SPLAT_RE='BUG:|WARNING:|Oops|KASAN|UBSAN|possible circular|possible recursive|inconsistent lock|sleeping function called|suspicious RCU|Call Trace'
