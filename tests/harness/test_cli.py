#!/usr/bin/env python3
"""The command line: --help lists every workload and option; bad usage
(numbers out of range or not numbers, unknown options and workloads,
outputs that cannot be written) exits 2 with one line that names the option
and value, before anything runs or is written; a results file is written
whole, without temporary files left behind.

usage: test_cli.py EXE DB
"""
import json
import os
import stat
import subprocess
import sys
import tempfile

from harnesslib import fail, run

WORKLOADS = ['load', 'dump', 'compact', 'monitor', 'txn', 'raft',
             'monitor-storm', 'convert', 'monitor-cond-change']
OPTIONS = ['--repetitions', '--seed', '--results', '--output', '--clients',
           '--batches', '--mode', '--table', '--condition', '--txns',
           '--entries', '--followers', '--iterations', '--string-atoms',
           '--changes', '--datapaths', '--help']


# Every numeric option with its accepted range.
NUMBERS = [('repetitions', 1, 1000), ('seed', 0, 2**63 - 1),
           ('iterations', 1, 10**8), ('clients', 1, 10**8),
           ('batches', 1, 10**8), ('batch-rows', 1, 10**8),
           ('txns', 1, 10**8), ('entries', 1, 10**8),
           ('followers', 1, 10**8), ('changes', 1, 10**8),
           ('datapaths', 1, 10**8)]


def usage_fails(exe, args, words):
    """'args' is bad usage: exit 2, one line naming 'words' and --help."""
    p = run([exe] + args, expect_rc=2)
    lines = p.stderr.splitlines()
    if len(lines) != 1:
        fail('%s: wanted one line of error, got: %s' % (args, p.stderr))
    for w in words + ['--help']:
        if w not in lines[0]:
            fail('%s: message lacks "%s": %s' % (args, w, p.stderr))
    if p.stdout:
        fail('%s: printed on stdout: %s' % (args, p.stdout))


def check_numbers(exe, db):
    """Out of range (below, above, far above the 64 bits), not a number,
    trailing garbage, empty, missing: each names the option and value."""
    with tempfile.TemporaryDirectory() as tmp:
        res = os.path.join(tmp, 'r.json')
        for name, lo, hi in NUMBERS:
            values = [str(lo - 1), str(hi + 1), '-' + str(hi + 1),
                      '99999999999999999999', 'abc', '12x', '1.5', '',
                      ' ']
            for v in values:
                usage_fails(exe, ['txn', '--results', res, '--' + name, v],
                            ['--' + name, '"%s"' % v])
            # The option last, without its value.
            usage_fails(exe, ['load', db, '--' + name],
                        ['--' + name, 'needs an argument'])
        if os.listdir(tmp):
            fail('bad usage left files: %s' % os.listdir(tmp))
    usage_fails(exe, ['load', '--no-such-option', db],
                ['unknown option', '--no-such-option'])
    usage_fails(exe, ['load', '-x', db], ['unknown option', '-x'])
    usage_fails(exe, ['frobnicate', db], ['unknown workload', 'frobnicate'])
    usage_fails(exe, ['monitor', '--mode', 'sideways', db], ['sideways'])
    print('ok: numeric options, unknown options and workloads')


def check_output_paths(exe, db):
    """An output that cannot be written is refused before the run (exit 2,
    naming option and file), and nothing is created; a device or fifo is
    not replaced by the rename."""
    with tempfile.TemporaryDirectory() as tmp:
        a_dir = os.path.join(tmp, 'a-dir')
        os.mkdir(a_dir)
        a_file = os.path.join(tmp, 'a-file')
        with open(a_file, 'w') as f:
            f.write('keep me')
        fifo = os.path.join(tmp, 'a-fifo')
        os.mkfifo(fifo)
        bad = [
            (os.path.join(tmp, 'no', 'such', 'dir', 'x'), 'no/such/dir'),
            (a_dir, 'directory'),
            (os.path.join(a_file, 'x'), 'not a directory'),
            (fifo, 'not a regular file'),
            ('', 'empty file name'),
        ]
        for path, words in bad:
            for option, workload in [('--results', 'load'),
                                     ('--output', 'dump'),
                                     ('--output', 'compact')]:
                usage_fails(exe, [workload, option, path, db],
                            [option, words])
        usage_fails(exe, ['load', '--output', os.path.join(tmp, 'o'), db],
                    ['--output', 'load'])
        left = sorted(os.listdir(tmp))
        if left != ['a-dir', 'a-fifo', 'a-file'] or os.listdir(a_dir):
            fail('refused outputs left files: %s' % left)
        with open(a_file) as f:
            if f.read() != 'keep me':
                fail('a refused output changed an existing file')
        if not stat.S_ISFIFO(os.stat(fifo).st_mode):
            fail('the fifo was replaced')
    print('ok: unwritable output paths')


