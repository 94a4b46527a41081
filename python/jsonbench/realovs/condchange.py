"""monitor-cond-change on a real ovsdb-server: M clients each hold a
monitor_cond on the Southbound tables ovn-controller conditions by
datapath (default Port_Binding and Logical_Flow), their initial replies
read; then every client sends monitor_cond_change K times, each time
waiting until every client has its update2 and reply; the server's CPU
over the changes (cpu_per_change_ms), its RSS and peak after them, and
the rows the updates carried (rows_inserted, rows_deleted).  The requests
are the model's (harness/workloads/workload-monitor-cond-change.c): the
condition of client c in round r lists the Datapath_Binding rows, sorted
by UUID, at (c * W + r + j) mod n for j < min(W, n), one clause each, on
the alphabetically first column of each table that refers to
Datapath_Binding ("==", or "includes" for a set of more than one); on a
table with a column that refers to Logical_DP_Group (Logical_Flow's
logical_dp_group), one clause more per group, sorted by UUID, that holds
one of those datapaths, as older ovn-controller releases ask (newer ones
ask for every flow of any group: logical_dp_group != [])."""

import json
import selectors
import socket
import time

from . import gbench
from . import jsonrpc
from .proc import RunDir, RunError, snapshot
from .storm import phase_fields

DEFAULTS = {"held": 100, "changes": 1, "datapaths": 4,
            "table": "Port_Binding,Logical_Flow"}
SCOPE_TABLE = "Datapath_Binding"
GROUP_TABLE = "Logical_DP_Group"


def scope_column(table_schema, ref_table=SCOPE_TABLE):
    """(column, function) a table's clauses on 'ref_table' rows test, or
    None."""
    cols = []
    for name, col in table_schema["columns"].items():
        t = col["type"]
        key = t.get("key") if isinstance(t, dict) else None
        if isinstance(key, dict) and key.get("type") == "uuid" \
                and key.get("refTable") == ref_table:
            n_max = t.get("max", 1)
            cols.append((name, "includes" if n_max == "unlimited" or n_max > 1
                         else "=="))
    return min(cols) if cols else None


def datapaths(dps, o, c, r):
    """The datapath UUIDs of client c's condition in round r."""
    n = len(dps)
    return [dps[(c * o["datapaths"] + r + j) % n]
            for j in range(min(o["datapaths"], n))]


def where(column, function, uuids):
    return [[column, function, ["uuid", u]] for u in uuids]


def local_groups(groups, mine):
    """The UUIDs of the groups ([(uuid, datapath UUIDs)], sorted) that hold
    one of the datapaths 'mine'."""
    mine = set(mine)
    return [g for g, members in groups if mine & members]


def request(db, tables, dps, groups, o, c, r):
    """Client c's request of round r (0: monitor_cond), as the model
    writes it; 'tables' [(table, (column, function), group (column,
    function) or None)]."""
    mine = datapaths(dps, o, c, r)
    reqs = {}
    for t, (col, fn), group in tables:
        w = where(col, fn, mine)
        if group:
            w += where(group[0], group[1], local_groups(groups, mine))
        reqs[t] = [{"where": w}]
    rid = r * o["held"] + c
    if r == 0:
        msg = {"method": "monitor_cond", "params": [db, "cc%d" % c, reqs],
               "id": rid}
    else:
        msg = {"method": "monitor_cond_change",
               "params": ["cc%d" % c, "cc%d" % c, reqs], "id": rid}
    return json.dumps(msg).encode()


