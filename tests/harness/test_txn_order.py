#!/usr/bin/env python3
"""The commit's pass order (--txn-order) and where the load phase ends
(--load-boundary) change how the model spends time, never what it holds:
on each database (log form: inserts, modifications, deletions, garbage
rows), dump and compact outputs are byte-identical and the load counters
equal across both orders and both boundaries; the boundary is one
allocation inside the load phase; bad values are usage errors naming the
option.

usage: test_txn_order.py EXE DB...
"""
import os
import sys
import tempfile

from harnesslib import bench, fail, load_results, run

ORDERS = ['hash', 'creation']
BOUNDARIES = ['first-answer', 'read-db']


def output(exe, workload, db, tmp, extra):
    out = os.path.join(tmp, 'out')
    run([exe, workload, '--no-sha256', '--output', out, db] + extra)
    with open(out, 'rb') as f:
        return f.read()


def load(exe, db, tmp, extra):
    res = os.path.join(tmp, 'load.json')
    run([exe, 'load', '--no-sha256', '--results', res, db] + extra)
    return load_results(res)


def check_db(exe, db, tmp):
    name = os.path.basename(db)
    for workload in ['dump', 'compact']:
        outs = {}
        for order in ORDERS:
            for boundary in BOUNDARIES:
                outs[order, boundary] = output(
                    exe, workload, db, tmp,
                    ['--txn-order', order, '--load-boundary', boundary])
        first = outs['hash', 'first-answer']
        if not first:
            fail('%s %s: empty output' % (name, workload))
        for key, out in outs.items():
            if out != first:
                fail('%s %s with --txn-order %s --load-boundary %s differs '
                     'from hash/first-answer (%d vs %d bytes)'
                     % (name, workload, key[0], key[1], len(out),
                        len(first)))

    loads = {}
    for order in ORDERS:
        for boundary in BOUNDARIES:
            loads[order, boundary] = load(
                exe, db, tmp,
                ['--txn-order', order, '--load-boundary', boundary])
    base = bench(loads['hash', 'first-answer'], 'load/load')
    for key, res in loads.items():
        b = bench(res, 'load/load')
        for counter in ['rows', 'records', 'weak_refs', 'atoms']:
            if b.get(counter) != base.get(counter):
                fail('%s: %s %s with %s, %s with hash/first-answer'
                     % (name, counter, b.get(counter), key, base.get(counter)))
        params = res['context']['params']
        for opt, value, default in [('txn_order', key[0], 'hash'),
                                    ('load_boundary', key[1],
                                     'first-answer')]:
            shown = '%s=%s' % (opt, value) in params
            if shown != (value != default):
                fail('%s: params "%s" for %s=%s' % (name, params, opt, value))

    # The boundary is one more allocation in the load phase (and one free),
    # whatever the pass order.
    for order in ORDERS:
        fa = bench(loads[order, 'first-answer'], 'load/load')
        rd = bench(loads[order, 'read-db'], 'load/load')
        if fa['alloc_calls'] != rd['alloc_calls'] + 1:
            fail('%s --txn-order %s: load allocations %d at first-answer, '
                 '%d at read-db (wanted one more)'
                 % (name, order, fa['alloc_calls'], rd['alloc_calls']))


def check_usage(exe, db):
    for opt in ['--txn-order', '--load-boundary']:
        p = run([exe, 'load', '--no-sha256', opt, 'bogus', db], expect_rc=2)
        if opt not in p.stderr or '"bogus"' not in p.stderr:
            fail('%s bogus: unclear message: %s' % (opt, p.stderr))
        if p.stdout:
            fail('%s bogus: output on stdout: %s' % (opt, p.stdout))
    help_text = run([exe, '--help']).stdout
    for text in ['--txn-order hash|creation',
                 '--load-boundary first-answer|read-db']:
        if text not in help_text:
            fail('--help lacks "%s"' % text)


def main():
    if len(sys.argv) < 3:
        fail(__doc__)
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        for db in sys.argv[2:]:
            check_db(exe, db, tmp)
        check_usage(exe, sys.argv[2])
    print('txn order and load boundary: same results on %d databases'
          % (len(sys.argv) - 2))


if __name__ == '__main__':
    main()
