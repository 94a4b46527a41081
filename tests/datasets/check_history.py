#!/usr/bin/python3
"""The inputs of the workloads OVS's own history measures (suite
'datasets'): ovsdb-gen's cluster form (a one-server raft cluster made from
the generated rows, then small transactions as raft entries) and its
"sets" log shape (many small transactions that grow a few large sets),
checked against the installed OVS tools and every impl's harness.

usage: check_history.py CHECK --gen G --profiles DIR [--harness IMPL=EXE]...
CHECK is one of:
  cluster-tool    ovsdb-tool reads the clustered files (db-is-clustered,
                  db-name, show-log) and cluster-to-standalone gives the
                  rows of the standalone log made from the same inputs
  cluster-server  a real ovsdb-server on a unix socket serves those rows
                  (ovsdb-client transact), the transaction log included
  sets-log        the sets shape: ovsdb-tool compacts it, row counts equal
                  the generator's, and the hot sets grew
  determinism     same inputs, same bytes; another seed or address differs
  profile-errors  bad set-add, hot and log-shape lines, --log-shape,
                  --form and --cluster-address values: one line each
  harness         every impl's harness loads both files with the rows the
                  real tools read (dump), and reports the raft log and the
                  transaction history a clustered load keeps
Exit 77 (meson: skipped) where the OVS tools or the schema are missing.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

SKIP = 77
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "pylib"))
sys.path.insert(0, os.path.join(HERE, "..", "harness"))
from testkit import Failure, require as check  # noqa: E402
from harnesslib import rows_by_uuid  # noqa: E402

NB_SCHEMA = "/usr/share/ovn/ovn-nb.ovsschema"
SCALE = "0.005"
TXNS = 300


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, **kw)
    if p.returncode != 0:
        raise Failure("command failed (%d): %s\nstdout: %s\nstderr: %s"
                      % (p.returncode, " ".join(cmd), p.stdout[-2000:],
                         p.stderr[-2000:]))
    return p


def need(*tools):
    if not os.path.exists(NB_SCHEMA):
        print("skip: %s missing" % NB_SCHEMA)
        sys.exit(SKIP)
    for t in tools:
        if not shutil.which(t):
            print("skip: %s not installed" % t)
            sys.exit(SKIP)


class Ctx:
    def __init__(self, args, tmp):
        self.a = args
        self.tmp = tmp

    def path(self, name):
        return os.path.join(self.tmp, name)

    def gen(self, name, form, txns=TXNS, shape="sets", seed=1,
            address=None, report=True):
        out = self.path(name)
        cmd = [self.a.gen, "--schema", NB_SCHEMA, "--profile",
               os.path.join(self.a.profiles, "nb.profile"), "--scale", SCALE,
               "--form", form, "--seed", str(seed), "-q", "-o", out]
        if txns is not None:
            cmd += ["--txns", str(txns)]
        if shape:
            cmd += ["--log-shape", shape]
        if address:
            cmd += ["--cluster-address", address]
        if report:
            cmd += ["--report", out + ".json"]
        run(cmd)
        return out


def tables_of_schema():
    with open(NB_SCHEMA) as f:
        return sorted(json.load(f)["tables"])


def tool_rows(db):
    """{table: {uuid: row}} as ovsdb-tool reads a standalone file."""
    tables = tables_of_schema()
    ops = [{"op": "select", "table": t, "where": []} for t in tables]
    out = run(["ovsdb-tool", "query", db,
               json.dumps(["OVN_Northbound"] + ops)]).stdout
    return {t: rows_by_uuid(r["rows"])
            for t, r in zip(tables, json.loads(out))}


def standalone_of(ctx, cluster):
    out = cluster + ".standalone"
    if os.path.exists(out):
        os.unlink(out)
    run(["ovsdb-tool", "cluster-to-standalone", out, cluster])
    return out


def show_log_records(db):
    log = run(["ovsdb-tool", "show-log", db]).stdout
    return sum(1 for line in log.splitlines() if line.startswith("record "))


def check_cluster_tool(ctx):
    need("ovsdb-tool")
    for txns in (0, TXNS):
        c = ctx.gen("c%d.db" % txns, "cluster", txns=txns)
        log = ctx.gen("l%d.db" % txns, "log", txns=txns)
        report = json.load(open(c + ".json"))
        run(["ovsdb-tool", "db-is-clustered", c])
        check(run(["ovsdb-tool", "db-name", c]).stdout.strip()
              == "OVN_Northbound", "db-name of the clustered file")
        check(show_log_records(c) == txns + 1,
              "show-log lists %d records, want %d (header + entries)"
              % (show_log_records(c), txns + 1))
        check(report["records"] == txns + 1 and report["form"] == "cluster",
              "report: %s records, form %s" % (report["records"],
                                               report["form"]))
        got = tool_rows(standalone_of(ctx, c))
        want = tool_rows(log)
        check(got == want, "cluster-to-standalone rows differ from the "
              "standalone log's (txns %d): tables %s" % (
                  txns, [t for t in got if got[t] != want[t]]))
        counts = {t: len(r) for t, r in got.items() if r}
        check(counts == report["rows"], "rows %s != generator %s"
              % (counts, report["rows"]))
    print("ok: ovsdb-tool reads the clustered files, same rows as the log")


def client_rows(sock):
    tables = tables_of_schema()
    ops = [{"op": "select", "table": t, "where": []} for t in tables]
    out = run(["ovsdb-client", "transact", "unix:" + sock,
               json.dumps(["OVN_Northbound"] + ops)]).stdout
    return {t: rows_by_uuid(r["rows"])
            for t, r in zip(tables, json.loads(out))}


def check_cluster_server(ctx):
    need("ovsdb-tool", "ovsdb-server", "ovsdb-client", "ovs-appctl")
    # The raft address is a unix socket in the test's folder: no port.
    c = ctx.gen("c.db", "cluster", address="unix:" + ctx.path("s1.raft"))
    want = tool_rows(ctx.gen("l.db", "log"))
    sock, ctl = ctx.path("db.sock"), ctx.path("ctl")
    pidfile = ctx.path("pid")
    run(["ovsdb-server", "--remote=punix:" + sock, "--unixctl=" + ctl,
         "--pidfile=" + pidfile, "--log-file=" + ctx.path("log"),
         "--detach", "--no-chdir", c])
    try:
        # The entries after the snapshot are applied once the server has
        # elected itself and committed them: wait for that, not a time.
        got = None
        for _ in range(120):
            got = client_rows(sock)
            if got == want:
                break
            time.sleep(0.25)
        check(got == want, "ovsdb-server serves other rows than the "
              "standalone log's: tables %s" % [t for t in got
                                               if got[t] != want[t]])
        mem = run(["ovs-appctl", "-t", ctl, "memory/show"]).stdout
        check("raft-log:" in mem and "txn-history:" in mem,
              "memory/show of a clustered database: %s" % mem)
    finally:
        with open(pidfile) as f:
            pid = int(f.read())
        os.kill(pid, 15)
        for _ in range(100):
            if not os.path.exists("/proc/%d" % pid):
                break
            time.sleep(0.05)
    print("ok: ovsdb-server serves the clustered file's rows (%s)"
          % mem.strip())


def set_sizes(rows, column):
    out = {}
    for uuid, r in rows.items():
        v = r.get(column)
        out[uuid] = (len(v[1]) if isinstance(v, list) and v[0] == "set"
                     else 0 if v is None else 1)
    return out


def check_sets_log(ctx):
    need("ovsdb-tool")
    log = ctx.gen("sets.db", "log")
    report = json.load(open(log + ".json"))
    check(show_log_records(log) == TXNS + 2, "show-log records")
    copy = ctx.path("sets-compacted.db")
    shutil.copy(log, copy)
    run(["ovsdb-tool", "compact", copy])
    after = tool_rows(copy)
    counts = {t: len(r) for t, r in after.items() if r}
    check(counts == report["rows"], "rows %s != generator %s"
          % (counts, report["rows"]))
    before = tool_rows(ctx.gen("snap.db", "snapshot", txns=None, shape=None))
    # Every transaction adds one element to one of 8 hot rows' sets (or
    # one ACL to a hot port group): the hot sets grow by TXNS / 8 on
    # average; nothing else changes size.
    grown = 0
    for table, column in (("Port_Group", "ports"), ("Port_Group", "acls"),
                          ("Address_Set", "addresses")):
        b = set_sizes(before[table], column)
        a = set_sizes(after[table], column)
        growth = sorted((a[u] - b.get(u, 0) for u in a), reverse=True)
        check(all(g >= 0 for g in growth), "%s.%s shrank" % (table, column))
        check(sum(1 for g in growth if g) <= 8,
              "%s.%s: more than 8 hot rows grew" % (table, column))
        check(growth[0] >= 8, "%s.%s: the largest growth is %d"
              % (table, column, growth[0]))
        grown += sum(growth)
    check(grown == TXNS, "the sets gained %d elements in %d transactions"
          % (grown, TXNS))
    check(report["log_deletes"] == 0, "the sets shape deletes nothing")
    print("ok: the sets log grows 8 hot rows' sets by one element a "
          "transaction; ovsdb-tool agrees")


def digest(path):
    with open(path, "rb") as f:
        return f.read()


def check_determinism(ctx):
    need()
    a = digest(ctx.gen("a.db", "cluster", report=False))
    b = digest(ctx.gen("b.db", "cluster", report=False))
    check(a == b, "cluster form: same inputs, different bytes")
    c = digest(ctx.gen("c.db", "cluster", seed=2, report=False))
    check(a != c, "cluster form: another seed gives the same bytes")
    d = digest(ctx.gen("d.db", "cluster", report=False,
                       address="unix:/tmp/x.raft"))
    check(a != d and b"unix:/tmp/x.raft" in d[:400],
          "cluster form: the address is in the header")
    e = digest(ctx.gen("e.db", "log", report=False))
    f = digest(ctx.gen("f.db", "log", report=False))
    check(e == f, "sets log: same inputs, different bytes")
    g = digest(ctx.gen("g.db", "log", shape=None, report=False))
    check(e != g, "the sets shape and the default shape give the same log")
    print("ok: deterministic cluster form and sets log")


def harness_load(exe, db, *extra):
    res = os.path.join(os.path.dirname(db), "r.json")
    run([exe, "load", "--no-sha256", "--results", res] + list(extra) + [db])
    with open(res) as f:
        rows = [b for b in json.load(f)["benchmarks"]
                if b["name"] == "load/load" and b["run_type"] == "iteration"]
    return rows[0]


def check_harness(ctx):
    need("ovsdb-tool")
    check(ctx.a.harness, "no --harness given")
    c = ctx.gen("c.db", "cluster")
    log = ctx.gen("l.db", "log")
    want = tool_rows(standalone_of(ctx, c))
    tables = tables_of_schema()
    for spec in ctx.a.harness:
        impl, exe = spec.split("=", 1)
        for db in (c, log):
            out = ctx.path("dump-%s.json" % impl)
            run([exe, "dump", "--output", out, db])
            with open(out) as f:
                reply = json.load(f)
            got = {t: rows_by_uuid(r["rows"])
                   for t, r in zip(tables, reply["result"])}
            check(got == want, "%s: dump of %s differs from the real tools: "
                  "tables %s" % (impl, os.path.basename(db),
                                 [t for t in got if got[t] != want[t]]))
        each = harness_load(exe, c)
        end = harness_load(exe, c, "--history-trim", "end")
        check(each["raft_log"] == TXNS and end["raft_log"] == TXNS,
              "%s: raft_log %s/%s, want %d" % (impl, each["raft_log"],
                                               end["raft_log"], TXNS))
        # Trimmed after each transaction, the history never holds more
        # than the database's atoms plus one transaction; trimmed at the
        # end it held every transaction, the snapshot included.
        check(end["txn_history_peak"] == TXNS + 1,
              "%s: --history-trim end peak %s" % (impl,
                                                  end["txn_history_peak"]))
        check(each["txn_history_peak"] < TXNS + 1
              and each["txn_history"] == end["txn_history"]
              and each["txn_history"] <= 100,
              "%s: history each %s (peak %s) vs end %s" % (
                  impl, each["txn_history"], each["txn_history_peak"],
                  end["txn_history"]))
        check(each["rows"] == end["rows"] == sum(len(r) for r in
                                                 want.values()),
              "%s: rows" % impl)
    print("ok: %d impls load the clustered file and the sets log with the "
          "real tools' rows" % len(ctx.a.harness))


def check_profile_errors(ctx):
    """New profile lines and options: each mistake one line naming it."""
    need()
    with open(os.path.join(ctx.a.profiles, "nb.profile")) as f:
        base = f.read().split("\nlog-shape sets")[0]
    cases = [
        ("log set-add Port_Group name 1", "must be a set column"),
        ("log set-add Logical_Switch ports 1", "children column"),
        ("log set-add Address_Set addresses 1", "value spec is missing"),
        ("log set-add Address_Set addresses 1 int 5", "needs a integer column"),
        ("log delete Address_Set 1 hot 3", "hot applies to"),
        ("log modify ACL priority 1 hot 0", "count >= 1"),
        ("log modify ACL priority 1 warm 2", "unexpected \"warm\""),
        ("log-shape a\nlog-shape a", "log-shape a appears twice"),
        ("log-shape", "log shape name"),
    ]
    for i, (lines, words) in enumerate(cases):
        prof = ctx.path("bad%d.profile" % i)
        with open(prof, "w") as f:
            f.write(base + "\n" + lines + "\n")
        p = subprocess.run([ctx.a.gen, "--schema", NB_SCHEMA, "--profile",
                            prof, "--scale", "0.001", "--form", "log", "-q",
                            "-o", ctx.path("bad.db")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        check(p.returncode == 1 and prof in p.stderr and words in p.stderr
              and len(p.stderr.strip().splitlines()) == 1,
              "%r: exit %d, %r" % (lines, p.returncode, p.stderr))
        check(not os.path.exists(ctx.path("bad.db")), "output left behind")
    p = subprocess.run([ctx.a.gen, "--schema", NB_SCHEMA, "--profile",
                        os.path.join(ctx.a.profiles, "nb.profile"),
                        "--scale", "0.001", "--form", "log", "--log-shape",
                        "nope", "-q", "-o", ctx.path("bad.db")],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    check(p.returncode == 1 and "no \"log-shape nope\" line" in p.stderr,
          "--log-shape nope: %d %r" % (p.returncode, p.stderr))
    for opt, val in (("--form", "raft"), ("--cluster-address", "6643")):
        p = subprocess.run([ctx.a.gen, "--schema", NB_SCHEMA, "--profile",
                            os.path.join(ctx.a.profiles, "nb.profile"),
                            opt, val, "-o", ctx.path("bad.db")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        check(p.returncode == 2 and val in p.stderr,
              "%s %s: %d %r" % (opt, val, p.returncode, p.stderr))
    print("ok: %d bad profile lines and options named" % (len(cases) + 3))


CHECKS = {"cluster-tool": check_cluster_tool,
          "cluster-server": check_cluster_server,
          "sets-log": check_sets_log, "determinism": check_determinism,
          "harness": check_harness, "profile-errors": check_profile_errors}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("check", choices=sorted(CHECKS))
    ap.add_argument("--gen", required=True)
    ap.add_argument("--profiles", required=True)
    ap.add_argument("--harness", action="append", default=[],
                    help="IMPL=EXE")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="check-history-") as tmp:
        try:
            CHECKS[args.check](Ctx(args, tmp))
        except Failure as exc:
            print("FAIL: %s" % exc, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
