#!/usr/bin/env python3
"""Bad input gets a clear error: for each kind of damage (missing, empty,
a directory, not OVSDB at all, truncated in a header or a body, wrong
length or SHA-1, invalid JSON, tables, columns or types the schema lacks, a
bad schema; clustered files with a bad header, no snapshot, an entry
out of order or not matching the schema, a record of another format),
jsonbench exits with status 1, prints one line that
names the file, the record and its byte offset (and what is wrong), and
leaves no output file, not even a temporary one.

usage: test_corrupt.py EXE DB   (DB: a valid log-form file, >= 3 records)
"""
import hashlib
import json
import os
import sys
import tempfile

from harnesslib import fail, run


def records(data):
    """[(header offset, header line, data offset, data bytes)]."""
    out = []
    pos = 0
    while pos < len(data):
        nl = data.index(b'\n', pos)
        header = data[pos:nl]
        length = int(header.split()[2])
        out.append((pos, header, nl + 1, data[nl + 1:nl + 1 + length]))
        pos = nl + 1 + length
    return out


def record_bytes(payload):
    return (b'OVSDB JSON %d %s\n' % (len(payload),
                                     hashlib.sha1(payload).hexdigest()
                                     .encode()) + payload)


def cluster_record(obj):
    payload = json.dumps(obj).encode() + b'\n'
    return (b'OVSDB CLUSTER %d %s\n' % (len(payload),
                                        hashlib.sha1(payload).hexdigest()
                                        .encode()) + payload)


def rebuild(recs, index, payload=None, header=None):
    """The file with record 'index' replaced."""
    out = b''
    for i, (_, h, _, d) in enumerate(recs):
        if i != index:
            out += h + b'\n' + d
        elif header is not None:
            out += header + b'\n' + (payload if payload is not None else d)
        else:
            out += record_bytes(payload)
    return out


def wrong_type(payload):
    """'payload' with the first integer column value turned into a
    string."""
    txn = json.loads(payload)
    for rows in txn.values():
        for row in (rows.values() if isinstance(rows, dict) else []):
            for col, val in (row or {}).items():
                if isinstance(val, int) and not isinstance(val, bool):
                    row[col] = 'not an integer'
                    return json.dumps(txn).encode() + b'\n'
    fail('no integer column in record 1')


def unknown_column(payload):
    """'payload' with a column the schema lacks added to its first row."""
    txn = json.loads(payload)
    for rows in txn.values():
        for row in (rows.values() if isinstance(rows, dict) else []):
            if isinstance(row, dict):
                row['no_such_column'] = 1
                return json.dumps(txn).encode() + b'\n'
    fail('no row in record 1')


DIRECTORY = object()     # A case whose "file" is a directory.


