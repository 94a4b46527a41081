"""Helpers shared by the harness tests: running jsonbench, reading its
results, and asking the real ovsdb-tool what a database holds."""
import json
import os
import re
import subprocess
import sys

WORKLOAD_RUNS = [
    # (name, workload, extra arguments); every one runs on NB and SB.
    ('load', 'load', []),
    ('dump', 'dump', ['--iterations', '2']),
    ('compact', 'compact', []),
    ('monitor-tree', 'monitor', ['--mode', 'tree', '--clients', '3',
                                 '--batches', '2', '--batch-rows', '3']),
    ('monitor-cache', 'monitor', ['--mode', 'cache', '--clients', '3',
                                  '--batches', '2', '--batch-rows', '3']),
    ('monitor-direct', 'monitor', ['--mode', 'direct', '--clients', '3',
                                   '--batches', '2', '--batch-rows', '3']),
    ('txn', 'txn', ['--clients', '3', '--txns', '20']),
    ('raft-tree', 'raft', ['--mode', 'tree', '--entries', '4',
                           '--followers', '2']),
    ('raft-serialized', 'raft', ['--mode', 'serialized', '--entries', '4',
                                 '--followers', '2']),
    ('monitor-storm', 'monitor-storm', ['--held', '3', '--clients', '4']),
    ('monitor-storm-one', 'monitor-storm', ['--held', '2', '--clients', '3',
                                            '--mode', 'one', '--table',
                                            'SB_Global,Chassis']),
]

# A table to monitor in each fixture (NB has no Logical_Flow).
MONITOR_TABLE = {'nb': ['--table', 'Logical_Switch_Port'], 'sb': []}


def fail(msg):
    print('FAIL: ' + msg, file=sys.stderr)
    sys.exit(1)


def run(args, expect_rc=0):
    p = subprocess.run(args, capture_output=True, text=True)
    if expect_rc is not None and p.returncode != expect_rc:
        fail('%s: exit %d (wanted %d)\nstdout: %s\nstderr: %s'
             % (' '.join(args), p.returncode, expect_rc, p.stdout, p.stderr))
    return p


def option_args(options, combo):
    """The command line for 'combo', one value per (option, ...) entry of
    'options'."""
    out = []
    for option, value in zip(options, combo):
        out += [option[0], value]
    return out


def check_choice_usage(exe, db, options, help_texts):
    """Each option of 'options' given a bad value is a usage error (exit 2)
    naming the option and the value, nothing on stdout; --help shows every
    one of 'help_texts'."""
    for option in options:
        opt = option[0]
        p = run([exe, 'load', '--no-sha256', opt, 'bogus', db], expect_rc=2)
        if opt not in p.stderr or '"bogus"' not in p.stderr:
            fail('%s bogus: unclear message: %s' % (opt, p.stderr))
        if p.stdout:
            fail('%s bogus: output on stdout: %s' % (opt, p.stdout))
    help_text = run([exe, '--help']).stdout
    for text in help_texts:
        if text not in help_text:
            fail('--help lacks "%s"' % text)


def check_same_load(name, options, combo, b, params, base):
    """A load with the options of 'combo' ('b', its load/load bench, and
    its results' params) counts what the defaults' 'base' counts, and its
    params name exactly the options that differ from their defaults (each
    entry of 'options': option, params key, values with the default
    first)."""
    for counter in ['rows', 'records', 'weak_refs', 'atoms']:
        if b.get(counter) != base.get(counter):
            fail('%s: %s %s with %s, %s with the defaults'
                 % (name, counter, b.get(counter),
                    ' '.join(option_args(options, combo)),
                    base.get(counter)))
    for (_, key, values), value in zip(options, combo):
        shown = '%s=%s' % (key, value) in params
        if shown != (value != values[0]):
            fail('%s: params "%s" for %s=%s' % (name, params, key, value))


def workload_output(exe, workload, db, tmp, extra):
    """What 'workload' writes with --output, as bytes."""
    out = os.path.join(tmp, 'out')
    run([exe, workload, '--no-sha256', '--output', out, db] + extra)
    with open(out, 'rb') as f:
        return f.read()


def load_results(path):
    with open(path) as f:
        return json.load(f)


def bench(results, name, agg=None):
    """The first iteration run named 'name' (or its aggregate 'agg')."""
    for b in results['benchmarks']:
        if agg is None and b['name'] == name and b['run_type'] == 'iteration':
            return b
        if agg is not None and b['name'] == name + '_' + agg:
            return b
    fail('no benchmark %s%s in results' % (name, '_' + agg if agg else ''))


def db_name(db):
    return run(['ovsdb-tool', 'db-name', db]).stdout.strip()


def schema_tables(db):
    """The schema's table names, from the file's first record."""
    with open(db, 'rb') as f:
        f.readline()
        record = json.loads(f.readline())
    return sorted(record['tables'])


def normalize(value):
    """Sets and maps in a canonical order, so that two renderings of the
    same datum compare equal."""
    if isinstance(value, list) and len(value) == 2 and value[0] == 'set':
        return ['set', sorted((normalize(v) for v in value[1]),
                              key=json.dumps)]
    if isinstance(value, list) and len(value) == 2 and value[0] == 'map':
        return ['map', sorted(([normalize(k), normalize(v)]
                               for k, v in value[1]), key=json.dumps)]
    return value


def rows_by_uuid(rows):
    out = {}
    for r in rows:
        r = {k: normalize(v) for k, v in r.items() if k != '_version'}
        out[r['_uuid'][1]] = r
    return out


def query_all(db, tables):
    """{table: {uuid: row}} of every row, as the real ovsdb-tool sees it."""
    name = db_name(db)
    ops = [{'op': 'select', 'table': t, 'where': []} for t in tables]
    result = json.loads(run(['ovsdb-tool', 'query', db,
                             json.dumps([name] + ops)]).stdout)
    return {t: rows_by_uuid(r['rows']) for t, r in zip(tables, result)}


VERSION_RE = re.compile(rb'("_version":\["uuid",")([0-9a-f-]{36})(")')
ZERO_UUID = b'00000000-0000-0000-0000-000000000000'


def dump_versions(text):
    """The _version UUIDs of a dump reply's text (bytes), in order."""
    return [m.group(2) for m in VERSION_RE.finditer(text)]


def zero_versions(text):
    """A dump reply's text with every _version the all-zero UUID, what
    --model json-only (which keeps none) shows."""
    return VERSION_RE.sub(rb'\g<1>' + ZERO_UUID + rb'\g<3>', text)


def check_versions(name, text):
    """A full model dump: every row has a _version, each a distinct
    version 4 UUID, as uuid_generate() makes them."""
    versions = dump_versions(text)
    if not versions:
        fail('%s: no _version in the dump' % name)
    if len(set(versions)) != len(versions):
        fail('%s: %d _version values, %d distinct'
             % (name, len(versions), len(set(versions))))
    for v in versions:
        if v[14:15] != b'4' or v[19:20] not in b'89ab':
            fail('%s: _version %s is not a version 4 UUID' % (name, v))
