#!/usr/bin/env python3
"""Every workload on one impl, on the NB and SB fixtures: the run succeeds,
the results file has google-benchmark's shape and the expected phases, the
dump reply holds exactly the rows the real ovsdb-tool sees, and the compacted
file is accepted by ovsdb-tool and holds the same rows.

usage: test_workloads.py EXE IMPL NB SB
"""
import os
import sys
import tempfile

from harnesslib import (MONITOR_TABLE, WORKLOAD_RUNS, bench, db_name, fail,
                        load_results, query_all, rows_by_uuid, run,
                        schema_tables)
import json

ITER_KEYS = ['name', 'run_name', 'run_type', 'repetitions',
             'repetition_index', 'threads', 'iterations', 'real_time',
             'cpu_time', 'time_unit', 'user_cpu_s', 'sys_cpu_s', 'minor_faults',
             'major_faults', 'rss_bytes',
             'peak_rss_bytes', 'heap_allocated_bytes', 'heap_active_bytes',
             'heap_resident_bytes', 'alloc_calls', 'alloc_bytes', 'frees',
             'bytes_out', 'items', 'iter_min_ms', 'iter_median_ms',
             'iter_max_ms']
CONTEXT_KEYS = ['date', 'host_name', 'executable', 'num_cpus', 'mhz_per_cpu',
                'impl', 'allocator', 'workload', 'params', 'dataset',
                'dataset_sha256', 'build_type', 'compiler', 'cflags',
                'git_commit', 'node_size']
PHASES = {
    'load': ['load', 'free'],
    'dump': ['load', 'dump', 'free'],
    'compact': ['load', 'compact', 'free'],
    'monitor': ['load', 'initial', 'updates', 'free'],
    'txn': ['client', 'server', 'free'],
    'raft': ['load', 'build_log', 'send', 'free'],
    'monitor-storm': ['load', 'held', 'storm', 'free'],
}


def check_results(res, impl, workload, dataset):
    ctx = res['context']
    for k in CONTEXT_KEYS:
        if k not in ctx:
            fail('context lacks %s' % k)
    if ctx['impl'] != impl or ctx['workload'] != workload:
        fail('context impl/workload %s/%s' % (ctx['impl'], ctx['workload']))
    if workload != 'txn' and len(ctx['dataset_sha256']) != 64:
        fail('no dataset sha256')
    names = [b['name'] for b in res['benchmarks']]
    for phase in PHASES[workload]:
        name = '%s/%s' % (workload, phase)
        b = bench(res, name)
        for k in ITER_KEYS:
            if k not in b:
                fail('%s lacks %s' % (name, k))
        # A load touches memory it never had: the kernel faults it in.
        if phase == 'load' and not b['minor_faults'] > 0:
            fail('%s counted no page fault' % name)
        if b['time_unit'] != 'ms' or b['repetitions'] != 2:
            fail('%s: time_unit/repetitions' % name)
        for agg in ['mean', 'median', 'stddev', 'min', 'max']:
            a = bench(res, name, agg)
            if a['run_type'] != 'aggregate' or a['aggregate_name'] != agg:
                fail('%s_%s is not an aggregate' % (name, agg))
        if names.count(name) != 2:
            fail('%s: %d runs for 2 repetitions' % (name, names.count(name)))
    first = bench(res, '%s/%s' % (workload, PHASES[workload][0]))
    if first['alloc_calls'] <= 0 or first['rss_bytes'] <= 0:
        fail('%s: no allocations or RSS recorded' % first['name'])


def check_dump(out, db):
    with open(out) as f:
        reply = json.load(f)
    tables = schema_tables(db)
    want = query_all(db, tables)
    if reply['error'] is not None or len(reply['result']) != len(tables):
        fail('dump reply shape')
    for t, r in zip(tables, reply['result']):
        got = rows_by_uuid(r['rows'])
        if got != want[t]:
            fail('dump of %s: table %s differs from ovsdb-tool query'
                 % (db, t))


def check_compact(out, db):
    if db_name(out) != db_name(db):
        fail('compacted db-name differs')
    log = run(['ovsdb-tool', 'show-log', out]).stdout
    records = [line for line in log.splitlines()
               if line.startswith('record ')]
    if len(records) != 2:
        fail('compacted file has %d records, not 2:\n%s' % (len(records),
                                                            log))
    tables = schema_tables(db)
    if query_all(out, tables) != query_all(db, tables):
        fail('compacted %s holds other rows than %s' % (out, db))


def check_storm(res, name):
    """Without a condition the json cache serves every storm request
    after the first of each monitor; with --mode one, one monitor per
    table."""
    storm = bench(res, 'monitor-storm/storm')
    monitors = 2 if name == 'monitor-storm-one' else 1
    if storm['monitors'] != monitors:
        fail('%s: %s monitors, wanted %d' % (name, storm['monitors'],
                                              monitors))
    if storm['composed'] != 0 or storm['cache_hits'] != storm['items']:
        fail('%s: storm composed %s, cache hits %s of %s requests'
             % (name, storm['composed'], storm['cache_hits'],
                storm['items']))
    if storm['initial_change_sets'] > monitors * 2:
        fail('%s: %s initial change sets' % (name,
                                             storm['initial_change_sets']))


def main():
    exe, impl, nb, sb = sys.argv[1:5]
    with tempfile.TemporaryDirectory() as tmp:
        for kind, db in [('nb', nb), ('sb', sb)]:
            for name, workload, extra in WORKLOAD_RUNS:
                args = [exe, workload, '--repetitions', '2'] + extra
                if workload == 'monitor':
                    args += MONITOR_TABLE[kind]
                if name == 'monitor-storm-one' and kind == 'nb':
                    args[args.index('SB_Global,Chassis')] = \
                        'NB_Global,Logical_Switch'
                results = os.path.join(tmp, '%s-%s.json' % (kind, name))
                output = os.path.join(tmp, '%s-%s.out' % (kind, name))
                args += ['--results', results]
                if workload in ('dump', 'compact'):
                    args += ['--output', output]
                if workload != 'txn':
                    args.append(db)
                run(args)
                check_results(load_results(results), impl, workload, db)
                if workload == 'dump':
                    check_dump(output, db)
                elif workload == 'compact':
                    check_compact(output, db)
                elif workload == 'monitor-storm':
                    check_storm(load_results(results), name)
            leftovers = [f for f in os.listdir(tmp) if '.tmp-' in f]
            if leftovers:
                fail('temporary files left: %s' % leftovers)
    print('ok: every workload on %s' % impl)


if __name__ == '__main__':
    main()
