#!/usr/bin/python3
"""Tests for ovsdb-gen and ovsdb-stats (suite 'datasets').

usage: check_datasets.py CHECK --gen G --stats S --profiles DIR
                         [--ovsdb-tool T] [--nb-schema F] [--sb-schema F]
CHECK is one of: tool-nb-snapshot, tool-nb-log, tool-sb-snapshot, tool-sb-log,
determinism, linearity, gen-errors, stats-errors, interrupt.
Exit 77 (meson: skipped) when the real ovsdb-tool or the schemas are missing.
"""
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time

SKIP = 77


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import (Failure, named_check_parser,  # noqa: E402
                     require as check, run_named_check)


def run(cmd, expect_ok=True, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, **kw)
    if expect_ok and p.returncode != 0:
        raise Failure("command failed (%d): %s\nstdout: %s\nstderr: %s"
                      % (p.returncode, " ".join(cmd), p.stdout[-2000:],
                         p.stderr[-2000:]))
    return p


class Ctx:
    def __init__(self, args, tmp):
        self.a = args
        self.tmp = tmp

    def schema(self, kind):
        return self.a.nb_schema if kind == "nb" else self.a.sb_schema

    def profile(self, kind):
        return os.path.join(self.a.profiles, kind + ".profile")

    def gen(self, kind, out, scale, form="snapshot", seed=1, txns=200,
            report=None, extra=(), env=None):
        cmd = [self.a.gen, "--schema", self.schema(kind), "--profile",
               self.profile(kind), "--scale", str(scale), "--form", form,
               "--seed", str(seed), "-o", out, "-q"]
        if form == "log":
            cmd += ["--txns", str(txns)]
        if report:
            cmd += ["--report", report]
        run(cmd + list(extra), env=env)

    def stats(self, db):
        return json.loads(run([self.a.stats, "--json", db]).stdout)

    def path(self, name):
        return os.path.join(self.tmp, name)


def need_schemas(ctx):
    for f in (ctx.a.nb_schema, ctx.a.sb_schema):
        if not os.path.exists(f):
            print("skip: schema %s missing" % f)
            sys.exit(SKIP)


def need_tool(ctx):
    if not ctx.a.ovsdb_tool or not shutil.which(ctx.a.ovsdb_tool):
        print("skip: ovsdb-tool not found")
        sys.exit(SKIP)


def tool_query_counts(ctx, db, db_name, tables):
    ops = [db_name] + [{"op": "select", "table": t, "where": [],
                        "columns": ["_uuid"]} for t in tables]
    out = run([ctx.a.ovsdb_tool, "query", db, json.dumps(ops)]).stdout
    replies = json.loads(out)
    counts = {}
    for t, r in zip(tables, replies):
        check("rows" in r, "query of %s failed: %s" % (t, r))
        counts[t] = len(r["rows"])
    return counts


def check_tool(ctx, kind, form):
    """The real ovsdb-tool accepts the file, and agrees on row counts."""
    need_schemas(ctx)
    need_tool(ctx)
    db, rep = ctx.path("%s.db" % kind), ctx.path("%s.json" % kind)
    ctx.gen(kind, db, 0.005, form=form, txns=300, report=rep)
    report = json.load(open(rep))
    tool = ctx.a.ovsdb_tool

    name = run([tool, "db-name", db]).stdout.strip()
    check(name == report["schema"], "db-name %r != %r" % (name,
                                                          report["schema"]))
    log = run([tool, "show-log", db]).stdout
    n_records = log.count("\nrecord ") + log.startswith("record ")
    check(n_records == report["records"],
          "show-log lists %d records, generator wrote %d"
          % (n_records, report["records"]))

    # Row counts as the real OVSDB sees them (after its integrity checks and
    # garbage collection) equal what the generator says it generated.
    tables = sorted(report["rows"])
    counts = tool_query_counts(ctx, db, name, tables)
    check(counts == report["rows"],
          "ovsdb-tool query rows %s != generator %s" % (counts,
                                                        report["rows"]))

    # Stats agree with the generator...
    st = ctx.stats(db)
    check(st["rows"] == report["rows"], "stats rows != generator rows")
    check(st["records"] == report["records"], "stats records")
    if form == "snapshot":
        check(st["atoms"] == report["initial_atoms"],
              "stats atoms %s != generator %s" % (st["atoms"],
                                                   report["initial_atoms"]))
        check(st["atoms_by_type"] == report["initial_atoms_by_type"],
              "atoms by type differ")
    else:
        check(report["log_inserts"] > 0 and report["log_deletes"] > 0
              and report["log_modifies"] > 0,
              "log form should insert, delete and modify: %s" % report)
        check(st["deletes"] == report["log_deletes"], "stats deletes")

    # ...and with what ovsdb-tool compact makes of the file (which applies
    # diffs, deletes and defaults the real way).
    copy = ctx.path("%s-compacted.db" % kind)
    shutil.copy(db, copy)
    run([tool, "compact", copy])
    check(run([tool, "db-name", copy]).stdout.strip() == name,
          "compacted db-name")
    stc = ctx.stats(copy)
    check(stc["records"] == 2, "compacted file has %d records"
          % stc["records"])
    check(stc["rows"] == st["rows"], "rows differ after compaction")
    check(stc["atoms"] == st["atoms"],
          "atoms differ after compaction: %s vs %s" % (stc["atoms"],
                                                       st["atoms"]))
    check(stc["strings"] == st["strings"]
          and stc["strings_distinct"] == st["strings_distinct"],
          "strings differ after compaction")


