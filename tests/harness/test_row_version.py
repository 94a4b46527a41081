#!/usr/bin/env python3
"""Each row holds one _version, generated (AES-128 of a counter keyed from
--seed) by the commit of every insert and change, at load as in a monitor's
transact requests, and shown by the dump: the same seed gives byte-identical
dumps, another seed other _version values and nothing else changed; the
compacted file holds no _version (ovsdb-tool compact does not write the
column, which is not persistent) and does not depend on the seed; a
snapshot's load draws one _version per row, a log's one more per change;
every row changed by a monitor batch draws one; every row the txn
workload inserts draws one (distinct, the same for the same seed, in its
--output dump), json-only draws none.

usage: test_row_version.py EXE LOG_DB MONITOR_DB
"""
import os
import sys
import tempfile

from harnesslib import (bench, check_versions, dump_versions, fail,
                        load_results, run, zero_versions)


def output(exe, workload, db, tmp, extra=()):
    out = os.path.join(tmp, workload + '.out')
    run([exe, workload, '--no-sha256', '--output', out] + list(extra)
        + ([db] if db else []))
    with open(out, 'rb') as f:
        return f.read()


def results(exe, workload, db, tmp, extra=()):
    res = os.path.join(tmp, 'r.json')
    run([exe, workload, '--no-sha256', '--results', res] + list(extra)
        + ([db] if db else []))
    return load_results(res)


def check_seeds(exe, db, tmp):
    one = output(exe, 'dump', db, tmp)
    check_versions('seed 1', one)
    if output(exe, 'dump', db, tmp, ['--seed', '1']) != one:
        fail('two dumps with seed 1 differ')
    two = output(exe, 'dump', db, tmp, ['--seed', '2'])
    check_versions('seed 2', two)
    if zero_versions(two) != zero_versions(one):
        fail('seed 2 changes the dump beyond _version')
    shared = set(dump_versions(one)) & set(dump_versions(two))
    if shared:
        fail('seeds 1 and 2 share _version values: %s' % sorted(shared)[:3])

    compacted = output(exe, 'compact', db, tmp)
    if b'"_version"' in compacted:
        fail('the compacted file holds _version')
    if output(exe, 'compact', db, tmp, ['--seed', '2']) != compacted:
        fail('the compacted file depends on the seed')
    return compacted


def check_counts(exe, db, snapshot, tmp):
    # A snapshot is one transaction of inserts: one _version per row.
    b = bench(results(exe, 'load', snapshot, tmp), 'load/load')
    if b.get('row_versions') != b['rows']:
        fail('snapshot load: %s _version drawn for %d rows'
             % (b.get('row_versions'), b['rows']))
    # A log also changes rows: more than one per row held.
    b = bench(results(exe, 'load', db, tmp), 'load/load')
    if not b.get('row_versions', 0) > b['rows']:
        fail('log load: %s _version drawn for %d rows'
             % (b.get('row_versions'), b['rows']))
    b = bench(results(exe, 'load', db, tmp, ['--model', 'json-only']),
              'load/load')
    if 'row_versions' in b:
        fail('json-only load reports row_versions %s' % b['row_versions'])


def check_monitor(exe, db, tmp):
    r = results(exe, 'monitor', db, tmp, ['--clients', '2', '--batches',
                                          '3', '--batch-rows', '4'])
    b = bench(r, 'monitor/updates')
    want = 3 * b['rows_per_batch']
    if not b['rows_per_batch'] or b.get('row_versions') != want:
        fail('monitor: %s _version drawn by 3 batches of %d changed rows'
             % (b.get('row_versions'), b['rows_per_batch']))


def check_txn(exe, tmp):
    opts = ['--clients', '3', '--txns', '20']
    one = output(exe, 'txn', '', tmp, opts)
    check_versions('txn seed 1', one)
    versions = dump_versions(one)
    if len(versions) != 60:
        fail('txn: %d rows with _version, wanted 60' % len(versions))
    if output(exe, 'txn', '', tmp, opts + ['--seed', '1']) != one:
        fail('txn: two runs with seed 1 differ')
    two = dump_versions(output(exe, 'txn', '', tmp, opts + ['--seed', '2']))
    if set(two) & set(versions):
        fail('txn: seeds 1 and 2 share _version values')
    b = bench(results(exe, 'txn', '', tmp, opts), 'txn/server')
    if b.get('row_versions') != b['rows'] or b['rows'] != 60:
        fail('txn: %s _version drawn for %s rows'
             % (b.get('row_versions'), b['rows']))
    b = bench(results(exe, 'txn', '', tmp, opts + ['--model', 'json-only']),
              'txn/server')
    if 'row_versions' in b:
        fail('json-only txn reports row_versions %s' % b['row_versions'])


def main():
    if len(sys.argv) != 4:
        fail(__doc__)
    exe, db, monitor_db = sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        snapshot = os.path.join(tmp, 'snapshot.db')
        with open(snapshot, 'wb') as f:
            f.write(check_seeds(exe, db, tmp))
        check_counts(exe, db, snapshot, tmp)
        check_monitor(exe, monitor_db, tmp)
        check_txn(exe, tmp)
    print('_version: one per row, drawn per insert and change, same for the '
          'same seed')


if __name__ == '__main__':
    main()
