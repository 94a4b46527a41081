"""Do two ovsdb-server builds send the same monitor replies and updates?

Serves copies of one OVN Southbound database with each build and, on each,
opens the same monitors over JSON-RPC on one connection:

  v1       "monitor", every table, every column but _version (RFC 7047)
  v2       "monitor_cond", every table, no condition (the server's json
           cache serves it)
  v2-cond  "monitor_cond", Logical_Flow where actions != "drop;" (composed
           for this client alone, as the seed's clients were)
  v3-cond  "monitor_cond_since", the same condition on Logical_Flow, every
           other table without one

then runs the same transactions on a second connection (modify, mutate a
map, move rows out of the condition and back in, delete, insert with a
given uuid) and changes v2-cond's condition twice (monitor_cond_change,
which composes from the table's rows instead of a change set: rows come
in, then rows leave).  Every reply and
notification is parsed with numbers kept as written (so 1e+37 and 1e37
differ) and compared between the builds, monitor by monitor, in order.
Columns named _version are not monitored: the server makes a new random
one per transaction.  The transaction id of monitor_cond_since's reply
and of update3 notifications is random too and is left out.

    PYTHONPATH=python python3 -m jsonbench.realovs.monitor_equal \\
        BEFORE-TREE AFTER-TREE SB.ovsdb

(a TREE is a built OVS source tree: ovsdb/ovsdb-server in it)
"""

import json
import os
import select
import socket
import sys
import time

from .proc import RunDir, RunError, copy_file
from .server import Server
from .target import TREE_PATHS, Target

TABLE = "Logical_Flow"
CONDITION = [["actions", "!=", "drop;"]]
QUIET_S = 0.4          # no message for this long: the server is done
WAIT_S = 120           # longest wait for one expected message


def _number(kind):
    return lambda text: (kind, text)


def parse(text):
    """JSON with every number kept as (kind, its text)."""
    return json.loads(text, parse_int=_number("int"),
                      parse_float=_number("real"))


