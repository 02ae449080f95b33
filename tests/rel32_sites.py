# SPDX-License-Identifier: GPL-2.0
"""rel32_sites: what tests/static-call-sites.py and
bench/experiments/plain-call-sites.py share.

Both check a test patch that finds call sites by scanning a UML kernel's
text for a CALL or JMP rel32 to a target (a static call trampoline, a
retpoline thunk), since UML runs no objtool to list them: they repeat the
scan over the kernel file's text and compare it with what objdump lists.
Each script passes its own fail(), which prints one line and exits 1.
"""
import re
import struct
import subprocess


def run(fail, *cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        fail('%s failed: %s' % (cmd[0], e))


def symbols(fail, kernel):
    """{name: (address, type)} from nm"""
    syms = {}
    for line in run(fail, 'nm', kernel).splitlines():
        f = line.split()
        if len(f) == 3:
            syms[f[2]] = (int(f[0], 16), f[1])
    return syms


def text_bytes(fail, kernel, stext, etext):
    """the bytes of [stext, etext) from the file, section by section"""
    data = open(kernel, 'rb').read()
    text = bytearray(etext - stext)
    for line in run(fail, 'readelf', '-SW', kernel).splitlines():
        m = re.match(r'\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)', line)
        if not m or m.group(2) == 'NOBITS':
            continue
        addr, off, size = (int(m.group(i), 16) for i in (3, 4, 5))
        lo, hi = max(addr, stext), min(addr + size, etext)
        if lo < hi:
            text[lo - stext:hi - stext] = data[off + lo - addr:off + hi - addr]
    return text


def scan(text, stext, is_target):
    """the addresses of each CALL or JMP rel32 whose target is_target(),
    read from the start as the kernel's scan reads it: a match skips its
    five bytes, anything else one"""
    sites = set()
    p = 0
    while p + 5 <= len(text):
        if text[p] in (0xe8, 0xe9):
            t = stext + p + 5 + struct.unpack_from('<i', text, p + 1)[0]
            if is_target(t):
                sites.add(stext + p)
                p += 5
                continue
        p += 1
    return sites


def listed(fail, kernel, stext, etext, target_re):
    """objdump's calls and jumps to a symbol matching target_re, and the
    number of conditional jumps to one"""
    sites, jcc = set(), 0
    dis = run(fail, 'objdump', '-d', '--no-show-raw-insn', '--start-address=%#x' % stext,
              '--stop-address=%#x' % etext, kernel)
    for line in dis.splitlines():
        m = re.match(r'\s*([0-9a-f]+):\s+(\S+)\s+[0-9a-f]+ <' + target_re + '>$', line)
        if m:
            if m.group(2).startswith('call') or m.group(2).startswith('jmp'):
                sites.add(int(m.group(1), 16))
            else:
                jcc += 1
    return sites, jcc


def report(found, objdump):
    """print where the two sets differ; return 1 if they do, else 0"""
    for a in sorted(found - objdump)[:5]:
        print('  the scan would rewrite %#x, which objdump does not list' % a)
    for a in sorted(objdump - found)[:5]:
        print('  the scan misses %#x' % a)
    return int(found != objdump)
