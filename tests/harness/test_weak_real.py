#!/usr/bin/env python3
"""Weak references as the installed ovsdb-tool applies them.

A small schema of its own: table A with weak references to B in a set of
at least one (w1), a set of any size (w0), a map with weak values and at
least one pair (wm) and a map with weak keys (wk).  Each case is a log
(ovsdb-tool create, then transaction records written here) whose last
transaction deletes referenced rows, references missing ones, or both;
OVS drops the dangling references and fails the transaction with a
constraint violation where a column is left with fewer elements than its
minimum.  Reading a log, OVS takes a transaction that fails as the end of
the log (ovsdb-tool query then shows the rows before it, silently): so
ovsdb-tool fails a case's transaction if its rows after the whole log are
those after the base transactions (every case changes something).  The
harness's full model (jsonbench load and dump) must apply exactly the
transactions ovsdb-tool applies, with the same rows and values, and reject
the others with a constraint violation (it reports bad input instead of
ignoring the rest of the file).
This checks harness/txn.c's weak-reference rules against real OVS,
independently of test_model.py.

usage: test_weak_real.py JSONBENCH
Exit 77 (skipped) where ovsdb-tool is not installed."""
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

from harnesslib import fail

SCHEMA = {"name": "W", "version": "1.0.0", "tables": {
    "A": {"columns": {
        "name": {"type": "string"},
        "w1": {"type": {"key": {"type": "uuid", "refTable": "B",
                                "refType": "weak"},
                        "min": 1, "max": "unlimited"}},
        "w0": {"type": {"key": {"type": "uuid", "refTable": "B",
                                "refType": "weak"},
                        "min": 0, "max": "unlimited"}},
        "wm": {"type": {"key": "string",
                        "value": {"type": "uuid", "refTable": "B",
                                  "refType": "weak"},
                        "min": 1, "max": "unlimited"}},
        "wk": {"type": {"key": {"type": "uuid", "refTable": "B",
                                "refType": "weak"},
                        "value": "integer", "min": 0, "max": "unlimited"}}},
        "isRoot": True},
    "B": {"columns": {"n": {"type": "integer"}}, "isRoot": True}}}

MISSING = "0badc0de-0000-4000-8000-00000000dead"


def u(n):
    return "00000000-0000-4000-8000-%012d" % n


B1, B2, B3, A1, A2 = u(1), u(2), u(3), u(11), u(12)


def ref(x):
    return ["uuid", x]


def refs(*xs):
    return ["set", [ref(x) for x in xs]]


def row_a(name, w1, w0=(), wm=None, wk=None):
    r = {"name": name, "w1": refs(*w1), "w0": refs(*w0)}
    r["wm"] = ["map", [[k, ref(v)] for k, v in (wm or {}).items()]]
    r["wk"] = ["map", [[ref(k), v] for k, v in (wk or {}).items()]]
    return r


BASE = [{"B": {B1: {"n": 1}, B2: {"n": 2}, B3: {"n": 3}}},
        {"A": {A1: row_a("a1", [B1], [B1, B2], {"x": B1}, {B1: 7}),
               A2: row_a("a2", [B1, B2], [B2], {"x": B1, "y": B2},
                         {B1: 1, B2: 2})}}]

# name -> the transactions after BASE.
CASES = {
    "base": [],
    "delete B3 (unreferenced)": [{"B": {B3: None}}],
    "delete B2: w1 of a2 keeps B1": [{"B": {B2: None}}],
    "delete B1: w1 and wm of a1 left empty": [{"B": {B1: None}}],
    "delete B1 and B2": [{"B": {B1: None, B2: None}}],
    "delete B1, a1 repointed to B3 in the same txn": [
        {"B": {B1: None}, "A": {A1: row_a("a1", [B3], [], {"x": B3}, {})},
         }],
    "delete B1, a1 deleted in the same txn": [
        {"B": {B1: None}, "A": {A1: None,
                                A2: row_a("a2", [B2], [], {"y": B2}, {})}}],
    "insert with w1 only missing": [
        {"A": {u(21): row_a("c", [MISSING], [], {"x": B1})}}],
    "insert with w1 missing and B3": [
        {"A": {u(21): row_a("c", [MISSING, B3], [], {"x": B1})}}],
    "insert with w0 missing": [
        {"A": {u(21): row_a("c", [B3], [MISSING], {"x": B1})}}],
    "insert with wm only missing": [
        {"A": {u(21): row_a("c", [B3], [], {"x": MISSING})}}],
    "insert with wm missing and B3": [
        {"A": {u(21): row_a("c", [B3], [], {"x": MISSING, "y": B3})}}],
    "insert with wk missing key": [
        {"A": {u(21): row_a("c", [B3], [], {"x": B3}, {MISSING: 5, B3: 6})}}],
    "insert with w1 empty": [
        {"A": {u(21): row_a("c", [], [], {"x": B3})}}],
    "delete B2 and B3, insert referencing B3": [
        {"B": {B2: None, B3: None},
         "A": {u(21): row_a("c", [B3, B1], [B3], {"x": B1})}}],
}


