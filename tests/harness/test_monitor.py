#!/usr/bin/env python3
"""The monitor workload as the real-OVS runner measures it: in the full
model every batch is a JSON-RPC transact request the model parses and runs
(one result per operation in each reply; every update finds its row and
reaches the clients through the change set: they get the same bytes as
from json-only, which changes the rows in place), the phase CPU counters
add up to cpu_after_load_s, and both models report the real runner's
counters (clients, poll intervals, the CPU per update batch: ordered, and
adding up to the phase's).  Every mode (tree, tree-cache, cache;
direct and direct-each write the same bytes with members in column
order) and both ways
of building the initial change set (kept, per-monitor) send the same
messages: the transcripts (--output) are byte-identical.  --send sockets
(the full model's default) writes every message to its client's socket:
at least one write per message, the same bytes as --send none (json-only's
default); so does --send print, whose clients parse and print every
message (a message they cannot parse ends the run); a bad --send is a
usage error.  The full model appends one
log record per batch's commit to a file it removes at the end.

usage: test_monitor.py JSONBENCH FIXTURE-SB"""
import os
import sys
import tempfile

from harnesslib import bench, fail, load_results, run

CLIENTS, BATCHES, ROWS = 3, 4, 5


def reply_bytes(batches, rows):
    """{"id":K,"result":[{"count":1},...],"error":null} per batch (member
    order does not change the length)."""
    return sum(len('{"id":%d,"result":[%s],"error":null}'
                   % (k, ",".join(['{"count":1}'] * rows)))
               for k in range(batches))


def check_batch_cpu(what, upd):
    """The per-batch CPU fields (the metric the real runner also
    measures): all there, ordered, and adding up to the phase's CPU (the
    batches are timed inside it, on a finer clock)."""
    keys = ['iter_cpu_%s_ms' % k for k in ('min', 'median', 'mean', 'max')]
    missing = [k for k in keys if k not in upd]
    if missing:
        fail('%s: no %s' % (what, ', '.join(missing)))
    lo, med, mean, hi = (upd[k] for k in keys)
    if not (0 < lo <= med <= hi and lo <= mean <= hi):
        fail('%s: per-batch CPU min %s, median %s, mean %s, max %s'
             % (what, lo, med, mean, hi))
    total_ms = mean * BATCHES
    phase_ms = upd['updates_cpu_s'] * 1e3
    if not phase_ms * 0.5 - 1.0 <= total_ms <= phase_ms * 1.05 + 1.0:
        fail('%s: %d batches x %.3f ms = %.3f ms, the updates phase %.3f ms'
             % (what, BATCHES, mean, total_ms, phase_ms))


def main():
    exe, sb = sys.argv[1:3]
    sent = {}
    texts = {}
    with tempfile.TemporaryDirectory() as tmp:
        for model, mode, initial in [
                (mo, md, i) for mo in ('full', 'json-only')
                for md in ('tree', 'tree-cache', 'cache', 'direct',
                           'direct-each')
                for i in ('kept', 'per-monitor')]:
            res = os.path.join(tmp, '%s-%s-%s.json'
                               % (model, mode, initial))
            out = os.path.join(tmp, '%s-%s-%s.txt'
                               % (model, mode, initial))
            run([exe, 'monitor', '--model', model, '--mode', mode,
                 '--initial', initial, '--output', out,
                 '--clients', str(CLIENTS), '--batches', str(BATCHES),
                 '--batch-rows', str(ROWS), '--repetitions', '1',
                 '--results', res, sb])
            with open(out, 'rb') as f:
                texts[(model, mode, initial)] = f.read()
            r = load_results(res)
            init = bench(r, 'monitor/initial')
            upd = bench(r, 'monitor/updates')
            what = '%s %s %s' % (model, mode, initial)
            if upd['rows_per_batch'] != ROWS or upd['clients'] != CLIENTS:
                fail('%s: rows_per_batch %s, clients %s' % (
                    what, upd['rows_per_batch'], upd['clients']))
            total = upd['initial_cpu_s'] if 'initial_cpu_s' in upd \
                else init['initial_cpu_s']
            if abs(total + upd['updates_cpu_s']
                   - upd['cpu_after_load_s']) > 1e-6:
                fail('%s: initial %s + updates %s != cpu_after_load %s'
                     % (what, total, upd['updates_cpu_s'],
                        upd['cpu_after_load_s']))
            for k in ('count', 'min_ms', 'median_ms', 'p95_ms',
                      'max_ms'):
                if 'poll_interval_' + k not in upd:
                    fail('%s: no poll_interval_%s' % (what, k))
            if upd['poll_interval_count'] != 0:
                fail('%s: a tiny fixture logged %s poll intervals >= 1 s'
                     % (what, upd['poll_interval_count']))
            check_batch_cpu(what, upd)
            if model == 'full':
                want = reply_bytes(BATCHES, ROWS)
                if upd.get('transact_reply_bytes') != want:
                    fail('%s: transact replies %s bytes, wanted %d '
                         '(one result per operation)'
                         % (what, upd.get('transact_reply_bytes'), want))
            elif 'transact_reply_bytes' in upd:
                fail('json-only parses no transact request')
            sent[what] = (init['bytes_out'], upd['bytes_out'])
    if len(set(sent.values())) != 1:
        fail('clients got different bytes: %s' % sent)
    if sent['full tree kept'][1] == 0:
        fail('no update sent')
    for model in ('full', 'json-only'):
        ref = texts[(model, 'tree', 'kept')]
        # Initial replies, transact replies (full), update2s: one a line.
        want = CLIENTS + BATCHES * CLIENTS + (BATCHES if model == 'full'
                                              else 0)
        if ref.count(b'\n') != want:
            fail('%s: %d messages in the transcript, wanted %d'
                 % (model, ref.count(b'\n'), want))
        for (mo, md, i), t in sorted(texts.items()):
            if mo != model:
                continue
            same = len(t) == len(ref) if md.startswith('direct') \
                else t == ref
            if not same:
                fail('%s %s %s: not the messages of %s tree kept'
                     % (mo, md, i, model))
    print('ok: %d transcripts, modes and initial change sets alike'
          % len(texts))
    print('ok: monitor transact path, counters and bytes, %s' % sent)


