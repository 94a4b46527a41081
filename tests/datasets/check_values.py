"""A generated database holds, value by value, what its profile asks for.

usage: check_values.py --gen OVSDB_GEN --stats OVSDB_STATS --profiles DIR
                       CHECK [--k8s PROFILE]
CHECK: nb | sb | twin | k8s

Generates a small snapshot (ovsdb-gen) and reads it back with a profile
reader of its own (independent of datasets/profile*.c), then checks:
  - rows per table: ROWS x scale rounded (at least 1, `fixed` unscaled);
    a `per` table has a group of a size its DIST allows under each parent
    row, groups contiguous in parent order; a `children` table has exactly
    the rows its parents' children columns own, each owned once;
  - per column: `seq` (START + row), `mod`, `rank` (START + position in
    the `per` group), `cycle` (V[(row + j) % N]), `int` in its DIST,
    `pick`/`enum` in their sets, `bool` 0/1 fixed, `real` in [LO, HI),
    references by mode (`row`, `div K`, `owner`, `cover` round robin,
    random ones to existing rows, a set's as consecutive rows), set and
    `children` sizes in their DIST (clamped to the schema), `opt 1` always
    there, `optrow` columns mutually exclusive as their ranges say, map
    keys only the declared ones and those with chance 1 always there;
  - strings against their templates: literal text exact; `{i}`, `{ip4i}`,
    `{maci}` the row's own value; `{int:DIST}` in DIST; `{word:DIST}`,
    `{upper:..}`, `{alpha:..}`, `{text:..}` lengths in DIST; `{hex:N}`
    exactly N hex digits; UUID, MAC, IP shapes.
A column absent from a row holds its default ("", 0, false, empty), which
must be a value the spec allows.  Rows are read in file order, which is
the generator's row order.  twin: the profile ovsdb-stats --profile
derives from a generated NB database, generated and checked the same way.
Exit 1 naming table, row and column of the first values that differ."""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

SCHEMAS = {"nb": "/usr/share/ovn/ovn-nb.ovsschema", "sb": "/usr/share/ovn/ovn-sb.ovsschema"}
MAX_GENERATED_LEN = 16000
MAX_REPORTS = 25


class Fail(Exception):
    pass


# --- profile reading -------------------------------------------------------

TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|\S+')


def parse_dist(text):
    """'1:60,5..8:35' -> [(lo, hi, weight)]"""
    out = []
    for part in text.split(","):
        rng, _, w = part.partition(":")
        lo, dots, hi = rng.partition("..")
        out.append((int(lo), int(hi) if dots else int(lo), float(w) if w else 1.0))
    return out


def dist_has(dist, v):
    return any(lo <= v <= hi for lo, hi, _ in dist)


def dist_max(dist):
    return max(hi for _, hi, _ in dist)


def dist_min(dist):
    return min(lo for lo, _, _ in dist)


