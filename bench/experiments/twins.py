#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""twins.py RAW.CSV NEW OLD [BASE LIMIT]: two builds of the patched kernel, one run.

For a bench.sh run that booted two patched kernels NEW and OLD (gate on)
beside an unpatched kernel BASE and a limit kernel LIMIT (default
base-mod and limit-mod), prints per row, over the rounds that have all
four, the median of NEW / OLD taken within each round with its range
over the rounds, and each patched kernel's share of the limit and of the
tax, (patched - BASE) / (LIMIT - BASE), as medians of per-round ratios
(a host that drifts during the run cancels out of them).  Where the run
also measured both with the gate off, it prints NEW / OLD gate off as
well: neither build takes the direct calls then, so that ratio is what
the two builds' layout alone makes of the row, the control for the
gate-on one.  Bad input: one line on stderr, exit 1.
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rounds as rd  # noqa: E402 (bench/experiments/rounds.py)

fail = rd.failer('twins.py')
if len(sys.argv) not in (4, 6):
    fail('usage: twins.py RAW.CSV NEW OLD [BASE LIMIT]')
NEW, OLD = (sys.argv[2], 'on'), (sys.argv[3], 'on')
B = (sys.argv[4] if len(sys.argv) == 6 else 'base-mod', 'none')
L = (sys.argv[5] if len(sys.argv) == 6 else 'limit-mod', 'none')
if NEW == OLD:
    fail('NEW and OLD are the same kernel')
full_rounds = rd.load(sys.argv[1], (B, L, NEW, OLD), fail)

NEW_OFF, OLD_OFF = (NEW[0], 'off'), (OLD[0], 'off')
out = ['%-24s %6s %8s %8s %6s %6s %8s  %-18s %8s' % ('row', 'rounds', 'old %lim', 'new %lim', 'old', 'new',
                                                   'new/old', 'range (rounds)', 'gate off')]
for row, full in full_rounds.items():
    def med(f):
        return rd.med(f, full)
    each = [100 * (r[NEW] / r[OLD] - 1) for r in full]
    out.append('%-24s %6d %7.1f%% %7.1f%% %5.0f%% %5.0f%% %+7.1f%%  %-18s %8s' % (
        row, len(full), 100 * med(rd.ratio(OLD, L)), 100 * med(rd.ratio(NEW, L)),
        100 * med(rd.tax(OLD, B, L)), 100 * med(rd.tax(NEW, B, L)),
        100 * (med(rd.ratio(NEW, OLD)) - 1), '%+.1f%% .. %+.1f%%' % (min(each), max(each)),
        rd.change(rd.ratio(NEW_OFF, OLD_OFF), full, (NEW_OFF, OLD_OFF))))
out.append('(old, new: the share of the tax recovered, %s to %s, gate on; gate off: new / old'
           ' with the gate off, where the run has it)' % (B[0], L[0]))
print('\n'.join(out))
