#!/usr/bin/python3
"""Tests of dataset twins (suite 'datasets'): ovsdb-stats --profile and
--compare, and ovsdb-gen on the derived profiles.

usage: check_twins.py CHECK --gen G --stats S --profiles DIR --k8s PROFILE
                      [--ovsdb-tool T] [--harness IMPL=PATH ...]
CHECK is one of: roundtrip-nb, roundtrip-sb, roundtrip-k8s, roundtrip-log,
privacy, drop-keys, scaling, harness-heap, errors, hostile.

Sources are made by the project: NB and SB from datasets/profiles at small
scales, and an ovn-kubernetes shaped NB (a few huge port groups) from a
committed test profile.  Exit 77 (skipped) when the OVN schemas are missing.
"""
import json
import os
import re
import shutil
import subprocess
import sys

SKIP = 77
NB = "/usr/share/ovn/ovn-nb.ovsschema"
SB = "/usr/share/ovn/ovn-sb.ovsschema"
# Strings this short can match by chance (a random 4-digit number, "true"
# from a 4-letter word); longer ones would be a leak.
MIN_LEAK_LEN = 6


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import (Failure, named_check_parser,  # noqa: E402
                     require as check, run_named_check)


def run(cmd, expect_ok=True):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if expect_ok and p.returncode != 0:
        raise Failure("command failed (%d): %s\nstdout: %s\nstderr: %s"
                      % (p.returncode, " ".join(cmd), p.stdout[-2000:],
                         p.stderr[-2000:]))
    return p


def records(path):
    """The JSON records of an OVSDB file (record 0 is the schema)."""
    data = open(path, "rb").read()
    out, pos = [], 0
    while pos < len(data):
        nl = data.index(b"\n", pos)
        length = int(data[pos:nl].split()[2])
        out.append(json.loads(data[nl + 1:nl + 1 + length]))
        pos = nl + 1 + length
    return out


def strings_of(path):
    """(values, map keys) of every string atom of the file's rows."""
    values, keys = set(), set()

    def atom(a, into):
        if isinstance(a, str):
            into.add(a)

    for rec in records(path)[1:]:
        for table, rows in rec.items():
            if table.startswith("_"):
                continue
            for row in rows.values():
                for v in (row or {}).values():
                    if isinstance(v, list) and v and v[0] == "map":
                        for k, x in v[1]:
                            atom(k, keys)
                            atom(x, values)
                    elif isinstance(v, list) and v and v[0] == "set":
                        for x in v[1]:
                            atom(x, values)
                    else:
                        atom(v, values)
    return values, keys


def enum_strings(schema):
    out = set()
    for t in json.load(open(schema))["tables"].values():
        for c in t["columns"].values():
            ty = c["type"]
            for part in ("key", "value"):
                b = ty.get(part) if isinstance(ty, dict) else None
                if isinstance(b, dict) and "enum" in b:
                    e = b["enum"]
                    vals = e[1] if isinstance(e, list) and e[0] == "set" \
                        else [e]
                    out |= {x for x in vals if isinstance(x, str)}
    return out


class Ctx:
    def __init__(self, args, tmp):
        self.a = args
        self.tmp = tmp

    def path(self, name):
        return os.path.join(self.tmp, name)

    def gen(self, schema, profile, out, scale, seed=1, form="snapshot",
            txns=0):
        cmd = [self.a.gen, "--schema", schema, "--profile", profile,
               "--scale", str(scale), "--seed", str(seed), "--form", form,
               "-o", out, "-q"]
        if form == "log":
            cmd += ["--txns", str(txns)]
        run(cmd)

    def source(self, kind, scale, form="snapshot", txns=0):
        """A source database made by the project, and its schema."""
        if kind == "k8s":
            schema, profile = NB, self.a.k8s
        else:
            schema = NB if kind == "nb" else SB
            profile = os.path.join(self.a.profiles, kind + ".profile")
        out = self.path("%s-%s-%s.db" % (kind, scale, form))
        self.gen(schema, profile, out, scale, form=form, txns=txns)
        return out, schema

    def derive(self, db, name, extra=()):
        prof = self.path(name)
        p = run([self.a.stats, "--profile"] + list(extra) + [db])
        with open(prof, "w") as f:
            f.write(p.stdout)
        return prof

    def twin(self, db, schema, scale=1, extra=(), tag="twin"):
        prof = self.derive(db, "%s.profile" % tag, extra)
        out = self.path("%s-%s.db" % (tag, scale))
        self.gen(schema, prof, out, scale, seed=7)
        return prof, out

    def compare(self, src, twin):
        p = run([self.a.stats, "--compare", "--json", src, twin],
                expect_ok=False)
        check(p.returncode in (0, 3), "compare failed: %s" % p.stderr)
        r = json.loads(p.stdout)
        check(r["pass"] == (p.returncode == 0), "exit status and verdict "
              "disagree")
        return r

    def stats(self, db):
        return json.loads(run([self.a.stats, "--json", db]).stdout)


