#!/usr/bin/env python3
"""Merges several google-benchmark JSON reports of one executable into one.

usage: micro-merge.py OUT IN.json...

scripts/micro.sh runs every impl once per round (rounds interleave impls, so
a change of machine load over time hits every impl alike) and merges each
impl's rounds with this.  The result is one google-benchmark report: the
context of the first input, every "iteration" entry of every input
(repetition_index renumbered, repetitions = total), and fresh mean, median,
stddev, min and max aggregates per benchmark.  OUT is written atomically.
"""
import json
import os
import statistics
import sys

# Keys that describe a run rather than measure it.
NOT_MEASURED = {"family_index", "per_family_instance_index", "repetitions",
                "repetition_index", "threads", "iterations"}

AGGREGATES = [
    ("mean", statistics.mean),
    ("median", statistics.median),
    ("stddev", lambda v: statistics.stdev(v) if len(v) > 1 else 0.0),
    ("min", min),
    ("max", max),
]


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out, inputs = sys.argv[1], sys.argv[2:]

    context = None
    runs = {}       # name -> [iteration entries], in first-seen order
    for path in inputs:
        with open(path) as f:
            report = json.load(f)
        if context is None:
            context = report.get("context", {})
        for b in report.get("benchmarks", []):
            if b.get("run_type") == "iteration":
                runs.setdefault(b["name"], []).append(b)

    benchmarks = []
    for name, entries in runs.items():
        for i, b in enumerate(entries):
            b = dict(b)
            b["repetitions"] = len(entries)
            b["repetition_index"] = i
            benchmarks.append(b)
        ok = [b for b in entries if not b.get("error_occurred")]
        if len(ok) < 2:
            continue
        keys = [k for k, v in ok[0].items()
                if isinstance(v, (int, float)) and not isinstance(v, bool)
                and k not in NOT_MEASURED
                and all(isinstance(b.get(k), (int, float)) for b in ok)]
        for agg, func in AGGREGATES:
            entry = {k: ok[0][k] for k in ("family_index",
                                           "per_family_instance_index",
                                           "threads", "time_unit")
                     if k in ok[0]}
            entry.update({"name": "%s_%s" % (name, agg), "run_name": name,
                          "run_type": "aggregate", "repetitions": len(ok),
                          "aggregate_name": agg, "aggregate_unit": "time",
                          "iterations": len(ok)})
            for k in keys:
                entry[k] = func([float(b[k]) for b in ok])
            benchmarks.append(entry)

    tmp = out + ".tmp"
    with open(tmp, "w") as f:
        json.dump({"context": context, "benchmarks": benchmarks}, f,
                  indent=2)
        f.write("\n")
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
