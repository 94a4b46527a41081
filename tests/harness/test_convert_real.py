#!/usr/bin/env python3
"""The convert workload against the real tools: the schema
jsonbench.convertschema derives is accepted by `ovsdb-tool convert`
(offline) and `ovsdb-client convert` (online, against ovsdb-server), and
the model's converted database (every mode) has exactly their rows; the
model's file opens in ovsdb-tool with the new version.  A schema the data
cannot convert to (an enum narrowed below the values used) fails in the
model, naming the database file and record offset (offline) or table, row
and column (online), with exit 1 and no output file, as the real tool
fails too; so does a schema file that is not JSON.  Skips (77) without
ovsdb-tool; the online check skips without ovsdb-server.

usage: test_convert_real.py SOURCE-ROOT HARNESS-EXE DB...
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

MODES = ("offline", "online", "online-json")


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def records(path):
    """Every record of a standalone OVSDB file, parsed."""
    out = []
    with open(path, "rb") as f:
        while True:
            header = f.readline()
            if not header:
                return out
            out.append(json.loads(f.read(int(header.split()[2]))))


def rows(path, tmp):
    """{table: {uuid: row}} of a database file, compacted by ovsdb-tool
    into one snapshot first."""
    snap = os.path.join(tmp, "snap-%d.ovsdb" % time.monotonic_ns())
    subprocess.run(["ovsdb-tool", "compact", path, snap], check=True)
    recs = records(snap)
    os.unlink(snap)
    if len(recs) != 2:
        fail("%s: %d records after compaction" % (path, len(recs)))
    return {t: r for t, r in recs[1].items() if not t.startswith("_")}


def model(exe, db, schema, mode, out, extra=()):
    return subprocess.run([exe, "convert", "--schema", schema, "--mode",
                           mode, "--output", out] + list(extra) + [db],
                          capture_output=True, text=True)


def online_real(db, schema, tmp):
    """The file ovsdb-server leaves after `ovsdb-client convert`."""
    copy = os.path.join(tmp, "online-real.ovsdb")
    shutil.copyfile(db, copy)
    sock, ctl = os.path.join(tmp, "s.sock"), os.path.join(tmp, "s.ctl")
    srv = subprocess.Popen(["ovsdb-server", copy, "--remote=punix:" + sock,
                            "--unixctl=" + ctl, "-vconsole:off"],
                           stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            if os.path.exists(sock) and os.path.exists(ctl):
                break
            time.sleep(0.05)
        subprocess.run(["ovsdb-client", "convert", "unix:" + sock, schema],
                       check=True, timeout=120)
    finally:
        srv.terminate()
        srv.wait(30)
    return copy


def narrowed(schema_path, db, tmp):
    """A schema that the data of 'db' cannot convert to: the first string
    column with a value in the first table that has rows gets an enum of
    one unused value.  Returns (path, table, column)."""
    recs = records(db)
    schema = json.load(open(schema_path))
    for table, trows in sorted(recs[1].items()):
        if table.startswith("_") or not trows:
            continue
        cols = schema["tables"][table]["columns"]
        for row in trows.values():
            for c, v in sorted(row.items()):
                t = cols[c]["type"]
                if t == "string" and isinstance(v, str):
                    cols[c]["type"] = {"key": {"type": "string",
                                               "enum": "jsonbench-none"}}
                    path = os.path.join(tmp, "narrow.ovsschema")
                    with open(path, "w") as f:
                        json.dump(schema, f)
                    return path, table, c
    fail("%s: no string column to narrow" % db)


def check_db(root, exe, db, tmp):
    sys.path.insert(0, os.path.join(root, "python"))
    from jsonbench import convertschema
    schema = convertschema.ensure(db, os.path.join(tmp, "target.ovsschema"))
    version = json.load(open(schema))["version"]
    offline = os.path.join(tmp, "offline-real.ovsdb")
    subprocess.run(["ovsdb-tool", "convert", db, schema, offline],
                   check=True)
    want = rows(offline, tmp)
    if not any(want.values()):
        fail("%s: no rows converted" % db)
    if shutil.which("ovsdb-server") and shutil.which("ovsdb-client"):
        got = rows(online_real(db, schema, tmp), tmp)
        if got != want:
            fail("%s: ovsdb-client convert and ovsdb-tool convert differ"
                 % db)
    else:
        print("no ovsdb-server: online conversion not checked")
    for mode, extra in [(m, ()) for m in MODES] + [
            ("online", ("--model", "json-only"))]:
        out = os.path.join(tmp, "model-%s.ovsdb" % mode)
        p = model(exe, db, schema, mode, out, extra)
        if p.returncode:
            fail("model %s: %s" % (mode, p.stderr))
        if rows(out, tmp) != want:
            fail("%s: model --mode %s rows differ from ovsdb-tool's"
                 % (db, mode))
        v = subprocess.run(["ovsdb-tool", "db-version", out], check=True,
                           capture_output=True, text=True).stdout.strip()
        if v != version:
            fail("model %s: version %s, want %s" % (mode, v, version))
        os.unlink(out)

    # A schema the data does not fit.
    bad, table, column = narrowed(schema, db, tmp)
    if subprocess.run(["ovsdb-tool", "convert", db, bad,
                       os.path.join(tmp, "bad-real.ovsdb")],
                      capture_output=True).returncode == 0:
        fail("ovsdb-tool converted to %s" % bad)
    for mode in MODES:
        out = os.path.join(tmp, "bad-%s.ovsdb" % mode)
        p = model(exe, db, bad, mode, out)
        err = p.stderr
        if p.returncode != 1 or db not in err:
            fail("narrowed %s: exit %d: %s" % (mode, p.returncode, err))
        where = ("record 1 at byte offset" if mode == "offline"
                 else "table %s row " % table)
        if where not in err or column not in err:
            fail("narrowed %s: no %r or %s in: %s" % (mode, where, column,
                                                      err))
        if [f for f in os.listdir(tmp) if f.startswith("bad-%s" % mode)]:
            fail("narrowed %s: output left behind" % mode)
    notjson = os.path.join(tmp, "notjson.ovsschema")
    with open(notjson, "w") as f:
        f.write('{"name": "x", "tables": {\n')
    p = model(exe, db, notjson, "online", os.path.join(tmp, "nj.ovsdb"))
    if p.returncode != 1 or notjson not in p.stderr:
        fail("schema not JSON: exit %d: %s" % (p.returncode, p.stderr))
    return sum(len(r) for r in want.values())


def main():
    root, exe = sys.argv[1:3]
    if not shutil.which("ovsdb-tool"):
        print("SKIP: no ovsdb-tool")
        sys.exit(77)
    n = 0
    for db in sys.argv[3:]:
        with tempfile.TemporaryDirectory() as tmp:
            n += check_db(root, exe, db, tmp)
    print("ok: %d converted rows equal to ovsdb-tool's, every mode" % n)


if __name__ == "__main__":
    main()
