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
import struct
import subprocess
import sys

TRAMP = 8
SIG = b'\x0f\xb9\xcc'


def fail(msg):
    sys.exit('static-call-sites.py: ' + msg)


def run(*cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        fail('%s failed: %s' % (cmd[0], e))


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
syms, tramps = {}, {}
for line in run('nm', kernel).splitlines():
    f = line.split()
    if len(f) == 3:
        syms[f[2]] = int(f[0], 16)
        if f[2].startswith('__SCT__') and f[1] in 'tT':
            tramps[int(f[0], 16)] = f[2]
for s in ('_stext', '_etext', 'arch_static_call_transform', 'um_static_call_inline_on'):
    if s not in syms:
        fail('%s has no symbol %s: not a UML kernel with inline static calls' % (kernel, s))
stext, etext = syms['_stext'], syms['_etext']

# the bytes of [_stext, _etext) from the file, section by section
data = open(kernel, 'rb').read()
text = bytearray(etext - stext)
for line in run('readelf', '-SW', kernel).splitlines():
    m = re.match(r'\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)', line)
    if not m or m.group(2) == 'NOBITS':
        continue
    addr, off, size = (int(m.group(i), 16) for i in (3, 4, 5))
    lo, hi = max(addr, stext), min(addr + size, etext)
    if lo < hi:
        text[lo - stext:hi - stext] = data[off + lo - addr:off + hi - addr]

# the kernel's test: 8-aligned, signed, within the text, named __SCT__*
ok_tramps = {t for t in tramps
             if t % TRAMP == 0 and stext <= t and t + TRAMP <= etext
             and text[t - stext + 5:t - stext + 8] == SIG}
if tramps.keys() - ok_tramps:
    fail('%d __SCT__ symbols are not signed 8-byte trampolines in the text, e.g. %s'
         % (len(tramps.keys() - ok_tramps), tramps[min(tramps.keys() - ok_tramps)]))

scan = set()
p = 0
while p + 5 <= len(text):
    if text[p] in (0xe8, 0xe9):
        t = stext + p + 5 + struct.unpack_from('<i', text, p + 1)[0]
        if t in ok_tramps:
            scan.add(stext + p)
            p += 5
            continue
    p += 1

listed, jcc = set(), 0
dis = run('objdump', '-d', '--no-show-raw-insn', '--start-address=%#x' % stext,
          '--stop-address=%#x' % etext, kernel)
for line in dis.splitlines():
    m = re.match(r'\s*([0-9a-f]+):\s+(\S+)\s+[0-9a-f]+ <(__SCT__\w+)>$', line)
    if m:
        if m.group(2).startswith('call') or m.group(2).startswith('jmp'):
            listed.add(int(m.group(1), 16))
        else:
            jcc += 1
bad = 0
print('kernel text: %d trampolines; scan %d sites, objdump %d calls and jumps to a trampoline'
      ' (%d conditional jumps, left to the trampoline)' % (len(ok_tramps), len(scan), len(listed), jcc))
for a in sorted(scan - listed)[:5]:
    print('  the scan would rewrite %#x, which objdump does not list' % a)
for a in sorted(listed - scan)[:5]:
    print('  the scan misses %#x' % a)
if scan != listed or not scan:
    bad += 1

if log is not None:
    m = re.search(r'static calls: (\d+) call sites in the kernel', log)
    if not m:
        fail("%s has no 'static calls:' line: not a boot of a UML_STATIC_CALL_INLINE kernel"
             % sys.argv[2])
    ok = int(m.group(1)) == len(scan)
    print('booted kernel: made %s sites direct: %s' % (m.group(1), 'ok' if ok else 'MISMATCH'))
    bad += not ok
sys.exit(1 if bad else 0)