def check_determinism(ctx):
    need_schemas(ctx)
    for kind in ("nb", "sb"):
        for form in ("snapshot", "log"):
            a, b, c = (ctx.path("%s-%s-%d.db" % (kind, form, i))
                       for i in range(3))
            ctx.gen(kind, a, 0.003, form=form)
            ctx.gen(kind, b, 0.003, form=form)
            ctx.gen(kind, c, 0.003, form=form, seed=2)
            da, db_, dc = (hashlib.sha256(open(p, "rb").read()).hexdigest()
                           for p in (a, b, c))
            check(da == db_, "%s %s: two runs differ" % (kind, form))
            check(da != dc, "%s %s: another seed gives the same file"
                  % (kind, form))
            # A wrong guess of the header's length digits (the body is then
            # shifted in place) gives the same bytes.
            for skew in ("1", "-1"):
                d = ctx.path("%s-%s-skew.db" % (kind, form))
                env = dict(os.environ, OVSDB_GEN_TEST_DIGITS_SKEW=skew)
                ctx.gen(kind, d, 0.003, form=form, env=env)
                check(hashlib.sha256(open(d, "rb").read()).hexdigest() == da,
                      "%s %s: header digit skew %s changes the file"
                      % (kind, form, skew))


def check_linearity(ctx):
    need_schemas(ctx)
    for kind in ("nb", "sb"):
        points = []
        for scale in (0.004, 0.008, 0.016):
            db, rep = ctx.path("%s-%g.db" % (kind, scale)), \
                ctx.path("%s-%g.json" % (kind, scale))
            ctx.gen(kind, db, scale, report=rep)
            r = json.load(open(rep))
            points.append((scale, r["bytes"], r["initial_atoms_total"]))
        base = points[0]
        for scale, size, atoms in points[1:]:
            k = scale / base[0]
            for what, v, v0 in (("bytes", size, base[1]),
                                ("atoms", atoms, base[2])):
                ratio = v / v0 / k
                check(0.85 < ratio < 1.15,
                      "%s: %s at scale %g are %.2fx the linear expectation"
                      % (kind, what, scale, ratio))


def expect_error(cmd, needles, code=None):
    p = run(cmd, expect_ok=False)
    check(p.returncode != 0, "should fail: %s" % " ".join(cmd))
    check(p.returncode < 128 and p.returncode > 0,
          "crashed (%d): %s\n%s" % (p.returncode, " ".join(cmd), p.stderr))
    if code is not None:
        check(p.returncode == code, "exit %d, expected %d: %s"
              % (p.returncode, code, " ".join(cmd)))
    for n in needles:
        check(n in p.stderr, "error for %s lacks %r:\n%s"
              % (" ".join(cmd), n, p.stderr))


