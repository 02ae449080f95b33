#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""jump-tables.py [--best] [--patched NAME] RAW.CSV...: how much of the tax is -fno-jump-tables.

For a bench.sh run of base-mod, base-mod-pcall, PATCHED (default
patched-mod, gate on), limit-mod and limit-mod-njt (limit-mod built with
KCFLAGS=-fno-jump-tables, as a retpoline build compiles every switch),
prints per row the median over the rounds of ratios taken within one
round:

  limit/b   limit-mod / base-mod: the whole tax, as a ratio
  thunks    (base-mod-pcall - base-mod) / (limit-mod - base-mod): the part
            of the tax that the thunks cost (pcall: every retpoline call
            site a plain indirect call, as x86 runs a retpoline build on a
            CPU that needs none)
  jtables   (limit-mod - limit-mod-njt) / (limit-mod - base-mod): the part
            that the switch statements compiled without jump tables cost
  rest      1 - thunks - jtables: neither (the CONFIG_RETPOLINE compare
            ladders, -mindirect-branch-register, the layout)
  P %lim    PATCHED / limit-mod
  tax       (PATCHED - base-mod) / (limit-mod - base-mod)
  of njt    (PATCHED - base-mod) / (limit-mod-njt - base-mod): the tax
            recovered, counted against a limit that keeps the retpoline
            build's switches, what a direct call can reach at most
  cost      (PATCHED - base-mod) / (base-mod-pcall - base-mod)

Several RAW.CSV files (runs of the same kernels) pool their rounds, row
by row: each ratio is still taken within one round.  --best (one run
only) reads each kernel's best round instead (its highest pps
over the rounds, the columns taken from those): for a host whose noise
only slows a kernel, in bursts that halve a row's pps for tens of
seconds (the Zen 5 host of 2026-12-05), where a median of five ratios is
still a noisy ratio.  It then also prints each kernel's spread, its
lowest round over its best (b, pcall, P, limit, njt).  The medians are
the harness's reading; --best is a cross-check, not a substitute.

Bad input: one line on stderr, exit 1.
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rounds as rd  # noqa: E402 (bench/experiments/rounds.py)

fail = rd.failer('jump-tables.py')
args = sys.argv[1:]
best = False
PATCHED = 'patched-mod'
while args and args[0].startswith('--'):
    if args[0] == '--best':
        best = True
        args = args[1:]
    elif args[0] == '--patched':
        if len(args) < 2:
            fail('--patched needs a kernel name')
        PATCHED = args[1]
        args = args[2:]
    else:
        fail("unknown option '%s'" % args[0])
if not args:
    fail('usage: jump-tables.py [--best] [--patched NAME] RAW.CSV...')
if best and len(args) > 1:
    fail('--best reads one run: a best round of one run against one of another is not a ratio of one run')
B, BP = ('base-mod', 'none'), ('base-mod-pcall', 'none')
L, LJ = ('limit-mod', 'none'), ('limit-mod-njt', 'none')
P = (PATCHED, 'on')
KS = (B, BP, P, L, LJ)
full_rounds = {}
for path in args:
    for row, rs in rd.load(path, KS, fail).items():
        full_rounds.setdefault(row, []).extend(rs)

head = '%-22s %8s %7s %8s %6s %7s %6s %7s %6s' % ('row', 'limit/b', 'thunks', 'jtables', 'rest',
                                                'P %lim', 'tax', 'of njt', 'cost')
out = [head + ('  spread b/pcall/P/limit/njt' if best else '')]
for row, full in full_rounds.items():
    if best:
        top = {k: max(r[k] for r in full) for k in KS}
        spread = ' '.join('%.2f' % (min(r[k] for r in full) / top[k]) for k in KS)

        def med(f):
            return f(top)
    else:
        def med(f):
            return rd.med(f, full)
    out.append('%-22s %8.3f %6.0f%% %7.0f%% %5.0f%% %6.1f%% %5.0f%% %6.0f%% %5.0f%%' % (
        row, med(rd.ratio(L, B)), 100 * med(lambda r: (r[BP] - r[B]) / (r[L] - r[B])),
        100 * med(lambda r: (r[L] - r[LJ]) / (r[L] - r[B])),
        100 * med(lambda r: 1 - ((r[BP] - r[B]) + (r[L] - r[LJ])) / (r[L] - r[B])),
        100 * med(rd.ratio(P, L)), 100 * med(rd.tax(P, B, L)), 100 * med(rd.tax(P, B, LJ)),
        100 * med(lambda r: (r[P] - r[B]) / (r[BP] - r[B]))) + ('  ' + spread if best else ''))
print('\n'.join(out))
