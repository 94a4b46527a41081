#!/usr/bin/env python3
"""Older server code in the full model (--datum-copy, --ref-columns), the
older parser (--string-lex bytes) and record hash (--sha1 builtin) hold
the same database, and the server code spends memory as those OVS
releases did.

On each database (log form: inserts, modifications, deletions, garbage
rows) and each combination: dump and compact outputs are byte-identical
to the defaults', the load counters equal, the results' params name the
options that differ from the defaults.  Memory, against the defaults:
with --ref-columns all every inserted row's datums keep a reference count
(OVS 3.0-3.2: at least one allocation more per row for _uuid and
_version, and more heap where rows are only inserted: a snapshot); with
--datum-copy deep no datum has a count pointer or a count (OVS 2.17: less
heap than the defaults).  A record whose data was changed fails its check
with either SHA-1, with the same message.  Bad values are usage errors
naming the option.

usage: test_server_code.py EXE DB...
"""
import os
import sys
import tempfile

from harnesslib import (bench, check_choice_usage, check_same_load, fail,
                        load_results, option_args, run, workload_output)

COPIES = ['lazy', 'deep']
COLUMNS = ['refs', 'all']
LEXES = ['runs', 'bytes']
HASHES = ['openssl', 'builtin']
# (option, results params key, values with the default first)
OPTIONS = [('--datum-copy', 'datum_copy', COPIES),
           ('--ref-columns', 'ref_columns', COLUMNS),
           ('--string-lex', 'string_lex', LEXES),
           ('--sha1', 'sha1', HASHES)]
COMBOS = [(c, r, s, h) for c in COPIES for r in COLUMNS for s in LEXES
          for h in HASHES]


def args(combo):
    return option_args(OPTIONS, combo)



def load(exe, db, tmp, extra):
    res = os.path.join(tmp, 'load.json')
    run([exe, 'load', '--no-sha256', '--results', res, db] + extra)
    return bench(load_results(res), 'load/load'), load_results(res)


def check_db(exe, db, tmp):
    name = os.path.basename(db)
    default = COMBOS[0]
    for workload in ['dump', 'compact']:
        first = workload_output(exe, workload, db, tmp, args(default))
        if not first:
            fail('%s %s: empty output' % (name, workload))
        for combo in COMBOS[1:]:
            out = workload_output(exe, workload, db, tmp, args(combo))
            if out != first:
                fail('%s %s with %s differs from the defaults (%d vs %d '
                     'bytes)' % (name, workload, ' '.join(args(combo)),
                                 len(out), len(first)))

    loads = {c: load(exe, db, tmp, args(c)) for c in COMBOS}
    base = loads[default][0]
    for combo, (b, res) in loads.items():
        check_same_load(name, OPTIONS, combo, b, res['context']['params'],
                        base)

    rows = base['rows']
    if not rows:
        fail('%s: no rows loaded' % name)
    all_cols = loads['lazy', 'all', 'runs', 'openssl'][0]
    if all_cols['alloc_calls'] < base['alloc_calls'] + 2 * rows:
        fail('%s: %d allocations with --ref-columns all, %d without, for '
             '%d rows (wanted a count per _uuid and _version at least)'
             % (name, all_cols['alloc_calls'], base['alloc_calls'], rows))
    # Only where rows are only inserted: OVS 3.0-3.2 unshared every column
    # of a modified row, which drops the counts today's server keeps.
    snapshot = base['records'] <= 2
    if not base['heap_allocated_bytes']:
        return                  # No heap figures (sanitizers): not judged.
    if snapshot and (all_cols['heap_allocated_bytes']
                     <= base['heap_allocated_bytes']):
        fail('%s: heap %d with --ref-columns all, %d without'
             % (name, all_cols['heap_allocated_bytes'],
                base['heap_allocated_bytes']))
    for columns in COLUMNS:
        deep = loads['deep', columns, 'runs', 'openssl'][0]
        if deep['heap_allocated_bytes'] >= base['heap_allocated_bytes']:
            fail('%s: heap %d with --datum-copy deep --ref-columns %s, %d '
                 'with the defaults (wanted less: no count pointers)'
                 % (name, deep['heap_allocated_bytes'], columns,
                    base['heap_allocated_bytes']))


def check_corrupt(exe, db, tmp):
    """A changed data byte of the last record: both hashes refuse it."""
    with open(db, 'rb') as f:
        data = bytearray(f.read())
    last = data.rfind(b'OVSDB JSON ')
    at = data.index(b'\n', last) + 2   # Inside the record's data.
    data[at] = ord('x') if data[at] != ord('x') else ord('y')
    bad = os.path.join(tmp, 'corrupt.db')
    with open(bad, 'wb') as f:
        f.write(data)
    errors = []
    for value in HASHES:
        p = run([exe, 'load', '--no-sha256', '--sha1', value, bad],
                expect_rc=1)
        errors.append(p.stderr)
    if 'sha' not in errors[0].lower() and 'hash' not in errors[0].lower():
        fail('%s: corrupt record: no hash error: %s'
             % (os.path.basename(db), errors[0]))
    if errors[0] != errors[1]:
        fail('%s: corrupt record: openssl says %r, builtin %r'
             % (os.path.basename(db), errors[0], errors[1]))


def check_usage(exe, db):
    check_choice_usage(exe, db, OPTIONS,
                       ['--datum-copy lazy|deep', '--ref-columns refs|all',
                        '--string-lex runs|bytes', '--sha1 openssl|builtin'])


def main():
    if len(sys.argv) < 3:
        fail(__doc__)
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        for db in sys.argv[2:]:
            check_db(exe, db, tmp)
            check_corrupt(exe, db, tmp)
        check_usage(exe, sys.argv[2])
    print('datum copies, reference columns, string lexing and SHA-1: same '
          'database, the memory of their releases, on %d databases'
          % (len(sys.argv) - 2))


if __name__ == '__main__':
    main()
