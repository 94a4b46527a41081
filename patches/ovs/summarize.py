#!/usr/bin/python3
"""Medians per target and dataset of measure-load.py output, and each
series against the base.

usage: summarize.py RESULTS.jsonl [--base base] [--json OUT.json]
"""

import argparse
import json
import statistics

METRICS = ("rss_bytes", "peak_rss_bytes", "cpu_s", "wall_s",
           "heap_rss_bytes", "anon_rss_bytes", "anon_maps_256k")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--base", default="base")
    ap.add_argument("--json")
    args = ap.parse_args()
    rows = [json.loads(line) for line in open(args.results) if line.strip()]
    groups = {}
    for r in rows:
        groups.setdefault((r["target"], r["dataset"]), []).append(r)
    med = {k: {m: statistics.median(r[m] for r in v) for m in METRICS}
           for k, v in groups.items()}
    reps = {k: len(v) for k, v in groups.items()}
    out = {"source": "patches/ovs/measure-load.py --parallel",
           "base": args.base, "series": {}}
    datasets = sorted({d for _, d in groups})
    print("| series | dataset | reps | metric | base | patched | patched/base |")
    print("|---|---|---:|---|---:|---:|---:|")
    for (target, dataset) in sorted(groups):
        if target == args.base:
            continue
        b = med.get((args.base, dataset))
        if not b:
            continue
        p = med[(target, dataset)]
        entry = out["series"].setdefault(target, {}).setdefault(dataset, {})
        entry["repetitions"] = min(reps[(target, dataset)],
                                   reps[(args.base, dataset)])
        for m in METRICS:
            ratio = p[m] / b[m] if b[m] else None
            entry[m] = {"base_median": b[m], "patched_median": p[m],
                        "ratio": None if ratio is None else round(ratio, 4),
                        "change_pct": None if ratio is None
                        else round((ratio - 1) * 100, 1)}
            if m in ("rss_bytes", "peak_rss_bytes", "cpu_s", "anon_maps_256k"):
                fmt = (lambda x: "%.0f MiB" % (x / 2**20)) if "bytes" in m \
                    else (lambda x: "%.2f" % x)
                print("| %s | %s | %d | %s | %s | %s | %s |"
                      % (target, dataset, entry["repetitions"], m, fmt(b[m]),
                         fmt(p[m]), "-" if ratio is None
                         else "%.3f" % ratio))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
