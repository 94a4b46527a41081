#!/usr/bin/env python3
"""Metrics sanity: allocation counts are deterministic (identical across two
runs of the same workload), and they move the way the representations say:
refcount allocates less than plain on txn (clones are count++), inline less
than refcount on load (short strings live in the node).

usage: test_metrics.py PLAIN_EXE REFCOUNT_EXE INLINE_EXE OVS_EXE NB SB
"""
import os
import sys
import tempfile

from harnesslib import MONITOR_TABLE, bench, fail, load_results, run

DETERMINISTIC = ['alloc_calls', 'alloc_bytes', 'frees', 'bytes_out', 'items']


def results(exe, args, tmp):
    path = os.path.join(tmp, 'r.json')
    run([exe] + args + ['--results', path])
    return load_results(path)


def iterations(res):
    return {b['name']: b for b in res['benchmarks']
            if b['run_type'] == 'iteration' and b['repetition_index'] == 0}


def main():
    plain, refcount, inline, ovs, nb, sb = sys.argv[1:7]
    with tempfile.TemporaryDirectory() as tmp:
        # Two runs, same counts, for every phase of several workloads.
        for exe in [plain, ovs]:
            for args in [['load', sb], ['dump', nb], ['compact', sb],
                         ['txn', '--clients', '2', '--txns', '30'],
                         ['monitor', '--mode', 'cache', sb],
                         ['monitor', '--mode', 'direct'] + MONITOR_TABLE['nb']
                         + [nb],
                         ['raft', '--mode', 'serialized', sb]]:
                a = iterations(results(exe, args, tmp))
                b = iterations(results(exe, args, tmp))
                for name in a:
                    for k in DETERMINISTIC:
                        if a[name][k] != b[name][k]:
                            fail('%s %s: %s %s differs across runs: %s vs %s'
                                 % (os.path.basename(exe), ' '.join(args),
                                    name, k, a[name][k], b[name][k]))
                # Repetitions of one process agree as well.
                r = results(exe, args[:1] + ['--repetitions', '2']
                            + args[1:], tmp)
                for name in a:
                    reps = [x for x in r['benchmarks']
                            if x['name'] == name
                            and x['run_type'] == 'iteration']
                    if reps[0]['alloc_calls'] != reps[1]['alloc_calls']:
                        fail('%s: alloc_calls differ between repetitions'
                             % name)

        txn = ['txn', '--clients', '3', '--txns', '50']
        p = bench(results(plain, txn, tmp), 'txn/server')['alloc_calls']
        r = bench(results(refcount, txn, tmp), 'txn/server')['alloc_calls']
        if not r < p:
            fail('txn: refcount %d allocations, not fewer than plain %d'
                 % (r, p))
        print('ok: txn/server alloc_calls plain %d > refcount %d' % (p, r))

        for db in [nb, sb]:
            r = bench(results(refcount, ['load', db], tmp),
                      'load/load')['alloc_calls']
            i = bench(results(inline, ['load', db], tmp),
                      'load/load')['alloc_calls']
            if not i < r:
                fail('load %s: inline %d allocations, not fewer than '
                     'refcount %d' % (db, i, r))
            print('ok: load/load alloc_calls refcount %d > inline %d on %s'
                  % (r, i, os.path.basename(db)))

            # --string-atoms copy: a refcounted impl allocates a node per
            # string atom instead of keeping the parsed one; plain copies
            # either way, so its count does not move.
            c = bench(results(refcount, ['load', '--string-atoms', 'copy',
                                         db], tmp), 'load/load')['alloc_calls']
            if not c > r:
                fail('load %s: refcount --string-atoms copy %d allocations, '
                     'not more than shared %d' % (db, c, r))
            ps, pc = [bench(results(plain, ['load', '--string-atoms', m, db],
                                    tmp), 'load/load')['alloc_calls']
                      for m in ['shared', 'copy']]
            if ps != pc:
                fail('load %s: plain allocations %d (shared) != %d (copy)'
                     % (db, ps, pc))
            print('ok: --string-atoms copy: refcount %d -> %d, plain %d'
                  % (r, c, ps))
    print('ok: allocation counts deterministic')


if __name__ == '__main__':
    main()
