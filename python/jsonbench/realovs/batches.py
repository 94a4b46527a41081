"""The server's CPU per monitor update batch, read from outside the server.

A batch's window opens just before the runner sends its transact request
and closes once every monitor client has printed the batch's update (its
output file grew: `ovsdb-client monitor-cond` flushes after each update)
and the server's CPU has then stopped moving for a short while.  So it holds
the whole of the server's work for the batch -- the request parsed and run,
the commit, the reply, and the update composed and sent to every client --
and none of the clients' own work, whatever the machine's load.  The
transact round trip alone (the runner's `iter_*_ms`) ends once the commit
is replied to, possibly before the updates are sent.

The model times the same span in one process
(harness/workloads/workload-monitor.c, `iter_cpu_*_ms`), so the two are one
metric.
"""

import os
import statistics
import time

from . import proc
from .proc import RunError, _schedstat_cpu_s, _ticks_cpu_s

# After the last client got its update, the server's CPU must stay still
# this long: the end of the main-loop iteration that sent it.
QUIET_S = 0.05


def _size(path):
    """Current size of a client's output file (0 if not there yet)."""
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def output_sizes(paths):
    """Current sizes of the clients' output files."""
    return [_size(p) for p in paths]


def wait_grown(paths, sizes, timeout, what="update", poll_s=0.002):
    """Waits until every file of 'paths' is longer than its 'sizes' entry
    (each client printed something since); raises RunError naming the first
    client still waiting after 'timeout' seconds."""
    deadline = time.monotonic() + timeout
    i = 0
    delay = poll_s
    while i < len(paths):
        # Files in order: once one has grown, it stays grown.
        while i < len(paths) and _size(paths[i]) > sizes[i]:
            i += 1
        if i == len(paths):
            return
        if time.monotonic() > deadline:
            raise RunError("%s: %d of %d monitor clients got no %s within "
                           "%.0f s" % (os.path.basename(paths[i]),
                                       len(paths) - i, len(paths), what,
                                       timeout))
        time.sleep(delay)
        delay = min(delay * 2, 0.02)


def server_cpu_s(pid):
    """CPU seconds (user + sys) of a live process, from one source only:
    the sum of its threads' schedstat (nanoseconds) where the kernel has
    it, else the 10 ms ticks.  (proc.proc_cpu_s() takes the ticks where
    they disagree with schedstat, e.g. once a thread has ended; mixing the
    two between snapshots a few milliseconds apart could make a batch read
    negative.)"""
    fine = _schedstat_cpu_s(pid)
    if fine is not None:
        return fine
    user, sys_ = _ticks_cpu_s(pid)
    return user + sys_


def clients_cpu_s(pids):
    """CPU seconds the monitor clients 'pids' have used so far (as
    server_cpu_s(), summed)."""
    return sum(server_cpu_s(pid) for pid in pids)


def settle_clients(pids, quiet_s=0.3, timeout=600):
    """clients_cpu_s() once it has not moved for 'quiet_s': every client
    has printed what it got (the initial tables take seconds), so that no
    batch is timed while the clients are still busy with earlier work."""
    return proc.settle(lambda: clients_cpu_s(pids), quiet_s, timeout)


def settle(pid, quiet_s=QUIET_S, timeout=60):
    """server_cpu_s() once it has not moved for 'quiet_s' (the server
    finished what it was doing), or the last reading after 'timeout'."""
    return proc.settle(lambda: server_cpu_s(pid), quiet_s, timeout)


def cpu_ms(a, b):
    """CPU between two server_cpu_s() readings, in ms."""
    return (b - a) * 1e3


def fields(batch_cpu_ms):
    """The per-batch CPU fields of the updates row, as the model writes
    them: iter_cpu_{min,median,mean,max}_ms; none without batches."""
    if not batch_cpu_ms:
        return {}
    return {"iter_cpu_min_ms": min(batch_cpu_ms),
            "iter_cpu_median_ms": statistics.median(batch_cpu_ms),
            "iter_cpu_mean_ms": statistics.mean(batch_cpu_ms),
            "iter_cpu_max_ms": max(batch_cpu_ms)}
