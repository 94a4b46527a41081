#!/usr/bin/python3
"""Writes a small OVN NB or SB database in log form with the real ovsdb-tool:
inserts, partial-row modifies (sets, maps, scalars) and deletes, so that the
harness reads what ovsdb-server itself writes ("_is_diff" records included).

usage: make-fixture.py nb|sb SCHEMA OUTPUT [N]
"""
import json
import os
import random
import subprocess
import sys


def transact(db, name, ops):
    out = subprocess.run(['ovsdb-tool', 'transact', db,
                          json.dumps([name] + ops)],
                         check=True, capture_output=True, text=True).stdout
    for r in json.loads(out):
        if r is not None and 'error' in r:
            sys.exit('make-fixture: %s: %s' % (db, out))
    return out


def nb_ops(rng, n):
    ops = []
    for s in range(n):
        ports = []
        for p in range(3):
            pn = 'p%d_%d' % (s, p)
            ports.append(['named-uuid', pn])
            ops.append({'op': 'insert', 'table': 'Logical_Switch_Port',
                        'uuid-name': pn,
                        'row': {'name': 'lsp-%d-%d-%08x' % (s, p,
                                                         rng.getrandbits(32)),
                                'addresses': ['set', [
                                    '0a:00:00:00:%02x:%02x 10.0.%d.%d'
                                    % (s, p, s, p + 10)]],
                                'enabled': bool(p % 2),
                                'tag_request': p,
                                'external_ids': ['map', [
                                    ['neutron:port_name', 'port%d' % p],
                                    ['owner', 'tenant-%d' % (s % 3)]]]}})
        ops.append({'op': 'insert', 'table': 'Logical_Switch',
                    'row': {'name': 'ls%d' % s,
                            'ports': ['set', ports],
                            'other_config': ['map', [['subnet',
                                                      '10.0.%d.0/24' % s]]]}})
    ops.append({'op': 'insert', 'table': 'ACL',
                'row': {'priority': 1001, 'direction': 'to-lport',
                        'match': 'outport == "lsp-0-0" && ip4 && '
                                 'ip4.src == 10.0.0.0/8',
                        'action': 'allow-related', 'log': True}})
    return ops


def sb_ops(rng, n):
    ops = [{'op': 'insert', 'table': 'Chassis', 'uuid-name': 'ch',
            'row': {'name': 'chassis-1', 'hostname': 'host1',
                    'encaps': ['named-uuid', 'enc']}},
           {'op': 'insert', 'table': 'Encap', 'uuid-name': 'enc',
            'row': {'type': 'geneve', 'ip': '192.168.0.1',
                    'chassis_name': 'chassis-1'}}]
    for d in range(max(1, n // 4)):
        dp = 'dp%d' % d
        ops.append({'op': 'insert', 'table': 'Datapath_Binding',
                    'uuid-name': dp,
                    'row': {'tunnel_key': d + 1,
                            'external_ids': ['map', [['name', 'ls%d' % d]]]}})
        for f in range(6):
            actions = ('drop;' if f == 0 else
                       'reg0[%d] = 1; next;' % f if f % 2 else
                       'outport = "lsp-%d-%d-%08x"; output;'
                       % (d, f, rng.getrandbits(32)))
            ops.append({'op': 'insert', 'table': 'Logical_Flow',
                        'row': {'logical_datapath': ['named-uuid', dp],
                                'pipeline': 'ingress' if f % 2 else 'egress',
                                'table_id': f, 'priority': 100 - f,
                                'match': 'inport == "lsp-%d-%d" && eth.src '
                                         '== 0a:00:00:00:%02x:%02x'
                                         % (d, f, d, f),
                                'actions': actions,
                                'external_ids': ['map', [
                                    ['source', 'northd.c:%d' % (1000 + f)],
                                    ['stage-name', 'ls_in_%d' % f]]]}})
        ops.append({'op': 'insert', 'table': 'Port_Binding',
                    'row': {'logical_port': 'lsp-%d' % d, 'tunnel_key': 1,
                            'datapath': ['named-uuid', dp],
                            'chassis': ['named-uuid', 'ch'],
                            'mac': ['set', ['0a:00:00:00:00:%02x 10.0.0.%d'
                                            % (d, d)]]}})
    return ops


def main():
    kind, schema, output = sys.argv[1:4]
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    rng = random.Random(42)
    tmp = output + '.tmp-%d' % os.getpid()
    if os.path.exists(tmp):
        os.unlink(tmp)
    subprocess.run(['ovsdb-tool', 'create', tmp, schema], check=True)
    name = subprocess.run(['ovsdb-tool', 'db-name', tmp], check=True,
                          capture_output=True, text=True).stdout.strip()
    if kind == 'nb':
        transact(tmp, name, nb_ops(rng, n))
        # Partial-row modifies of a set, a map and a scalar, then deletes.
        transact(tmp, name, [
            {'op': 'mutate', 'table': 'Logical_Switch_Port',
             'where': [['tag_request', '==', 1]],
             'mutations': [['addresses', 'insert', ['set', ['router']]],
                           ['external_ids', 'insert',
                            ['map', [['extra', 'yes']]]]]},
            {'op': 'update', 'table': 'Logical_Switch',
             'where': [['name', '==', 'ls0']],
             'row': {'other_config': ['map', [['mcast_snoop', 'true']]]}}])
        transact(tmp, name, [
            {'op': 'update', 'table': 'Logical_Switch_Port',
             'where': [['tag_request', '==', 2]], 'row': {'enabled': True,
                                                        'type': 'router'}}])
        transact(tmp, name, [
            # Unreferenced ports are garbage-collected: row deletions.
            {'op': 'update', 'table': 'Logical_Switch',
             'where': [['name', '==', 'ls1']], 'row': {'ports': ['set', []]}},
            {'op': 'delete', 'table': 'ACL', 'where': []}])
    else:
        transact(tmp, name, sb_ops(rng, n))
        transact(tmp, name, [
            {'op': 'update', 'table': 'Logical_Flow',
             'where': [['table_id', '==', 1]], 'row': {'priority': 7}},
            {'op': 'mutate', 'table': 'Logical_Flow',
             'where': [['table_id', '==', 2]],
             'mutations': [['external_ids', 'delete', ['set', ['source']]]]}])
        transact(tmp, name, [
            {'op': 'delete', 'table': 'Logical_Flow',
             'where': [['table_id', '==', 5]]}])
    os.rename(tmp, output)


if __name__ == '__main__':
    main()
