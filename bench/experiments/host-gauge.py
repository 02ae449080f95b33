#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""host-gauge.py RAW.csv GAUGE.log: does a gauge of the host's speed,
taken beside a bench run, tell its slow records from the others?

Each record is read as its pps over the median pps of its group (the same
kernel, gate, scenario, variant and n over all rounds; groups of fewer than
three records are left out).  Its gauge is the slowest and the mean of the
host-gauge samples (ns per load, over the log's median) taken while it
measured: from ts - usec to ts, widened by 0.6 s each side, since ts has a
resolution of one second.  The script prints the Spearman rank
correlation of the ratios with each reading of the gauge, then the ratios
in bins of the slowest gauge sample.  A gauge that sees what slows pktgen
gives a clearly negative correlation and low ratios in its slow bins.
"""
import os
import statistics
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rounds as rd  # noqa: E402 (bench/experiments/rounds.py)

die = rd.failer('host-gauge.py')


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0] * len(v)
    for j, i in enumerate(order):
        r[i] = j
    return r


def main():
    if len(sys.argv) != 3:
        die("usage: host-gauge.py RAW.csv GAUGE.log")
    recs = rd.records(sys.argv[1], die)
    try:
        with open(sys.argv[2]) as f:
            gauge = [tuple(map(float, ln.split())) for ln in f if ln.strip()]
    except (OSError, ValueError) as e:
        die(f"cannot read {sys.argv[2]}: {e}")
    if len(gauge) < 10 or any(len(g) != 2 for g in gauge):
        die(f"{sys.argv[2]}: not a host-gauge log of at least 10 samples")
    gmed = statistics.median(g[1] for g in gauge)
    pts = []
    for r, x in rd.ratios(recs, 3):
        lo, hi = r['ts'] - r['usec'] / 1e6 - 0.6, r['ts'] + 0.6
        s = [g[1] / gmed for g in gauge if lo <= g[0] <= hi]
        if s:
            pts.append((x, max(s), statistics.mean(s)))
    if len(pts) < 10:
        die("fewer than 10 records have gauge samples: was the gauge running during the run?")
    ratio = ranks([p[0] for p in pts])
    print(f"records {len(pts)}, gauge median {gmed:.2f} ns per load")
    print(f"Spearman, ratio against the slowest sample: {statistics.correlation(ratio, ranks([p[1] for p in pts])):+.2f}")
    print(f"Spearman, ratio against the mean sample:    {statistics.correlation(ratio, ranks([p[2] for p in pts])):+.2f}")
    print("slowest sample   records  ratio: median   min    max   mean |1 - ratio|")
    for lo, hi in ((0, 1.1), (1.1, 1.3), (1.3, 2), (2, float('inf'))):
        s = [p[0] for p in pts if lo <= p[1] < hi]
        if s:
            print(f"{lo:4.1f} to {hi:<4.1f}     {len(s):7d}  {statistics.median(s):13.3f} {min(s):6.3f} {max(s):6.3f} "
                  f"{statistics.mean(abs(x - 1) for x in s):6.3f}")


if __name__ == '__main__':
    main()