def counters(exe, sb, tmp, *extra):
    res = os.path.join(tmp, 'send.json')
    run([exe, 'monitor', '--clients', str(CLIENTS), '--batches',
         str(BATCHES), '--batch-rows', str(ROWS), '--results', res]
        + list(extra) + [sb])
    r = load_results(res)
    return bench(r, 'monitor/initial'), bench(r, 'monitor/updates')


def test_send(exe, sb):
    with tempfile.TemporaryDirectory() as tmp:
        os.environ['TMPDIR'] = tmp      # Where the transaction log goes.
        init, upd = counters(exe, sb, tmp)
        # One log record per batch's commit, a header and text each.
        if upd.get('log_records') != BATCHES or \
                upd.get('log_bytes', 0) < BATCHES * ROWS * 40:
            fail('full model: log_records %s, log_bytes %s for %d batches '
                 'of %d rows' % (upd.get('log_records'),
                                 upd.get('log_bytes'), BATCHES, ROWS))
        left = [f for f in os.listdir(tmp) if 'txn-log' in f]
        if left:
            fail('transaction log files left behind: %s' % left)
        # Initial replies, update2s and the transacting client's replies.
        messages = CLIENTS + BATCHES * CLIENTS + BATCHES
        if upd.get('socket_writes', 0) < messages:
            fail('full model: %s socket writes for %d messages'
                 % (upd.get('socket_writes'), messages))
        if 'socket_stalls' not in upd:
            fail('full model: no socket_stalls counter')
        sent = (init['bytes_out'], upd['bytes_out'])
        for extra, sockets in ((['--send', 'none'], False),
                               (['--send', 'print'], True),
                               (['--model', 'json-only'], False),
                               (['--model', 'json-only', '--send',
                                 'sockets'], True)):
            i, u = counters(exe, sb, tmp, *extra)
            if ('log_records' in u) != ('json-only' not in extra):
                fail('%s: log_records %s' % (extra, u.get('log_records')))
            if ('socket_writes' in u) != sockets:
                fail('%s: socket_writes %s' % (extra, u.get('socket_writes')))
            # Printing clients parse every message, and the batches waited
            # for them: a message they could not parse would end the run.
            if ('clients_cpu_per_batch_ms' in u) != sockets \
                    or u.get('clients_cpu_per_batch_ms', 0) < 0:
                fail('%s: clients_cpu_per_batch_ms %s'
                     % (extra, u.get('clients_cpu_per_batch_ms')))
            if (i['bytes_out'], u['bytes_out']) != sent:
                fail('%s: sent %s, --send sockets sent %s'
                     % (extra, (i['bytes_out'], u['bytes_out']), sent))
        p = run([exe, 'monitor', '--send', 'pigeons', sb], expect_rc=2)
        if '--send' not in p.stderr or 'pigeons' not in p.stderr:
            fail('bad --send: %r' % p.stderr)
    print('ok: --send sockets and print write every message, same bytes '
          'as none')


if __name__ == '__main__':
    main()
    test_send(sys.argv[1], sys.argv[2])
