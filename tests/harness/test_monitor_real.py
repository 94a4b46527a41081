#!/usr/bin/env python3
"""The monitor workload's messages against the installed ovsdb-server,
value by value, NB and SB (one condition of two clauses, which a row
matches if either holds), in every mode (tree, tree-cache, cache, direct)
of both models (full, json-only).

The model's transcript (--output: initial replies, transact replies,
update2 notifications) is read back; the batches it ran are rebuilt from
its update2s and checked against the strided walk over the matching rows
that the workload defines (so the rows are the right ones, not merely the
ones it happened to send); then the same monitor_cond request and the same
transact requests go to a real ovsdb-server on the same file, through a
JSON-RPC client of this test's own.  Initial reply, each transact reply and
each update2 must equal the real server's as JSON values (member order
aside; _version values are random on both sides, so only their presence
counts), and every client of the model must get the same message.

usage: test_monitor_real.py JSONBENCH NB_DB SB_DB
Exit 77 (skipped) where ovsdb-server is not installed."""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from harnesslib import fail, run

CLIENTS, BATCHES, ROWS = 2, 3, 4
MODES = ['tree', 'tree-cache', 'cache', 'direct']
MODELS = ['full', 'json-only']
CASES = [('nb', 'Logical_Switch_Port', '[true]'),
         ('sb', 'Logical_Flow', '[["actions","!=","drop;"]]'),
         # Rows that match one clause only: any clause holds.
         ('sb', 'Logical_Flow',
          '[["pipeline","==","egress"],["table_id","==",0]]')]


class Rpc:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(path)
        self.sock.settimeout(60)
        self.buf = b''
        self.dec = json.JSONDecoder()
        self.next_id = 0
        self.notes = []

    def send(self, method, params):
        i = self.next_id
        self.next_id += 1
        self.sock.sendall(json.dumps({'method': method, 'params': params,
                                      'id': i}).encode())
        return i

    def read(self):
        while True:
            text = self.buf.decode('utf-8', 'surrogateescape').lstrip()
            if text:
                try:
                    msg, end = self.dec.raw_decode(text)
                    self.buf = text[end:].encode('utf-8', 'surrogateescape')
                    return msg
                except ValueError:
                    pass
            data = self.sock.recv(1 << 20)
            if not data:
                fail('ovsdb-server closed the connection')
            self.buf += data

    def reply(self, i):
        while True:
            msg = self.read()
            if msg.get('method') == 'echo':
                self.sock.sendall(json.dumps({'result': msg['params'],
                                              'error': None,
                                              'id': msg['id']}).encode())
            elif msg.get('id') == i and 'result' in msg:
                return msg
            elif msg.get('method') == 'update2':
                self.notes.append(msg)

    def notification(self):
        while not self.notes:
            msg = self.read()
            if msg.get('method') == 'update2':
                self.notes.append(msg)
        return self.notes.pop(0)


def versionless(v, where):
    """'v' with every _version value replaced (present on both sides)."""
    if isinstance(v, dict):
        out = {}
        for k, x in v.items():
            if k == '_version':
                if not (isinstance(x, list) and x[0] == 'uuid'):
                    fail('%s: _version %r is not a UUID' % (where, x))
                out[k] = 'V'
            else:
                out[k] = versionless(x, where)
        return out
    if isinstance(v, list):
        return [versionless(x, where) for x in v]
    return v