def need_schemas():
    for f in (NB, SB):
        if not os.path.exists(f):
            print("skip: schema %s missing" % f)
            sys.exit(SKIP)


def tool_rows(ctx, db):
    """Rows after the real ovsdb-tool compacts a copy, or None."""
    if not ctx.a.ovsdb_tool or not shutil.which(ctx.a.ovsdb_tool):
        return None
    copy = db + ".compacted"
    shutil.copy(db, copy)
    run([ctx.a.ovsdb_tool, "compact", copy])
    return ctx.stats(copy)["rows_total"]


def assert_roundtrip(ctx, src, schema):
    _, twin = ctx.twin(src, schema)
    r = ctx.compare(src, twin)
    failed = [c for c in r["checks"] if not c["pass"]]
    check(not failed, "tolerances not met: %s" % failed)
    # Every table, every kind of atom and bucket was checked.
    kinds = {re.sub(r" .*", "", c["what"]) for c in r["checks"]}
    check({"rows", "atoms", "string", "distinct"} <= kinds,
          "checks missing: %s" % kinds)
    # The twin is a valid database: the real ovsdb-tool keeps every row
    # (a constraint violation would drop the transaction, an unowned row
    # would be collected).
    rows = tool_rows(ctx, twin)
    check(rows is None or rows == r["twin"]["rows"],
          "ovsdb-tool compact keeps %s of %s twin rows"
          % (rows, r["twin"]["rows"]))
    print("  %s: rows %d/%d, string share diff max %.2f points" % (
        os.path.basename(src), r["source"]["rows"], r["twin"]["rows"],
        max(abs(c["diff"]) for c in r["checks"] if c["unit"] == "points")))


def check_roundtrip(kind):
    def f(ctx):
        scale = 1 if kind == "k8s" else 0.02
        src, schema = ctx.source(kind, scale)
        assert_roundtrip(ctx, src, schema)
    return f


def check_roundtrip_log(ctx):
    """A log (inserts, modifies, deletes, diffs) as the source."""
    src, schema = ctx.source("nb", 0.02, form="log", txns=300)
    assert_roundtrip(ctx, src, schema)


def template_literals(tmpl):
    """The literal text of a template, placeholders removed."""
    return re.sub(r"\{[^{}]*\}", "", tmpl.replace("{{", "").replace("}}", ""))


def quoted_tokens(line):
    return [m.replace('\\"', '"').replace("\\\\", "\\")
            for m in re.findall(r'"((?:[^"\\]|\\.)*)"', line)]