class Conn:
    """A JSON-RPC connection that keeps every message it receives."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buf = b""
        self.next_id = 0
        self.messages = []   # (raw text, parsed) of non-echo messages

    def send(self, method, params):
        rid = "r%d" % self.next_id
        self.next_id += 1
        self.sock.sendall(json.dumps({"method": method, "params": params,
                                      "id": rid}).encode())
        return rid

    def _split(self):
        """Moves complete messages from the buffer to self.messages."""
        dec = json.JSONDecoder()
        while True:
            text = self.buf.lstrip()
            if not text:
                self.buf = b""
                return
            try:
                s = text.decode()
                _, end = dec.raw_decode(s)
            except (UnicodeDecodeError, json.JSONDecodeError):
                self.buf = text
                return
            raw = s[:end]
            self.buf = s[end:].encode()
            msg = parse(raw)
            if msg.get("method") == "echo":
                self.sock.sendall(json.dumps(
                    {"result": json.loads(raw)["params"], "id":
                     json.loads(raw)["id"], "error": None}).encode())
                continue
            self.messages.append((raw, msg))

    def pump(self, timeout):
        """Reads what arrives within 'timeout' seconds; True if anything."""
        r, _, _ = select.select([self.sock], [], [], timeout)
        if not r:
            return False
        data = self.sock.recv(1 << 20)
        if not data:
            raise RunError("the server closed the connection")
        self.buf += data
        self._split()
        return True

    def reply(self, rid, timeout=WAIT_S):
        deadline = time.monotonic() + timeout
        while True:
            for raw, m in self.messages:
                if m.get("id") == rid and "method" not in m:
                    if m.get("error") is not None:
                        raise RunError("request %s: %s" % (rid, raw[:300]))
                    return m["result"]
            left = deadline - time.monotonic()
            if left <= 0:
                raise RunError("no reply to %s within %d s" % (rid, timeout))
            self.pump(left)

    def count(self, method, mid):
        return sum(1 for _, m in self.messages
                   if m.get("method") == method and m["params"][0] == mid)

    def wait_for(self, method, mid, n, timeout=WAIT_S):
        """Reads until monitor 'mid' has 'n' notifications 'method'."""
        deadline = time.monotonic() + timeout
        while self.count(method, mid) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise RunError("no %s for %s within %d s"
                               % (method, mid, timeout))
            self.pump(left)

    def quiet(self, quiet_s=QUIET_S, timeout=WAIT_S):
        deadline = time.monotonic() + timeout
        while self.pump(quiet_s):
            if time.monotonic() > deadline:
                raise RunError("the server never stopped talking")

    def close(self):
        self.sock.close()


def tree_target(tree, name):
    programs = {p: os.path.join(tree, rel) for p, rel in TREE_PATHS.items()}
    missing = [p for p in programs.values() if not os.access(p, os.X_OK)]
    if missing:
        raise RunError("%s is not a built OVS tree (no %s)"
                       % (tree, ", ".join(missing)))
    return Target(name, programs, "")


def _columns(schema, table):
    return sorted(c for c in schema["tables"][table]["columns"]
                  if c != "_version")


def _requests(schema):
    tables = sorted(schema["tables"])
    every = {t: {"columns": _columns(schema, t)} for t in tables}
    cond = dict(every)
    cond[TABLE] = {"columns": _columns(schema, TABLE), "where": CONDITION}
    db = schema["name"]
    zero = "00000000-0000-0000-0000-000000000000"
    return [("v1", "monitor", [db, "v1", every]),
            ("v2", "monitor_cond", [db, "v2", every]),
            ("v2-cond", "monitor_cond",
             [db, "v2-cond", {TABLE: cond[TABLE]}]),
            ("v3-cond", "monitor_cond_since", [db, "v3-cond", cond, zero])]


def _flow_rows(schema, conn):
    rid = conn.send("transact", [schema["name"], {
        "op": "select", "table": TABLE, "where": [],
        "columns": _columns(schema, TABLE) + ["_uuid"]}])
    return conn.reply(rid)[0]["rows"]


def _plain(value):
    """Undo parse()'s number tuples, for reusing a row in a request."""
    if isinstance(value, tuple) and len(value) == 2 and value[0] in (
            "int", "real"):
        return int(value[1]) if value[0] == "int" else float(value[1])
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def transactions(schema, rows):
    """The transactions both servers get, from the table's rows (the same
    database, so the same rows)."""
    rows = sorted((_plain(r) for r in rows), key=lambda r: r["_uuid"][1])
    match = [r for r in rows if r["actions"] != "drop;"]
    if len(match) < 7:
        raise RunError("the database has %d %s rows matching the condition;"
                       " at least 7 are needed" % (len(match), TABLE))

    def where(r):
        return [["_uuid", "==", r["_uuid"]]]

    def upd(r, row):
        return {"op": "update", "table": TABLE, "where": where(r), "row": row}

    txns = [
        [upd(r, {"match": r["match"] + " && 1"}) for r in match[:3]],
        [{"op": "mutate", "table": TABLE, "where": where(match[3]),
          "mutations": [["external_ids", "insert",
                         ["map", [["jsonbench", "a \"quoted\"\tvalue"]]]]]}],
        # Out of the condition for good, and out and back in.
        [upd(match[4], {"actions": "drop;"})],
        [upd(match[6], {"actions": "drop;"})],
        [upd(match[6], {"actions": match[6]["actions"]})],
        [{"op": "delete", "table": TABLE, "where": where(match[5])}],
    ]
    new = {k: v for k, v in match[0].items() if k != "_uuid"}
    new["priority"] = 12345
    txns.append([{"op": "insert", "table": TABLE, "row": new,
                  "uuid": "0badc0de-0000-4000-8000-000000000001"}])
    return [[schema["name"]] + ops for ops in txns]


