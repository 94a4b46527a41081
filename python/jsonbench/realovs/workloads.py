"""The workloads on real OVS, measured from outside the processes.

Each function runs one repetition in a fresh RunDir and returns its
google-benchmark iteration rows, named and measured like the model's
phases (harness/workloads/workload-*.c) so that report, compare and gate
read both.  Every timed row has the measured process's user_cpu_s,
sys_cpu_s, minor_faults and major_faults (/proc/<pid>/stat or wait4), and
every process runs in the study's measuring setup (opts["setup"],
jsonbench.measuring):

  load     load/load       ovsdb-server start until it serves the database:
                           wall, CPU, RSS (VmRSS) and peak (VmHWM) after load;
                           with an allocator preloaded (measuring.Preloaded)
                           preload_mapped: 1 when /proc/PID/maps holds it
  dump     dump/load, dump/dump
                           `ovsdb-client dump` against that server: the
                           server's CPU (cpu_time) and RSS, the client's wall
                           (real_time), reply bytes (bytes_out)
  compact  compact/compact `ovsdb-tool compact` to a new file: wall, CPU,
                           peak RSS from wait4(); the process reads and
                           writes, so this row is the model's load+compact
  monitor  monitor/load, monitor/initial, monitor/updates
                           the model's monitor workload: N `ovsdb-client
                           monitor-cond` clients on Logical_Flow with the
                           model's condition (each --detach'es once it has
                           the initial reply), then K transact requests on
                           one connection that each change `match` of R
                           matching rows (the model's requests); server CPU
                           per phase (initial_cpu_s, updates_cpu_s) and
                           cpu_after_load_s = their sum, per-batch
                           transaction wall as iterations, the server's CPU
                           per batch until every client printed its update
                           as iter_cpu_{min,median,mean,max}_ms (batches.py;
                           the batches run one after the other), and the
                           long poll intervals the server logged (>= 1 s) as
                           poll_interval_{count,min,median,p95,max}_ms
  txn      txn/server      --clients concurrent JSON-RPC clients x --txns
                           inserts of the model's 4-column row into a fresh
                           database of the model's schema, by the project's
                           C client (tools/ovsdb-txn-client.c, one process,
                           poll()): client wall, server CPU and RSS,
                           txn_per_s, latency as iter_*_ms + latency_p95_ms
  raft     raft/load, raft/send
                           a 3-server cluster on unix sockets
                           (ovsdb-tool create-cluster from the dataset, two
                           join-cluster), then --entries transactions, each
                           one insert, sent to the leader; leader and
                           followers' RSS and CPU, per-transaction latency
  monitor-storm  monitor-storm/load, monitor-storm/held, monitor-storm/storm
                           M monitors held, N more requested at once
                           (realovs/storm.py)
  monitor-cond-change  monitor-cond-change/load, monitor-cond-change/held,
           monitor-cond-change/change
                           M conditional monitors held on SB tables by
                           datapath, then each changes its condition K
                           times (realovs/condchange.py)
  convert  convert/offline, convert/load, convert/convert
                           the database converted to the schema
                           jsonbench.convertschema derives from it by
                           `ovsdb-tool convert` and by `ovsdb-client
                           convert` against a server (realovs/convert.py)
  load-ir  load-ir/load    `ovsdb-tool query DB '["<db>"]'` (the file read
                           ovsdb-server opens a database with) under
                           valgrind, net of an empty database of the schema
                           (realovs.toolfigures.measure_tool): instructions,
                           simulated cache misses (d1_misses, ll_misses;
                           jsonbench.cachesim), malloc calls
                           (alloc_blocks), peak heap; one
                           process is enough, the counts are deterministic
                           to ~0.1% and do not depend on the machine's speed
"""

import json
import os
import random
import statistics
import subprocess
import tempfile
import time

from ..detjobs import MeasureError
from . import batches
from . import gbench
from . import jsonrpc
from .proc import RunDir, RunError, copy_file, maps_file, run_to_end, settle, snapshot
from .server import Server
from .toolfigures import CalError, measure_tool

