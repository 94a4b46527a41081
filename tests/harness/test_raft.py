#!/usr/bin/env python3
"""The raft workload as the real-OVS runner runs it: every insert is
committed (commit_index = 1 for the snapshot + the entries), the log file
gets the same records in both modes (the log's form in memory changes, not
what is written), the snapshot kept as a tree takes more heap than kept
serialized (seed 2's point), and a database without Address_Set fails with
a clear error.

usage: test_raft.py JSONBENCH FIXTURE-NB"""
import json
import os
import sys
import tempfile

from harnesslib import bench, fail, load_results, run

ENTRIES = 7


def main():
    exe, nb = sys.argv[1:3]
    got = {}
    with tempfile.TemporaryDirectory() as tmp:
        for mode in ('tree', 'serialized'):
            for model in ('full', 'json-only'):
                res = os.path.join(tmp, '%s-%s.json' % (mode, model))
                run([exe, 'raft', '--mode', mode, '--model', model,
                     '--entries', str(ENTRIES), '--followers', '2',
                     '--mem-breakdown', '--repetitions', '1',
                     '--results', res, nb])
                r = load_results(res)
                log = bench(r, 'raft/build_log')
                send = bench(r, 'raft/send')
                what = '%s %s' % (mode, model)
                if send['commit_index'] != ENTRIES + 1:
                    fail('%s: commit_index %s, wanted %d' % (
                        what, send['commit_index'], ENTRIES + 1))
                if send['iterations'] != ENTRIES:
                    fail('%s: %s iterations' % (what, send['iterations']))
                # Live bytes by the project's allocation counts (the same
                # database in both modes; also right under sanitizers,
                # where the allocator's heap figures read 0).
                got[what] = (send['log_bytes'], send['bytes_out'],
                             log['mem_live_bytes'])
        if len({v[:2] for v in got.values()}) != 1:
            fail('log or message bytes differ between modes: %s' % got)
        for model in ('full', 'json-only'):
            tree = got['tree ' + model][2]
            ser = got['serialized ' + model][2]
            if not tree > ser > 0:
                fail('%s: live bytes with the snapshot kept as a tree %s, '
                     'serialized %s'
                     % (model, tree, ser))

        # No Address_Set: a clear error, exit 1.
        schema = os.path.join(tmp, 'x.ovsschema')
        with open(schema, 'w') as f:
            json.dump({'name': 'x', 'version': '1.0.0', 'tables': {
                'T': {'columns': {'a': {'type': 'integer'}}}}}, f)
        db = os.path.join(tmp, 'x.db')
        run(['ovsdb-tool', 'create', db, schema])
        p = run([exe, 'raft', '--repetitions', '1', db], expect_rc=1)
        if 'Address_Set' not in p.stderr or db not in p.stderr:
            fail('no clear error without Address_Set: %r' % p.stderr)
    print('ok: raft commits every insert, same log in both modes, tree '
          'snapshot heavier: %s' % got)


if __name__ == '__main__':
    main()