def check_gen_errors(ctx):
    need_schemas(ctx)
    g, nb, prof = ctx.a.gen, ctx.a.nb_schema, ctx.profile("nb")
    out = ctx.path("out.db")
    help_text = run([g, "--help"]).stdout
    check("--schema" in help_text and "--profile" in help_text, "--help")
    base = ["--schema", nb, "--profile", prof, "-o", out]
    expect_error([g, "--scale", "0"] + base, ["--scale"], 2)
    expect_error([g, "--scale", "abc"] + base, ["--scale"], 2)
    expect_error([g, "--form", "tree"] + base, ["--form"], 2)
    expect_error([g, "--seed", "-3"] + base, ["--seed"], 2)
    expect_error([g, "--bogus"] + base, [], 2)
    expect_error([g, "-o", out], ["required"], 2)
    expect_error([g, "--schema", ctx.path("missing.ovsschema"), "--profile",
                  prof, "-o", out], ["missing.ovsschema"])
    bad_json = ctx.path("bad.ovsschema")
    open(bad_json, "w").write('{"name": "X", "tables": {')
    expect_error([g, "--schema", bad_json, "--profile", prof, "-o", out],
                 ["bad.ovsschema", "invalid JSON"])
    bad_schema = ctx.path("bad2.ovsschema")
    open(bad_schema, "w").write('{"name": "X", "tables": {"T": {"columns": '
                                '{"c": {"type": "strin"}}}}}')
    expect_error([g, "--schema", bad_schema, "--profile", prof, "-o", out],
                 ["bad2.ovsschema", "column c"])

    cases = [
        ("table Nope 10\n", ":1:", "no table"),
        ("table Logical_Switch 10\n  nope str \"x\"\n", ":2:", "no column"),
        ("table ACL 10\n  action pick 1 \"permit\" 1\n", ":2:", "enum"),
        ("table ACL 10\n  priority int 0..99999\n", ":2:", "range"),
        ("table Logical_Switch 10\n  name str \"{bogus}\"\n", ":2:",
         "unknown placeholder"),
        ("table Logical_Switch 10\n  name str \"unterminated\n", ":2:",
         "unterminated"),
        ("table Logical_Switch 10\n  ports set 1..x ref "
         "Logical_Switch_Port\n", ":2:", "distribution"),
        ("table Logical_Switch 10\n  name int 1..3\n", ":2:", "string"),
        ("table Logical_Switch_Port 10\n  name str \"{key}\"\n", "",
         "not a root table"),
        ("  name str \"x\"\n", ":1:", "indented"),
        ("table Logical_Switch 10\nlog delete Logical_Switch_Port 1\n", ":2:",
         "Logical_Switch_Port"),
    ]
    for i, (text, where, what) in enumerate(cases):
        pf = ctx.path("bad%d.profile" % i)
        open(pf, "w").write(text)
        expect_error([g, "--schema", nb, "--profile", pf, "-o", out],
                     ["bad%d.profile%s" % (i, where), what])
    expect_error([g, "--schema", nb, "--profile", ctx.path("none.profile"),
                  "-o", out], ["none.profile"])
    check(not os.path.exists(out), "output written despite errors")
    # Unwritable output: clear error, nothing left behind.
    expect_error([g] + base[:4] + ["-o", ctx.path("no/such/dir/x.db")],
                 ["no/such/dir"])
    leftovers = [f for f in os.listdir(ctx.tmp) if f.endswith(".tmp")]
    check(not leftovers, "temporary files left: %s" % leftovers)


def corrupt(src, dst, fn):
    data = bytearray(open(src, "rb").read())
    open(dst, "wb").write(fn(data))


def check_stats_errors(ctx):
    need_schemas(ctx)
    s = ctx.a.stats
    good = ctx.path("good.db")
    ctx.gen("nb", good, 0.002, form="log", txns=20)
    run([s, good])
    check("--json" in run([s, "--help"]).stdout, "--help")
    expect_error([s], ["FILE"], 2)
    expect_error([s, "--bogus", good], [], 2)
    expect_error([s, ctx.path("missing.db")], ["missing.db"])
    data = open(good, "rb").read()
    first_nl = data.index(b"\n")
    rec1 = first_nl + 1 + int(data[:first_nl].split()[2])
    empty = ctx.path("empty.db")
    open(empty, "wb").close()
    expect_error([s, empty], ["empty.db", "empty"])

    cases = {
        # Cut inside the second record.
        "truncated": (lambda d: d[:rec1 + 200], ["record 1", "truncated"]),
        # One byte of content changed: SHA-1 no longer matches.
        "badsha": (lambda d: d[:rec1 + 100] + bytes([d[rec1 + 100] ^ 1])
                   + d[rec1 + 101:], ["record 1", "SHA-1"]),
        # Header length not a number.
        "badlen": (lambda d: d[:rec1] + d[rec1:].replace(b"OVSDB JSON ",
                                                         b"OVSDB JSON x", 1),
                   ["record 1", "byte offset %d" % rec1]),
        "garbage": (lambda d: d + b"hello\n", ["record", "header"]),
    }
    for name, (fn, needles) in cases.items():
        bad = ctx.path(name + ".db")
        corrupt(good, bad, fn)
        expect_error([s, bad], [name + ".db"] + needles)

    # Valid framing around invalid JSON: the record and offset are named.
    bad = ctx.path("badjson.db")
    body = b'{"Logical_Switch":{"not-a-uuid":{}}}\n'
    rec = b"OVSDB JSON %d %s\n" % (len(body),
                                   hashlib.sha1(body).hexdigest().encode())
    open(bad, "wb").write(data[:rec1] + rec + body)
    expect_error([s, bad], ["badjson.db", "record 1", "byte offset %d"
                            % (rec1 + len(rec) + 20), "not a UUID"])
    bad = ctx.path("badjson2.db")
    body = b'{"Logical_Switch":{"%s":{"name":[1,}}}\n' % \
        b"01234567-89ab-cdef-0123-456789abcdef"
    rec = b"OVSDB JSON %d %s\n" % (len(body),
                                   hashlib.sha1(body).hexdigest().encode())
    open(bad, "wb").write(data[:rec1] + rec + body)
    expect_error([s, bad], ["badjson2.db", "record 1"])


