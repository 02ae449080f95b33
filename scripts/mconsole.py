#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mconsole.py SOCKET COMMAND...: send each COMMAND to a UML guest's
management console (arch/um/drivers/mconsole_kern.c) and print its
replies.  Used by run-guest.sh to have a stalled guest show its blocked
tasks and timers ("sysrq 8", "sysrq w", "sysrq q") before it kills it.
Exit 1 with one line on error; a guest that does not answer within 10 s
is an error."""
import os
import socket
import struct
import sys
import tempfile

MAGIC = 0xCAFEBABE
VERSION = 2
MAX_DATA = 512


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: mconsole.py SOCKET COMMAND...")
    path = sys.argv[1]
    d = tempfile.mkdtemp(prefix="mc.")
    me = os.path.join(d, "s")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        s.bind(me)
        s.settimeout(10)
        for cmd in sys.argv[2:]:
            data = cmd.encode()
            if len(data) >= MAX_DATA:
                sys.exit(f"mconsole.py: command too long: {cmd!r}")
            s.sendto(struct.pack(f"=III{MAX_DATA}s", MAGIC, VERSION, len(data), data), path)
            while True:
                r = s.recv(12 + MAX_DATA)
                if len(r) < 12:
                    sys.exit("mconsole.py: short reply")
                err, more, n = struct.unpack("=III", r[:12])
                sys.stdout.write(r[12:12 + n].decode(errors="replace"))
                if err:
                    sys.exit(f"mconsole.py: {cmd!r} failed: {r[12:12 + n].decode(errors='replace')}")
                if not more:
                    break
            sys.stdout.write("\n")
            sys.stdout.flush()
    except OSError as e:
        sys.exit(f"mconsole.py: {path}: {e.strerror or e}")
    finally:
        s.close()
        if os.path.exists(me):
            os.unlink(me)
        os.rmdir(d)


main()
