"""Deterministic figures of one real ovsdb-tool (valgrind: instructions,
heap blocks, peak heap) on standalone databases, each net of the same
command on an empty copy of the database (its schema alone): the series
gate (jsonbench.gateseries) compares two builds with them, the gate's
calibration (jsonbench.gatecal) reads the same databases, and the real
server's load-ir workload measures one load with them."""

import json
import os

from ..detjobs import Scratch, det_job


class CalError(Exception):
    pass


def schema_name(path):
    """The database name in the schema record (second line) of a file."""
    with open(path, "rb") as f:
        f.readline()
        try:
            return json.loads(f.readline().decode("utf-8"))["name"]
        except (ValueError, KeyError, TypeError):
            raise CalError("%s: no schema record on line 2" % path)


def empty_copy(path, out):
    """The schema record of 'path' alone: a database with no rows."""
    with open(path, "rb") as f:
        head = f.readline() + f.readline()
    if not head.startswith(b"OVSDB JSON "):
        raise CalError("%s: not a standalone OVSDB file" % path)
    with open(out, "wb") as f:
        f.write(head)
    return out


# (dataset, workload) measured: the gate's datasets (gate.DATASETS).
JOBS = [("nb", "load"), ("sb", "load"), ("nb", "dump"), ("sb", "dump"),
        ("nb-log", "compact")]
def select_all(path):
    """The transaction ovsdb-client dump sends: a select of every column of
    every table of the file's schema (rows come back as JSON)."""
    with open(path, "rb") as f:
        f.readline()
        try:
            schema = json.loads(f.readline().decode("utf-8"))
            tables = sorted(schema["tables"])
            name = schema["name"]
        except (ValueError, KeyError, TypeError, AttributeError):
            raise CalError("%s: no schema record on line 2" % path)
    return [name] + [{"op": "select", "table": t, "where": []}
                     for t in tables]


def _command(tool, workload, db):
    """The command on a copy of 'db' (__DB__; __OUT__ its output)."""
    if workload == "load":
        return [tool, "query", "__DB__", json.dumps([schema_name(db)])]
    if workload == "dump":
        return [tool, "query", "__DB__", json.dumps(select_all(db))]
    return [tool, "compact", "__DB__", "__OUT__"]


def jobs(name, tool, data, tmp, only=None, cache_sim=False):
    """The jobs (jsonbench.jobs, side "det") of one real ovsdb-tool on the
    datasets 'data' ({name: path}); job.key = (build name,
    "<dataset>/<workload>", "full" or "base").  With 'cache_sim' the
    instructions come with simulated cache misses (jsonbench.cachesim:
    d1_misses, ll_misses; valgrind about 2.7x slower).  Every run copies its
    database to the same path (backends.DeterministicBackend): a path's
    length changes the heap's layout, hence the order of OVS's
    pointer-hashed maps, which moved the dump's peak heap by 0.7% between
    two runs of one binary."""
    out = []
    for ds, workload in JOBS:
        if ds not in data or (only and "%s/%s" % (ds, workload) not in only):
            continue
        empty = empty_copy(data[ds], os.path.join(tmp, "%s-empty.ovsdb" % ds))
        # The dump is net of load on the same database; the others net of
        # themselves on the empty database.
        if workload == "dump":
            variants = (("full", data[ds], "dump"), ("base", data[ds], "load"))
        else:
            variants = (("full", data[ds], workload), ("base", empty, workload))
        for variant, src, cmd_workload in variants:
            for vg in ("cachesim" if cache_sim else "cachegrind", "dhat"):
                out.append(det_job(vg, name, "%s-%s" % (workload, variant), ds, src,
                                   _command(tool, cmd_workload, src),
                                   (name, "%s/%s" % (ds, workload), variant), workload))
    return out


def build_figures(jobs, done, name):
    """{"<dataset>/<workload>:<figure>": value} of build 'name' from the
    outcome of its jobs; raises CalError when a run failed."""
    full, base = {}, {}
    for j in jobs:
        if j.key[0] != name:
            continue
        doc, err = done[j.name]
        if doc is None:
            raise CalError(err)
        (full if j.key[2] == "full" else base).setdefault(j.key[1], {}).update(doc["figures"])
    out = {}
    for where, figs in full.items():
        for fig, v in figs.items():
            # Peak heap is the whole process's.
            out["%s:%s" % (where, fig)] = v if fig == "peak_heap_bytes" \
                else v - base.get(where, {}).get(fig, 0)
    return out


def measure_tool(tool, data, tmp, only=None, cache_sim=False):
    """{"<dataset>/<workload>:<figure>": value} of one ovsdb-tool on the
    datasets 'data' ({name: path}), its jobs run in a scratch folder in
    'tmp' (the history's load-ir workload); raises CalError when a
    run failed, detjobs.MeasureError when interrupted."""
    todo = jobs("tool", tool, data, tmp, only, cache_sim)
    return build_figures(todo, Scratch(tmp).run([(j, 1) for j in todo]), "tool")