def main():
    exe, db = sys.argv[1:3]
    with open(db, 'rb') as f:
        data = f.read()
    recs = records(data)
    if len(recs) < 3:
        fail('%s: need at least 3 records' % db)
    last = len(recs) - 1
    h1_off, h1, d1_off, d1 = recs[1]
    length1 = len(d1)
    sha1 = h1.split()[3]

    flipped = bytearray(d1)
    i = flipped.index(b'"', 10) + 1     # Inside some string.
    flipped[i] = ord('Q') if flipped[i] != ord('Q') else ord('R')

    # A one-server cluster's header (record 0) holding the file's schema.
    schema = json.loads(recs[0][3])
    header_base = {'server_id': '5cd05e5c-750d-4cf2-a15b-9a18669a993d',
                   'local_address': 'unix:s1.raft', 'name': schema['name']}
    snap = cluster_record(dict(header_base, prev_index=1, prev_term=1,
                               prev_data=[schema, {}],
                               prev_eid='f6dbd039-98a0-4d12-83b3-'
                                        'b6a507dfb2aa'))

    cases = [
        # (name, file bytes or None for a missing file, record, offset,
        #  words the message must contain)
        ('missing', None, None, None, ['cannot open']),
        ('directory', DIRECTORY, None, None, ['directory']),
        ('empty', b'', None, None, ['empty file']),
        ('not-ovsdb-text', b'hello, world\n', 0, 0, ['bad record header']),
        ('not-ovsdb-binary', bytes(i % 256 for i in range(11, 4000)
                                   if i % 256 != 10), 0, 0,
         ['bad record header']),
        ('not-ovsdb-json', b'{"name": "OVN_Northbound", "tables": {}}\n',
         0, 0, ['bad record header']),
        ('truncated-header-0', data[:20], 0, 0, ['truncated record']),
        ('truncated-body-0', data[:recs[0][2] + 10], 0, 0,
         ['truncated record']),
        ('truncated-body-1', data[:d1_off + length1 // 2], 1, h1_off,
         ['truncated record']),
        ('truncated-header-1', data[:h1_off + 5], 1, h1_off,
         ['truncated record']),
        ('truncated', data[:recs[last][2] + len(recs[last][3]) // 2], last,
         recs[last][0], ['truncated record']),
        ('truncated-header', data[:recs[last][0] + 12], last, recs[last][0],
         ['truncated record']),
        ('length-short', rebuild(recs, 1, header=b'OVSDB JSON %d %s'
                                 % (length1 - 7, sha1)), 1, h1_off,
         ['wrong record length']),
        ('length-long', rebuild(recs, 1, header=b'OVSDB JSON %d %s'
                                % (length1 + 30, sha1)), 1, h1_off,
         ['wrong record length']),
        ('sha1', rebuild(recs, 1, payload=bytes(flipped),
                         header=h1), 1, h1_off, ['wrong SHA-1']),
        ('invalid-json', rebuild(recs, 1, payload=d1[:-1].replace(
            b'":', b'"=', 1) + b'\n'), 1, h1_off, ['invalid JSON']),
        ('no-such-table', rebuild(recs, 1, payload=b'{"No_Such_Table":'
                                  b'{}}\n'), 1, h1_off,
         ['does not match the schema', 'No_Such_Table']),
        ('no-such-column', rebuild(recs, 1, payload=unknown_column(d1)), 1,
         h1_off, ['does not match the schema', 'no_such_column']),
        ('wrong-type', rebuild(recs, 1, payload=wrong_type(d1)), 1,
         h1_off, ['does not match the schema', 'expected integer']),
        ('bad-schema', rebuild(recs, 0, payload=b'{"name":"x"}\n'), 0, 0,
         ['bad schema']),
        ('clustered-header', b'OVSDB CLUSTER 10 0000\n', 0, 0,
         ['bad SHA-1']),
        ('clustered-no-snapshot', cluster_record(header_base), 0, 0,
         ['without a snapshot']),
        ('clustered-bad-snapshot', cluster_record(dict(
            header_base, prev_index=1, prev_term=1,
            prev_data=[schema, {'No_Such_Table': {}}])), 0, 0,
         ['snapshot does not match the schema', 'No_Such_Table']),
        ('clustered-entry-index', snap + cluster_record(
            {'term': 1, 'index': 5, 'data': [None, {}]}), 1, len(snap),
         ['raft entry index 5, expected 2']),
        ('clustered-entry-schema', snap + cluster_record(
            {'term': 1, 'index': 2, 'data': [schema, {}]}), 1, len(snap),
         ['replaces the schema']),
        ('clustered-entry-table', snap + cluster_record(
            {'term': 1, 'index': 2, 'data': [None, {'No_Such_Table': {}}]}),
         1, len(snap), ['raft entry 2 does not match the schema',
                        'No_Such_Table']),
        ('clustered-standalone-record', snap + record_bytes(b'{}\n'), 1,
         len(snap), ['bad record header', 'OVSDB CLUSTER']),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for name, content, record, offset, words in cases:
            path = os.path.join(tmp, name + '.db')
            if content is DIRECTORY:
                os.mkdir(path)
            elif content is not None:
                with open(path, 'wb') as f:
                    f.write(content)
            out = os.path.join(tmp, name + '.out')
            for workload in ['compact', 'dump', 'load']:
                args = [exe, workload, path]
                if workload != 'load':
                    args[2:2] = ['--output', out]
                p = run(args, expect_rc=1)
                msg = p.stderr
                want = [path] + words
                if record is not None:
                    want += ['record %d' % record, 'byte offset %d' % offset]
                for w in want:
                    if w not in msg:
                        fail('%s (%s): message lacks "%s": %s'
                             % (name, workload, w, msg))
                if 'Sanitizer' in msg or 'runtime error' in msg:
                    fail('%s: sanitizer report: %s' % (name, msg))
                if len(msg.splitlines()) != 1:
                    fail('%s (%s): wanted one line: %s' % (name, workload,
                                                           msg))
                left = [f for f in os.listdir(tmp)
                        if f.startswith(name + '.out')]
                if left:
                    fail('%s: output left behind: %s' % (name, left))
            print('ok: %-16s %s' % (name, msg.strip()))


if __name__ == '__main__':
    main()
