#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""builtin-vehicle.py RAW.CSV: the README's "The built-in shape too" columns.

For a bench.sh run of the built-in kernels as the vehicle builds them now
(base, patched, limit: static calls, jump labels, and for patched the
series' slots and path options with its static calls inline) and as it
built them before 2026-12-05 (base-old, patched-old, limit-old: none of
those), prints per row the median over the rounds of ratios taken within
one round (a host that drifts during the run cancels out of them): each
patched kernel, gate on, as a share of its own limit and of its own tax,
the new kernels against the old ones, and the new patched kernel with the
gate off against the new base.  Bad input: one line on stderr, exit 1.
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rounds as rd  # noqa: E402 (bench/experiments/rounds.py)

fail = rd.failer('builtin-vehicle.py')
if len(sys.argv) != 2:
    fail('usage: builtin-vehicle.py RAW.CSV')
B, P, PO, L = ('base', 'none'), ('patched', 'on'), ('patched', 'off'), ('limit', 'none')
OB, OP, OL = ('base-old', 'none'), ('patched-old', 'on'), ('limit-old', 'none')
NEED = (B, P, L, OB, OP, OL)
full_rounds = rd.load(sys.argv[1], NEED, fail)

out = ['%-20s %8s %5s %8s %5s %8s %8s %8s %9s' % ('row', 'new %lim', 'tax', 'old %lim', 'tax',
                                                'patched', 'base', 'limit', 'off vs b'),
       '%-20s %8s %5s %8s %5s %8s %8s %8s %9s' % ('', '', '', '', '', 'new/old', 'new/old',
                                                'new/old', '(new)')]
for row, full in full_rounds.items():
    def med(f):
        return rd.med(f, full)
    out.append('%-20s %7.1f%% %4.0f%% %7.1f%% %4.0f%% %+7.1f%% %+7.1f%% %+7.1f%% %9s' % (
        row, 100 * med(rd.ratio(P, L)), 100 * med(rd.tax(P, B, L)),
        100 * med(rd.ratio(OP, OL)), 100 * med(rd.tax(OP, OB, OL)),
        100 * (med(rd.ratio(P, OP)) - 1), 100 * (med(rd.ratio(B, OB)) - 1),
        100 * (med(rd.ratio(L, OL)) - 1),
        rd.change(rd.ratio(PO, B), full, (PO,))))
print('\n'.join(out))
