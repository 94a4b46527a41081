#!/usr/bin/env python3
"""The package's import graph against its layers (jsonbench.layers).

Reads every module of python/jsonbench with the ast module (imports at the
top of a file and inside functions alike, relative ones resolved) and
fails when:
  - a module has no layer in jsonbench.layers.LAYERS;
  - a module imports one of a higher layer;
  - the imports hold a cycle (any length, function-level imports included);
  - a module is longer than jsonbench.layers.MAX_LINES lines;
  - a module imports by name at run time (importlib, __import__), which
    this reading could not see.
Each failure is named (module, line, the import).  With --graph prints
every module's layer and imports.

usage: test_layers.py [--graph] SOURCE_ROOT"""

import ast
import os
import sys

# Imports this test would flag today (an upward import, or one edge of a
# cycle), each waiting to be moved, and modules too long; an entry that no
# longer happens fails too, so the lists only shrink.
KNOWN = set()
KNOWN_LONG = set()


def modules(pkg_root):
    """{dotted name: path} of every module under python/jsonbench."""
    out = {}
    base = os.path.dirname(pkg_root)
    for d, dirs, files in os.walk(pkg_root):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        for f in sorted(files):
            if not f.endswith(".py"):
                continue
            path = os.path.join(d, f)
            name = os.path.relpath(path, base)[:-3].replace(os.sep, ".")
            if name.endswith(".__init__"):
                name = name[:-len(".__init__")]
            out[name] = path
    return out


def _target(name, mods):
    """The module of the package an imported name lands in (a name
    imported from a package may be a module of it), None outside."""
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


def imports(name, path, mods):
    """[(line, imported module, "top" or "function")] of one module."""
    tree = ast.parse(open(path).read(), path)
    is_pkg = path.endswith("__init__.py")
    top_level = set()

    def mark(body):
        for node in body:
            top_level.add(node)
            for field in ("body", "orelse", "finalbody", "handlers"):
                sub = getattr(node, field, None)
                if isinstance(sub, list) and not isinstance(
                        node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    mark(sub)
    mark(tree.body)
    out = []
    for node in ast.walk(tree):
        where = "top" if node in top_level else "function"
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = name.split(".")
                if not is_pkg:
                    parts = parts[:-1]
                parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            names = [base + "." + a.name for a in node.names]
        elif isinstance(node, ast.Call) and (
                (isinstance(node.func, ast.Name) and node.func.id == "__import__")
                or (isinstance(node.func, ast.Attribute)
                    and node.func.attr == "import_module")):
            out.append((node.lineno, "<run-time import>", where))
            continue
        else:
            continue
        for n in names:
            t = _target(n, mods)
            if t and t != name:
                out.append((node.lineno, t, where))
    return out


def cycles(edges):
    """The strongly connected components with more than one module
    (Tarjan, iterative), each sorted."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def check(src_root, graph=False):
    sys.path.insert(0, os.path.join(src_root, "python"))
    from jsonbench import layers as L
    mods = modules(os.path.join(src_root, "python", "jsonbench"))
    problems, seen_known, reported = [], set(), set()
    edges = {}
    for name, path in sorted(mods.items()):
        mine = L.layer_of(name)
        rel = os.path.relpath(path, src_root)
        if mine is None:
            problems.append("%s: no layer in jsonbench/layers.py" % rel)
            continue
        n = sum(1 for _ in open(path))
        if n > L.MAX_LINES and name in KNOWN_LONG:
            seen_known.add(name)
        if n > L.MAX_LINES and name not in KNOWN_LONG:
            problems.append("%s: %d lines (at most %d)" % (rel, n, L.MAX_LINES))
        edges[name] = set()
        found = imports(name, path, mods)
        if graph:
            print("%-40s %-12s %s" % (name, mine, ", ".join(
                sorted({"%s%s" % (t, "*" if w == "function" else "")
                        for _l, t, w in found}))))
        for line, target, where in found:
            if target == "<run-time import>":
                problems.append("%s:%d: a run-time import (importlib/__import__)"
                                % (rel, line))
                continue
            if (name, target) in KNOWN:
                seen_known.add((name, target))
                continue
            edges[name].add(target)
            theirs = L.layer_of(target)
            if theirs is None:
                continue    # reported as a module without a layer
            if L.rank(theirs) > L.rank(mine) and (name, target) not in reported:
                reported.add((name, target))
                problems.append("%s:%d: %s (%s) imports %s (%s), a higher layer (%s-level)"
                                % (rel, line, name, mine, target, theirs, where))
    for comp in cycles(edges):
        inner = ["%s -> %s" % (a, b) for a in comp for b in sorted(edges[a]) if b in comp]
        problems.append("an import cycle of %d modules: %s" % (len(comp), "; ".join(inner)))
    for k in sorted(KNOWN - seen_known):
        problems.append("KNOWN in test_layers.py lists %s -> %s, which no longer "
                        "happens: take it out" % k)
    for k in sorted(KNOWN_LONG - seen_known):
        problems.append("KNOWN_LONG in test_layers.py lists %s, no longer too long: "
                        "take it out" % k)
    return problems, len(mods)


def self_test():
    """The checks themselves on made-up graphs and sources."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    mods = {"jsonbench": "", "jsonbench.x": "", "jsonbench.sub": "", "jsonbench.sub.y": ""}
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write("import os\nfrom . import x\n\ndef f():\n    from .. import x as X\n"
                "    from jsonbench.sub import y\n    import importlib\n"
                "    importlib.import_module('jsonbench.x')\n")
    try:
        got = imports("jsonbench.sub.z", f.name, mods)
    finally:
        os.unlink(f.name)
    assert sorted(got) == [(2, "jsonbench.sub", "top"), (5, "jsonbench.x", "function"),
                           (6, "jsonbench.sub.y", "function"),
                           (8, "<run-time import>", "function")], got


def main(argv):
    graph = "--graph" in argv
    argv = [a for a in argv if a != "--graph"]
    src_root = argv[0] if argv else os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))))
    self_test()
    problems, n = check(src_root, graph)
    for p in problems:
        print("FAIL: " + p)
    if problems:
        return 1
    print("ok: %d modules in layers, no upward import, no cycle, none over the "
          "limit (%d import(s) and %d module(s) still listed as known)"
          % (n, len(KNOWN), len(KNOWN_LONG)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
