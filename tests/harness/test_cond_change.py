#!/usr/bin/env python3
"""monitor-cond-change on every impl, on SB databases: the run succeeds
with its phases, the counters are nonzero, and the rows of the initial
replies and of the changes (entering, leaving, tested) and the updates are
what a count over the rows the real ovsdb-tool sees gives for the
workload's conditions (any clause holds: one per datapath and, on
Logical_Flow, one per Logical_DP_Group that holds one of them); every impl
sends the same bytes; json-only too; a condition that lists every
datapath changes only its clauses' order, which sends nothing and tests
no row; an NB database is refused.

usage: test_cond_change.py NB SB... -- EXE...
"""
import os
import sys
import tempfile

from harnesslib import bench, fail, load_results, query_all, run

PHASES = ['load', 'held', 'change', 'free']
# (table, column, function): the alphabetically first column of each table
# that refers to Datapath_Binding, "==" on these (none is a larger set).
TABLES = [('Port_Binding', 'datapath', '=='),
          ('Logical_Flow', 'logical_datapath', '==')]
# The tables' columns that refer to Logical_DP_Group ("==").
GROUP_COLUMNS = {'Logical_Flow': 'logical_dp_group'}


def uuids(value):
    if value[0] == 'uuid':
        return {value[1]}
    return {v[1] for v in value[1]}          # ['set', [...]]


def matches(row, column, function, wanted):
    have = uuids(row[column]) if column in row else set()
    if function == '==':
        return len(have) == 1 and bool(have & wanted)
    return bool(have & wanted)


def expected(db, held, changes, width):
    """The counters a direct count over the database gives."""
    rows = query_all(db, ['Datapath_Binding', 'Logical_DP_Group']
                     + [t for t, _, _ in TABLES])
    dps = sorted(rows['Datapath_Binding'])
    n = len(dps)
    if n <= width:
        fail('%s: %d datapaths, the test needs more than %d' % (db, n, width))
    groups = {g: uuids(row['datapaths'])
              for g, row in rows['Logical_DP_Group'].items()}

    def wanted(c, r):
        return {dps[(c * width + r + j) % n] for j in range(min(width, n))}

    def holds(t, col, fn, row, c, r):
        mine = wanted(c, r)
        group = GROUP_COLUMNS.get(t)
        return (matches(row, col, fn, mine)
                or (group is not None and matches(
                    row, group, '==',
                    {g for g, members in groups.items() if members & mine})))

    def count(c, r, prev=None):
        total = 0
        for t, col, fn in TABLES:
            for row in rows[t].values():
                now = holds(t, col, fn, row, c, r)
                was = prev is not None and holds(t, col, fn, row, c, prev)
                total += now and not was
        return total
    out = {'initial_rows': sum(count(c, 0) for c in range(held)),
           'rows_inserted': 0, 'rows_deleted': 0, 'updates': 0}
    for c in range(held):
        for r in range(1, changes + 1):
            ins, dels = count(c, r, r - 1), count(c, r - 1, r)
            out['rows_inserted'] += ins
            out['rows_deleted'] += dels
            out['updates'] += bool(ins or dels)
    out['rows_sent'] = out['rows_inserted'] + out['rows_deleted']
    out['rows_tested'] = held * changes * sum(len(rows[t])
                                              for t, _, _ in TABLES)
    return out


def run_model(exe, db, tmp, held, changes, width, extra=()):
    res = os.path.join(tmp, 'cc.json')
    run([exe, 'monitor-cond-change', '--held', str(held), '--changes',
         str(changes), '--datapaths', str(width), '--results', res]
        + list(extra) + [db])
    r = load_results(res)
    for p in PHASES:
        bench(r, 'monitor-cond-change/' + p)
    return (bench(r, 'monitor-cond-change/held'),
            bench(r, 'monitor-cond-change/change'))


def main():
    sep = sys.argv.index('--')
    nb, sbs, exes = sys.argv[1], sys.argv[2:sep], sys.argv[sep + 1:]
    held, changes, width = 4, 3, 3
    with tempfile.TemporaryDirectory() as tmp:
        for db in sbs:
            want = expected(db, held, changes, width)
            if not all(want.values()):
                fail('%s: the conditions select nothing: %s' % (db, want))
            sizes = set()
            runs = [(exe, ()) for exe in exes]
            runs.append((exes[0], ('--model', 'json-only')))
            for exe, extra in runs:
                name = '%s %s %s' % (os.path.basename(exe), ' '.join(extra),
                                     os.path.basename(db))
                h, ch = run_model(exe, db, tmp, held, changes, width, extra)
                got = {k: ch.get(k) for k in want}
                got['initial_rows'] = h.get('initial_rows')
                if got != want:
                    fail('%s: counters %s, a count over the rows gives %s'
                         % (name, got, want))
                if ch['items'] != held * changes or not ch['bytes_out'] > 0 \
                        or not ch['cpu_per_change_ms'] >= 0 \
                        or ch['changes'] != held * changes:
                    fail('%s: change row %s' % (name, ch))
                sizes.add((h['bytes_out'], ch['bytes_out']))
            if len(sizes) != 1:
                fail('%s: impls sent different bytes: %s' % (db, sizes))
        _, ch = run_model(exes[0], sbs[0], tmp, 2, 2, 1000)
        if ch['updates'] or ch['rows_sent'] or ch['rows_tested']:
            fail('the same datapaths in another order: %s' % ch)
        p = run([exes[0], 'monitor-cond-change', '--held', '2', nb],
                expect_rc=1)
        if 'Port_Binding' not in p.stderr:
            fail('NB refused without naming the table: %s' % p.stderr)
    print('ok: monitor-cond-change rows match a count over the datasets')


if __name__ == '__main__':
    main()