def main():
    exe, db = sys.argv[1:3]
    help_text = run([exe, '--help']).stdout
    for w in WORKLOADS:
        if '\n  %s ' % w not in help_text:
            fail('--help does not list workload %s' % w)
    if 'NOT IMPLEMENTED' in help_text:
        fail('--help lists an unimplemented workload')
    for o in OPTIONS:
        if o not in help_text:
            fail('--help does not mention %s' % o)

    bad = [
        ([], 'missing WORKLOAD'),
        (['frobnicate', db], 'unknown workload'),
        (['load'], 'needs a DATASET'),
        (['load', '--repetitions', 'x', db], '--repetitions'),
        (['load', '--repetitions', '0', db], '--repetitions'),
        (['monitor', '--mode', 'sideways', db], '--mode'),
        (['raft', '--mode', 'cache', db], '--mode'),
        # --send: print only where the clients can print (monitor).
        (['monitor', '--send', 'pigeons', db],
         '"pigeons" is not sockets, print or none'),
        (['monitor-storm', '--send', 'print', db],
         '"print" is not sockets or none'),
        (['monitor-cond-change', '--send', 'print', db],
         '"print" is not sockets or none'),
        (['convert', db], '--schema'),
        (['convert', '--schema', db, '--mode', 'inplace', db], '--mode'),
        (['load', '--no-such-option', db], 'option'),
        (['load', db, db, db], 'too many'),
        (['load', '--string-atoms', 'some', db], '--string-atoms'),
    ]
    for args, words in bad:
        p = run([exe] + args, expect_rc=2)
        if words not in p.stderr:
            fail('%s: message lacks "%s": %s' % (args, words, p.stderr))

    check_numbers(exe, db)
    check_output_paths(exe, db)

    p = run([exe, 'monitor', '--condition', '[["no_such_column","==",1]]',
             db], expect_rc=1)
    if 'no_such_column' not in p.stderr:
        fail('bad condition message: %s' % p.stderr)
    # A table of the other schema (NB's, on this SB file): a runtime error
    # naming the file and the table.
    p = run([exe, 'monitor', '--table', 'Logical_Switch_Port', db],
            expect_rc=1)
    for w in [db, 'Logical_Switch_Port']:
        if w not in p.stderr:
            fail('wrong-schema table message lacks %s: %s' % (w, p.stderr))
    # A device as DATASET: refused rather than hashed forever; with
    # --no-sha256 it is read, and is not OVSDB.
    p = run([exe, 'load', '/dev/zero'], expect_rc=1)
    if '/dev/zero: not a regular file' not in p.stderr:
        fail('/dev/zero as DATASET: %s' % p.stderr)
    p = run([exe, 'load', '--no-sha256', '/dev/zero'], expect_rc=1)
    if 'record 0 at byte offset 0' not in p.stderr:
        fail('/dev/zero with --no-sha256: %s' % p.stderr)
    # The table on a full standard output: a runtime error, not silence.
    with open('/dev/full', 'w') as full:
        p = subprocess.run([exe, 'load', db], stdout=full,
                           stderr=subprocess.PIPE, text=True)
    if p.returncode != 1 or 'standard output' not in p.stderr:
        fail('table to /dev/full: exit %d: %s' % (p.returncode, p.stderr))

    with tempfile.TemporaryDirectory() as tmp:
        res = os.path.join(tmp, 'results.json')
        run([exe, 'load', '--results', res, db])
        with open(res) as f:
            json.load(f)
        if os.listdir(tmp) != ['results.json']:
            fail('left behind: %s' % os.listdir(tmp))
        # Without --results: a table on stdout.
        out = run([exe, 'load', db]).stdout
        if 'load/load' not in out:
            fail('no table printed: %s' % out)
    print('ok: command line')


if __name__ == '__main__':
    main()
