#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""plain-call-sites.py KERNEL [CONSOLE_LOG]: check UML_PLAIN_CALLS's scan.

Test patch "um: optionally rewrite the retpoline call sites into plain
indirect calls" finds the sites to rewrite by scanning text for a CALL or
JMP rel32 to the start of one of the sixteen 32-byte retpoline thunks.
This repeats that scan over KERNEL's text (_stext to _etext) and compares
the sites with the calls and jumps to the thunks that objdump lists there:
they must be the same sites.  With CONSOLE_LOG (a boot's console, which
prints "plain calls: N ... in the kernel's text" and "plain calls: MOD: N
..." per module loaded), it also checks that the booted kernel rewrote N
sites, and that each module rewrote as many as its .ko has relocations to
a thunk after a CALL or JMP opcode (modules/ under KERNEL's directory).
Prints one line per check; exit 1 on a mismatch or bad input.
"""
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests'))
import rel32_sites as rs  # noqa: E402 (tests/rel32_sites.py)

THUNK, NTHUNKS = 32, 16


def fail(msg):
    sys.exit('plain-call-sites.py: ' + msg)


def run(*cmd):
    return rs.run(fail, *cmd)


if len(sys.argv) not in (2, 3):
    fail('usage: plain-call-sites.py KERNEL [CONSOLE_LOG]')
kernel = sys.argv[1]
if not os.path.isfile(kernel):
    fail('no such kernel: %s' % kernel)
syms = rs.symbols(fail, kernel)
for s in ('_stext', '_etext', '__x86_indirect_thunk_rax'):
    if s not in syms:
        fail('%s has no symbol %s: not a UML retpoline kernel' % (kernel, s))
stext, etext, thunks = (syms[s][0] for s in ('_stext', '_etext', '__x86_indirect_thunk_rax'))
text = rs.text_bytes(fail, kernel, stext, etext)

scan = rs.scan(text, stext, lambda t: thunks <= t < thunks + NTHUNKS * THUNK and (t - thunks) % THUNK == 0)
listed, jcc = rs.listed(fail, kernel, stext, etext, r'__x86_indirect_thunk_\w+')
print('kernel text: scan %d sites, objdump %d calls and jumps to a thunk (%d conditional jumps, left to the thunk)'
      % (len(scan), len(listed), jcc))
bad = rs.report(scan, listed)

if len(sys.argv) == 3:
    try:
        log = open(sys.argv[2], errors='replace').read()
    except OSError as e:
        fail('cannot read %s: %s' % (sys.argv[2], e.strerror))
    m = re.search(r'plain calls: (\d+) retpoline call sites in the kernel', log)
    if not m:
        fail("%s has no 'plain calls:' line: not a boot of a UML_PLAIN_CALLS kernel" % sys.argv[2])
    ok = int(m.group(1)) == len(scan)
    print('booted kernel: rewrote %s sites: %s' % (m.group(1), 'ok' if ok else 'MISMATCH'))
    bad += not ok
    kos = {}
    for root, _, files in os.walk(os.path.join(os.path.dirname(kernel), 'modroot')):
        for f in files:
            if f.endswith('.ko'):
                kos[f[:-3].replace('-', '_')] = os.path.join(root, f)
    for name, n in re.findall(r'plain calls: (\w+): (\d+) retpoline call sites', log):
        if name not in kos:
            fail('module %s loaded in %s, but no %s.ko under %s/modroot'
                 % (name, sys.argv[2], name, os.path.dirname(kernel)))
        want, cur, prev_callish = 0, None, False
        for line in run('objdump', '-dr', kos[name]).splitlines():
            if line.startswith('Disassembly of section'):
                cur = line.split()[-1].rstrip(':')
            if cur and cur.startswith('.init'):
                continue
            if re.search(r'R_X86_64_(PLT|PC)32\s+__x86_indirect_thunk_\w+-0x4$', line):
                want += prev_callish
            prev_callish = bool(re.search(r'\s(call|jmp)\s', line))
        ok = int(n) == want
        print('module %s: rewrote %s sites, its .ko has %d: %s' % (name, n, want, 'ok' if ok else 'MISMATCH'))
        bad += not ok
sys.exit(1 if bad else 0)
