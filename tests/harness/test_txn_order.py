#!/usr/bin/env python3
"""The commit's pass order (--txn-order), the rows' _uuid/_version datums
(--row-uuids) and where the load phase ends (--load-boundary) change how
the model spends time, never what it holds: on each database (log form:
inserts, modifications, deletions, garbage rows), compact outputs are
byte-identical and the load counters equal across every combination, and
so are dump outputs for each pass order.  The pass order is the order in
which the rows changed by one transaction draw their new _version (as in
OVS's update_version()), so across orders the dumps differ only in the
_version values (each a distinct generated UUID either way).  The
boundary is one allocation inside the load phase; the datums are two
blocks per row; bad values are usage errors naming the option.

usage: test_txn_order.py EXE DB...
"""
import os
import sys
import tempfile

from harnesslib import (bench, check_choice_usage, check_same_load,
                        check_versions, fail, load_results, option_args, run,
                        workload_output, zero_versions)

ORDERS = ['hash', 'creation']
BOUNDARIES = ['first-answer', 'read-db']
UUIDS = ['datums', 'inline']
# (option, results params key, values with the default first)
OPTIONS = [('--txn-order', 'txn_order', ORDERS),
           ('--load-boundary', 'load_boundary', BOUNDARIES),
           ('--row-uuids', 'row_uuids', UUIDS)]
COMBOS = [(o, b, u) for o in ORDERS for b in BOUNDARIES for u in UUIDS]


def args(combo):
    return option_args(OPTIONS, combo)



def load(exe, db, tmp, extra):
    res = os.path.join(tmp, 'load.json')
    run([exe, 'load', '--no-sha256', '--results', res, db] + extra)
    return load_results(res)


def check_db(exe, db, tmp):
    name = os.path.basename(db)
    default = COMBOS[0]
    for workload in ['dump', 'compact']:
        outs = {c: workload_output(exe, workload, db, tmp, args(c))
                for c in COMBOS}
        first = outs[default]
        if not first:
            fail('%s %s: empty output' % (name, workload))
        if workload == 'dump':
            check_versions(name, first)
        for combo, out in outs.items():
            same_order = outs[(combo[0],) + default[1:]]
            if out != same_order:
                fail('%s %s with %s differs from %s (%d vs %d bytes)'
                     % (name, workload, ' '.join(args(combo)),
                        ' '.join(args((combo[0],) + default[1:])),
                        len(out), len(same_order)))
            if workload == 'compact' and out != first:
                fail('%s compact with %s differs from the defaults'
                     % (name, ' '.join(args(combo))))
            if workload == 'dump':
                check_versions(name, out)
                if zero_versions(out) != zero_versions(first):
                    fail('%s dump with %s differs from the defaults in '
                         'more than the _version values'
                         % (name, ' '.join(args(combo))))

    loads = {c: load(exe, db, tmp, args(c)) for c in COMBOS}
    base = bench(loads[default], 'load/load')
    for combo, res in loads.items():
        check_same_load(name, OPTIONS, combo, bench(res, 'load/load'),
                        res['context']['params'], base)

    for o in ORDERS:
        for u in UUIDS:
            # The boundary is one more allocation in the load phase.
            fa = bench(loads[o, 'first-answer', u], 'load/load')
            rd = bench(loads[o, 'read-db', u], 'load/load')
            if fa['alloc_calls'] != rd['alloc_calls'] + 1:
                fail('%s %s %s: load allocations %d at first-answer, %d at '
                     'read-db (wanted one more)'
                     % (name, o, u, fa['alloc_calls'], rd['alloc_calls']))
        # Datums: two blocks per row created (at least one per row held).
        d = bench(loads[o, 'first-answer', 'datums'], 'load/load')
        n = bench(loads[o, 'first-answer', 'inline'], 'load/load')
        if d['alloc_calls'] < n['alloc_calls'] + 2 * d['rows']:
            fail('%s %s: %d allocations with _uuid/_version datums, %d '
                 'without, for %d rows' % (name, o, d['alloc_calls'],
                                          n['alloc_calls'], d['rows']))


def check_usage(exe, db):
    check_choice_usage(exe, db, OPTIONS,
                       ['--txn-order hash|creation',
                        '--row-uuids datums|inline',
                        '--load-boundary first-answer|read-db'])


def main():
    if len(sys.argv) < 3:
        fail(__doc__)
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        for db in sys.argv[2:]:
            check_db(exe, db, tmp)
        check_usage(exe, sys.argv[2])
    print('txn order, row UUIDs and load boundary: same results on %d databases'
          % (len(sys.argv) - 2))


if __name__ == '__main__':
    main()
