"""google-benchmark JSON in the harness's shape
(harness/measure/results-json.c): the same context keys, benchmark rows
named <workload>/<phase> with real_time and cpu_time in ms and the same
metric names, one iteration row per repetition followed by
mean/median/stddev/min/max aggregates."""

import os
import socket
import time

from ..gbench import AGGREGATES, DESCRIPTIVE, aggregate_value, write_atomic


def _mhz():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("cpu MHz"):
                    return round(float(line.split(":")[1]))
    except (OSError, ValueError):
        pass
    return 0


def context(target, workload, params, dataset="", dataset_sha256=""):
    ctx = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "host_name": socket.gethostname(),
        "executable": target.path("ovsdb-server"),
        "num_cpus": os.cpu_count(),
        "mhz_per_cpu": _mhz(),
        "cpu_scaling_enabled": False,
        "caches": [],
        "library_build_type": "ovs",
        "impl": target.name,
        "allocator": "glibc",
        "workload": workload,
        "params": params,
        "dataset": dataset,
        "dataset_sha256": dataset_sha256,
        "build_type": "ovs",
        "compiler": target.compiler,
        "cflags": " ".join(target.configure_flags),
        "git_commit": target.commit,
        "node_size": "",
        "source": "real-ovs",
    }
    ctx.update(target.context())
    return ctx


def row(name, fields):
    """One iteration row; 'fields' holds real_time/cpu_time in ms first."""
    out = {"name": name, "family_index": 0, "per_family_instance_index": 0,
           "run_name": name, "run_type": "iteration", "repetitions": 1,
           "repetition_index": 0, "threads": 1, "iterations": 1,
           "real_time": fields.pop("real_time"),
           "cpu_time": fields.pop("cpu_time"), "time_unit": "ms"}
    out.update(fields)
    return out


def renamed(r, name):
    return dict(r, name=name, run_name=name)


def _aggregate(runs, how):
    first = runs[0]
    out = {"name": "%s_%s" % (first["run_name"], how),
           "family_index": first["family_index"],
           "per_family_instance_index": 0, "run_name": first["run_name"],
           "run_type": "aggregate", "repetitions": len(runs), "threads": 1,
           "aggregate_name": how, "aggregate_unit": "time",
           "iterations": len(runs)}
    for k, v in first.items():
        if k in DESCRIPTIVE or isinstance(v, bool) or \
                not isinstance(v, (int, float)):
            if k == "time_unit":
                out[k] = v
            continue
        vals = [r[k] for r in runs if isinstance(r.get(k), (int, float))]
        out[k] = aggregate_value(vals, how)
    return out


def document(ctx, reps):
    """'reps' is a list (one per repetition) of lists of iteration rows."""
    n = len(reps)
    ctx = dict(ctx)
    ctx["repetitions"] = str(n)
    names = []
    for rows in reps:
        for r in rows:
            if r["name"] not in names:
                names.append(r["name"])
    benches = []
    for fam, name in enumerate(names):
        runs = []
        for i, rows in enumerate(reps):
            for r in rows:
                if r["name"] == name:
                    r = dict(r, family_index=fam, repetitions=n,
                             repetition_index=i)
                    runs.append(r)
        benches += runs
        benches += [_aggregate(runs, how) for how in AGGREGATES]
    return {"context": ctx, "benchmarks": benches}