TOOL_TIMEOUT_S = float(os.environ.get("JSONBENCH_OVS_TOOL_TIMEOUT", 1800))
WORKLOADS = ("load", "dump", "compact", "monitor", "txn", "raft",
             "monitor-storm", "convert", "monitor-cond-change")
RAFT_SERVERS = 3
MONITOR_WAVE = 10          # monitor clients started at a time
# Longest wait for every monitor client to print one batch's update.
BATCH_TIMEOUT_S = min(TOOL_TIMEOUT_S, 600)
# harness/workloads/workload-txn.c's schema.
TXN_SCHEMA = {"name": "bench", "version": "1.0.0", "tables": {"Bench": {
    "columns": {"name": {"type": "string"},
                "description": {"type": "string"},
                "enabled": {"type": "boolean"},
                "count": {"type": "integer"}}}}}
MONITOR_DEFAULTS = {"clients": 10, "batches": 5, "batch_rows": 100,
                    "table": "Logical_Flow",
                    "condition": '[["actions","!=","drop;"]]',
                    # The column the batches change: a plain string outside
                    # the condition, so every change is one "modify".
                    "column": "match"}


def _usage(b, a=None):
    """CPU and page-fault fields of a process from its snapshot 'b' (or a
    run_to_end result), or of the interval from snapshot 'a' to 'b'."""
    def d(k):
        return b[k] - (a[k] if a else 0)
    user, sys_ = d("user"), d("sys")
    return {"cpu_time": (user + sys_) * 1e3, "user_cpu_s": user,
            "sys_cpu_s": sys_, "minor_faults": d("minflt"),
            "major_faults": d("majflt")}


def _served(target, rd, ds):
    """A server on a copy of the dataset, served; returns (server, row)."""
    db = copy_file(ds["path"], rd.file("db.ovsdb"))
    srv = Server(target, rd, db)
    srv.start()
    wall = srv.wait_served(db_label=ds["path"])
    snap = srv.snapshot()
    mem = srv.memory_show()
    fields = {"real_time": wall * 1e3}
    fields.update(_usage(snap))
    fields.update({"rss_bytes": snap["rss"], "peak_rss_bytes": snap["hwm"],
                   "bytes_out": 0,
                   "file_bytes": os.path.getsize(ds["path"]),
                   "rss_after_load_bytes": snap["rss"],
                   "ovsdb_cells": mem.get("cells", 0),
                   "ovsdb_atoms": mem.get("atoms", 0)})
    lib = getattr(rd.setup, "lib", None)
    if lib:
        fields["preload_mapped"] = 1 if maps_file(srv.proc.pid, lib) else 0
    return srv, snap, fields


def load(target, ds, opts):
    with RunDir(setup=opts.get("setup")) as rd:
        srv, _, fields = _served(target, rd, ds)
        srv.stop()
        return [gbench.row("load/load", fields)]


def dump(target, ds, opts):
    with RunDir(setup=opts.get("setup")) as rd:
        srv, before, load_fields = _served(target, rd, ds)
        out = rd.file("dump.out")
        client = run_to_end(rd, [target.path("ovsdb-client"), "-f", "json",
                                 "dump", srv.remote], "client",
                            TOOL_TIMEOUT_S, stdout=out)
        after = srv.snapshot()
        srv.check_log(ds["path"])
        fields = {"real_time": client["wall"] * 1e3}
        fields.update(_usage(after, before))
        fields.update({"rss_bytes": after["rss"],
                       "peak_rss_bytes": after["hwm"],
                       "bytes_out": os.path.getsize(out),
                       "client_cpu_s": client["user"] + client["sys"],
                       "client_peak_rss_bytes": client["maxrss"]})
        srv.stop()
        return [gbench.row("dump/load", load_fields),
                gbench.row("dump/dump", fields)]