class Tmpl:
    """A string template as a regex plus checks on its captures."""

    def __init__(self, text):
        self.text = text
        self.checks = []        # (group name, kind, arg)
        self.row_exact = False  # {i}, {ip4i}, {maci}, {key}: unique per row
        pat = []
        i = 0
        n = 0
        while i < len(text):
            c = text[i]
            if text.startswith("{{", i) or text.startswith("}}", i):
                pat.append(re.escape(c))
                i += 2
                continue
            if c != "{":
                pat.append(re.escape(c))
                i += 1
                continue
            j = text.index("}", i)
            body = text[i + 1:j]
            i = j + 1
            body = body.split("@", 1)[0]
            name, _, arg = body.partition(":")
            g = "g%d" % n
            n += 1
            if name in ("uuid", "key"):
                pat.append("(?P<%s>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})" % g)
                if name == "key":
                    self.row_exact = True
            elif name == "i":
                pat.append("(?P<%s>[0-9]+)" % g)
                self.checks.append((g, "row", None))
                self.row_exact = True
            elif name == "int":
                pat.append("(?P<%s>-?[0-9]+)" % g)
                self.checks.append((g, "int", parse_dist(arg)))
            elif name == "hex":
                pat.append("[0-9a-f]{%d}" % int(arg))
            elif name == "ip4":
                pat.append(r"10\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}")
            elif name == "ip4i":
                pat.append(r"(?P<%s>[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+)" % g)
                self.checks.append((g, "ip4i", None))
                self.row_exact = True
            elif name == "ip6":
                pat.append(r"fd[0-9a-f:]+")
            elif name == "mac":
                pat.append(r"fa:16:3e:[0-9a-f]{2}:[0-9a-f]{2}:[0-9a-f]{2}")
            elif name == "maci":
                pat.append(r"(?P<%s>0a(?::[0-9a-f]{2}){5})" % g)
                self.checks.append((g, "maci", None))
                self.row_exact = True
            elif name in ("word", "upper", "alpha", "text"):
                cls = {"word": "[a-z]", "upper": "[A-Z]", "alpha": "[A-Za-z]",
                       "text": r"[a-z0-9 .:=\-_,;()\[\]/&|!$]"}[name]
                pat.append("(?P<%s>%s*)" % (g, cls))
                self.checks.append((g, "len", [(min(lo, MAX_GENERATED_LEN),
                                                min(hi, MAX_GENERATED_LEN), w)
                                               for lo, hi, w in parse_dist(arg)]))
            elif name in ("match", "actions"):
                pat.append(r"[^\x00-\x1f]*")
            elif name == "txn":
                pat.append("[0-9]+")
            elif name == "pool":
                pass
            else:
                raise SystemExit("check_values: unknown placeholder {%s} in %r" % (name, text))
        self.regex = re.compile("".join(pat), re.S)

    def why_not(self, s, row):
        m = self.regex.fullmatch(s)
        if not m:
            return "does not match template %r" % self.text
        for g, kind, arg in self.checks:
            v = m.group(g)
            if kind == "row" and int(v) != row:
                return "{i} is %s, row index %d (template %r)" % (v, row, self.text)
            if kind == "int" and not dist_has(arg, int(v)):
                return "{int} %s outside %s (template %r)" % (v, arg, self.text)
            if kind == "len" and not dist_has(arg, len(v)):
                return "piece %r of length %d outside %s (template %r)" % (
                    v, len(v), arg, self.text)
            if kind == "ip4i":
                want = "%d.%d.%d.%d" % (10 + (row >> 24), (row >> 16) & 255, (row >> 8) & 255,
                                        row & 255)
                if v != want:
                    return "{ip4i} %s, row %d gives %s" % (v, row, want)
            if kind == "maci":
                want = "0a:" + ":".join("%02x" % ((row >> (8 * k)) & 255) for k in range(4, -1, -1))
                if v != want:
                    return "{maci} %s, row %d gives %s" % (v, row, want)
        return None


def literal(tok):
    if tok.startswith('"'):
        return json.loads(tok)
    if tok in ("true", "false"):
        return tok == "true"
    try:
        return int(tok)
    except ValueError:
        return float(tok)