def check_interrupt(ctx):
    """Ctrl-C during generation leaves neither output nor temporary file."""
    need_schemas(ctx)
    out = ctx.path("big.db")
    p = subprocess.Popen([ctx.a.gen, "--schema", ctx.a.sb_schema,
                          "--profile", ctx.profile("sb"), "--scale", "2",
                          "-o", out, "-q"], stderr=subprocess.PIPE)
    deadline = time.time() + 30
    while time.time() < deadline:
        if any(f.endswith(".tmp") for f in os.listdir(ctx.tmp)):
            break
        time.sleep(0.01)
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    p.wait(timeout=60)
    check(p.returncode != 0, "interrupted run exited 0")
    check(not os.path.exists(out), "partial output left")
    leftovers = [f for f in os.listdir(ctx.tmp) if "tmp" in f]
    check(not leftovers, "temporary files left: %s" % leftovers)


def check_real_log(ctx):
    """Stats of a log written by the real ovsdb-tool (inserts, map and set
    diffs, scalar updates, deletes) equal the stats of its compaction, row
    bytes included: a set diffed down to one element is written as a bare
    atom, as OVS writes it."""
    need_schemas(ctx)
    need_tool(ctx)
    tool, db = ctx.a.ovsdb_tool, ctx.path("real.db")
    run([tool, "create", db, ctx.a.nb_schema])
    txns = [
        [{"op": "insert", "table": "Logical_Switch", "uuid-name": "s",
          "row": {"name": "sw0", "ports": ["named-uuid", "p"],
                  "external_ids": ["map", [["a", "b"], ["c", "d"]]]}},
         {"op": "insert", "table": "Logical_Switch_Port", "uuid-name": "p",
          "row": {"name": "p0", "addresses": ["set", ["x", "y"]]}},
         {"op": "insert", "table": "Logical_Switch", "row": {"name": "sw1"}}],
        [{"op": "mutate", "table": "Logical_Switch",
          "where": [["name", "==", "sw0"]],
          "mutations": [["external_ids", "insert", ["map", [["e", "f"]]]],
                        ["external_ids", "delete", ["set", ["a"]]]]},
         {"op": "update", "table": "Logical_Switch_Port", "where": [],
          "row": {"addresses": ["set", ["z"]], "type": "router"}}],
        [{"op": "delete", "table": "Logical_Switch",
          "where": [["name", "==", "sw1"]]}],
    ]
    for t in txns:
        run([tool, "transact", db, json.dumps(["OVN_Northbound"] + t)])
    st = ctx.stats(db)
    check(st["records"] == 4 and st["deletes"] == 1 and st["modifies"] >= 2,
          "unexpected record counts: %s" % st)
    check(st["rows"] == {"Logical_Switch": 1, "Logical_Switch_Port": 1},
          "rows %s" % st["rows"])
    copy = ctx.path("real-compacted.db")
    shutil.copy(db, copy)
    run([tool, "compact", copy])
    stc = ctx.stats(copy)
    for k in ("rows", "atoms", "row_bytes", "atoms_by_type", "strings",
              "strings_distinct", "string_length", "set_sizes", "map_sizes"):
        check(st[k] == stc[k], "%s: log %s, compacted %s" % (k, st[k],
                                                              stc[k]))


CHECKS = {
    "stats-real-log": check_real_log,
    "tool-nb-snapshot": lambda c: check_tool(c, "nb", "snapshot"),
    "tool-nb-log": lambda c: check_tool(c, "nb", "log"),
    "tool-sb-snapshot": lambda c: check_tool(c, "sb", "snapshot"),
    "tool-sb-log": lambda c: check_tool(c, "sb", "log"),
    "determinism": check_determinism,
    "linearity": check_linearity,
    "gen-errors": check_gen_errors,
    "stats-errors": check_stats_errors,
    "interrupt": check_interrupt,
}


def main():
    ap = named_check_parser(CHECKS, "--gen", "--stats", "--profiles")
    ap.add_argument("--ovsdb-tool", default=shutil.which("ovsdb-tool"))
    ap.add_argument("--nb-schema", default="/usr/share/ovn/ovn-nb.ovsschema")
    ap.add_argument("--sb-schema", default="/usr/share/ovn/ovn-sb.ovsschema")
    args = ap.parse_args()
    return run_named_check(args.check,
                           lambda tmp: CHECKS[args.check](Ctx(args, tmp)),
                           "datasets-test-")


if __name__ == "__main__":
    sys.exit(main())