class _Conn:
    """One client's connection: messages read as they come."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buf = ""
        self.dec = json.JSONDecoder()

    def messages(self, data):
        self.buf += data.decode()
        while True:
            text = self.buf.lstrip()
            if not text:
                self.buf = ""
                return
            try:
                msg, end = self.dec.raw_decode(text)
            except ValueError:
                return
            self.buf = text[end:]
            yield msg


def _count_rows(update, counts):
    for rows in update.values():
        for change in rows.values():
            for kind in change:
                counts[kind] = counts.get(kind, 0) + 1


def _round(conns, reqs, timeout, counts):
    """Sends request i on connection i, all at once, and reads until each
    has its reply; update2 notifications on the way add their rows to
    'counts' (and counts["updates"]).  Returns the bytes received."""
    sel = selectors.DefaultSelector()
    waiting = {}
    for conn, req in zip(conns, reqs):
        conn.sock.sendall(req)
        waiting[conn.sock] = (conn, json.loads(req)["id"])
        sel.register(conn.sock, selectors.EVENT_READ)
    total = 0
    deadline = time.monotonic() + timeout
    while waiting:
        if time.monotonic() > deadline:
            raise RunError("monitor-cond-change: %d replies missing"
                           % len(waiting))
        for key, _ in sel.select(1):
            conn, rid = waiting[key.fileobj]
            data = conn.sock.recv(1 << 20)
            if not data:
                raise RunError("monitor-cond-change: server closed a "
                               "connection")
            total += len(data)
            for msg in conn.messages(data):
                if msg.get("method") == "echo":
                    conn.sock.sendall(json.dumps(
                        {"result": msg["params"], "id": msg["id"],
                         "error": None}).encode())
                elif msg.get("method") == "update2":
                    counts["updates"] = counts.get("updates", 0) + 1
                    _count_rows(msg["params"][1], counts)
                elif msg.get("id") == rid:
                    if msg.get("error"):
                        raise RunError("monitor-cond-change: %s"
                                       % msg["error"])
                    if isinstance(msg.get("result"), dict):
                        _count_rows(msg["result"], counts)
                    sel.unregister(conn.sock)
                    del waiting[conn.sock]
    sel.close()
    return total


def _groups(c, db, schema, tables):
    """[(uuid, set of datapath UUIDs)] of the Logical_DP_Group rows,
    sorted, if a monitored table has group clauses; else []."""
    ts = schema["tables"].get(GROUP_TABLE)
    sc = scope_column(ts) if ts else None
    if not sc or not any(group for _, _, group in tables):
        return []
    rows = c.transact(db, {"op": "select", "table": GROUP_TABLE,
                           "where": [], "columns": ["_uuid", sc[0]]})
    out = []
    for row in rows[0]["rows"]:
        v = row[sc[0]]
        members = v[1] if v[0] == "set" else [v]
        out.append((row["_uuid"][1], {m[1] for m in members}))
    return sorted(out)


def _dataset_scope(path, db, o):
    """The monitored tables with their (column, function) and group
    (column, function) or None, the Datapath_Binding UUIDs sorted, and the
    groups (_groups()), read from the served database."""
    c = jsonrpc.Client(path)
    try:
        schema = c.request("get_schema", [db])
        rows = c.transact(db, {"op": "select", "table": SCOPE_TABLE,
                               "where": [], "columns": ["_uuid"]})[0]["rows"]
        tables = _tables(schema, o)
        groups = _groups(c, db, schema, tables)
    finally:
        c.close()
    dps = sorted(r["_uuid"][1] for r in rows)
    if not dps:
        raise RunError("monitor-cond-change needs rows in %s" % SCOPE_TABLE)
    return tables, dps, groups


def _tables(schema, o):
    """[(table, (column, function), group (column, function) or None)] of
    --table."""
    tables = []
    for t in o["table"].split(","):
        if t not in schema["tables"]:
            raise RunError("monitor-cond-change: no table %s" % t)
        sc = scope_column(schema["tables"][t])
        if not sc:
            raise RunError("monitor-cond-change: %s has no column that "
                           "refers to %s" % (t, SCOPE_TABLE))
        tables.append((t, sc, scope_column(schema["tables"][t],
                                           GROUP_TABLE)))
    return tables


def monitor_cond_change(target, ds, opts, served, db_name, usage, timeout):
    o = dict(DEFAULTS, **{k: v for k, v in opts.items()
                          if k in DEFAULTS and v is not None})
    with RunDir(setup=opts.get("setup")) as rd:
        srv, _, load_fields = served(target, rd, ds)
        db = db_name(target, srv.db)
        tables, dps, groups = _dataset_scope(srv.sock, db, o)
        m, k = o["held"], o["changes"]
        reqs = [[request(db, tables, dps, groups, o, c, r) for c in range(m)]
                for r in range(k + 1)]
        conns = [_Conn(srv.sock) for _ in range(m)]
        held_counts, counts = {}, {}
        s0 = snapshot(srv.proc.pid)
        t0 = time.monotonic()
        held_bytes = _round(conns, reqs[0], timeout, held_counts)
        s1 = snapshot(srv.proc.pid)
        t1 = time.monotonic()
        change_bytes = sum(_round(conns, reqs[r], timeout, counts)
                           for r in range(1, k + 1))
        s2 = snapshot(srv.proc.pid)
        t2 = time.monotonic()

        held_f = phase_fields(usage, s0, s1, t1 - t0, m, held_bytes)
        held_f.update({"held_cpu_s": held_f["cpu_time"] / 1e3,
                       "initial_rows": held_counts.get("initial", 0)})
        change_f = phase_fields(usage, s1, s2, t2 - t1, m * k, change_bytes)
        ins, dels = counts.get("insert", 0), counts.get("delete", 0)
        change_f.update({"change_cpu_s": change_f["cpu_time"] / 1e3,
                         "cpu_per_change_ms": change_f["cpu_time"] / (m * k),
                         "clients": m, "changes": m * k,
                         "updates": counts.get("updates", 0),
                         "rows_inserted": ins, "rows_deleted": dels,
                         "rows_sent": ins + dels})
        for c in conns:
            c.sock.close()
        srv.check_log(ds["path"])
        srv.stop()
        return [gbench.row("monitor-cond-change/load", load_fields),
                gbench.row("monitor-cond-change/held", held_f),
                gbench.row("monitor-cond-change/change", change_f)]