class Atom:
    """One VALUE spec."""

    def __init__(self, toks):
        kw = toks.pop(0)
        self.kind = kw
        if kw == "str":
            self.tmpls = [Tmpl(json.loads(toks.pop(0)))]
        elif kw == "oneof":
            n = int(toks.pop(0))
            self.tmpls = []
            for _ in range(n):
                self.tmpls.append(Tmpl(json.loads(toks.pop(0))))
                toks.pop(0)
        elif kw == "pick":
            n = int(toks.pop(0))
            self.values = []
            for _ in range(n):
                self.values.append(literal(toks.pop(0)))
                toks.pop(0)
        elif kw == "cycle":
            n = int(toks.pop(0))
            self.values = [literal(toks.pop(0)) for _ in range(n)]
        elif kw == "enum":
            pass
        elif kw == "int":
            self.dist = parse_dist(toks.pop(0))
        elif kw in ("seq", "rank"):
            self.start = int(toks.pop(0))
        elif kw == "mod":
            self.m = int(toks.pop(0))
            self.start = int(toks.pop(0))
        elif kw == "bool":
            self.p = float(toks.pop(0))
        elif kw == "real":
            self.lo = float(toks.pop(0))
            self.hi = float(toks.pop(0))
        elif kw == "ref":
            self.table = toks.pop(0)
            self.mode = "rand"
            if toks and toks[0] in ("rand", "cover", "row", "div", "owner"):
                self.mode = toks.pop(0)
                if self.mode == "div":
                    self.k = int(toks.pop(0))
        else:
            raise SystemExit("check_values: unknown value spec %r" % kw)

    @property
    def row_unique(self):
        return self.kind in ("str", "oneof") and len(self.tmpls) == 1 and \
            self.tmpls[0].row_exact and self.tmpls[0].text in ("{key}", "{i}", "{ip4i}", "{maci}")


class Col:
    def __init__(self, name, toks):
        self.name = name
        self.form = "scalar"
        self.p = 1.0
        self.optrow = None
        self.keys = {}
        while toks and toks[0] in ("opt", "optrow"):
            if toks.pop(0) == "opt":
                self.p = float(toks.pop(0))
            else:
                self.optrow = (float(toks.pop(0)), float(toks.pop(0)))
        kw = toks[0] if toks else None
        if kw == "set":
            toks.pop(0)
            self.form = "set"
            self.size = parse_dist(toks.pop(0))
            self.elem = Atom(toks)
        elif kw == "children":
            toks.pop(0)
            self.form = "children"
            self.size = parse_dist(toks.pop(0))
            self.child = toks.pop(0)
        elif kw == "map":
            toks.pop(0)
            self.form = "map"
        elif kw == "mapgen":
            toks.pop(0)
            self.form = "mapgen"
            self.size = parse_dist(toks.pop(0))
            self.key = Atom(toks)
            self.value = Atom(toks)
        else:
            self.elem = Atom(toks)


class Table:
    def __init__(self, name, toks):
        self.name = name
        self.cols = {}
        self.kind = "rows"
        self.fixed = False
        if toks[0] == "children":
            self.kind = "children"
        elif toks[0] == "per":
            self.kind = "per"
            self.parent = toks[1]
            self.group = parse_dist(toks[2])
        else:
            self.rows = float(toks[0])
            self.fixed = len(toks) > 1 and toks[1] == "fixed"


def read_profile(path):
    tables = {}
    table = col = None
    for lineno, line in enumerate(open(path), 1):
        stripped = line.split("#", 1)[0] if not '"' in line else line
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        toks = TOKEN.findall(line)
        # Comments after the tokens (outside quotes).
        if "#" in toks:
            toks = toks[:toks.index("#")]
        indent = len(line) - len(line.lstrip())
        if indent == 0:
            col = None
            if toks[0] == "table":
                table = Table(toks[1], toks[2:])
                tables[table.name] = table
            else:
                table = None
        elif toks[0] == "key" and col is not None and col.form == "map":
            col.keys[json.loads(toks[1])] = (float(toks[2]), Atom(toks[3:]))
        else:
            col = Col(toks[0], toks[1:])
            table.cols[col.name] = col
    return tables


# --- the database ----------------------------------------------------------

def read_snapshot(path):
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    records = []
    while pos < len(data):
        nl = data.index(b"\n", pos)
        header = data[pos:nl].split()
        n = int(header[2])
        records.append(json.loads(data[nl + 1:nl + 1 + n]))
        pos = nl + 1 + n
    return records[0], records[1]


def base_type(t):
    return {"type": t} if isinstance(t, str) else t


def col_type(schema_col):
    t = schema_col["type"]
    if isinstance(t, str):
        return {"key": {"type": t}, "min": 1, "max": 1}
    out = dict(t)
    out["key"] = base_type(t["key"])
    if "value" in t:
        out["value"] = base_type(t["value"])
    out.setdefault("min", 1)
    out.setdefault("max", 1)
    return out


