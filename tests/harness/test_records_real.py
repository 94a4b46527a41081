#!/usr/bin/env python3
"""Record headers judged as the installed ovsdb-tool judges them.

Every record of an OVSDB file starts with `OVSDB JSON <length> <sha1>`.
For a set of variants of that line (SHA-1 fields of other lengths, case,
non-hex digits in each part of the field, a wrong digest; lengths off by
one, with a leading zero or a sign; separators and trailing bytes; the
magic) in the second and in the last record of a database, the harness's
reader (jsonbench load) and ovsdb-stats must accept exactly what
`ovsdb-tool show-log` and `ovsdb-tool compact` accept, and where
ovsdb-tool names the offset of a bad header line, name the same byte
offset.  This checks ovsdb/record.c's header parser against real OVS,
independently of tests/ovsdb's unit tests.

usage: test_records_real.py JSONBENCH OVSDB_STATS DB
Exit 77 (skipped) where ovsdb-tool is not installed."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from harnesslib import fail


def records(data):
    out, pos = [], 0
    while pos < len(data):
        nl = data.index(b'\n', pos)
        header = data[pos:nl]
        n = int(header.split()[2])
        out.append((header, data[nl + 1:nl + 1 + n]))
        pos = nl + 1 + n
    return out


def variants(header):
    _, _, n, sha = header.split()
    flip = b'1' if sha[:1] == b'0' else b'0'
    v = {
        'as written': header,
        'sha1 empty': b'OVSDB JSON ' + n + b' ',
        'no sha1': b'OVSDB JSON ' + n,
        'sha1 of 1': b'OVSDB JSON ' + n + b' ' + sha[:1],
        'sha1 of 39': b'OVSDB JSON ' + n + b' ' + sha[:39],
        'sha1 of 41': b'OVSDB JSON ' + n + b' ' + sha + b'0',
        'sha1 of 80': b'OVSDB JSON ' + n + b' ' + sha + sha,
        'sha1 upper case': b'OVSDB JSON ' + n + b' ' + sha.upper(),
        'sha1 wrong first digit': b'OVSDB JSON ' + n + b' ' + flip + sha[1:],
        'sha1 wrong last digit': b'OVSDB JSON ' + n + b' ' + sha[:39]
        + (b'1' if sha[39:] == b'0' else b'0'),
        'length + 1': b'OVSDB JSON ' + str(int(n) + 1).encode() + b' ' + sha,
        'length - 1': b'OVSDB JSON ' + str(int(n) - 1).encode() + b' ' + sha,
        'length with leading 0': b'OVSDB JSON 0' + n + b' ' + sha,
        'length with +': b'OVSDB JSON +' + n + b' ' + sha,
        'length with -': b'OVSDB JSON -' + n + b' ' + sha,
        'length 0': b'OVSDB JSON 0 ' + sha,
        'length after a space': b'OVSDB JSON  ' + n + b' ' + sha,
        'length after a tab': b'OVSDB JSON \t' + n + b' ' + sha,
        'length after space and +': b'OVSDB JSON  +' + n + b' ' + sha,
        'length 18 digits': b'OVSDB JSON 0000000000000' + n + b' ' + sha,
        'no length': b'OVSDB JSON  ' + sha,
        'two spaces': b'OVSDB JSON ' + n + b'  ' + sha,
        'tab': b'OVSDB JSON ' + n + b'\t' + sha,
        'trailing space': header + b' ',
        'trailing CR': header + b'\r',
        'magic lower case': b'OVSDB json ' + n + b' ' + sha,
        'magic two spaces': b'OVSDB  JSON ' + n + b' ' + sha,
    }
    for pos in (0, 19, 39):
        for c in b'gG x-':
            s = bytearray(sha)
            s[pos] = c
            v['sha1 byte %d %r' % (pos, chr(c))] = \
                b'OVSDB JSON ' + n + b' ' + bytes(s)
    return v


def verdict(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True,
                       errors='replace')
    return p.returncode == 0, p.stderr.strip()


def main():
    exe, stats, db = sys.argv[1:4]
    tool = shutil.which('ovsdb-tool')
    if not tool:
        print('SKIP: ovsdb-tool is not installed (openvswitch-common)')
        sys.exit(77)
    with open(db, 'rb') as f:
        recs = records(f.read())
    if len(recs) < 3:
        fail('%s: want a log with at least 3 records' % db)
    n_checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'v.db')
        for which in (1, len(recs) - 1):
            for name, header in variants(recs[which][0]).items():
                offset = sum(len(h) + 1 + len(b) for h, b in recs[:which])
                with open(path, 'wb') as f:
                    for k, (h, b) in enumerate(recs):
                        f.write((header if k == which else h) + b'\n' + b)
                real_ok, real_err = verdict([tool, 'show-log', path])
                out = os.path.join(tmp, 'c.db')
                compact_ok, _ = verdict([tool, 'compact', path, out])
                if os.path.exists(out):
                    os.unlink(out)
                if real_ok != compact_ok:
                    fail('record %d, %s: ovsdb-tool show-log and compact '
                         'disagree' % (which, name))
                m = re.search(r'parse error at offset (\d+) in header',
                              real_err)
                for prog, cmd in [('jsonbench load', [exe, 'load', path]),
                                  ('ovsdb-stats', [stats, path])]:
                    ok, err = verdict(cmd)
                    if ok != real_ok:
                        fail('record %d, header %s (%r): %s %s it, '
                             'ovsdb-tool %s it (%s)'
                             % (which, name, header[-50:], prog,
                                'accepts' if ok else 'rejects',
                                'accepts' if real_ok else 'rejects',
                                (err or real_err)[-160:]))
                    if m and 'byte offset %s' % m.group(1) not in err:
                        fail('record %d, header %s: %s does not name byte '
                             'offset %s as ovsdb-tool does: %s'
                             % (which, name, prog, m.group(1), err[-160:]))
                    if m and int(m.group(1)) != offset:
                        fail('record %d: ovsdb-tool names offset %s, the '
                             'header is at %d' % (which, m.group(1), offset))
                n_checked += 1
    print('ok: %d header variants judged as ovsdb-tool judges them'
          % n_checked)


if __name__ == '__main__':
    main()
