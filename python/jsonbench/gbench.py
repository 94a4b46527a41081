"""google-benchmark JSON: read, write atomically, merge repetitions."""

import json
import os
import statistics

AGGREGATES = ("mean", "median", "stddev", "min", "max")
DESCRIPTIVE = {"repetitions", "repetition_index", "threads", "iterations",
                "family_index", "per_family_instance_index"}


def read(path):
    with open(path) as f:
        return json.load(f)


def write_atomic(path, data):
    tmp = "%s.%d.tmp" % (path, os.getpid())
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def iterations(data):
    return [b for b in data.get("benchmarks", []) if b.get("run_type", "iteration") == "iteration"]


def aggregate_value(vals, how):
    """One of AGGREGATES over 'vals', as google-benchmark computes it."""
    if how == "mean":
        return statistics.mean(vals)
    if how == "median":
        return statistics.median(vals)
    if how == "stddev":
        return statistics.stdev(vals) if len(vals) > 1 else 0.0
    return min(vals) if how == "min" else max(vals)


def _aggregate(name, runs, how):
    first = runs[0]
    out = {"name": "%s_%s" % (name, how), "run_name": name, "run_type": "aggregate",
           "aggregate_name": how, "repetitions": len(runs), "threads": first.get("threads", 1),
           "iterations": len(runs), "time_unit": first.get("time_unit", "ns")}
    if first.get("label"):
        out["label"] = first["label"]
    keys = [k for k, v in first.items() if isinstance(v, (int, float)) and
            not isinstance(v, bool) and k not in DESCRIPTIVE]
    for k in keys:
        vals = [r[k] for r in runs if isinstance(r.get(k), (int, float))]
        if not vals:
            continue
        out[k] = aggregate_value(vals, how)
    return out


def with_aggregates(iters):
    """Iteration rows grouped by name, each group followed by its aggregates,
    as google-benchmark writes them with --benchmark_repetitions."""
    names = []
    for b in iters:
        n = b.get("run_name") or b["name"]
        if n not in names:
            names.append(n)
    out = []
    for n in names:
        runs = [b for b in iters if (b.get("run_name") or b["name"]) == n]
        out += runs
        if len(runs) > 1:
            out += [_aggregate(n, runs, how) for how in AGGREGATES]
    return out


def merge_repetitions(datas, hyperfine=None, workload=None):
    """One file per process (each one repetition) -> one file with
    repetitions 0..N-1, plus hyperfine's whole-process times as
    '<workload>/process' rows (real_time per run; cpu_time is hyperfine's
    mean user+system, the same for every run: hyperfine keeps no per-run CPU)."""
    n = len(datas)
    context = dict(datas[0].get("context", {}))
    context["repetitions"] = str(n)
    iters = []
    for i, d in enumerate(datas):
        for b in iterations(d):
            b = dict(b)
            b["repetition_index"] = i
            b["repetitions"] = n
            b.setdefault("run_name", b["name"])
            iters.append(b)
    if hyperfine and workload:
        res = hyperfine["results"][0]
        cpu_ms = (res.get("user", 0.0) + res.get("system", 0.0)) * 1e3
        name = "%s/process" % workload
        for i, t in enumerate(res.get("times", [])):
            iters.append({"name": name, "run_name": name, "run_type": "iteration",
                          "repetitions": n, "repetition_index": i, "threads": 1,
                          "iterations": 1, "real_time": t * 1e3, "cpu_time": cpu_ms,
                          "time_unit": "ms", "label": "hyperfine"})
        context["hyperfine_command"] = res.get("command", "")
    return {"context": context, "benchmarks": with_aggregates(iters)}


def append_repetitions(doc, extra):
    """'doc' with the repetitions of 'extra' (the same job measured again)
    after its own: their indices follow doc's, the aggregates are computed
    again over all of them."""
    have = iterations(doc)
    n = 1 + max((b.get("repetition_index", 0) for b in have), default=-1)
    more = iterations(extra)
    m = 1 + max((b.get("repetition_index", 0) for b in more), default=-1)
    rows = []
    for b in have + [dict(b, repetition_index=b.get("repetition_index", 0) + n) for b in more]:
        rows.append(dict(b, repetitions=n + m))
    context = dict(doc.get("context", {}))
    context["repetitions"] = str(n + m)
    return dict(doc, context=context, benchmarks=with_aggregates(rows))