def compact(target, ds, opts):
    with RunDir(setup=opts.get("setup")) as rd:
        src = copy_file(ds["path"], rd.file("db.ovsdb"))
        dst = rd.file("compacted.ovsdb")
        r = run_to_end(rd, [target.path("ovsdb-tool"), "compact", src, dst],
                       "ovsdb-tool", TOOL_TIMEOUT_S)
        # ovsdb-tool stops at a bad record and writes what came before it;
        # an empty result from a non-empty input is that case.
        if not os.path.exists(dst):
            raise RunError("%s: ovsdb-tool compact wrote nothing"
                           % ds["path"])
        fields = {"real_time": r["wall"] * 1e3}
        fields.update(_usage(r))
        fields.update({"rss_bytes": r["maxrss"], "peak_rss_bytes": r["maxrss"],
                       "bytes_out": os.path.getsize(dst),
                       "file_bytes": os.path.getsize(ds["path"])})
        return [gbench.row("compact/compact", fields)]


def _db_name(target, path):
    p = subprocess.run([target.path("ovsdb-tool"), "db-name", path],
                       capture_output=True, text=True)
    if p.returncode:
        raise RunError("%s: %s" % (path, p.stderr.strip()))
    return p.stdout.strip()


def _settle(pid, quiet_s=0.3, timeout=600):
    """Waits until the server's CPU time stops moving (it has sent what
    it had to send); returns its snapshot then."""
    return settle(lambda: snapshot(pid), quiet_s, timeout,
                  key=lambda s: s["user"] + s["sys"])


def _percentile(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(round(p / 100 * (len(v) - 1))))]


def _batch_ops(o, uuids, k, start, per_batch, stride):
    """Batch k's operations, as the model writes them (harness/workloads/
    workload-monitor.c batch_request()): one update per row by _uuid."""
    return [{"op": "update", "table": o["table"],
             "where": [["_uuid", "==", ["uuid", uuids[(start + i * stride)
                                                      % len(uuids)]]]],
             "row": {o["column"]: "batch%d-row%d" % (k, i)}}
            for i in range(per_batch)]


def condition_selects(table, condition):
    """The selects whose rows together are those a monitor condition
    (JSON text) matches: one per clause, since a monitor condition holds
    if any clause does and a select's "where" if every clause does."""
    ops = []
    clauses = json.loads(condition)
    for clause in clauses or [True]:
        if clause is not False:
            ops.append({"op": "select", "table": table,
                        "where": [] if clause is True else [clause],
                        "columns": ["_uuid"]})
    return ops


