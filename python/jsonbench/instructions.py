"""A CPU figure that cannot flip: beside each timing claim, the valgrind
instruction count (cachegrind, total Ir) of its before and after runs at
a small scale, and their last-level cache misses simulated on a fixed
geometry (jsonbench.cachesim), each with a verdict of its own.

Both are deterministic (the same binary on the same input counts the
same), so their change is exact: it has a zero-width interval and
decides every claim it can measure.  Instructions count work, not time;
the simulated misses count the memory-bound part of it (accesses that go
to memory), which on a VM is where most of the time's noise is.  Page
faults show in neither, so the figures stand beside the time rather than
for it.  Measured at --instructions-scale (default 0.01, at most
--scale; a claim with a smaller max_scale runs at that), one process per
run; the txn claims
(seed 1: client processes and sockets over thousands of transactions)
are left out.

Results: runs/instructions__<run label>.json ({"figures": {"instructions":
N, "d1_misses": N, "ll_misses": N}}; folders from before the cache
simulation have instructions only), listed in claims-run.json under "instructions" {run key: {"file",
"scale"} or {"error"}}."""

import json
import os

from . import build
from . import claims as C
from . import intervals as I
from .jobs import Job, Step

DEFAULT_SCALE = 0.01
# Rates rise as instructions fall: only figures where less is better.
TIMING_KINDS = ("time", "latency")
SKIP_WORKLOADS = ("txn",)


def add_args(ap):
    ap.add_argument("--instructions-scale", type=float, default=DEFAULT_SCALE, metavar="S",
                    help="dataset scale of the valgrind instruction counts beside each "
                         "timing claim (default %g; 0: none)" % DEFAULT_SCALE)


def timing_claims(doc, only=None):
    return [c for c in doc["claims"]
            if c["metric"].get("kind", "time") in TIMING_KINDS
            and c["workload"] not in SKIP_WORKLOADS and c.get("dataset")
            and c["claimed"].get("comparable") is not False
            and (not only or c["id"] in only or any(c["id"].startswith(o) for o in only))]


def plan(doc, only, scale):
    """{run key at the instructions scale: run} of the timing claims'
    before and after runs."""
    runs = {}
    for c in timing_claims(doc, only):
        for side in ("before", "after"):
            r = C.side_run(c, side, scale)
            runs[C.run_key(r)] = r
    return runs


def jobs(args, runs, ds_paths, label_of):
    """Steps of DeterministicBackend (mode cachesim), one per run, and
    {run key: job}; runs whose dataset could not be made are left out."""
    by_key, steps = {}, []
    for key, r in runs.items():
        path = ds_paths.get((r["dataset"], r["form"], r["scale"]))
        if not path:
            continue
        cmd = build.harness_cmd(build.exe_path(args.build_dir, r["impl"]), r["workload"],
                                "__DB__", r["args"], args.seed, None, "__OUT__", sha256=False)
        j = Job(r["impl"], r["workload"], C.variant_name(r), {"label": label_of(r),
                                                             "path": path}, cmd,
                mode="cachesim", side="det", prefix="instructions__", key=key)
        by_key[key] = j
        steps.append(Step(j, None, 1, ("instructions",) + tuple(key.split("|")[1:3])))
    return by_key, steps


def meta(by_key, finished, failures):
    errors = {f["job"]: f["error"] for f in failures if "job" in f}
    out = {}
    for key, j in by_key.items():
        if j.name in finished:
            out[key] = {"file": os.path.join("runs", j.name + ".json"),
                        "scale": j.ds.get("scale")}
        else:
            out[key] = {"error": errors.get(j.name, "not measured")}
    return out


def _figures(root, info):
    """The run's {"instructions", ...} or {} when it has none."""
    if not info or not info.get("file"):
        return {}
    try:
        with open(os.path.join(root, info["file"])) as f:
            return json.load(f)["figures"]
    except (OSError, ValueError, KeyError):
        return {}


def annotate(rows, doc, root, instr_meta, scale):
    """Adds to each timing claim's row its instructions before/after,
    their change and a verdict judged by the claim's own rules (exact:
    a zero-width interval)."""
    if not instr_meta:
        return rows
    claims = {c["id"]: c for c in doc["claims"]}
    for row in rows:
        c = claims.get(row["id"])
        if not c or c not in timing_claims(doc):
            continue
        kb = C.run_key(C.side_run(c, "before", scale))
        ka = C.run_key(C.side_run(c, "after", scale))
        fb, fa = _figures(root, instr_meta.get(kb)), _figures(root, instr_meta.get(ka))
        b, a = fb.get("instructions"), fa.get("instructions")
        if not b or not a:
            continue
        row["instructions"] = dict(_judged(c, row, doc, b, a), scale=C.claim_scale(c, scale))
        mb, ma = fb.get("ll_misses"), fa.get("ll_misses")
        if mb and ma:
            row["instructions"]["ll_misses"] = _judged(c, row, doc, mb, ma)
    return rows


def _judged(c, row, doc, before, after):
    """An exact change (zero-width interval) judged by the claim's rules."""
    v = C.judge(c, row, I.interval([before], [after], exact_single=True), doc)
    return {"before": before, "after": after, "change_pct": C.change_pct(before, after),
            "verdict": v["verdict"]}


def cell(row):
    """"-12.3% (same direction, within tolerance)" or "-"."""
    ins = row.get("instructions")
    if not ins:
        return "-"
    return "%s (%s)" % (C.fmt_pct(ins["change_pct"]), ins["verdict"])


def misses_cell(row):
    """The same of the simulated last-level cache misses, or "-"."""
    m = (row.get("instructions") or {}).get("ll_misses")
    if not m:
        return "-"
    return "%s (%s)" % (C.fmt_pct(m["change_pct"]), m["verdict"])
