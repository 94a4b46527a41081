"""Calibration in the regression gate: the model next to the real server.

On the gate's tiny datasets, the model's `serialized` impl and the
installed real OVS (Debian 12: 3.1.0, the same JSON representation) do the
same work, measured with deterministic valgrind figures:

  load     model: jsonbench-serialized load DB
           real:  ovsdb-tool query DB '["<db name>"]' (ovsdb_file_read(),
                  the path ovsdb-server takes to open a database, then an
                  empty transaction)
  compact  model: jsonbench-serialized compact DB (load + compact phases)
           real:  ovsdb-tool compact DB OUT (reads and writes the file)

  instructions     cachegrind total Ir of the process on DB minus the same
                   command on an empty database of the same schema (process
                   start-up and schema parsing cancel out)
  alloc_blocks     malloc calls (DHAT total blocks), net of the empty run
  peak_heap_bytes  DHAT's peak of live heap bytes (t-gmax) on DB: for load,
                   the heap after load

Each becomes a model/real ratio, gated against the baseline's ratio: a
change that moves a ratio away from 1.0 by more than its threshold is a
DRIFT (the gate fails); towards 1.0 it passes and asks for a baseline
refresh.  The real figures depend only on the real binaries, libc and
valgrind: their identity (version, sha256 of ovsdb-tool, libopenvswitch,
libovsdb, libc; valgrind version) is recorded, and when it differs from the
baseline's the ratios are shown but not gated, with a loud warning.  No
wall-clock figure is involved.  Monitor and dump have no counterpart here
(they need a running server, whose instruction counts depend on timing);
`scripts/suite.sh --ovs-installed` measures them (docs/real-ovs.md)."""

import datetime
import json
import os
import re
import shutil
import subprocess

from . import build, gatetable
from .detjobs import det_job
from .realovs.toolfigures import CalError, empty_copy, schema_name  # noqa: F401
from .util import sha256_of

MODEL_IMPL = "serialized"
REAL_NAME = "ovs-debian"
# (dataset, label, model workload): the gate's datasets (gate.DATASETS).
JOBS = [("nb", "load", "load"), ("sb", "load", "load"),
        ("nb-log", "compact", "compact")]
FIGURES = ["instructions", "alloc_blocks", "peak_heap_bytes"]
# Percent change of a ratio allowed (baseline 'thresholds', keys
# '<figure>_ratio').  The model's figures are exact; the real server's
# instructions vary by ~0.1% run to run (hash seeds), its heap not at all.
THRESHOLDS = {
    "instructions_ratio": 2.0,
    "alloc_blocks_ratio": 1.0,
    "peak_heap_bytes_ratio": 1.0,
}
# Libraries whose code the real figures count (prefixes of ldd names).
REAL_LIBS = ("libopenvswitch", "libovsdb", "libc.so")
HEAP_FIGURES = ("alloc_blocks", "peak_heap_bytes")



# ---------------------------------------------------------------- real side

def real_tool(path=None):
    """The real ovsdb-tool to measure: 'path', else ovsdb-tool on PATH."""
    return path or shutil.which("ovsdb-tool")


