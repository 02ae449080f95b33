# SPDX-License-Identifier: GPL-2.0
"""rounds: what the readers of a bench raw.csv here share.

records(path, fail) reads one and returns its records, each a dict of its
fields with ts, round and usec as ints, pps a float, and 'group', the key
of its group: (kernel, gate, scenario, variant, n).  ratios(recs, least)
gives each record of a group of at least `least` records with its pps over
the group's median, as (record, ratio) (host-drift.py, host-gauge.py).
load(path, need, fail) reads one and returns, per row
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


KEY = ('kernel', 'gate', 'scenario', 'variant', 'n')


def records(path, fail):
    try:
        with open(path) as f:
            recs = list(csv.DictReader(l for l in f if not l.startswith('#')))
    except OSError as e:
        fail('cannot read %s: %s' % (path, e.strerror))
    if not recs or not {'ts', 'round', 'usec', 'pps', *KEY} <= set(recs[0]):
        fail('%s: no records, or not a bench raw.csv' % path)
    try:
        for r in recs:
            r['ts'], r['round'], r['usec'] = int(r['ts']), int(r['round']), int(r['usec'])
            r['pps'] = float(r['pps'])
            r['group'] = tuple(r[k] for k in KEY)
    except (TypeError, ValueError):
        fail('%s: a record with a bad number' % path)
    return recs


def ratios(recs, least):
    groups = {}
    for r in recs:
        groups.setdefault(r['group'], []).append(r['pps'])
    med = {g: statistics.median(v) for g, v in groups.items() if len(v) >= least}
    return [(r, r['pps'] / med[r['group']]) for r in recs if r['group'] in med]


def load(path, need, fail):
    rounds = {}
    for r in records(path, fail):
        row = '%s%s n=%s' % (r['scenario'], '' if r['variant'] == '-' else '/' + r['variant'], r['n'])
        rounds.setdefault(row, {}).setdefault(r['round'], {})[(r['kernel'], r['gate'])] = r['pps']
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
