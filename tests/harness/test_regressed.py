#!/usr/bin/env python3
"""harness_dep gives a working jsonbench for an impl built only for tests:
the deliberately regressed ovs (one extra allocation per string node)
allocates more than ovs on load, and says which impl it is.

usage: test_regressed.py OVS_EXE REGRESSED_EXE DB
"""
import os
import sys
import tempfile

from harnesslib import bench, fail, load_results, run


def main():
    ovs, regressed, db = sys.argv[1:4]
    calls = {}
    with tempfile.TemporaryDirectory() as tmp:
        for exe in [ovs, regressed]:
            res = os.path.join(tmp, 'r.json')
            run([exe, 'load', '--results', res, db])
            r = load_results(res)
            calls[r['context']['impl']] = bench(r, 'load/load')['alloc_calls']
    if set(calls) != {'ovs', 'ovs-regressed'}:
        fail('impl names in context: %s' % sorted(calls))
    if not calls['ovs-regressed'] > calls['ovs']:
        fail('ovs-regressed does not allocate more: %s' % calls)
    print('ok: load/load alloc_calls %s' % calls)


if __name__ == '__main__':
    main()
