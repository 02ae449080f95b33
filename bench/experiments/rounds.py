# SPDX-License-Identifier: GPL-2.0
"""rounds: what within-round.py, inline-static-calls.py and builtin-vehicle.py share
(host-drift.py takes failer() alone, and with it the quiet closed pipe).

load(path, need, fail) reads a bench raw.csv and returns, per row
("scenario[/variant] n=N"), the rounds that have every (kernel, gate) in
need, each a {(kernel, gate): pps}; med(f, rounds) is the median of f over
them.  Bad input goes to fail(), which prints one line and exits 1;
failer(prog) makes one.  ratio(a, b) and tax(p, b, l) are the per-round
functions the scripts take medians of: a / b, and (p - b) / (l - b).
change(f, rounds, keys) is the column of a kernel or gate that a run may
lack: the median of f - 1 over the rounds that have every key, as
'+x.x%', or '-' where none has them.  The readers print tables, so a
closed pipe (under head) ends them quietly.
"""
import csv
import signal
import statistics
import sys

signal.signal(signal.SIGPIPE, signal.SIG_DFL)


def failer(prog):
    def fail(msg):
        sys.exit('%s: %s' % (prog, msg))
    return fail


def ratio(a, b):
    return lambda r: r[a] / r[b]


def tax(p, b, lim):
    return lambda r: (r[p] - r[b]) / (r[lim] - r[b])


def load(path, need, fail):
    try:
        with open(path) as f:
            rows = list(csv.DictReader(l for l in f if not l.startswith('#')))
    except OSError as e:
        fail('cannot read %s: %s' % (path, e.strerror))
    rounds = {}
    try:
        for r in rows:
            row = '%s%s n=%s' % (r['scenario'], '' if r['variant'] == '-' else '/' + r['variant'], r['n'])
            rounds.setdefault(row, {}).setdefault(r['round'], {})[(r['kernel'], r['gate'])] = float(r['pps'])
    except (KeyError, TypeError, ValueError):
        fail('%s is not a bench raw.csv' % path)
    if not rounds:
        fail('%s has no records' % path)
    full = {}
    for row, rs in rounds.items():
        full[row] = [r for r in rs.values() if all(k in r for k in need)]
        if not full[row]:
            fail('%s: no round has all of %s' % (row, ', '.join('%s gate=%s' % k for k in need)))
    return full


def med(f, rounds):
    return statistics.median(f(r) for r in rounds)


def change(f, rounds, keys):
    have = [r for r in rounds if all(k in r for k in keys)]
    return '%+.1f%%' % (100 * (med(f, have) - 1)) if have else '-'
