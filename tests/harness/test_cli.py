#!/usr/bin/env python3
"""The command line: --help lists every workload and option; bad usage
exits 2 with a message that says what is wrong; a results file is written
whole, without temporary files left behind.

usage: test_cli.py EXE DB
"""
import json
import os
import sys
import tempfile

from harnesslib import fail, run

WORKLOADS = ['load', 'dump', 'compact', 'monitor', 'txn', 'raft']
OPTIONS = ['--repetitions', '--seed', '--results', '--output', '--clients',
           '--batches', '--mode', '--table', '--condition', '--txns',
           '--entries', '--followers', '--iterations', '--string-atoms',
           '--help']


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
        (['load', '--no-such-option', db], 'option'),
        (['load', db, db, db], 'too many'),
        (['load', '--string-atoms', 'some', db], '--string-atoms'),
    ]
    for args, words in bad:
        p = run([exe] + args, expect_rc=2)
        if words not in p.stderr:
            fail('%s: message lacks "%s": %s' % (args, words, p.stderr))

    p = run([exe, 'monitor', '--condition', '[["no_such_column","==",1]]',
             db], expect_rc=1)
    if 'no_such_column' not in p.stderr:
        fail('bad condition message: %s' % p.stderr)

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
