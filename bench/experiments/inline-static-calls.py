#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""inline-static-calls.py RAW.CSV: the README's "Inline static calls" columns.

For a bench.sh run of base-mod, patched-mod (inline static calls, gate on,
and off where the run has it), patched-mod-ool (its twin with the
trampolines, gate on) and limit-mod, and optionally the built-in patched
(gate on) and limit kernels,
prints per row the median over the rounds of ratios taken within one round
(a host that drifts during the run cancels out of them): each patched
modular kernel as a share of limit-mod and of the tax, inline against
out of line, the built-in patched kernel as a share of its own limit where
the row ran it, and patched-mod with the gate off against base-mod.  Bad
input: one line on stderr, exit 1.
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rounds as rd  # noqa: E402 (bench/experiments/rounds.py)

fail = rd.failer('inline-static-calls.py')
if len(sys.argv) != 2:
    fail('usage: inline-static-calls.py RAW.CSV')
B, L = ('base-mod', 'none'), ('limit-mod', 'none')
P, PO, Q = ('patched-mod', 'on'), ('patched-mod', 'off'), ('patched-mod-ool', 'on')
BI, BL = ('patched', 'on'), ('limit', 'none')
NEED = (B, L, P, Q)
full_rounds = rd.load(sys.argv[1], NEED, fail)

out = ['%-20s %8s %6s %8s %6s %9s %9s %9s' % ('row', 'inl %lim', 'tax', 'ool %lim', 'tax',
                                            'inl/ool', 'built-in', 'off vs b')]
for row, full in full_rounds.items():
    def med(f, rr=full):
        return rd.med(f, rr)
    bi = [r for r in full if BI in r and BL in r]
    out.append('%-20s %7.1f%% %5.0f%% %7.1f%% %5.0f%% %+8.1f%% %9s %9s' % (
        row, 100 * med(rd.ratio(P, L)), 100 * med(rd.tax(P, B, L)),
        100 * med(rd.ratio(Q, L)), 100 * med(rd.tax(Q, B, L)),
        100 * (med(rd.ratio(P, Q)) - 1),
        '%.1f%%' % (100 * med(rd.ratio(BI, BL), bi)) if bi else '-',
        rd.change(rd.ratio(PO, B), full, (PO,))))
print('\n'.join(out))
