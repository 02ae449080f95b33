#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Send N UDP/IPv4 or UDP/IPv6 frames on an interface with AF_PACKET (mock pktgen).

usage: mock_send.py IFACE N DST_MAC SRC_MAC SRC_IP DST_IP SPORT_MIN SPORT_MAX RND DPORT SIZE [UDPCSUM]

IPv6 addresses make IPv6 frames, at least 78 bytes (pktgen's minimum),
with a UDP checksum only when UDPCSUM is 1 (else 0, as pktgen without
"flag UDPCSUM").  IPv4 frames always have a zero UDP checksum.
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
    (iface, n, dmac, smac, sip, dip, smin, smax, rnd, dport, size) = sys.argv[1:12]
    n, smin, smax, rnd, dport, size = map(int, (n, smin, smax, rnd, dport, size))
    udpcsum = len(sys.argv) > 12 and sys.argv[12] == "1"
    dmac = bytes.fromhex(dmac.replace(":", ""))
    smac = bytes.fromhex(smac.replace(":", ""))
    v6 = ":" in dip
    if v6:
        sip6 = socket.inet_pton(socket.AF_INET6, sip)
        dip6 = socket.inet_pton(socket.AF_INET6, dip)
        payload = bytes(max(size - 14 - 40 - 8, 16))
    else:
        payload = bytes(size - 14 - 20 - 8)
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((iface, 0))
    sport = smin
    errors = 0
    for i in range(n):
        if rnd:
            sport = random.randint(smin, smax)
        udp = struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload
        if v6:
            if udpcsum:
                pseudo = sip6 + dip6 + struct.pack("!IxxxB", len(udp), 17)
                c = csum(pseudo + udp + bytes(len(udp) % 2)) or 0xFFFF
                udp = udp[:6] + struct.pack("!H", c) + udp[8:]
            ip = struct.pack("!IHBB16s16s", 0x60000000, len(udp), 17, 32, sip6, dip6)
            frame = dmac + smac + b"\x86\xdd" + ip + udp
        else:
            ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), i & 0xFFFF, 0, 32, 17, 0,
                             socket.inet_aton(sip), socket.inet_aton(dip))
            ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
            frame = dmac + smac + b"\x08\x00" + ip + udp
        try:
            s.send(frame)
        except OSError as e:  # dropped on egress (tc SHOT): pktgen counts an error
            if e.errno != errno.ENOBUFS:
                raise
            errors += 1
    print(errors)


if __name__ == "__main__":
    main()
