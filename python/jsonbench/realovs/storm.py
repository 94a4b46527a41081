"""monitor-storm on a real ovsdb-server: M clients hold monitor_cond
monitors (their initial replies read), then N more send monitor_cond
requests at once; the server's CPU over the N (cpu_per_request_ms), its
RSS and peak after them.  The requests are the model's
(harness/workloads/workload-monitor-storm.c): every column, "where" the
condition on each table."""

import json
import selectors
import socket
import time

from . import gbench
from .proc import RunDir, RunError, snapshot

DEFAULTS = {"held": 100, "clients": 100, "mode": "all", "table": None,
            "condition": "[true]"}


def _request(db, tables, o, c):
    if o["mode"] == "one":
        tables = [tables[c % len(tables)]]
    cond = json.loads(o["condition"])
    return json.dumps({"method": "monitor_cond", "id": c, "params": [
        db, "storm%d" % c, {t: [{"where": cond}] for t in tables}]}).encode()


def phase_fields(usage, a, b, wall, n, nbytes):
    """A phase's row fields: the server's CPU and faults between its
    snapshots 'a' and 'b' ('usage': workloads._usage), its RSS and peak at
    'b', 'wall' seconds, 'n' requests and the bytes they brought back."""
    f = {"real_time": wall * 1e3, "items": n, "bytes_out": nbytes}
    f.update(usage(b, a))
    f.update({"rss_bytes": b["rss"], "peak_rss_bytes": b["hwm"]})
    return f


def _serve_all(path, reqs, timeout):
    """Sends every request on a socket of its own at once and reads each
    reply whole; returns the sockets (kept open: the monitors stay) and
    the reply bytes."""
    socks, bufs = [], {}
    sel = selectors.DefaultSelector()
    for r in reqs:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(path)
        s.sendall(r)
        socks.append(s)
        bufs[s] = bytearray()
        sel.register(s, selectors.EVENT_READ)
    pending, total = set(socks), 0
    deadline = time.monotonic() + timeout
    dec = json.JSONDecoder()
    while pending:
        if time.monotonic() > deadline:
            raise RunError("monitor-storm: %d replies missing" % len(pending))
        for key, _ in sel.select(1):
            s = key.fileobj
            data = s.recv(1 << 20)
            if not data:
                raise RunError("monitor-storm: server closed a connection")
            bufs[s] += data
            if data.rstrip().endswith(b"}"):
                try:
                    msg, _ = dec.raw_decode(bufs[s].decode())
                except ValueError:
                    continue
                if msg.get("error"):
                    raise RunError("monitor-storm: %s" % msg["error"])
                total += len(bufs[s])
                sel.unregister(s)
                pending.discard(s)
                bufs[s] = None
    sel.close()
    return socks, total


def monitor_storm(target, ds, opts, served, db_name, usage, timeout):
    o = dict(DEFAULTS, **{k: v for k, v in opts.items() if v is not None})
    with RunDir(setup=opts.get("setup")) as rd:
        srv, _, load_fields = served(target, rd, ds)
        db = db_name(target, srv.db)
        with open(srv.db) as f:
            f.readline()
            names = set(json.loads(f.readline())["tables"])
        tables = (o["table"].split(",") if o["table"] else
                  ["Logical_Flow" if "Logical_Flow" in names
                   else "Logical_Switch_Port"])
        reqs = [_request(db, tables, o, c)
                for c in range(o["held"] + o["clients"])]
        s0 = snapshot(srv.proc.pid)
        t0 = time.monotonic()
        held, held_bytes = _serve_all(srv.sock, reqs[:o["held"]], timeout)
        s1 = snapshot(srv.proc.pid)
        t1 = time.monotonic()
        storm, storm_bytes = _serve_all(srv.sock, reqs[o["held"]:], timeout)
        s2 = snapshot(srv.proc.pid)
        t2 = time.monotonic()

        held_f = phase_fields(usage, s0, s1, t1 - t0, o["held"], held_bytes)
        held_f["held_cpu_s"] = held_f["cpu_time"] / 1e3
        storm_f = phase_fields(usage, s1, s2, t2 - t1, o["clients"], storm_bytes)
        storm_f.update({"storm_cpu_s": storm_f["cpu_time"] / 1e3,
                        "cpu_per_request_ms":
                        storm_f["cpu_time"] / o["clients"],
                        "clients": o["held"] + o["clients"]})
        for s in held + storm:
            s.close()
        srv.check_log(ds["path"])
        srv.stop()
        return [gbench.row("monitor-storm/load", load_fields),
                gbench.row("monitor-storm/held", held_f),
                gbench.row("monitor-storm/storm", storm_f)]