def assert_private(ctx, src, schema, extra=(), tag="twin"):
    prof, twin = ctx.twin(src, schema, extra=extra, tag=tag)
    values, keys = strings_of(src)
    enums = enum_strings(schema)
    secret = {v for v in values - keys - enums if len(v) >= MIN_LEAK_LEN}
    check(len(secret) > 100, "too few source strings to test (%d)"
          % len(secret))
    text = open(prof).read()
    # 1. The profile: templates keep no letters or digits of their own; the
    # only quoted words are map keys and enum values.
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            continue
        toks = quoted_tokens(line)
        is_key = line.lstrip().startswith("key ")
        for i, tok in enumerate(toks):
            if is_key and i == 0:
                check(tok in keys or "--drop-keys" in extra,
                      "key line with a key not in the source: %r" % tok)
                continue
            if " pick " in line or line.split()[1:2] == ["pick"]:
                check(tok in enums, "pick of a value that is no enum value: "
                      "%r in %r" % (tok, line))
                continue
            lit = template_literals(tok)
            check(not re.search(r"[A-Za-z0-9]", lit),
                  "template keeps text %r: %r" % (lit, line))
    leaked = [v for v in secret if v in text]
    check(not leaked, "source strings in the profile: %s" % leaked[:5])
    # 2. The twin database.
    twin_values, _ = strings_of(twin)
    leaked = sorted(secret & twin_values)
    check(not leaked, "source strings in the twin: %s" % leaked[:5])
    print("  %s: %d source strings (>= %d bytes), none in the profile or the "
          "twin's %d" % (os.path.basename(src), len(secret), MIN_LEAK_LEN,
                         len(twin_values)))
    return prof, keys


def check_privacy(ctx):
    for kind, scale in (("nb", 0.005), ("k8s", 0.5)):
        src, schema = ctx.source(kind, scale)
        assert_private(ctx, src, schema, tag="twin-" + kind)


def check_drop_keys(ctx):
    src, schema = ctx.source("k8s", 0.5)
    prof, keys = assert_private(ctx, src, schema, extra=["--drop-keys"])
    text = open(prof).read()
    enums = enum_strings(schema)
    kept = [k for k in keys - enums if len(k) >= 3 and '"%s"' % k in text]
    check(not kept, "--drop-keys kept keys: %s" % kept[:5])
    # Synthetic keys keep the lengths, so the twin still holds.
    r = ctx.compare(src, ctx.path("twin-1.db"))
    check(r["pass"], "drop-keys twin off tolerance: %s"
          % [c for c in r["checks"] if not c["pass"]])


def shares(hist):
    total = sum(v for k, v in hist.items() if k != "0")
    return {k: 100.0 * v / total for k, v in hist.items()
            if k != "0" and total}


def check_scaling(ctx):
    """--scale multiplies rows, keeping per-row distributions and
    fan-outs: children follow their parents, pools grow in proportion."""
    src, schema = ctx.source("k8s", 1)
    prof = ctx.derive(src, "k8s.profile")
    fixed = set(re.findall(r"^table (\S+) \d+ fixed$", open(prof).read(),
                           re.M))
    one, four = ctx.path("x1.db"), ctx.path("x4.db")
    ctx.gen(schema, prof, one, 1, seed=3)
    ctx.gen(schema, prof, four, 4, seed=3)
    a, b = ctx.stats(one), ctx.stats(four)
    for t, n in a["rows"].items():
        want = n if t in fixed else 4 * n
        check(abs(b["rows"].get(t, 0) - want) <= max(0.02 * want, 1),
              "table %s: %d rows at scale 4, expected %d" % (t,
                                                             b["rows"][t],
                                                             want))
    for name in ("string_length", "set_sizes", "map_sizes"):
        sa, sb = shares(a[name]), shares(b[name])
        for k in sa:
            check(abs(sa[k] - sb.get(k, 0)) <= 3, "%s %s: %.1f%% at scale 1, "
                  "%.1f%% at scale 4" % (name, k, sa[k], sb.get(k, 0)))
    da = 100.0 * a["strings_distinct"] / a["strings"]
    db = 100.0 * b["strings_distinct"] / b["strings"]
    check(abs(da - db) <= 5, "distinct strings %.1f%% at scale 1, %.1f%% at "
          "scale 4" % (da, db))
    # Set sizes are per-row distributions: the huge port groups stay huge,
    # and there are four times as many of them.
    check(b["max_set_size"] >= a["max_set_size"] * 0.9
          and b["set_sizes"]["100+"] >= 3.5 * a["set_sizes"]["100+"],
          "huge sets: max %d -> %d, count %d -> %d"
          % (a["max_set_size"], b["max_set_size"], a["set_sizes"]["100+"],
             b["set_sizes"]["100+"]))
    print("  rows %d -> %d, distinct %.1f%% -> %.1f%%, max set %d -> %d"
          % (a["rows_total"], b["rows_total"], da, db, a["max_set_size"],
             b["max_set_size"]))


