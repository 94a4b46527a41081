"""The figures a history or find study reads from its runs, their units
and its study file's name: shared by the studies (jsonbench.history,
jsonbench.find), their report (jsonbench.report.history) and the merge
of shards (jsonbench.merge) without any of them importing another.
point_figures() reads a point's figures from the runs' files;
merge_study() writes the study.json of merged history shards."""

import json
import math
import os
import statistics

from . import intervals, resultsdir
from .gbench import write_atomic
# The figures' table (names, workloads, forms, units).
from .historymetrics import FIGURES, HISTORY_FIGURES, SCALE  # noqa: F401

STUDY = "study.json"


def _rows(out_dir, entry, row):
    with open(os.path.join(out_dir, entry["file"])) as f:
        doc = json.load(f)
    return [b for b in doc["benchmarks"] if b.get("run_type") == "iteration"
            and b["name"] == row]


def point_figures(out_dir, entries, index, figures, ref_commit):
    """{figure: {"median", "min", "max", "n", "ratio", "reference"}} of
    point 'index' from the results' entries.  The reference's values come
    from the point's group (the paired loads) or, for figures measured
    once (valgrind counts), from any entry of the reference commit; ratio
    is the point's median over the reference's, or for "ratio" figures
    the median of the per-repetition ratios."""
    out = {}
    for name in figures:
        fig = FIGURES[name]
        row, field, how = fig.row, fig.field, fig.how

        def values(pred):
            for e in entries:
                # Folders from before forms had only the snapshot's.
                if e["workload"] == fig.workload and \
                        e.get("study_form", "snapshot") == fig.form and pred(e):
                    return [r.get(field) for r in _rows(out_dir, e, row)
                            if isinstance(r.get(field), (int, float))]
            return []
        pv = values(lambda e: e.get("study_point") == index and
                    e["study_role"] == "point")
        if not pv:
            continue
        # The paired reference, the point itself when it is the reference,
        # else the reference measured in another group.
        rv = values(lambda e: e.get("study_point") == index and
                    e.get("study_commit") == ref_commit) or \
            values(lambda e: e.get("study_commit") == ref_commit)
        f = {"median": statistics.median(pv), "min": min(pv), "max": max(pv),
             "n": len(pv), "reference": statistics.median(rv) if rv else None}
        if how == "ratio":
            vals = [p / r for p, r in zip(pv, rv) if r]
            if not vals:
                continue
            f.update(median=statistics.median(vals), min=min(vals), max=max(vals),
                     n=len(vals))
            f["ratio"] = f["median"]
        else:
            f["ratio"] = f["median"] / f["reference"] if f["reference"] else None
        # The interval of the ratio to the reference: from the paired
        # repetitions (loaded next to each other) when there are as many,
        # else between the samples; "low"/"high" in the figure's own
        # units (a ratio for "ratio" figures).
        iv = intervals.interval(rv, pv) if rv else None
        if iv is not None:
            scale = 1.0 if how == "ratio" else f["reference"]
            f.update(ratio_low=math.exp(iv.low), ratio_high=math.exp(iv.high),
                     low=math.exp(iv.low) * scale, high=math.exp(iv.high) * scale,
                     confidence=iv.confidence, interval_method=iv.method)
        out[name] = f
    return out


def merge_study(good, out_dir, n):
    """study.json of merged history shards (jsonbench.merge): every point
    from the shard that measured it (a point of a missing shard: not
    measured, naming it), its figures computed again from the merged
    index (the reference's valgrind load may sit in another shard), the
    builds of all shards."""
    studies = {}
    for s in good:
        path = os.path.join(s.path, STUDY)
        if os.path.exists(path):
            with open(path) as f:
                studies[s.k] = json.load(f)
    if not studies:
        return
    study = dict(studies[min(studies)])
    entries = resultsdir.read_index(out_dir)["entries"]
    ref = study["reference"]["commit"]
    points = []
    for p in study["points"]:
        k = p.get("shard")
        mine = studies.get(k, {}).get("points")
        p = dict(mine[p["index"]]) if mine else dict(p)
        p.pop("shard", None)
        if k not in studies:
            p["not_measured"] = "shard %s of %d missing" % (k, n)
        elif "failed" not in p and "not_built" not in p:
            p["figures"] = point_figures(out_dir, entries, p["index"], study["figures"], ref)
        points.append(p)
    study["points"] = points
    study["builds"] = {k: sum(x.get("builds", {}).get(k, 0) for x in studies.values())
                       for k in ("built", "cached", "failed", "not_built")}
    study["shards"] = n
    write_atomic(os.path.join(out_dir, STUDY), study)