def diff(a, b, path=''):
    """First difference between JSON values a and b, as text."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a:
                return '%s/%s: only in the real server\'s: %s' % (
                    path, k, json.dumps(b[k])[:200])
            if k not in b:
                return '%s/%s: only in the model\'s: %s' % (
                    path, k, json.dumps(a[k])[:200])
            d = diff(a[k], b[k], path + '/' + k)
            if d:
                return d
        return None
    if a != b:
        return '%s: model %s, real %s' % (path, json.dumps(a)[:200],
                                          json.dumps(b)[:200])
    return None


def same(what, model, real):
    d = diff(versionless(model, what), versionless(real, what))
    if d:
        fail('%s differs from ovsdb-server: %s' % (what, d))


def transcript(exe, db, table, cond, model, mode, tmp):
    """Initial replies, transact replies (full model only) and update2s
    grouped per batch."""
    out = os.path.join(tmp, 'mon-%s-%s.txt' % (model, mode))
    run([exe, 'monitor', '--model', model, '--mode', mode,
         '--clients', str(CLIENTS), '--batches', str(BATCHES),
         '--batch-rows', str(ROWS), '--table', table, '--condition', cond,
         '--output', out, db])
    initial, replies, updates = [], [], []
    for line in open(out):
        msg = json.loads(line)
        if 'params' in msg:
            updates.append(msg)
        elif isinstance(msg.get('result'), list):
            replies.append(msg)
        elif not replies and not updates:
            initial.append(msg)
        else:
            fail('%s %s: unexpected message %s' % (model, mode, line[:200]))
    if len(updates) != CLIENTS * BATCHES:
        fail('%s %s: %d update2s, wanted %d clients x %d batches'
             % (model, mode, len(updates), CLIENTS, BATCHES))
    if replies and len(replies) != BATCHES:
        fail('%s %s: %d transact replies for %d batches'
             % (model, mode, len(replies), BATCHES))
    batches = [{'reply': replies[k] if replies else None,
                'updates': updates[k * CLIENTS:(k + 1) * CLIENTS]}
               for k in range(BATCHES)]
    return initial, batches


def start_server(db, tmp):
    copy = os.path.join(tmp, 'real.db')
    shutil.copy(db, copy)
    sock = os.path.join(tmp, 'db.sock')
    ctl = os.path.join(tmp, 'db.ctl')
    server = shutil.which('ovsdb-server') or '/usr/sbin/ovsdb-server'
    proc = subprocess.Popen([server, '--remote=punix:' + sock,
                             '--unixctl=' + ctl, '--no-chdir',
                             '--log-file=' + os.path.join(tmp, 'db.log'),
                             copy], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    for _ in range(300):
        if os.path.exists(sock):
            try:
                return proc, Rpc(sock)
            except OSError:
                pass
        if proc.poll() is not None:
            fail('ovsdb-server exited: %s' % proc.stderr.read().decode())
        time.sleep(0.05)
    proc.kill()
    fail('ovsdb-server did not open its socket')


def check(exe, kind, db, table, cond, tmp):
    runs = {'%s %s' % (model, md): transcript(exe, db, table, cond, model,
                                              md, tmp)
            for model in MODELS for md in MODES}
    ref_initial, ref_batches = runs['full tree']
    if len(ref_initial) != CLIENTS or len(ref_batches) != BATCHES:
        fail('%s: %d initial replies and %d batches, wanted %d and %d'
             % (kind, len(ref_initial), len(ref_batches), CLIENTS, BATCHES))

    proc, rpc = start_server(db, tmp)
    try:
        i = rpc.send('list_dbs', [])
        dbname = rpc.reply(i)['result'][0]
        i = rpc.send('get_schema', [dbname])
        cols = sorted(rpc.reply(i)['result']['tables'][table]['columns'])
        # A select's "where" holds if every clause does, a monitor
        # condition if any does: one select per clause.
        i = rpc.send('transact', [dbname] + [
            {'op': 'select', 'table': table,
             'where': [] if clause is True else [clause],
             'columns': ['_uuid']} for clause in json.loads(cond)])
        matching = sorted({r['_uuid'][1] for res in rpc.reply(i)['result']
                           for r in res['rows']})
        per_batch = min(ROWS, len(matching))
        stride = max(1, len(matching) // per_batch)

        i = rpc.send('monitor_cond', [dbname, 'monid', {table: [{
            'columns': cols + ['_version'], 'where': json.loads(cond)}]}])
        real_initial = rpc.reply(i)
        for md, (initial, batches) in runs.items():
            for c, msg in enumerate(initial):
                same('%s %s: client %d\'s initial reply' % (kind, md, c),
                     msg['result'], real_initial['result'])

        for k, batch in enumerate(ref_batches):
            # The batch the model ran, from its update2: row -> new value.
            upd = batch['updates'][0]['params'][1].get(table, {})
            ops = {}
            column = None
            for uuid, change in upd.items():
                mod = {c: v for c, v in change.get('modify', {}).items()
                       if c != '_version'}
                if len(mod) != 1:
                    fail('%s batch %d: row %s changes %s, not one column'
                         % (kind, k, uuid, sorted(mod)))
                (column, value), = mod.items()
                prefix = 'batch%d-row' % k
                if not (isinstance(value, str) and value.startswith(prefix)):
                    fail('%s batch %d: row %s set to %r' % (kind, k, uuid,
                                                            value))
                ops[int(value[len(prefix):])] = uuid
            if sorted(ops) != list(range(per_batch)):
                fail('%s batch %d: rows %s changed, wanted 0..%d'
                     % (kind, k, sorted(ops), per_batch - 1))
            start = matching.index(ops[0])
            for n, uuid in ops.items():
                want = matching[(start + n * stride) % len(matching)]
                if uuid != want:
                    fail('%s batch %d: row %d is %s, the strided walk '
                         'gives %s' % (kind, k, n, uuid, want))
            i = rpc.send('transact', [dbname] + [
                {'op': 'update', 'table': table,
                 'where': [['_uuid', '==', ['uuid', ops[n]]]],
                 'row': {column: 'batch%d-row%d' % (k, n)}}
                for n in range(per_batch)])
            real_reply = rpc.reply(i)
            real_update = rpc.notification()
            for md, (initial, batches) in runs.items():
                b = batches[k]
                if b['reply'] is not None:
                    same('%s %s batch %d: transact reply' % (kind, md, k),
                         b['reply']['result'], real_reply['result'])
                elif md.startswith('full'):
                    fail('%s %s batch %d: no transact reply' % (kind, md, k))
                for c, u in enumerate(b['updates']):
                    same('%s %s batch %d: client %d\'s update2'
                         % (kind, md, k, c), u['params'],
                         real_update['params'])
                    if u.get('method', 'update2') != 'update2':
                        fail('%s %s: method %r' % (kind, md, u['method']))
    finally:
        proc.terminate()
        proc.wait(10)
    print('ok: %s: %s initial reply, %d batches, every mode of both models, '
          'as ovsdb-server'
          % (kind, table, BATCHES))


def main():
    exe, nb, sb = sys.argv[1:4]
    if not (shutil.which('ovsdb-server')
            or os.path.exists('/usr/sbin/ovsdb-server')):
        print('SKIP: ovsdb-server is not installed (openvswitch-switch)')
        sys.exit(77)
    dbs = {'nb': nb, 'sb': sb}
    with tempfile.TemporaryDirectory() as tmp:
        for n, (kind, table, cond) in enumerate(CASES):
            sub = os.path.join(tmp, '%s%d' % (kind, n))
            os.mkdir(sub)
            check(exe, kind, dbs[kind], table, cond, sub)


if __name__ == '__main__':
    main()
