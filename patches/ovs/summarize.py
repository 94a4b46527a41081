#!/usr/bin/python3
"""Medians per target and dataset of measure-load.py output, each target
against the base, and the series' goals checked.

usage: summarize.py RESULTS.jsonl [MORE.jsonl...] [--base base]
                    [--json OUT.json] [--long]

Several files are several runs: their repetitions are distinct ones
(repetition 0 of each file is a different one; the pairs of the same
repetition stay within a file).  A repetition of a dataset that not
every target finished (a stopped run) is left out.

Prints markdown: a table with one row per dataset and metric and one
column per target (median, and its ratio to the base's median), then the
goals per target and dataset: RSS after load and peak RSS during load no
higher than the base's, load CPU at most 5% above, no more anonymous
mappings of 256 KiB or more than the base has (an arena left alive would
add some).  --long prints the first table as one row per target, dataset
and metric instead.  Rows with an "error" are left out.  --json writes,
per target and dataset, every metric's medians, ratio and change, and the
ratios of the pairs of the same repetition (interleaved runs).

  summarize.py R.jsonl --json patches/ovs/measured/matrix-results.json
"""

import argparse
import json
import statistics

METRICS = ("rss_bytes", "peak_rss_bytes", "cpu_s", "wall_s",
           "heap_rss_bytes", "anon_rss_bytes", "anon_maps_256k",
           "dump_cpu_s", "dump_peak_rss_bytes", "dump_client_cpu_s",
           "compact_cpu_s", "compact_peak_rss_bytes", "monitor_cpu_s",
           "monitor_rss_bytes", "monitor_peak_rss_bytes")
SHOWN = ("rss_bytes", "peak_rss_bytes", "cpu_s", "anon_maps_256k",
         "dump_cpu_s", "compact_cpu_s", "compact_peak_rss_bytes",
         "monitor_cpu_s", "monitor_peak_rss_bytes")
LABELS = {"rss_bytes": "RSS after load", "peak_rss_bytes": "peak RSS (load)",
          "cpu_s": "load CPU s", "anon_maps_256k": "anon maps >= 256 KiB",
          "dump_cpu_s": "dump server CPU s",
          "compact_cpu_s": "compact CPU s",
          "compact_peak_rss_bytes": "compact peak RSS",
          "monitor_cpu_s": "monitor fan-out CPU s",
          "monitor_peak_rss_bytes": "monitor fan-out peak RSS"}


def fmt(metric, value):
    if value is None:
        return "-"
    if metric.endswith("bytes"):
        return "%.0f MiB" % (value / 2**20)
    if metric == "anon_maps_256k":
        return "%g" % value
    return "%.2f" % value


def summarize(rows, base):
    """{(target, dataset): {metric: (median, n, {rep: value})}}"""
    groups = {}
    for r in rows:
        if "error" not in r:
            groups.setdefault((r["target"], r["dataset"]), []).append(r)
    out = {}
    for key, rs in groups.items():
        out[key] = {}
        for m in METRICS:
            vals = {(r["_run"], r["rep"]): r[m] for r in rs if m in r}
            if vals:
                out[key][m] = (statistics.median(vals.values()), len(vals),
                               vals)
    return out


def ratio(p, b):
    return p / b if b else None


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="example:\n" + __doc__.rsplit("\n\n", 1)[1])
    ap.add_argument("results", nargs="+")
    ap.add_argument("--base", default="base")
    ap.add_argument("--json")
    ap.add_argument("--long", action="store_true",
                    help="one row per target, dataset and metric")
    args = ap.parse_args()
    rows = []
    for i, path in enumerate(args.results):
        with open(path) as f:
            rows += [dict(json.loads(line), _run=i) for line in f
                     if line.strip()]
    everyone = {r["target"] for r in rows}
    done = {}
    for r in rows:
        done.setdefault((r["_run"], r["rep"], r["dataset"]), set()).add(
            r["target"])
    rows = [r for r in rows
            if done[(r["_run"], r["rep"], r["dataset"])] == everyone]
    med = summarize(rows, args.base)
    targets = []
    for r in rows:
        if r["target"] not in targets:
            targets.append(r["target"])
    others = [t for t in targets if t != args.base]
    datasets = sorted({r["dataset"] for r in rows})
    out = {"source": "patches/ovs/measure-load.py", "base": args.base,
           "series": {}}
    if args.long:
        print("| series | dataset | reps | metric | base | patched "
              "| patched/base |")
        print("|---|---|---:|---|---:|---:|---:|")
    else:
        print("| dataset | metric | reps | %s |"
              % " | ".join([args.base] + others))
        print("|---|---|---:|%s" % ("---:|" * len(targets)))
    for dataset in datasets:
        b = med.get((args.base, dataset), {})
        for m in SHOWN:
            if m not in b:
                continue
            cells, reps = [fmt(m, b[m][0])], [b[m][1]]
            for t in others:
                p = med.get((t, dataset), {}).get(m)
                if not p:
                    cells.append("-")
                    continue
                reps.append(p[1])
                r = ratio(p[0], b[m][0])
                cells.append("%s (%s)" % (fmt(m, p[0]), "-" if r is None
                                          else "%.3f" % r))
                if args.long:
                    print("| %s | %s | %d | %s | %s | %s | %s |"
                          % (t, dataset, min(p[1], b[m][1]), m,
                             fmt(m, b[m][0]), fmt(m, p[0]),
                             "-" if r is None else "%.3f" % r))
            if not args.long:
                print("| %s | %s | %s | %s |"
                      % (dataset, LABELS[m], min(reps), " | ".join(cells)))
        for t in others:
            p = med.get((t, dataset))
            if not p or not b:
                continue
            entry = out["series"].setdefault(t, {}).setdefault(dataset, {})
            entry["repetitions"] = min(min(v[1] for v in p.values()),
                                       min(v[1] for v in b.values()))
            for m in METRICS:
                if m not in p or m not in b:
                    continue
                r = ratio(p[m][0], b[m][0])
                pairs = [round(p[m][2][k] / b[m][2][k], 4)
                         for k in sorted(p[m][2])
                         if b[m][2].get(k)]
                entry[m] = {"base_median": round(b[m][0], 4),
                            "patched_median": round(p[m][0], 4),
                            "ratio": None if r is None else round(r, 4),
                            "change_pct": None if r is None
                            else round((r - 1) * 100, 1),
                            "pair_ratios": pairs}
    print()
    print("| target | dataset | RSS after load <= base | peak <= base "
          "| load CPU <= +5% | anon maps >= 256 KiB <= base |")
    print("|---|---|---|---|---|---|")
    for t in others:
        for dataset in datasets:
            e = out["series"].get(t, {}).get(dataset)
            if not e:
                continue

            def goal(m, limit):
                x = e.get(m)
                if not x or x["ratio"] is None:
                    return "-"
                diff = x["patched_median"] - x["base_median"]
                return "%s (%.3f, %s%s)" % (
                    "yes" if x["ratio"] <= limit else "NO", x["ratio"],
                    "+" if diff >= 0 else "-", fmt(m, abs(diff)))
            maps = e.get("anon_maps_256k")
            print("| %s | %s | %s | %s | %s | %s |"
                  % (t, dataset, goal("rss_bytes", 1.0),
                     goal("peak_rss_bytes", 1.0), goal("cpu_s", 1.05),
                     "-" if not maps else "%s (%g vs %g)"
                     % ("yes" if maps["patched_median"]
                        <= maps["base_median"] else "NO",
                        maps["patched_median"], maps["base_median"])))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