def monitor(target, ds, opts):
    """The model's monitor workload on a real server.  Phases as the
    model's: initial = the N clients' connections and initial replies;
    updates = K transact requests on one connection (the runner's own
    client, as the model parses one request per batch) and the update2
    notifications they cause.  The selects that find the matching rows
    (condition_selects()) run before both, outside cpu_after_load_s
    (= initial + updates)."""
    o = dict(MONITOR_DEFAULTS, **opts)
    with RunDir(setup=opts.get("setup")) as rd:
        srv, _, load_fields = _served(target, rd, ds)
        db = _db_name(target, srv.db)

        client = jsonrpc.Client(srv.sock)
        try:
            reply = client.transact(db, *condition_selects(o["table"],
                                                           o["condition"]))
        except (jsonrpc.JsonRpcError, OSError) as e:
            client.close()
            raise RunError("%s: select: %s" % (ds["path"], e))
        uuids = sorted({r["_uuid"][1] for res in reply for r in res["rows"]})
        if not uuids:
            client.close()
            raise RunError("%s: no %s row matches %s"
                           % (ds["path"], o["table"], o["condition"]))
        loaded = _settle(srv.proc.pid)

        t0 = time.monotonic()
        client_pids = []
        # Clients connect in waves: older servers refuse connections
        # (EPROTO) when a hundred arrive at once.
        for first in range(0, o["clients"], MONITOR_WAVE):
            clients = []
            for c in range(first, min(first + MONITOR_WAVE, o["clients"])):
                pidfile = rd.file("mon%d.pid" % c)
                p = rd.start([target.path("ovsdb-client"), "--detach",
                              "--no-chdir", "--pidfile=" + pidfile,
                              "monitor-cond", srv.remote, db,
                              o["condition"], o["table"]], "mon%d" % c,
                             stdout=rd.file("mon%d.out" % c))
                clients.append((p, pidfile))
            for p, pidfile in clients:
                # The parent exits once the daemon has the initial reply.
                status, _, _ = p.wait(TOOL_TIMEOUT_S)
                if status:
                    client.close()
                    raise RunError("%s: monitor client: %s"
                                   % (ds["path"], p.stderr_tail()))
                with open(pidfile) as f:
                    pid = int(f.read().split()[0])
                rd.adopt(pid, p.name + "-daemon")
                client_pids.append(pid)
        initial = _settle(srv.proc.pid)
        init_wall = time.monotonic() - t0
        # The clients print their initial tables after they detach; the
        # batches start once they are done, as the model's do.
        clients0 = batches.settle_clients(client_pids)

        per_batch = min(o["batch_rows"], len(uuids))
        stride = max(1, len(uuids) // per_batch)
        rng = random.Random(1)
        outs = [rd.file("mon%d.out" % c) for c in range(o["clients"])]
        before = snapshot(srv.proc.pid)
        t1 = time.monotonic()
        walls, cpus = [], []
        try:
            for k in range(o["batches"]):
                start = rng.randrange(len(uuids))
                sizes = batches.output_sizes(outs)
                c0 = batches.server_cpu_s(srv.proc.pid)
                t = time.monotonic()
                client.transact(db, *_batch_ops(o, uuids, k, start,
                                                per_batch, stride))
                walls.append((time.monotonic() - t) * 1e3)
                # The server's CPU for the batch: until every client has
                # its update, and the server is still again.
                batches.wait_grown(outs, sizes, BATCH_TIMEOUT_S,
                                   "update of batch %d" % k)
                cpus.append(batches.cpu_ms(
                    c0, batches.settle(srv.proc.pid)))
        except (jsonrpc.JsonRpcError, OSError, RunError) as e:
            raise RunError("%s: update batch: %s" % (ds["path"], e))
        finally:
            client.close()
        after = _settle(srv.proc.pid)
        upd_wall = time.monotonic() - t1
        clients1 = batches.settle_clients(client_pids)
        srv.check_log(ds["path"])
        polls = srv.poll_intervals_ms()

        def phase(a, b, wall):
            f = {"real_time": wall * 1e3}
            f.update(_usage(b, a))
            f.update({"rss_bytes": b["rss"], "peak_rss_bytes": b["hwm"]})
            return f

        init_f = phase(loaded, initial, init_wall)
        init_cpu = (initial["user"] + initial["sys"]
                    - loaded["user"] - loaded["sys"])
        init_f.update({"rows_matching": len(uuids), "initial_cpu_s": init_cpu})
        upd_f = phase(before, after, upd_wall)
        upd_cpu = after["user"] + after["sys"] - before["user"] - before["sys"]
        upd_f.update({
            "iter_min_ms": min(walls), "iter_median_ms":
            statistics.median(walls), "iter_max_ms": max(walls),
            **batches.fields(cpus),
            "updates_cpu_s": upd_cpu,
            "cpu_after_load_s": init_cpu + upd_cpu,
            "rows_per_batch": per_batch,
            "clients": o["clients"],
            "clients_cpu_per_batch_ms":
            (clients1 - clients0) * 1e3 / max(1, o["batches"]),
            "poll_interval_count": len(polls),
            "poll_interval_min_ms": min(polls) if polls else 0,
            "poll_interval_median_ms": statistics.median(polls)
            if polls else 0,
            "poll_interval_p95_ms": _percentile(polls, 95) if polls else 0,
            "poll_interval_max_ms": max(polls) if polls else 0})
        srv.stop()
        return [gbench.row("monitor/load", load_fields),
                gbench.row("monitor/initial", init_f),
                gbench.row("monitor/updates", upd_f)]


def txn(target, ds, opts):
    client = opts.get("txn_client")
    if not client:
        raise RunError("txn needs the C client (tools/ovsdb-txn-client)")
    with RunDir(setup=opts.get("setup")) as rd:
        schema = rd.file("bench.ovsschema")
        with open(schema, "w") as f:
            json.dump(TXN_SCHEMA, f)
        db = rd.file("bench.ovsdb")
        run_to_end(rd, [target.path("ovsdb-tool"), "create", db, schema],
                   "create", 60)
        srv = Server(target, rd, db)
        srv.start()
        srv.wait_served()
        before = snapshot(srv.proc.pid)
        out = rd.file("txn.out")
        r = run_to_end(rd, [client, srv.sock, "bench",
                            str(opts.get("clients", 5)),
                            str(opts.get("txns", 1000))],
                       "txn-client", TOOL_TIMEOUT_S, stdout=out)
        after = snapshot(srv.proc.pid)
        srv.check_log()
        with open(out) as f:
            res = json.load(f)
        fields = {"real_time": res["wall_ms"]}
        fields.update(_usage(after, before))
        fields.update({"rss_bytes": after["rss"],
                       "peak_rss_bytes": after["hwm"],
                       "items": res["txns"],
                       "iter_min_ms": res["latency_min_ms"],
                       "iter_median_ms": res["latency_median_ms"],
                       "iter_max_ms": res["latency_max_ms"],
                       "latency_p95_ms": res["latency_p95_ms"],
                       "txn_per_s": res["inserts_per_s"],
                       "clients": res["clients"],
                       "client_cpu_s": r["user"] + r["sys"]})
        srv.stop()
        return [gbench.row("txn/server", fields)]


def _cluster_status(srv, db):
    try:
        out = srv.appctl("cluster/status", db, timeout=10)
    except RunError:
        return {}
    status = {}
    for line in out.splitlines():
        if ":" in line:
            k, v = line.split(":", 1)
            status[k.strip()] = v.strip()
    return status


def raft(target, ds, opts):
    entries = opts.get("entries", 100)
    with RunDir(setup=opts.get("setup")) as rd:
        tool = target.path("ovsdb-tool")
        db = _db_name(target, ds["path"])
        addrs = ["unix:" + rd.file("s%d.raft" % i)
                 for i in range(RAFT_SERVERS)]
        files = [rd.file("s%d.ovsdb" % i) for i in range(RAFT_SERVERS)]
        run_to_end(rd, [tool, "create-cluster", files[0], ds["path"],
                        addrs[0]], "create-cluster", TOOL_TIMEOUT_S)
        for i in range(1, RAFT_SERVERS):
            run_to_end(rd, [tool, "join-cluster", files[i], db, addrs[i],
                            addrs[0]], "join-cluster%d" % i, 60)
        t0 = time.monotonic()
        servers = []
        for i in range(RAFT_SERVERS):
            srv = Server(target, rd, files[i], name="s%d" % i)
            srv.start()
            servers.append(srv)
        for srv in servers:
            srv.wait_served(db_label=ds["path"])
        # Served is not yet joined: wait until every server is a member
        # and one of them leads.
        deadline = time.monotonic() + TOOL_TIMEOUT_S
        while True:
            st = [_cluster_status(s, db) for s in servers]
            leaders = [s for s, x in zip(servers, st)
                       if x.get("Role") == "leader"]
            if leaders and all(x.get("Status") == "cluster member"
                               for x in st):
                break
            if time.monotonic() > deadline:
                raise RunError("%s: raft cluster did not form: %s"
                               % (ds["path"], st))
            for s in servers:
                if not s.proc.alive():
                    raise RunError("%s: %s exited: %s" % (
                        ds["path"], s.name, s.proc.stderr_tail()))
            time.sleep(0.1)
        formed = time.monotonic() - t0
        leader = leaders[0]
        followers = [s for s in servers if s is not leader]
        before = {s.name: _settle(s.proc.pid) for s in servers}

        def fields(snaps, wall):
            lead = snaps[leader.name]
            f = {"real_time": wall * 1e3}
            f.update(_usage(lead))
            f.update({"rss_bytes": lead["rss"], "peak_rss_bytes": lead["hwm"],
                      "follower_rss_bytes": max(snaps[s.name]["rss"]
                                                for s in followers),
                      "follower_peak_rss_bytes": max(snaps[s.name]["hwm"]
                                                     for s in followers),
                      "follower_cpu_s": sum(snaps[s.name]["user"]
                                            + snaps[s.name]["sys"]
                                            for s in followers)})
            return f

        load_f = fields(before, formed)
        client = jsonrpc.Client(leader.sock)
        walls = []
        t1 = time.monotonic()
        try:
            for k in range(entries):
                t = time.monotonic()
                client.transact(db, {"op": "insert", "table": "Address_Set",
                                     "row": {"name": "jsonbench-raft-%d" % k}})
                walls.append((time.monotonic() - t) * 1e3)
        except (jsonrpc.JsonRpcError, OSError) as e:
            raise RunError("%s: raft transaction: %s" % (ds["path"], e))
        finally:
            client.close()
        after = {s.name: _settle(s.proc.pid) for s in servers}
        send_wall = time.monotonic() - t1
        delta = {n: dict(after[n], **{k: after[n][k] - before[n][k] for k in
                                      ("user", "sys", "minflt", "majflt")})
                 for n in after}
        send_f = fields(delta, send_wall)
        send_f.update({"items": entries, "iter_min_ms": min(walls),
                       "iter_median_ms": statistics.median(walls),
                       "iter_max_ms": max(walls),
                       "followers": len(followers)})
        for s in servers:
            s.check_log(ds["path"])
            s.stop()
        return [gbench.row("raft/load", load_f),
                gbench.row("raft/send", send_f)]


def monitor_storm(target, ds, opts):
    """M monitors held, N more requested at once (realovs/storm.py)."""
    from . import storm
    return storm.monitor_storm(target, ds, opts, _served, _db_name, _usage,
                               TOOL_TIMEOUT_S)


def monitor_cond_change(target, ds, opts):
    """M conditional monitors, then condition changes
    (realovs/condchange.py)."""
    from . import condchange
    return condchange.monitor_cond_change(target, ds, opts, _served, _db_name,
                                          _usage, TOOL_TIMEOUT_S)


def convert(target, ds, opts):
    """Offline and online conversion (realovs/convert.py)."""
    from . import convert as conv
    return conv.convert(target, ds, opts, _served, _usage, TOOL_TIMEOUT_S)


def load_ir(target, ds, opts):
    if not os.path.exists(ds["path"]):
        raise RunError("%s: dataset not found" % ds["path"])
    with tempfile.TemporaryDirectory(prefix="jsonbench-load-ir-") as tmp:
        try:
            figs = measure_tool(target.path("ovsdb-tool"),
                                           {"nb": ds["path"]}, tmp,
                                           only={"nb/load"}, cache_sim=True)
        except (CalError, MeasureError, OSError) as exc:
            raise RunError("%s: load under valgrind: %s" % (ds["path"], exc))
    fields = {"real_time": 0.0, "cpu_time": 0.0,
              "file_bytes": os.path.getsize(ds["path"])}
    fields.update({k.split(":", 1)[1]: v for k, v in figs.items()})
    return [gbench.row("load-ir/load", fields)]


# Workloads measured in one process (deterministic figures).
ONCE = {"load-ir": load_ir}
# Workloads whose name is not their function's.
NAMED = {"monitor-storm": monitor_storm,
         "monitor-cond-change": monitor_cond_change}


def get(name):
    if name in ONCE:
        return ONCE[name]
    if name in NAMED:
        return NAMED[name]
    if name not in WORKLOADS:
        raise ValueError("unknown workload %r (real OVS has: %s)"
                         % (name, ", ".join(WORKLOADS + tuple(ONCE))))
    return globals()[name]