def session(target, db_path, schema, rd, name):
    """Runs the monitors and transactions on one build; returns
    {monitor id: [parsed replies and notifications]} and the raw texts."""
    db = copy_file(db_path, rd.file(name + ".ovsdb"))
    srv = Server(target, rd, db, name=name)
    srv.start()
    srv.wait_served(db_label=db_path)
    mon = Conn(srv.sock)
    txn = Conn(srv.sock)
    try:
        out = {}
        for mid, method, params in _requests(schema):
            rid = mon.send(method, params)
            result = mon.reply(rid)
            if method == "monitor_cond_since":
                result = [result[0], result[2]]    # drop last-txn-id
            out[mid] = [result]
        rows = _flow_rows(schema, txn)
        for params in transactions(schema, rows):
            # Every transaction changes Logical_Flow, so the unconditional
            # monitor gets one update2 for each; the others come with it.
            n = mon.count("update2", "v2") + 1
            rid = txn.send("transact", params)
            for r in txn.reply(rid):
                if isinstance(r, dict) and r.get("error"):
                    raise RunError("transaction failed: %s" % r)
            mon.wait_for("update2", "v2", n)
            mon.quiet()
        # New conditions: every row (the row moved out comes back, from
        # the table's rows), then a priority range (rows leave).
        prio = sorted(_plain(r)["priority"] for r in rows)[len(rows) // 2]
        for where in ([["priority", ">=", 0]], [["priority", "<", prio]]):
            n = mon.count("update2", "v2-cond") + 1
            rid = mon.send("monitor_cond_change", [
                "v2-cond", "v2-cond", {TABLE: [{"where": where}]}])
            mon.reply(rid)
            mon.wait_for("update2", "v2-cond", n)
            mon.quiet()
        srv.check_log(db_path)
    finally:
        mon.close()
        txn.close()
        srv.stop()
    raws = []
    for raw, m in mon.messages:
        raws.append(raw)
        method = m.get("method")
        if method in ("update", "update2"):
            out[m["params"][0]].append(m["params"][1])
        elif method == "update3":
            out[m["params"][0]].append(m["params"][2])
    return out, raws


def _count_rows(updates):
    n = 0
    for u in updates:
        if isinstance(u, list):         # monitor_cond_since: [found, updates]
            u = u[-1]
        if isinstance(u, dict):
            n += sum(len(t) for t in u.values() if isinstance(t, dict))
    return n


def compare(tree_a, tree_b, db_path, schema_path=None):
    """Returns (equal, lines): the comparison of the two builds' monitor
    messages on 'db_path'."""
    if schema_path is None:
        schema_path = db_path
    schema = _schema(schema_path)
    a = tree_target(tree_a, "before")
    b = tree_target(tree_b, "after")
    with RunDir(prefix="realovs-moneq-") as rd:
        out_a, raw_a = session(a, db_path, schema, rd, "before")
        out_b, raw_b = session(b, db_path, schema, rd, "after")
    lines = []
    equal = True
    for mid in sorted(set(out_a) | set(out_b)):
        ma, mb = out_a.get(mid, []), out_b.get(mid, [])
        same = ma == mb
        equal &= same
        lines.append("%-8s %s: %d messages, %d row updates (before), "
                     "%d messages (after)"
                     % (mid, "equal" if same else "DIFFERENT", len(ma),
                        _count_rows(ma), len(mb)))
        if not same:
            for i, (x, y) in enumerate(zip(ma, mb)):
                if x != y:
                    lines.append("  first difference in message %d:\n"
                                 "  before %s\n  after  %s"
                                 % (i, json.dumps(x)[:400],
                                    json.dumps(y)[:400]))
                    break
    same_bytes = raw_a == raw_b
    lines.append("raw text of every message %s" % (
        "identical" if same_bytes else
        "differs (%d vs %d bytes; member order may differ)"
        % (sum(map(len, raw_a)), sum(map(len, raw_b)))))
    return equal, lines


def _schema(path):
    """The schema of a database file (its first record) or schema file."""
    with open(path) as f:
        first = f.readline()
        if first.startswith("OVSDB JSON"):
            return json.loads(f.readline())
        f.seek(0)
        return json.load(f)


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        equal, lines = compare(*argv)
    except (RunError, OSError, ValueError) as e:
        print("monitor_equal: %s" % e, file=sys.stderr)
        return 1
    print("\n".join(lines))
    print("EQUAL" if equal else "DIFFERENT")
    return 0 if equal else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