def check_harness_heap(ctx):
    """The harness loads the source and the twin into the same heap
    (deterministic: malloc's allocated bytes after load), per impl."""
    check(ctx.a.harness, "no harness executables given")
    for kind in ("nb", "sb"):
        src, schema = ctx.source(kind, 0.02)
        _, twin = ctx.twin(src, schema, tag="twin-" + kind)
        for spec in ctx.a.harness:
            impl, exe = spec.split("=", 1)
            heap = []
            for db in (src, twin):
                out = ctx.path("r-%s-%s.json" % (impl, os.path.basename(db)))
                run([exe, "load", "--repetitions", "1", "--no-sha256",
                     "--results", out, db])
                res = json.load(open(out))
                load = [b for b in res["benchmarks"]
                        if b["name"].startswith("load/load")
                        and "aggregate_name" not in b]
                # malloc's figure; under ASan (no mallinfo) the bytes the
                # load allocated, as deterministic.
                figure = ("heap_allocated_bytes"
                          if load[0]["heap_allocated_bytes"] else
                          "alloc_bytes")
                heap.append(load[0][figure])
            check(heap[0] > 0, "%s %s: no heap figure" % (kind, impl))
            diff = 100.0 * (heap[1] - heap[0]) / heap[0]
            print("  %s %s: %s after load %d vs %d (%+.2f%%)"
                  % (kind, impl, figure, heap[0], heap[1], diff))
            check(abs(diff) <= 5, "%s %s: twin heap %+.2f%% off the source"
                  % (kind, impl, diff))


def check_errors(ctx):
    src, schema = ctx.source("nb", 0.005)
    data = open(src, "rb").read()
    cut = ctx.path("cut.db")
    with open(cut, "wb") as f:
        f.write(data[:len(data) - 100])
    p = run([ctx.a.stats, "--profile", cut], expect_ok=False)
    check(p.returncode != 0 and not p.stdout, "--profile of a cut file: rc "
          "%d, %d bytes out" % (p.returncode, len(p.stdout)))
    check(cut in p.stderr and "record 1" in p.stderr, "message does not "
          "name file and record: %s" % p.stderr)
    p = run([ctx.a.stats, "--compare", src, ctx.path("missing.db")],
            expect_ok=False)
    check(p.returncode not in (0, 3) and "missing.db" in p.stderr,
          "--compare with a missing twin: rc %d: %s" % (p.returncode,
                                                         p.stderr))
    for args in (["--compare", src], ["--drop-keys", src],
                 ["--profile", "--json", src], ["--profile", src, src]):
        p = run([ctx.a.stats] + args, expect_ok=False)
        check(p.returncode == 2 and "ovsdb-stats:" in p.stderr,
              "usage error %s: rc %d %s" % (args, p.returncode, p.stderr))
    # The profile syntax twins use, when wrong, names file and line.
    prof = ctx.derive(src, "good.profile")
    lines = open(prof).read().splitlines()
    for bad, what in (("draws sideways", "draws"),
                      ('  name str "{pool:0}x"', "pool"),
                      ('  name str "{pool:2}{pool:3}"', "twice"),
                      ('  name str "{text}"', "argument"),
                      ('  name str "{upper:-2}"', "negative")):
        broken = []
        for line in lines:
            broken.append(line)
            if bad.startswith("draws") and line == "draws even":
                broken[-1] = bad
            elif line == "table Logical_Switch 1" or \
                    re.match(r"table Logical_Switch \d+$", line):
                broken.append(bad)
        path = ctx.path("bad.profile")
        open(path, "w").write("\n".join(broken) + "\n")
        out = ctx.path("bad.db")
        p = run([ctx.a.gen, "--schema", NB, "--profile", path, "-o", out,
                 "-q"], expect_ok=False)
        check(p.returncode != 0 and re.search(r"bad\.profile:\d+: ", p.stderr)
              and what in p.stderr and not os.path.exists(out),
              "profile error %r: rc %d: %s" % (bad, p.returncode, p.stderr))


