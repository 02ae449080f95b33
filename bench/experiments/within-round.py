#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""within-round.py RAW.CSV [TWIN [PATCHED]]: the README's "What is left of the tax" columns.

For a bench.sh run of base-mod, base-mod-TWIN, patched-mod,
patched-mod-TWIN and limit-mod, prints per row the median over the rounds
of ratios taken within one round (a host that drifts during the run
cancels out of them).  TWIN is "plain" (the default: plain thunks) or
"pcall" (plain thunks and the call sites rewritten into plain indirect
calls).  PATCHED names the patched kernel (default patched-mod; a
bench.sh NAME=PATH kernel, such as a build of the series from a
worktree, has its own name).  base-mod, base-mod-TWIN, PATCHED (gate
on) and limit-mod are needed; the last two columns (patched-mod-TWIN's
gate on vs off, PATCHED's gate off vs base-mod) print '-' where the run
lacks their kernels or gates.  Bad input: one line on stderr, exit 1.
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rounds as rd  # noqa: E402 (bench/experiments/rounds.py)

fail = rd.failer('within-round.py')
if len(sys.argv) not in (2, 3, 4):
    fail('usage: within-round.py RAW.CSV [plain|pcall [PATCHED]]')
TWIN = sys.argv[2] if len(sys.argv) >= 3 else 'plain'
if TWIN not in ('plain', 'pcall'):
    fail("unknown twin '%s' (plain or pcall)" % TWIN)
PATCHED = sys.argv[3] if len(sys.argv) == 4 else 'patched-mod'
B, BP, L = ('base-mod', 'none'), ('base-mod-' + TWIN, 'none'), ('limit-mod', 'none')
P, PO = (PATCHED, 'on'), (PATCHED, 'off')
PP, PPO = ('patched-mod-' + TWIN, 'on'), ('patched-mod-' + TWIN, 'off')
NEED = (B, BP, L, P)
full_rounds = rd.load(sys.argv[1], NEED, fail)

out = ['%-22s %9s %9s %7s %8s %7s %7s %9s %9s' % ('row', TWIN + '/b', 'limit/b', 'share', 'P %lim',
                                                 'tax', 'thunks', TWIN + ' on', 'off vs b')]
for row, full in full_rounds.items():
    def med(f):
        return rd.med(f, full)
    twin, lim = med(lambda r: r[BP] / r[B]), med(lambda r: r[L] / r[B])
    out.append('%-22s %9.3f %9.3f %6.0f%% %7.1f%% %6.0f%% %6.0f%% %9s %9s' % (
        row, twin, lim, 100 * (twin - 1) / (lim - 1),
        100 * med(lambda r: r[P] / r[L]),
        100 * med(lambda r: (r[P] - r[B]) / (r[L] - r[B])),
        100 * med(lambda r: (r[P] - r[B]) / (r[BP] - r[B])),
        rd.change(rd.ratio(PP, PPO), full, (PP, PPO)),
        rd.change(rd.ratio(PO, B), full, (PO,))))
print('\n'.join(out))
