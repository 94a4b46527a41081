#!/usr/bin/env python3
"""monitor and monitor-storm read --condition as monitor_cond does: a row
matches if any clause holds.  On an SB database, a two-clause condition on
Logical_Flow that rows match through one clause only (so a conjunction
would count fewer): the rows monitor counts, sends in its initial replies
and updates, and monitor-storm sends, in both models, against a count over
the rows the real ovsdb-tool returns.  A condition with a "true" clause
matches every row and makes no conditional monitor (the json cache serves
it).

usage: test_any_clause.py JSONBENCH SB"""
import json
import os
import sys
import tempfile

from harnesslib import bench, fail, load_results, query_all, run

TABLE = 'Logical_Flow'
CLAUSES = [['pipeline', '==', 'egress'], ['table_id', '==', 0]]
CLIENTS, BATCHES, ROWS = 2, 2, 3
HELD, STORM = 2, 3
MODELS = ['full', 'json-only']


def holds(row, clause):
    if clause is True:
        return True
    column, function, value = clause
    if function != '==':
        fail('the test evaluates only ==, not %s' % function)
    return row[column] == value


def matching(rows, clauses):
    """UUIDs of the rows where any clause holds."""
    return {u for u, r in rows.items() if any(holds(r, c) for c in clauses)}


def expected(db):
    rows = query_all(db, [TABLE])[TABLE]
    each = [matching(rows, [c]) for c in CLAUSES]
    union = matching(rows, CLAUSES)
    if not all(each) or union == each[0] or union == each[1]:
        fail('%s: the clauses match %s rows, together %d: the test needs '
             'rows that match one clause only'
             % (db, [len(e) for e in each], len(union)))
    return union, len(rows)


def check_monitor(exe, db, model, want, tmp):
    res = os.path.join(tmp, 'mon.json')
    out = os.path.join(tmp, 'mon.txt')
    run([exe, 'monitor', '--model', model, '--table', TABLE,
         '--condition', json.dumps(CLAUSES), '--clients', str(CLIENTS),
         '--batches', str(BATCHES), '--batch-rows', str(ROWS),
         '--output', out, '--results', res, db])
    init = bench(load_results(res), 'monitor/initial')
    if init['rows_matching'] != len(want):
        fail('monitor %s: %s rows matching, a count over the rows gives %d'
             % (model, init['rows_matching'], len(want)))
    initial, updated = [], set()
    with open(out) as f:
        for line in f:
            msg = json.loads(line)
            if msg.get('method') == 'update2':
                updated |= set(msg['params'][1][TABLE])
            elif isinstance(msg.get('result'), dict):
                initial.append(set(msg['result'].get(TABLE, {})))
    if len(initial) != CLIENTS or any(i != want for i in initial):
        fail('monitor %s: initial replies of %s rows, wanted %d'
             % (model, [len(i) for i in initial], len(want)))
    if not updated or not updated <= want:
        fail('monitor %s: updates of %d rows, %d outside the condition'
             % (model, len(updated), len(updated - want)))


def storm(exe, db, model, cond, tmp):
    res = os.path.join(tmp, 'storm.json')
    run([exe, 'monitor-storm', '--model', model, '--table', TABLE,
         '--condition', json.dumps(cond), '--held', str(HELD),
         '--clients', str(STORM), '--results', res, db])
    return bench(load_results(res), 'monitor-storm/storm')


def check_storm(exe, db, model, want, n_rows, tmp):
    s = storm(exe, db, model, CLAUSES, tmp)
    if s['initial_rows'] != STORM * len(want) or s['composed'] != STORM:
        fail('storm %s: %s rows in %s composed replies, wanted %d x %d'
             % (model, s['initial_rows'], s['composed'], STORM, len(want)))
    s = storm(exe, db, model, [CLAUSES[0], True], tmp)
    if s['initial_rows'] != STORM * n_rows or s['composed'] \
            or s['cache_hits'] != STORM:
        fail('storm %s with a true clause: %s rows, %s composed, %s cache '
             'hits; wanted %d x %d rows, all from the cache'
             % (model, s['initial_rows'], s['composed'], s['cache_hits'],
                STORM, n_rows))


def main():
    exe, db = sys.argv[1:3]
    want, n_rows = expected(db)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ['TMPDIR'] = tmp      # The full model's transaction log.
        for model in MODELS:
            check_monitor(exe, db, model, want, tmp)
            check_storm(exe, db, model, want, n_rows, tmp)
    print('ok: monitor and monitor-storm match %d of %d rows, any clause '
          'holding' % (len(want), n_rows))


if __name__ == '__main__':
    main()