def record(obj):
    body = json.dumps(obj, separators=(",", ":")).encode() + b"\n"
    return b"OVSDB JSON %d %s\n" % (len(body), hashlib.sha1(body).hexdigest()
                                   .encode()) + body


def tool(*args):
    p = subprocess.run([shutil.which("ovsdb-tool")] + list(args),
                       capture_output=True, text=True)
    return p.returncode == 0, p.stdout, p.stderr.strip()


def real_rows(db):
    ok, out, err = tool("query", db, json.dumps(
        ["W", {"op": "select", "table": "A", "where": []},
         {"op": "select", "table": "B", "where": []}]))
    if not ok:
        return None, err
    res = json.loads(out)
    return {t: norm(r["rows"]) for t, r in zip("AB", res)}, None


def norm(rows):
    """{uuid: {column: canonical value}} without _version, defaults
    dropped, sets and maps in sorted order."""
    out = {}
    for r in rows:
        uuid = r["_uuid"][1]
        cols = {}
        for c, v in r.items():
            if c in ("_uuid", "_version"):
                continue
            if isinstance(v, list) and v[0] == "set":
                v = sorted(json.dumps(x) for x in v[1])
            elif isinstance(v, list) and v[0] == "map":
                v = sorted(json.dumps(x) for x in v[1])
            elif isinstance(v, list) and v[0] == "uuid":
                v = [json.dumps(v)]
            if v in ([], "", 0, False):
                continue
            cols[c] = v
        out[uuid] = cols
    return out


def model_rows(exe, db, tmp):
    out = os.path.join(tmp, "dump.json")
    p = subprocess.run([exe, "dump", "--no-sha256", "--output", out, db],
                       capture_output=True, text=True)
    if p.returncode:
        return None, p.stderr.strip()
    tables = json.load(open(out))["result"]
    return {t: norm(tables[i]["rows"]) for i, t in enumerate("AB")}, None


def main():
    exe = sys.argv[1]
    if not shutil.which("ovsdb-tool"):
        print("SKIP: ovsdb-tool is not installed (openvswitch-common)")
        sys.exit(77)
    verdicts = {}
    with tempfile.TemporaryDirectory() as tmp:
        schema = os.path.join(tmp, "w.ovsschema")
        with open(schema, "w") as f:
            json.dump(SCHEMA, f)

        def write_log(txns):
            db = os.path.join(tmp, "case.db")
            if os.path.exists(db):
                os.unlink(db)
            ok, _, err = tool("create", db, schema)
            if not ok:
                fail("ovsdb-tool create: %s" % err)
            with open(db, "ab") as f:
                for k, t in enumerate(BASE + txns):
                    f.write(record(dict(t, _date=1700000000000 + k,
                                        _comment="case")))
            return db

        base, err = real_rows(write_log([]))
        if base is None:
            fail("ovsdb-tool rejects the base transactions: %s" % err)
        for name, txns in CASES.items():
            db = write_log(txns)
            real, real_err = real_rows(db)
            model, model_err = model_rows(exe, db, tmp)
            if real is None:
                # Not a transaction that fails: a file ovsdb-tool cannot
                # read at all.  The model must not read it either.
                verdicts[name] = False
                if model is not None:
                    fail("%s: the model reads the log, ovsdb-tool fails: %s"
                         % (name, real_err))
                continue
            applied = not txns or real != base
            verdicts[name] = applied
            if applied != (model is not None):
                fail("%s: the model %s the last transaction, ovsdb-tool %s "
                     "it: %s" % (name,
                                 "applies" if model is not None else "fails",
                                 "applies" if applied else "fails",
                                 model_err[-300:] if model_err else ""))
            if not applied:
                if "constraint violation" not in model_err:
                    fail("%s: the model rejects it without a constraint "
                         "violation: %s" % (name, model_err))
            elif real != model:
                for t in "AB":
                    for uuid in sorted(set(real[t]) | set(model[t])):
                        if real[t].get(uuid) != model[t].get(uuid):
                            fail("%s: %s row %s: model %s, ovsdb-tool %s"
                                 % (name, t, uuid, model[t].get(uuid),
                                    real[t].get(uuid)))
    # The cases must exercise both outcomes.
    if all(verdicts.values()) or not any(verdicts.values()):
        fail("ovsdb-tool gave one verdict for every case: %s" % verdicts)
    print("ok: %d weak-reference logs: %d applied with the same rows, %d "
          "failed, as ovsdb-tool" % (len(verdicts),
                                       sum(verdicts.values()),
                                       len(verdicts) - sum(verdicts.values())))


if __name__ == "__main__":
    main()
