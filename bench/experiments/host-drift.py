#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""host-drift.py RAW.csv [SECONDS]: is a noisy run's noise the host's?

Each record is read as its pps over the median pps of its group (the same
kernel, gate, scenario, variant and n over all rounds).  The records are
then put in windows of SECONDS (default 60) by their ts, which bench.sh
takes from the guest's t= since 2026-12-05: the end of the measurement.
For each window the script prints how many records and boots it holds,
and the median and range of their ratios.

If the host's speed changes, every boot running in a slow window is slow:
the windows' medians move together, by as much as the records spread.  If
instead each boot (or each measurement) has a speed of its own, the
windows' medians stay near 1.00 and the spread is inside each window.
The last line of that table gives the share of the records' spread (their
mean absolute deviation from 1, which counts the outliers that make a
row's CV) that the windows' medians explain.

Then, per boot in the order they ran, its records' ratios in the order
they were measured: a slow spell of the host shows as a stretch of
consecutive low ratios, whichever kernel was running.

Last, by place in the round: each boot's place among its round's boots
(by their first ts), and for each kernel at each place it held the mean
ratio of its records there; for a kernel with two places, also the
median over its groups of the group's mean ratio at the first place over
its mean ratio at the second.  Since 2026-12-06 bench.sh reverses the
kernels' order in even rounds (--order alternate), so each kernel holds
two places; a drift of the host within every round shows as the same
kernel reading higher at one place than at the other, the kernels at the
ends of the round most.  In a run with one order (--order given, or
before 2026-12-06) each kernel has one place, measured against its own
median, and the section says nothing.

Records from before t= existed carry one ts per boot; the script says so
and stops, since windows of those would be windows of boots.
"""
import collections
import os
import statistics
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rounds as rd  # noqa: E402 (bench/experiments/rounds.py)

die = rd.failer('host-drift.py')


def main():
    if len(sys.argv) not in (2, 3):
        die("usage: host-drift.py RAW.csv [SECONDS]")
    try:
        win = int(sys.argv[2]) if len(sys.argv) == 3 else 60
    except ValueError:
        die(f"bad SECONDS '{sys.argv[2]}'")
    if win <= 0:
        die(f"bad SECONDS '{win}'")
    recs = rd.records(sys.argv[1], die)

    # one ts per boot: records from before t=
    per_boot = collections.defaultdict(set)
    for r in recs:
        per_boot[(r["round"], r["kernel"])].add(r["ts"])
    if all(len(v) == 1 for v in per_boot.values()):
        die("every boot's records share one ts: a run from before t= "
            "(2026-12-05), whose ts is when the boot's records were collected")

    pts = [(r["ts"], (r["round"], r["kernel"]), r["group"], x)
           for r, x in rd.ratios(recs, 2)]
    if not pts:
        die("no group has records in two rounds or more")
    groups = {g for _, _, g, _ in pts}

    t0 = min(p[0] for p in pts)
    wins = collections.defaultdict(list)
    for ts, boot, _, x in pts:
        wins[(ts - t0) // win].append((boot, x))
    print(f"{len(pts)} records in {len(groups)} groups; windows of {win} s "
          f"from {t0}; ratio = pps / the group's median")
    print(f"{'window':>8} {'records':>7} {'boots':>5} {'median':>7} {'min':>6} {'max':>6}")
    wmed = {}
    for w in sorted(wins):
        xs = [x for _, x in wins[w]]
        wmed[w] = statistics.median(xs)
        print(f"{w * win:>7}s {len(xs):>7} {len({b for b, _ in wins[w]}):>5} "
              f"{wmed[w]:>7.3f} {min(xs):>6.3f} {max(xs):>6.3f}")
    dev_all = statistics.mean(abs(x - 1) for _, _, _, x in pts)
    dev_in = statistics.mean(abs(x - wmed[(ts - t0) // win])
                               for ts, _, _, x in pts)
    share = 1 - dev_in / dev_all if dev_all > 0 else 0.0
    print(f"mean |ratio - 1|: {dev_all:.3f} over all records, "
          f"{dev_in:.3f} about each window's median: the windows explain "
          f"{100 * share:.0f}% of it")

    boots = collections.defaultdict(list)
    for ts, boot, _, x in pts:
        boots[boot].append((ts, x))
    print("\nper boot, in the order they ran: round kernel: ratios in the "
          "order measured")
    for boot in sorted(boots, key=lambda b: min(boots[b])):
        xs = [x for _, x in sorted(boots[boot], key=lambda p: p[0])]
        print(f"  {boot[0]:>2} {boot[1]:<14} " + " ".join(f"{x:.2f}" for x in xs))

    # place of each boot in its round, by its first record's ts
    place = {}
    for rnd in {b[0] for b in boots}:
        bs = sorted((b for b in boots if b[0] == rnd), key=lambda b: min(boots[b]))
        for i, b in enumerate(bs):
            place[b] = i + 1
    # the records' ratios per kernel and place, and per group and place
    at = collections.defaultdict(list)
    byg = collections.defaultdict(list)
    for _, boot, g, x in pts:
        at[(boot[1], place[boot])].append(x)
        byg[(g, place[boot])].append(x)
    # the kernels in the order of their first boot
    kernels = sorted({k for _, k in boots},
                     key=lambda k: min(min(boots[b]) for b in boots if b[1] == k))
    print("\nby place in the round: kernel: place (rounds) mean ratio; "
          "then, for two places, the median over its groups of the mean "
          "at the first over the mean at the second")
    for k in kernels:
        pls = sorted(p for kk, p in at if kk == k)
        cells = []
        for pl in pls:
            nr = sum(1 for b in boots if b[1] == k and place[b] == pl)
            cells.append(f"{pl} ({nr}) {statistics.mean(at[(k, pl)]):.3f}")
        line = f"  {k:<14} " + "   ".join(cells)
        if len(pls) == 2:
            rs = [statistics.mean(byg[(g, pls[0])]) / statistics.mean(byg[(g, pls[1])])
                  for g in groups if g[0] == k and (g, pls[0]) in byg and (g, pls[1]) in byg]
            if rs:
                line += f"   {pls[0]}/{pls[1]}: {statistics.median(rs):.3f} ({len(rs)} groups)"
        print(line)


if __name__ == "__main__":
    main()
