#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""static-call-sites.py KERNEL [CONSOLE_LOG]: check UML_STATIC_CALL_INLINE's scan.

Test patch "um: optionally inline the static calls of the kernel's text"
finds the static call sites to make direct by scanning the kernel's text
for a CALL or JMP rel32 whose target is the start of a trampoline, a
symbol named __SCT__*.  This repeats that scan over KERNEL's text (_stext
to _etext) and compares the sites with the calls and jumps to a
trampoline that objdump lists there: they must be the same sites, and at
least one (a UML_STATIC_CALL kernel with the series has its slots' calls).
With CONSOLE_LOG (a boot's console, which prints "static calls: N call
sites in the kernel's text made direct"), it also checks that the booted
kernel made N sites direct.  Prints one line per check; exit 1 on a
mismatch or bad input.
"""
import os
import re
import sys

sys.dont_write_bytecode = True
import rel32_sites as rs  # noqa: E402 (tests/rel32_sites.py)

TRAMP = 8
SIG = b'\x0f\xb9\xcc'


def fail(msg):
    sys.exit('static-call-sites.py: ' + msg)


if len(sys.argv) not in (2, 3):
    fail('usage: static-call-sites.py KERNEL [CONSOLE_LOG]')
kernel = sys.argv[1]
if not os.path.isfile(kernel):
    fail('no such kernel: %s' % kernel)
log = None
if len(sys.argv) == 3:
    try:
        log = open(sys.argv[2], errors='replace').read()
    except OSError as e:
        fail('cannot read %s: %s' % (sys.argv[2], e.strerror))
syms = rs.symbols(fail, kernel)
for s in ('_stext', '_etext', 'arch_static_call_transform', 'um_static_call_inline_on'):
    if s not in syms:
        fail('%s has no symbol %s: not a UML kernel with inline static calls' % (kernel, s))
stext, etext = syms['_stext'][0], syms['_etext'][0]
text = rs.text_bytes(fail, kernel, stext, etext)

# the kernel's test: 8-aligned, signed, within the text, named __SCT__*
tramps = {a: n for n, (a, t) in syms.items() if n.startswith('__SCT__') and t in 'tT'}
ok_tramps = {t for t in tramps
             if t % TRAMP == 0 and stext <= t and t + TRAMP <= etext
             and text[t - stext + 5:t - stext + 8] == SIG}
if tramps.keys() - ok_tramps:
    fail('%d __SCT__ symbols are not signed 8-byte trampolines in the text, e.g. %s'
         % (len(tramps.keys() - ok_tramps), tramps[min(tramps.keys() - ok_tramps)]))

scan = rs.scan(text, stext, lambda t: t in ok_tramps)
listed, jcc = rs.listed(fail, kernel, stext, etext, r'__SCT__\w+')
print('kernel text: %d trampolines; scan %d sites, objdump %d calls and jumps to a trampoline'
      ' (%d conditional jumps, left to the trampoline)' % (len(ok_tramps), len(scan), len(listed), jcc))
bad = rs.report(scan, listed) or not scan

if log is not None:
    m = re.search(r'static calls: (\d+) call sites in the kernel', log)
    if not m:
        fail("%s has no 'static calls:' line: not a boot of a UML_STATIC_CALL_INLINE kernel"
             % sys.argv[2])
    ok = int(m.group(1)) == len(scan)
    print('booted kernel: made %s sites direct: %s' % (m.group(1), 'ok' if ok else 'MISMATCH'))
    bad += not ok
sys.exit(1 if bad else 0)
