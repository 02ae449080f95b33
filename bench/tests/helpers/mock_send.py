#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Send N UDP/IPv4 frames on an interface with AF_PACKET (mock pktgen).

usage: mock_send.py IFACE N DST_MAC SRC_MAC SRC_IP DST_IP SPORT_MIN SPORT_MAX RND DPORT SIZE
"""
import errno
import random
import socket
import struct
import sys


def csum(b):
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    s = (s >> 16) + (s & 0xFFFF)
    s += s >> 16
    return ~s & 0xFFFF


def main():
    (iface, n, dmac, smac, sip, dip, smin, smax, rnd, dport, size) = sys.argv[1:]
    n, smin, smax, rnd, dport, size = map(int, (n, smin, smax, rnd, dport, size))
    dmac = bytes.fromhex(dmac.replace(":", ""))
    smac = bytes.fromhex(smac.replace(":", ""))
    payload = bytes(size - 14 - 20 - 8)
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((iface, 0))
    sport = smin
    errors = 0
    for i in range(n):
        if rnd:
            sport = random.randint(smin, smax)
        udp = struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload
        ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), i & 0xFFFF, 0, 32, 17, 0,
                         socket.inet_aton(sip), socket.inet_aton(dip))
        ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
        try:
            s.send(dmac + smac + b"\x08\x00" + ip + udp)
        except OSError as e:  # dropped on egress (tc SHOT): pktgen counts an error
            if e.errno != errno.ENOBUFS:
                raise
            errors += 1
    print(errors)


if __name__ == "__main__":
    main()
