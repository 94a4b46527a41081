#!/usr/bin/env python3
"""The full model (--model full, the default) does the real server's work
at load: it keeps as many weak references as ovsdb-server does (asked of
the installed ovsdb-server when there is one), allocates more than
json-only, and its commit checks what the server checks: a strong reference
to a missing row is an error naming file, record and offset; an index
duplicate is an error; a dangling weak reference is dropped from its
column; an unreferenced row of a non-root table is collected.  json-only
applies the same records in place.

usage: test_model.py EXE NB_DB SB_DB   (small log-form ovsdb-gen files)
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from harnesslib import bench, fail, load_results, run
from test_corrupt import record_bytes, records

MISSING = '0badc0de-0000-4000-8000-000000000001'


def load(exe, db, tmp, model):
    res = os.path.join(tmp, 'load-%s.json' % model)
    run([exe, 'load', '--no-sha256', '--model', model, '--results', res, db])
    return load_results(res)


def real_memory(db, tmp):
    """ovs-appctl memory/show of the installed ovsdb-server on 'db', or
    None if there is none."""
    server = shutil.which('ovsdb-server')
    appctl = shutil.which('ovs-appctl')
    if not server or not appctl:
        return None
    rundir = tempfile.mkdtemp(dir=tmp)
    copy = os.path.join(rundir, 'db')
    shutil.copy(db, copy)
    ctl = os.path.join(rundir, 'ctl')
    env = dict(os.environ, OVS_RUNDIR=rundir, OVS_LOGDIR=rundir,
               OVS_DBDIR=rundir)
    p = subprocess.Popen([server, copy, '--remote=punix:' + rundir + '/s',
                          '--unixctl=' + ctl, '-vconsole:off'], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            q = subprocess.run([appctl, '-t', ctl, 'memory/show'],
                               capture_output=True, text=True)
            if q.returncode == 0:
                return dict(kv.split(':') for kv in q.stdout.split())
            time.sleep(0.05)
        fail('ovsdb-server did not answer on %s' % ctl)
    finally:
        p.terminate()
        p.wait()


def with_record(db, tmp, name, txn):
    """A copy of 'db' with one more record, 'txn'."""
    data = open(db, 'rb').read()
    out = os.path.join(tmp, name + '.db')
    with open(out, 'wb') as f:
        f.write(data + record_bytes(json.dumps(txn).encode()))
    return out, len(records(data)), len(data)


def dump_table(exe, db, tmp, model, table):
    out = os.path.join(tmp, 'dump-%s.json' % model)
    run([exe, 'dump', '--no-sha256', '--model', model, '--output', out, db])
    schema = json.loads(records(open(db, 'rb').read())[0][3])
    names = sorted(schema['tables'])
    return json.load(open(out))['result'][names.index(table)]['rows']


def check_counts(exe, db, tmp):
    full = load(exe, db, tmp, 'full')
    only = load(exe, db, tmp, 'json-only')
    if full['context'].get('model') != 'full' \
       or only['context'].get('model') != 'json-only':
        fail('results context lacks the model: %s / %s'
             % (full['context'].get('model'), only['context'].get('model')))
    if 'model=json-only' not in only['context']['params']:
        fail('json-only params: %s' % only['context']['params'])
    f = bench(full, 'load/load')
    o = bench(only, 'load/load')
    if 'weak_refs' in o:
        fail('json-only reports weak references')
    if f['alloc_bytes'] <= o['alloc_bytes'] or f['alloc_calls'] <= \
       o['alloc_calls']:
        fail('full model allocates no more than json-only: %d/%d vs %d/%d'
             % (f['alloc_calls'], f['alloc_bytes'], o['alloc_calls'],
                o['alloc_bytes']))
    real = real_memory(db, tmp)
    if real is None:
        print('note: no installed ovsdb-server, counts not compared')
        return
    if int(real['n-weak-refs']) != f['weak_refs']:
        fail('%s: %d weak references, ovsdb-server has %s'
             % (db, f['weak_refs'], real['n-weak-refs']))
    # The server also counts _uuid and _version of each row and its
    # _Server database.
    extra = int(real['atoms']) - 2 * f['rows'] - f['atoms']
    if not 0 <= extra <= 64:
        fail('%s: %d atoms, ovsdb-server %s for %d rows'
             % (db, f['atoms'], real['atoms'], f['rows']))
    print('ok: %s: %d weak references and %d atoms, as ovsdb-server'
          % (os.path.basename(db), f['weak_refs'], f['atoms']))


def check_commit(exe, db, tmp):
    # A strong reference to a missing row.
    bad, n, offset = with_record(db, tmp, 'strong', {
        'Logical_Switch': {'5ca1ab1e-0000-4000-8000-000000000001': {
            'name': 'sw-bad', 'ports': ['uuid', MISSING]}}})
    p = run([exe, 'load', '--no-sha256', bad], expect_rc=1)
    for words in ['record %d at byte offset %d' % (n, offset),
                  'referential integrity violation', MISSING]:
        if words not in p.stderr:
            fail('strong reference error lacks "%s": %s' % (words, p.stderr))
    run([exe, 'load', '--no-sha256', '--model', 'json-only', bad])

    # Two rows with the same indexed name.
    dup, n, offset = with_record(db, tmp, 'index', {
        'Address_Set': {
            '5ca1ab1e-0000-4000-8000-000000000002': {'name': 'as-dup'},
            '5ca1ab1e-0000-4000-8000-000000000003': {'name': 'as-dup'}}})
    p = run([exe, 'load', '--no-sha256', dup], expect_rc=1)
    if 'constraint violation' not in p.stderr or 'index on name' \
       not in p.stderr:
        fail('index duplicate error: %s' % p.stderr)

    # A dangling weak reference is dropped; an unreferenced ACL (a
    # non-root table) is collected.
    weak, _, _ = with_record(db, tmp, 'weak', {
        'Port_Group': {'5ca1ab1e-0000-4000-8000-000000000004': {
            'name': 'pg-weak', 'ports': ['set', [['uuid', MISSING]]]}},
        'ACL': {'5ca1ab1e-0000-4000-8000-000000000005': {
            'action': 'drop', 'direction': 'to-lport', 'match': '1',
            'priority': 1}}})
    for model, want_ports, want_acl in [('full', ['set', []], False),
                                        ('json-only', ['uuid', MISSING],
                                         True)]:
        pgs = [r for r in dump_table(exe, weak, tmp, model, 'Port_Group')
               if r['name'] == 'pg-weak']
        if len(pgs) != 1 or pgs[0]['ports'] != want_ports:
            fail('%s: Port_Group ports %s, wanted %s'
                 % (model, pgs and pgs[0]['ports'], want_ports))
        acl = [r for r in dump_table(exe, weak, tmp, model, 'ACL')
               if r['_uuid'][1] == '5ca1ab1e-0000-4000-8000-000000000005']
        if bool(acl) != want_acl:
            fail('%s: unreferenced ACL %s' % (model, 'kept' if acl
                                               else 'collected'))
    print('ok: commit checks (integrity, index, weak refs, garbage)')


def main():
    exe, nb, sb = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        check_counts(exe, nb, tmp)
        check_counts(exe, sb, tmp)
        check_commit(exe, nb, tmp)


if __name__ == '__main__':
    main()
