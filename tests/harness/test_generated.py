#!/usr/bin/env python3
"""On a database from the project's generator (ovsdb-gen, log form): dump
and compact give byte-identical output on every impl, the dump holds the
rows the real ovsdb-tool sees, and the compacted file is valid for
ovsdb-tool with the same rows.

usage: test_generated.py DB EXE...
"""
import filecmp
import os
import sys
import tempfile

from harnesslib import fail, run
from test_workloads import check_compact, check_dump


def main():
    db = sys.argv[1]
    exes = sys.argv[2:]
    with tempfile.TemporaryDirectory() as tmp:
        for workload, check in [('dump', check_dump),
                                ('compact', check_compact)]:
            outs = []
            for exe in exes:
                out = os.path.join(tmp, '%s-%s' % (workload,
                                                   os.path.basename(exe)))
                run([exe, workload, '--output', out, db])
                outs.append(out)
            for out in outs[1:]:
                if not filecmp.cmp(outs[0], out, shallow=False):
                    fail('%s output differs: %s vs %s' % (workload, outs[0],
                                                          out))
            check(outs[0], db)
    print('ok: %s: dump and compact identical on %d impls and agree with '
          'ovsdb-tool' % (os.path.basename(db), len(exes)))


if __name__ == '__main__':
    main()
