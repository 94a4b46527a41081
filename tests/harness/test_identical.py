#!/usr/bin/env python3
"""Outputs that must not depend on the JSON representation do not: the dump
reply, the compacted file and the converted file (to the file's own
schema with a column added, every convert mode) are byte-identical across
impls (and with --string-atoms copy), and the bytes produced by monitor (in every mode)
and raft (in both modes) are the same for every impl.  --model json-only
keeps no _version: its dump is the full model's with every _version the
all-zero UUID, where the full model's are distinct generated ones; its
compacted file (which has no _version, as ovsdb-tool's) is the same.

usage: test_identical.py nb|sb DB EXE...
"""
import filecmp
import json
import os
import sys
import tempfile

from harnesslib import (MONITOR_TABLE, ZERO_UUID, bench, check_versions,
                        dump_versions, fail, load_results, run,
                        zero_versions)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def convert_schema(db, tmp):
    """The file's own schema with a string column added to every table."""
    with open(db, 'rb') as f:
        schema = json.loads(f.read(int(f.readline().split()[2])))
    for t in schema['tables'].values():
        t['columns']['jsonbench_added'] = {'type': 'string'}
    path = os.path.join(tmp, 'convert.ovsschema')
    with open(path, 'w') as f:
        json.dump(schema, f)
    return path


def check_convert(kind, db, exes, tmp):
    schema = convert_schema(db, tmp)
    outs = []
    for exe in exes:
        for mode in ['online', 'online-json', 'offline']:
            out = os.path.join(tmp, '%s-convert-%s-%s' % (
                kind, os.path.basename(exe), mode))
            run([exe, 'convert', '--schema', schema, '--mode', mode,
                 '--output', out, db])
            outs.append(out)
    for out in outs[1:]:
        if not filecmp.cmp(outs[0], out, shallow=False):
            fail('convert output differs: %s vs %s' % (outs[0], out))


def main():
    kind, db = sys.argv[1:3]
    exes = sys.argv[3:]
    if len(exes) < 2:
        fail('need at least two impls to compare')
    with tempfile.TemporaryDirectory() as tmp:
        check_convert(kind, db, exes, tmp)
        for workload in ['dump', 'compact']:
            outs = []
            for exe, extra in ([(e, []) for e in exes]
                               + [(exes[-1], ['--string-atoms', 'copy']),
                                  (exes[0], ['--model', 'json-only'])]):
                out = os.path.join(tmp, '%s-%s-%s%s' % (
                    kind, workload, os.path.basename(exe), '-'.join(extra)))
                run([exe, workload, '--output', out] + extra + [db])
                outs.append(out)
            json_only = outs.pop()
            for out in outs[1:]:
                if not filecmp.cmp(outs[0], out, shallow=False):
                    fail('%s output differs: %s vs %s'
                         % (workload, outs[0], out))
            full, mine = read(outs[0]), read(json_only)
            if workload == 'dump':
                check_versions(outs[0], full)
                if set(dump_versions(mine)) != {ZERO_UUID}:
                    fail('%s: json-only dump shows a _version other than '
                         'zero' % json_only)
                full = zero_versions(full)
            elif b'"_version"' in full:
                fail('%s: the compacted file holds _version' % outs[0])
            if full != mine:
                fail('%s output differs: %s vs %s (json-only, _version '
                     'aside)' % (workload, outs[0], json_only))

        # Bytes produced per phase, over impls and modes.
        for workload, modes, phases, extra in [
                ('monitor', ['tree', 'tree-cache', 'cache', 'direct',
                             'direct-each'],
                 ['initial', 'updates'],
                 ['--clients', '12', '--batches', '2', '--batch-rows',
                  '4'] + MONITOR_TABLE[kind]),
                ('raft', ['tree', 'serialized'], ['build_log', 'send'],
                 ['--entries', '3', '--followers', '2'])]:
            seen = {}
            for exe, model in ([(e, 'full') for e in exes]
                               + [(exes[0], 'json-only')]):
                for mode in modes:
                    res = os.path.join(tmp, 'r.json')
                    run([exe, workload, '--mode', mode, '--model', model,
                         '--results', res] + extra + [db])
                    r = load_results(res)
                    got = tuple(bench(r, '%s/%s' % (workload, p))
                                ['bytes_out'] for p in phases)
                    seen['%s %s %s' % (os.path.basename(exe), mode,
                                       model)] = got
            if len(set(seen.values())) != 1:
                fail('%s bytes differ on %s: %s' % (workload, kind, seen))
            if not all(seen[next(iter(seen))]):
                fail('%s produced no bytes on %s' % (workload, kind))
    print('ok: dump/compact byte-identical, monitor/raft bytes equal over '
          '%d impls and both models' % len(exes))


if __name__ == '__main__':
    main()
