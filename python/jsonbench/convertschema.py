"""The schema the `convert` workload converts a database to: derived from
the database's own schema (its first record) the way a new OVN schema
version changes the last one, deterministically, and written next to the
database (nb-s0.1-snapshot-seed1.ovsdb ->
nb-s0.1-snapshot-seed1-convert.ovsschema).  The real `ovsdb-tool convert`
and `ovsdb-client convert` accept it, and every row of the database
converts to it.

What changes (the kinds of change OVN's schema updates make):
  - the version's minor number goes up (patch 0), the checksum goes;
  - every table gains two columns: ADDED_COLUMNS, left at their
    defaults (an empty map, the integer 0);
  - types are widened: every enum gains the value NEW_ENUM_VALUE, every
    integer range loses its maximum (so those columns change type and
    go through JSON in an online conversion; the others keep theirs);
  - a table is added: ADDED_TABLE, empty.
"""

import copy
import json
import os
import sys

SUFFIX = "-convert.ovsschema"
ADDED_TABLE = "JSONBench_Added"
ADDED_COLUMNS = {
    "jsonbench_options": {"type": {"key": "string", "value": "string",
                                   "min": 0, "max": "unlimited"}},
    "jsonbench_priority": {"type": "integer"},
}
NEW_ENUM_VALUE = "jsonbench-new"


class Error(Exception):
    pass


def read_schema(db_path):
    """The schema record of an OVSDB standalone file, as a dict."""
    try:
        with open(db_path, "rb") as f:
            header = f.readline()
            parts = header.split()
            if len(parts) != 4 or parts[:2] != [b"OVSDB", b"JSON"]:
                raise Error("%s: byte offset 0: not a standalone OVSDB file "
                            "(header %r)" % (db_path, header[:40]))
            text = f.read(int(parts[2]))
        return json.loads(text)
    except (OSError, ValueError) as e:
        raise Error("%s: schema record: %s" % (db_path, e))


def _widen_base(base):
    """A base type (dict form) widened in place; True if it changed."""
    changed = False
    enum = base.get("enum")
    if enum is not None and base.get("type") == "string":
        values = enum[1] if isinstance(enum, list) else [enum]
        if NEW_ENUM_VALUE not in values:
            base["enum"] = ["set", sorted(values + [NEW_ENUM_VALUE])]
            changed = True
    if base.get("type") == "integer" and "maxInteger" in base \
            and "enum" not in base:
        del base["maxInteger"]
        changed = True
    return changed


def _widen(column):
    t = column["type"]
    if not isinstance(t, dict):
        return False
    changed = False
    for k in ("key", "value"):
        if isinstance(t.get(k), dict):
            changed |= _widen_base(t[k])
    return changed


def derive(schema):
    """The target schema of 'schema' (a dict; not changed)."""
    new = copy.deepcopy(schema)
    v = [int(x) for x in new.get("version", "0.0.0").split(".")]
    new["version"] = "%d.%d.0" % (v[0], v[1] + 1)
    new.pop("cksum", None)
    for name in sorted(new["tables"]):
        cols = new["tables"][name]["columns"]
        for c in sorted(cols):
            _widen(cols[c])
        for c, spec in ADDED_COLUMNS.items():
            cols.setdefault(c, copy.deepcopy(spec))
    new["tables"].setdefault(ADDED_TABLE, {
        "columns": {"name": {"type": "string"},
                    "options": {"type": {"key": "string", "value": "string",
                                         "min": 0, "max": "unlimited"}}},
        "isRoot": True, "indexes": [["name"]]})
    return new


def changed_columns(schema):
    """(table, column) pairs whose type derive() changes."""
    out = []
    for name, t in sorted(schema["tables"].items()):
        for c, spec in sorted(t["columns"].items()):
            if _widen(copy.deepcopy(spec)):
                out.append((name, c))
    return out


def path_for(db_path):
    base = db_path[:-len(".ovsdb")] if db_path.endswith(".ovsdb") \
        else db_path
    return base + SUFFIX


def ensure(db_path, out=None):
    """Writes the target schema of 'db_path' (to 'out', default next to
    it) unless the same text is there; returns its path.  Raises Error."""
    out = out or path_for(db_path)
    text = json.dumps(derive(read_schema(db_path)), sort_keys=True,
                      indent=1) + "\n"
    try:
        with open(out) as f:
            if f.read() == text:
                return out
    except OSError:
        pass
    tmp = "%s.%d.tmp" % (out, os.getpid())
    try:
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, out)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise Error("%s: %s" % (out, e))
    return out


def main(argv):
    """python3 -m jsonbench.convertschema DB...: writes each target schema
    next to its database and prints its path."""
    if not argv:
        print("usage: python3 -m jsonbench.convertschema DB...")
        return 2
    for db in argv:
        try:
            print(ensure(db))
        except Error as e:
            print("convertschema: %s" % e, file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