def enum_values(bt):
    e = bt.get("enum")
    if e is None:
        return None
    if isinstance(e, list) and e and e[0] == "set":
        return set(e[1])
    return {e}


DEFAULTS = {"string": "", "integer": 0, "real": 0.0, "boolean": False,
            "uuid": ["uuid", "00000000-0000-0000-0000-000000000000"]}


class Checker:
    def __init__(self, profile, schema, db, scale):
        self.p = profile
        self.schema = schema["tables"]
        self.db = db
        self.scale = scale
        self.errors = []
        self.uuids = {}     # table -> [uuid in file order]
        self.index = {}     # table -> {uuid: row index}
        for t in self.p:
            rows = db.get(t, {})
            self.uuids[t] = list(rows)
            self.index[t] = {u: i for i, u in enumerate(rows)}
        self.owner = {}     # table -> [parent row index per row] (per tables)
        self.group_pos = {}  # table -> [position in group per row]
        self.children_refs = {}  # child table -> count of references

    def err(self, where, what):
        self.errors.append("%s: %s" % (where, what))

    # Atoms.
    def atom_why_not(self, a, v, bt, table, row, j):
        t = bt["type"]
        if a.kind in ("str", "oneof"):
            if not isinstance(v, str):
                return "not a string: %r" % (v,)
            maxlen = bt.get("maxLength")
            if maxlen is not None and len(v) >= maxlen:
                return None      # Truncated to the schema's limit.
            reasons = [tm.why_not(v, row) for tm in a.tmpls]
            if all(reasons):
                return "%r: %s" % (v, reasons[0] if len(reasons) == 1 else
                                   "matches none of %d templates (%s)" % (len(reasons), reasons[0]))
            return None
        if a.kind == "pick":
            return None if v in a.values and type(v) == type(a.values[0]) else \
                "%r not among %r" % (v, a.values)
        if a.kind == "enum":
            ev = enum_values(bt)
            return None if v in ev else "%r not in the enum" % (v,)
        if a.kind == "cycle":
            want = a.values[(row + j) % len(a.values)]
            return None if v == want else "%r, cycle gives %r at row %d" % (v, want, row)
        if a.kind == "int":
            if not isinstance(v, int) or isinstance(v, bool):
                return "not an integer: %r" % (v,)
            return None if dist_has(a.dist, v) else "%d outside %s" % (v, a.dist)
        if a.kind == "seq":
            want = a.start + row + j
            return None if v == want else "%r, seq gives %d at row %d" % (v, want, row)
        if a.kind == "mod":
            want = a.start + (row + j) % a.m
            return None if v == want else "%r, mod gives %d" % (v, want)
        if a.kind == "rank":
            want = a.start + self.group_pos[table][row]
            return None if v == want else "%r, rank gives %d (position %d in its group)" % (
                v, want, self.group_pos[table][row])
        if a.kind == "bool":
            if not isinstance(v, bool):
                return "not a boolean: %r" % (v,)
            if a.p >= 1 and not v or a.p <= 0 and v:
                return "%r with chance %g" % (v, a.p)
            return None
        if a.kind == "real":
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                return "not a real: %r" % (v,)
            return None if a.lo <= v <= a.hi else "%r outside [%g, %g)" % (v, a.lo, a.hi)
        if a.kind == "ref":
            if not (isinstance(v, list) and v[0] == "uuid"):
                return "not a UUID: %r" % (v,)
            target = self.index.get(a.table, {})
            if v[1] not in target:
                return "reference %s to no row of %s" % (v[1], a.table)
            n = len(target)
            got = target[v[1]]
            if a.mode == "row" and got != (row + j) % n:
                return "refers to row %d of %s, mode row gives %d" % (got, a.table, (row + j) % n)
            if a.mode == "div" and got != (row // a.k + j) % n:
                return "refers to row %d of %s, div %d gives %d" % (
                    got, a.table, a.k, (row // a.k + j) % n)
            if a.mode == "owner" and got != self.owner[table][row]:
                return "refers to row %d of %s, its owner is row %d" % (
                    got, a.table, self.owner[table][row])
            return None
        return "unchecked spec %s" % a.kind

    def atoms_of(self, v, ct):
        """Normalized column value: list of atoms, or list of pairs."""
        if isinstance(v, list) and v and v[0] == "set":
            return v[1]
        if isinstance(v, list) and v and v[0] == "map":
            return v[1]
        return [v]

    def check_table_counts(self):
        for name, t in self.p.items():
            n = len(self.uuids[name])
            if t.kind == "rows":
                want = t.rows if t.fixed else t.rows * self.scale
                want = 0 if t.rows == 0 else max(1, int(want + 0.5))
                if n != want:
                    self.err(name, "%d rows, profile asks for %d" % (n, want))

    def check_groups(self):
        for name, t in self.p.items():
            if t.kind != "per":
                continue
            owner_col = [c for c in t.cols.values()
                         if c.form == "scalar" and c.elem.kind == "ref" and c.elem.mode == "owner"]
            if not owner_col:
                self.err(name, "per table without an owner column")
                continue
            oc = owner_col[0].name
            parents = self.index[t.parent]
            owners, pos = [], []
            sizes = [0] * len(parents)
            last, p_in = -1, 0
            for i, u in enumerate(self.uuids[name]):
                ref = self.db[name][u].get(oc)
                o = parents.get(ref[1], -1) if isinstance(ref, list) else -1
                if o < last:
                    self.err("%s row %d" % (name, i), "group of parent row %d after row %d: "
                             "groups not contiguous in parent order" % (o, last))
                p_in = p_in + 1 if o == last else 0
                last = o
                owners.append(o)
                pos.append(p_in)
                if 0 <= o < len(sizes):
                    sizes[o] += 1
            self.owner[name], self.group_pos[name] = owners, pos
            for o, s in enumerate(sizes):
                if not dist_has(t.group, s):
                    self.err("%s group of %s row %d" % (name, t.parent, o),
                             "%d rows, profile allows %s" % (s, t.group))

    def clamp_sizes(self, dist, ct, elem=None):
        lo_s, hi_s = ct["min"], ct["max"]
        hi_s = 1 << 62 if hi_s == "unlimited" else hi_s

        def ok(n):
            return any(lo_s <= n <= hi_s and lo <= n <= hi for lo, hi, _ in dist) or \
                (n == lo_s and dist_min(dist) < lo_s) or (n == hi_s and dist_max(dist) > hi_s)
        return ok

    def check_rows(self):
        for name, t in self.p.items():
            scols = self.schema[name]["columns"]
            optrow_cols = [c for c in t.cols.values() if c.optrow]
            covers = {}
            seen_unique = {}
            for i, u in enumerate(self.uuids[name]):
                row = self.db[name][u]
                where = "%s row %d (%s)" % (name, i, u)
                for k in row:
                    if k not in t.cols:
                        self.err(where, "column %s that the profile does not set" % k)
                for cname, c in t.cols.items():
                    ct = col_type(scols[cname])
                    present = cname in row
                    w = "%s column %s" % (where, cname)
                    if c.optrow:
                        continue_optional = True
                    else:
                        continue_optional = c.p < 1
                    if c.form in ("map", "mapgen"):
                        pairs = self.atoms_of(row[cname], ct) if present else []
                        self.check_map(w, c, ct, pairs, name, i)
                        continue
                    if c.form == "children":
                        refs = self.atoms_of(row[cname], ct) if present else []
                        if not self.clamp_sizes(c.size, ct)(len(refs)):
                            self.err(w, "%d children, profile allows %s" % (len(refs), c.size))
                        for r in refs:
                            if not (isinstance(r, list) and r[1] in self.index.get(c.child, {})):
                                self.err(w, "child %r is no row of %s" % (r, c.child))
                            else:
                                self.children_refs.setdefault(c.child, {}).setdefault(r[1], 0)
                                self.children_refs[c.child][r[1]] += 1
                        continue
                    is_set = not (ct["min"] == 1 and ct["max"] == 1)
                    if present:
                        atoms = self.atoms_of(row[cname], ct)
                    elif is_set:
                        atoms = []
                    else:
                        atoms = [DEFAULTS[ct["key"]["type"]]]
                    if c.form == "set":
                        n = len(atoms)
                        ok = self.clamp_sizes(c.size, ct)
                        if c.elem.kind == "ref":
                            cap = len(self.index.get(c.elem.table, {}))
                            good = ok(n) or (n == cap and dist_max(c.size) > cap)
                        elif c.elem.kind in ("str", "oneof", "pick", "int", "bool", "real",
                                             "enum"):
                            # Equal draws collapse into one element.
                            good = ok(n) or (0 < n < dist_max(c.size))
                        else:
                            good = ok(n)
                        if not good and not (n == 0 and (c.p < 1 or c.optrow)):
                            self.err(w, "set of %d, profile allows %s" % (n, c.size))
                    else:
                        if is_set and not atoms and not (c.p < 1 or c.optrow):
                            self.err(w, "missing (set of one expected)")
                        if len(atoms) > 1:
                            self.err(w, "%d values for a one-value spec" % len(atoms))
                    if c.p >= 1 and not c.optrow and is_set and not atoms:
                        if not (c.form == "set" and dist_min(c.size) == 0):
                            self.err(w, "absent, profile has it always")
                    for j, a in enumerate(atoms):
                        why = self.atom_why_not(c.elem, a, ct["key"], name, i, j)
                        if why:
                            self.err(w, why)
                        if c.elem.kind == "ref" and c.elem.mode == "cover":
                            covers.setdefault(cname, []).append(self.index[c.elem.table].get(a[1]))
                    if c.elem.kind == "ref" and c.elem.mode == "rand" and len(atoms) > 1:
                        idx = [self.index[c.elem.table].get(a[1]) for a in atoms]
                        n_t = len(self.index[c.elem.table])
                        if None not in idx and sorted(idx) != sorted(
                                (idx[0] + k) % n_t for k in range(len(idx))) and \
                                len(set(idx)) != len(idx):
                            self.err(w, "set of references to repeated rows %s" % idx)
                    if c.elem.row_unique and atoms:
                        seen_unique.setdefault(cname, {})
                        if atoms[0] in seen_unique[cname]:
                            self.err(w, "%r repeats row %d's, unique per row" % (
                                atoms[0], seen_unique[cname][atoms[0]]))
                        seen_unique[cname][atoms[0]] = i
                if optrow_cols:
                    on = [c for c in optrow_cols if c.name in row]
                    lo = max([c.optrow[0] for c in on], default=0)
                    hi = min([c.optrow[1] for c in on], default=1)
                    if lo >= hi:
                        self.err(where, "optrow columns %s all present, ranges exclude each other"
                                 % [c.name for c in on])
                    cover = sorted(c.optrow for c in optrow_cols)
                    covered = cover[0][0] <= 0 and all(a[1] >= b[0] for a, b in
                                                       zip(cover, cover[1:])) and \
                        max(c[1] for c in cover) >= 1
                    if covered and not on:
                        self.err(where, "none of the optrow columns %s, their ranges cover [0,1)"
                                 % [c.name for c in optrow_cols])
            for cname, seq in covers.items():
                tbl = t.cols[cname].elem.table
                n_t = len(self.index[tbl])
                want = [k % n_t for k in range(len(seq))]
                if seq != want:
                    k = next(k for k in range(len(seq)) if seq[k] != want[k])
                    self.err("%s column %s" % (name, cname),
                             "cover reference %d is row %s of %s, round robin gives %d"
                             % (k, seq[k], tbl, want[k]))
        for name, t in self.p.items():
            if t.kind != "children":
                continue
            owned = self.children_refs.get(name, {})
            for i, u in enumerate(self.uuids[name]):
                if owned.get(u, 0) != 1:
                    self.err("%s row %d" % (name, i), "owned by %d children columns, not 1"
                             % owned.get(u, 0))

    def check_map(self, w, c, ct, pairs, table, row):
        if c.form == "map":
            keys = {}
            for k, v in pairs:
                if k not in c.keys:
                    self.err(w, "key %r not in the profile" % (k,))
                    continue
                keys[k] = v
                why = self.atom_why_not(c.keys[k][1], v, ct["value"], table, row, 0)
                if why:
                    self.err(w, "key %r: %s" % (k, why))
            for k, (p, _) in c.keys.items():
                if p >= 1 and k not in keys:
                    self.err(w, "key %r missing, its chance is 1" % k)
        else:
            n = len(pairs)
            if n > dist_max(c.size) or (n == 0 and dist_min(c.size) > 0 and ct["min"] > 0):
                self.err(w, "map of %d pairs, profile allows %s" % (n, c.size))
            for j, (k, v) in enumerate(pairs):
                why = self.atom_why_not(c.key, k, ct["key"], table, row, j) or \
                    self.atom_why_not(c.value, v, ct["value"], table, row, j)
                if why:
                    self.err(w, "pair %r: %s" % ((k, v), why))

    def run(self):
        self.check_table_counts()
        self.check_groups()
        self.check_rows()
        return self.errors


# --- driver ---------------------------------------------------------------

def generate(gen, schema, profile, scale, seed, out):
    subprocess.run([gen, "--schema", schema, "--profile", profile, "--scale", str(scale),
                    "--form", "snapshot", "--seed", str(seed), "-q", "-o", out], check=True)


def check_one(gen, schema_path, profile_path, scale, seed, tmp, label):
    db_path = os.path.join(tmp, label + ".db")
    generate(gen, schema_path, profile_path, scale, seed, db_path)
    schema, db = read_snapshot(db_path)
    profile = read_profile(profile_path)
    errors = Checker(profile, schema, db, scale).run()
    n_rows = sum(len(db.get(t, {})) for t in profile)
    if errors:
        for e in errors[:MAX_REPORTS]:
            print("%s: %s" % (label, e), file=sys.stderr)
        print("%s: %d value(s) differ from the profile (%d rows checked)"
              % (label, len(errors), n_rows), file=sys.stderr)
        return False
    print("%s: %d rows of %d tables hold what %s asks for" % (
        label, n_rows, len(profile), os.path.basename(profile_path)))
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("check", choices=["nb", "sb", "twin", "k8s"])
    ap.add_argument("--gen", required=True)
    ap.add_argument("--stats", required=True)
    ap.add_argument("--profiles", required=True)
    ap.add_argument("--k8s")
    args = ap.parse_args()
    for s in SCHEMAS.values():
        if not os.path.isfile(s):
            print("SKIP: %s not installed (ovn-common)" % s)
            sys.exit(77)
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        if args.check in ("nb", "sb"):
            prof = os.path.join(args.profiles, args.check + ".profile")
            for scale, seed in ((0.004, 1), (0.0005, 9)):
                ok &= check_one(args.gen, SCHEMAS[args.check], prof, scale, seed, tmp,
                                "%s-%g-%d" % (args.check, scale, seed))
        elif args.check == "k8s":
            ok &= check_one(args.gen, SCHEMAS["nb"], args.k8s, 0.05, 2, tmp, "k8s")
        else:
            for kind in ("nb", "sb"):
                src = os.path.join(tmp, kind + "-source.db")
                generate(args.gen, SCHEMAS[kind], os.path.join(args.profiles, kind + ".profile"),
                         0.003, 5, src)
                twin = os.path.join(tmp, kind + "-twin.profile")
                with open(twin, "w") as f:
                    subprocess.run([args.stats, "--profile", src], stdout=f, check=True)
                ok &= check_one(args.gen, SCHEMAS[kind], twin, 1, 3, tmp, kind + "-twin")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