def real_identity(tool):
    """What the real figures depend on: {"version", "files": {name:
    sha256}, "valgrind"}.  Raises CalError when the tool cannot run."""
    try:
        r = subprocess.run([tool, "--version"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=30)
    except OSError as exc:
        raise CalError("%s: %s" % (tool, exc))
    if r.returncode != 0:
        raise CalError("%s --version exited %d" % (tool, r.returncode))
    files = {os.path.basename(tool): sha256_of(os.path.realpath(tool))}
    ldd = subprocess.run(["ldd", tool], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    for line in ldd.stdout.splitlines():
        m = re.match(r"\s*(\S+) => (/\S+)", line)
        if m and m.group(1).startswith(REAL_LIBS):
            files[m.group(1)] = sha256_of(os.path.realpath(m.group(2)))
    vg = subprocess.run(["valgrind", "--version"], stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL, text=True).stdout.strip()
    return {"name": REAL_NAME, "program": tool,
            "version": r.stdout.splitlines()[0].strip() if r.stdout else "",
            "files": files, "valgrind": vg}


def identity_diff(base, cur):
    """What differs between two real_identity() values (list of text)."""
    out = []
    if base.get("version") != cur.get("version"):
        out.append("version %r, now %r" % (base.get("version"), cur.get("version")))
    bf, cf = base.get("files", {}), cur.get("files", {})
    for name in sorted(set(bf) | set(cf)):
        if bf.get(name) != cf.get(name):
            out.append("%s %s" % (name, "changed" if name in bf and name in cf
                                  else "missing" if name in bf else "new"))
    if base.get("valgrind") != cur.get("valgrind"):
        out.append("valgrind %r, now %r" % (base.get("valgrind"), cur.get("valgrind")))
    return out


# ---------------------------------------------------------------- jobs

def _command(side, exe, workload, db):
    """The command line of one side's run on 'db' (__DB__: the backend's
    copy of it, __OUT__ its output)."""
    if side == "real":
        if workload == "load":
            return [exe, "query", "__DB__", json.dumps([schema_name(db)])]
        return [exe, "compact", "__DB__", "__OUT__"]
    return build.harness_cmd(exe, workload, "__DB__", [], seed=1, results=None,
                             output="__OUT__", sha256=False)


def side_jobs(side, exe, data, tmp, heap=True):
    """The jobs (jsonbench.jobs, side "det") of one side ('model' or
    'real'): every dataset of JOBS and its empty copy, under cachegrind
    and (heap) DHAT; job.key = (side, "<dataset>/<label>", empty?)."""
    out = []
    for ds, label, workload in JOBS:
        if ds not in data:
            continue
        empty = empty_copy(data[ds], os.path.join(tmp, "%s-empty.ovsdb" % ds))
        for src, is_empty in ((data[ds], False), (empty, True)):
            for tool in ("cachegrind", "dhat") if heap else ("cachegrind",):
                out.append(det_job(tool, REAL_NAME if side == "real" else MODEL_IMPL,
                                   "calibration-" + label,
                                   ds + ("-empty" if is_empty else ""), src,
                                   _command(side, exe, workload, src),
                                   (side, "%s/%s" % (ds, label), is_empty), workload))
    return out


def side_figures(jobs, done, side):
    """{"<dataset>/<label>:<figure>": value} of one side from the outcome
    of its jobs ({job name: (document, error)}): net of the empty
    database except peak heap; raises CalError when a run failed."""
    full, empty = {}, {}
    for j in jobs:
        if j.key[0] != side:
            continue
        doc, err = done[j.name]
        if doc is None:
            raise CalError(err)
        (empty if j.key[2] else full).setdefault(j.key[1], {}).update(doc["figures"])
    out = {}
    for where, figs in full.items():
        for fig, v in figs.items():
            base = empty.get(where, {}).get(fig, 0)
            # Peak heap is the whole process's: the schema is part of it.
            out["%s:%s" % (where, fig)] = v if fig == "peak_heap_bytes" else v - base
    return out


def ratios(model, real):
    """{key: model/real} for every key both sides have (real > 0)."""
    return {k: model[k] / real[k] for k in sorted(set(model) & set(real)) if real[k] > 0}


def plan(model_exe, data, tmp, heap=True, real_program=None, log=None):
    """The calibration's jobs: {"jobs", "real" identity, "heap"}, or
    {"skipped": reason} when valgrind or the real binaries are missing."""
    if not shutil.which("valgrind"):
        return {"skipped": "valgrind is not installed"}
    tool = real_tool(real_program)
    if not tool or not os.access(tool, os.X_OK):
        return {"skipped": "real OVS not found (%s; scripts/deps.sh installs "
                           "openvswitch-common)" % (real_program or "no ovsdb-tool on PATH")}
    if not model_exe or not os.path.exists(model_exe):
        return {"skipped": "model impl %s not built" % MODEL_IMPL}
    try:
        ident = real_identity(tool)
        if log:
            log("gate: calibration: %s vs %s (%s) under valgrind" % (
                MODEL_IMPL, ident["version"] or tool, "instructions, heap" if heap
                else "instructions only"))
        jobs = side_jobs("model", model_exe, data, tmp, heap) + \
            side_jobs("real", tool, data, tmp, heap)
    except (CalError, OSError) as exc:
        return {"skipped": "measuring failed: %s" % exc}
    return {"jobs": jobs, "real": ident, "heap": heap}


def result(cal, done, commit=""):
    """The 'calibration' part of a gate measurement from plan()'s jobs run
    ({job name: (document, error)}): figures of both sides, ratios, the
    real binaries' identity and when/where it was measured."""
    try:
        model = side_figures(cal["jobs"], done, "model")
        real = side_figures(cal["jobs"], done, "real")
    except CalError as exc:
        return {"skipped": "measuring failed: %s" % exc}
    return {"model_impl": MODEL_IMPL, "real": cal["real"], "heap_measured": bool(cal["heap"]),
            "model_figures": model, "real_figures": real,
            "ratios": ratios(model, real),
            "measured_at": datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"),
            "commit": commit}


# ---------------------------------------------------------------- checking

def _figure(key):
    return key.rsplit(":", 1)[-1]


def compare(base, cur, thresholds, ir_ok=True, heap_ok=True):
    """Calibration of a measurement against the baseline's.
    -> (status, rows, notes); rows: [metric, model, real, model/real,
    baseline model/real, change, limit, verdict]; status 1 on a DRIFT."""
    notes, rows = [], []
    if not cur:
        return 0, rows, notes
    if "skipped" in cur:
        notes.append("calibration not measured: %s" % cur["skipped"])
        return 0, rows, notes
    base = base or {}
    gated = True
    if "ratios" not in base:
        notes.append("the baseline has no calibration figures: refresh it with "
                     "scripts/gate.sh --update-baseline")
        gated = False
    else:
        diff = identity_diff(base.get("real", {}), cur.get("real", {}))
        if diff:
            gated = False
            notes.append("WARNING: the real OVS binaries differ from the baseline's (%s): "
                         "calibration ratios are shown, NOT gated.  Refresh the baseline "
                         "where CI runs: scripts/gate.sh --update-baseline" % "; ".join(diff))
        if not ir_ok:
            notes.append("calibration instruction ratios not gated: the model's build "
                         "differs from the baseline's (see above)")
        if not heap_ok:
            notes.append("calibration heap ratios not gated: allocator or sanitizer differs")
    status = 0
    br, cr = base.get("ratios", {}), cur.get("ratios", {})
    mf, rf = cur.get("model_figures", {}), cur.get("real_figures", {})
    for key in sorted(set(br) | set(cr), key=_sort_key):
        fig = _figure(key)
        name = "calibration/%s_ratio" % key
        b, c = br.get(key), cr.get(key)
        limit = thresholds.get(fig + "_ratio")
        row = [name, gatetable.count(mf.get(key)), gatetable.count(rf.get(key)),
               "%.3f" % c if c is not None else "-", "%.3f" % b if b is not None else "-"]
        if c is None:
            rows.append(row + ["", "", "missing in this run"])
            continue
        if b is None:
            rows.append(row + ["", "", "new (not in baseline)"])
            continue
        change = (c - b) / b * 100.0 if b else 0.0
        away = abs(_log(c)) > abs(_log(b))
        lim = "%g%%" % limit if limit is not None else "-"
        if limit is None or abs(change) <= limit:
            verdict = "ok"
        elif away:
            verdict = "DRIFT away from real OVS"
        else:
            verdict = "closer to real OVS (refresh the baseline to keep it)"
        if verdict.startswith("DRIFT"):
            compared = gated and (ir_ok if fig == "instructions" else heap_ok)
            if compared:
                status = 1
            else:
                verdict += " (not gated)"
        rows.append(row + ["%+.2f%%" % change, lim, verdict])
    return status, rows, notes


def _sort_key(key):
    """Job order (load NB, load SB, compact), then figure order."""
    return gatetable.sort_key(
        key, ["%s/%s" % (ds, label) for ds, label, _w in JOBS], FIGURES)


def _log(x):
    import math
    return math.log(x) if x and x > 0 else 0.0


def print_table(cal, rows, notes, out):
    """The calibration table (every row: it is short)."""
    if not rows and not notes:
        return
    ident = (cal or {}).get("real", {})
    out.write("calibration: model %s / real %s (%s), tiny datasets, valgrind\n"
              % ((cal or {}).get("model_impl", MODEL_IMPL), ident.get("name", REAL_NAME),
                 ident.get("version", "?")))
    for n in notes:
        out.write("note: %s\n" % n)
    if not rows:
        return
    headers = ["metric (dataset/workload:figure)", "model", "real", "model/real",
               "baseline", "change", "limit", "verdict"]
    gatetable.write_table(out, headers, rows, (0, 7))


# ---------------------------------------------------------------- reports

LABELS = {"instructions": ("instructions (net of an empty database)", "count"),
          "alloc_blocks": ("malloc calls (net of an empty database)", "count"),
          "peak_heap_bytes": ("peak heap", "bytes")}


def report_rows(cal):
    """The baseline's calibration as calibration.ratios()-like rows
    {dataset, metric, label, unit, model, real, ratio}."""
    rows = []
    mf, rf = cal.get("model_figures", {}), cal.get("real_figures", {})
    for key in sorted(cal.get("ratios", {}), key=_sort_key):
        where, fig = key.rsplit(":", 1)
        ds, label = where.split("/", 1)
        text, unit = LABELS.get(fig, (fig, "count"))
        rows.append({"dataset": ds, "metric": fig, "label": "%s %s" % (label, text),
                     "unit": unit, "model": mf.get(key), "real": rf.get(key),
                     "ratio": cal["ratios"][key]})
    return rows