def write_db(path, schema_file, rows):
    """A standalone OVSDB file: the schema, then one transaction."""
    import hashlib
    schema = json.load(open(schema_file))
    with open(path, "wb") as f:
        for rec in (schema, dict(rows, _date=1700000000000)):
            body = json.dumps(rec, separators=(",", ":")).encode() + b"\n"
            f.write(b"OVSDB JSON %d %s\n" % (len(body), hashlib.sha1(body)
                                             .hexdigest().encode()))
            f.write(body)


def check_hostile(ctx):
    """Strings a profile line must not break on: quotes, backslashes,
    braces, '#', tabs, newlines, UTF-8, 20 KB; map keys with the same."""
    import uuid as uuidlib
    weird = ['a"b', 'c\\d', '{x}', '}}{{', '# not a comment', 'tab\there',
             'new\nline', 'caf\u00e9 \u65e5\u672c', 'x' * 20000, '',
             '@row', '{uuid}', 'pool:=3']
    switches, ports = {}, {}
    for i in range(60):
        pid = str(uuidlib.UUID(int=i + 1, version=4))
        ports[pid] = {"name": "p%d%s" % (i, weird[i % len(weird)][:50]),
                      "addresses": ["set", [weird[(i + 3) % len(weird)]]],
                      "external_ids": ["map", [[k, weird[(i + j) %
                                                         len(weird)]]
                                               for j, k in enumerate(
                                                   ['k"1', 'k\n2', 'k{3}',
                                                    'k#4'])]]}
    for i in range(6):
        sid = str(uuidlib.UUID(int=1000 + i, version=4))
        mine = list(ports)[i * 10:(i + 1) * 10]
        switches[sid] = {"name": weird[i] + str(i),
                         "ports": ["set", [["uuid", p] for p in mine]]}
    src = ctx.path("hostile.db")
    write_db(src, NB, {"Logical_Switch": switches,
                       "Logical_Switch_Port": ports})
    check(ctx.stats(src)["rows_total"] == 66, "the hostile source is wrong")
    prof, twin = ctx.twin(src, NB, tag="hostile")
    st = ctx.stats(twin)
    check(st["rows"] == {"Logical_Switch": 6, "Logical_Switch_Port": 60},
          "twin rows %s" % st["rows"])
    rows = tool_rows(ctx, twin)
    check(rows is None or rows == 66, "ovsdb-tool keeps %s rows" % rows)
    values, _ = strings_of(src)
    twin_values, _ = strings_of(twin)
    leaked = [v for v in values & twin_values if len(v) >= MIN_LEAK_LEN]
    check(not leaked, "source strings in the twin: %s" % leaked[:3])
    check(st["string_length"]["64+"] > 0, "the 20 KB strings are gone")


CHECKS = {
    "hostile": check_hostile,
    "roundtrip-nb": check_roundtrip("nb"),
    "roundtrip-sb": check_roundtrip("sb"),
    "roundtrip-k8s": check_roundtrip("k8s"),
    "roundtrip-log": check_roundtrip_log,
    "privacy": check_privacy,
    "drop-keys": check_drop_keys,
    "scaling": check_scaling,
    "harness-heap": check_harness_heap,
    "errors": check_errors,
}


def main():
    ap = named_check_parser(CHECKS, "--gen", "--stats", "--profiles")
    ap.add_argument("--k8s", required=True)
    ap.add_argument("--ovsdb-tool", default=shutil.which("ovsdb-tool"))
    ap.add_argument("--harness", action="append", default=[])
    args = ap.parse_args()
    need_schemas()
    return run_named_check(args.check,
                           lambda tmp: CHECKS[args.check](Ctx(args, tmp)),
                           "twins-test-")


if __name__ == "__main__":
    sys.exit(main())
