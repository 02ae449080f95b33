#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Hold a SO_REUSEPORT group of UDP sockets for the udp-lookup scenario.

usage: udp_sockets.py ADDR PORT N [CONNECT_ADDR:CONNECT_PORT]

Opens N non-blocking UDP sockets with SO_REUSEPORT and the smallest
receive buffer, bound to ADDR:PORT; with CONNECT_*, one more socket in the
same group connected to that peer (the group then "has connections", which
sends every lookup down the rescore path).  An IPv6 ADDR (with a ':') makes
AF_INET6 sockets, counted in /proc/net/udp6; the peer is then written
[ADDR]:PORT.  Prints

    READY socks=T

then answers commands on stdin, one per line:

    stats   drain every socket, read their drop counters from /proc/net/udp,
            print "STATS hits=H drops=D drained=Q active=A socks=T conn_hits=C"
            where H = D + Q is cumulative over the life of the group, A the
            number of unconnected sockets that have received anything and C
            the hits of the connected socket
    quit    exit (so does EOF)
"""
import os
import socket
import sys


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit("usage: udp_sockets.py ADDR PORT N [CONNECT_ADDR:PORT]")
    addr, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    v6 = ":" in addr
    family = socket.AF_INET6 if v6 else socket.AF_INET
    proc = "/proc/net/udp6" if v6 else "/proc/net/udp"
    peer = None
    if len(sys.argv) == 5:
        a, p = sys.argv[4].rsplit(":", 1)
        if v6 != a.startswith("["):
            print("ERROR peer %s does not match the family of %s" % (sys.argv[4], addr), flush=True)
            sys.exit(1)
        peer = (a.strip("[]"), int(p))

    socks = []
    conn = None
    try:
        for i in range(n + (1 if peer else 0)):
            what = "socket %d: bind to %s port %d" % (i + 1, addr, port)
            s = socket.socket(family, socket.SOCK_DGRAM)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 0)
            s.setblocking(False)
            s.bind((addr, port))
            socks.append(s)
        if peer:
            what = "socket %d: connect to %s" % (len(socks), sys.argv[4])
            conn = socks[-1]
            conn.connect(peer)
    except OSError as e:
        # one line on stdout, which the scenario reports as its error
        print("ERROR %s: %s" % (what, e.strerror), flush=True)
        sys.exit(1)
    inode = {os.fstat(s.fileno()).st_ino: s for s in socks}
    drained = {s: 0 for s in socks}

    def stats():
        for s in socks:
            while True:
                try:
                    s.recv(2048)
                except BlockingIOError:
                    break
                drained[s] += 1
        drops = {s: 0 for s in socks}
        seen = 0
        with open(proc) as f:
            next(f)
            for line in f:
                fld = line.split()
                s = inode.get(int(fld[9]))
                if s is not None:
                    drops[s] = int(fld[-1])
                    seen += 1
        if seen != len(socks):
            return "ERROR only %d of %d sockets in %s" % (seen, len(socks), proc)
        hits = {s: drops[s] + drained[s] for s in socks}
        active = sum(1 for s in socks if s is not conn and hits[s] > 0)
        return "STATS hits=%d drops=%d drained=%d active=%d socks=%d conn_hits=%d" % (
            sum(hits.values()), sum(drops.values()), sum(drained.values()),
            active, len(socks), hits[conn] if conn else 0)

    print("READY socks=%d" % len(socks), flush=True)
    for line in sys.stdin:
        cmd = line.strip()
        if cmd == "stats":
            print(stats(), flush=True)
        elif cmd == "quit":
            break
        else:
            print("ERROR unknown command %r" % cmd, flush=True)


if __name__ == "__main__":
    main()
