"""Predictions: what the model says a real OVS patch will do, recorded as
data before the patch is measured (claims/predictions/*.json, format in
claims/README.md), and judged against the real measurement once its
"real" field is filled in.

    python3 -m jsonbench.predictions make --before ovs --after ovs-arena \\
        --id ovs-arena --title ... --patch patches/ovs/arena-read-path \\
        --command '...' --note '...' -o claims/predictions/ovs-arena.json \\
        RESULTS...

reads suite results (folders or single harness result files; `dump` runs
on the snapshot form, `compact` runs on the log form) and writes the
entry with the medians of every repetition.

    python3 -m jsonbench.predictions real claims/predictions/ovs-arena.json \\
        SUMMARY.json --target arena --command '...'

fills the entry's "real" figures (never its predicted ones) from the
medians `patches/ovs/summarize.py --json` wrote for a target against its
base, or from a results folder of `scripts/jsonbench ovs run` (--target
ovs-v3.7.1+half, its base ovs-v3.7.1): those figures whose dataset,
scale, form and metric the entry predicted.  The report's section "Predictions vs real patches" reads the
folder (report/sections/predictions.py)."""

import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys

from . import realclaims

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PREDICTIONS_DIR = os.path.join(ROOT, "claims", "predictions")

# The calibration target of claims/real-ovs.json, where that file is not
# at hand: within 30% of the real change, or within 3 points where the
# real change is under 10%.
DEFAULT_TARGET = {"relative": 0.3, "points": 3, "small_below_pct": 10}

# metric -> (workloads, form, [phases summed], field, scale to unit, unit).
# The load phase is the same code in every workload: its figures come from
# the load and dump runs alike (as the real runner takes load from its
# dump runs).
METRICS = {
    "rss_after_load": (("load", "dump"), "snapshot", ["load"], "rss_bytes", 1 / 2**20, "MiB"),
    "peak_rss_load": (("load", "dump"), "snapshot", ["load"], "peak_rss_bytes", 1 / 2**20,
                      "MiB"),
    "load_cpu": (("load", "dump"), "snapshot", ["load"], "cpu_time", 1.0, "s"),
    "dump_cpu": (("dump",), "snapshot", ["dump"], "cpu_time", 1.0, "s"),
    # Compaction as ovsdb-tool compact does it: read, write, free.
    "compact_cpu": (("compact",), "log", ["load", "compact", "free"], "cpu_time", 1.0, "s"),
}
METRIC_LABELS = {
    "rss_after_load": "RSS after load",
    "peak_rss_load": "peak RSS during load",
    "load_cpu": "load CPU",
    "dump_cpu": "dump CPU",
    "compact_cpu": "compaction CPU",
    "cpu_after_load": "server CPU after load (monitor)",
}
# Metrics a prediction may carry that 'make' does not compute from suite
# results (a monitor's CPU comes from the claims reproduction).
RECORDED_ONLY = {"cpu_after_load"}
# Memory is measured to the page: robust.  CPU times vary with the load
# of the machine.
KIND = {"rss_after_load": "memory", "peak_rss_load": "memory",
        "load_cpu": "time", "dump_cpu": "time", "compact_cpu": "time"}

# What patches/ovs/measure-load.py measures for each metric: the dataset
# form and its field (summarize.py --json), scaled to the metric's unit.
# Its dataset labels are KIND-SCALE[-log|-cluster] (nb-1, sb-1-log).
REAL_FIELDS = {"rss_after_load": ("snapshot", "rss_bytes", 1 / 2**20),
               "peak_rss_load": ("snapshot", "peak_rss_bytes", 1 / 2**20),
               "load_cpu": ("snapshot", "cpu_s", 1.0),
               "dump_cpu": ("snapshot", "dump_cpu_s", 1.0),
               "compact_cpu": ("log", "compact_cpu_s", 1.0)}
_REAL_LABEL = re.compile(r"^(nb|sb)-([0-9.]+)(?:-(log|cluster))?$")

REQUIRED = ("id", "title", "patch", "model", "command", "measured", "note",
            "predicted", "real")
FIGURE_KEYS = ("dataset", "scale", "form", "metric", "before", "after",
               "change_pct", "unit")


class PredictionError(ValueError):
    pass


def change_pct(before, after):
    return 100.0 * (after - before) / before if before else None


# ------------------------------------------------------------------ files

def check_figure(f, where):
    missing = [k for k in FIGURE_KEYS if k not in f]
    if missing:
        raise PredictionError("%s: figure without %s" % (where, ", ".join(missing)))
    if f["metric"] not in METRICS and f["metric"] not in RECORDED_ONLY:
        raise PredictionError("%s: unknown metric %r" % (where, f["metric"]))


def check(doc, where):
    """Raises PredictionError naming 'where' if 'doc' is not a prediction."""
    if not isinstance(doc, dict):
        raise PredictionError("%s: not a JSON object" % where)
    missing = [k for k in REQUIRED if k not in doc]
    if missing:
        raise PredictionError("%s: missing %s" % (where, ", ".join(missing)))
    model = doc["model"]
    if not isinstance(model, dict) or not model.get("before") or not model.get("after"):
        raise PredictionError("%s: model needs before and after impls" % where)
    if not isinstance(doc["predicted"], list) or not doc["predicted"]:
        raise PredictionError("%s: no predicted figures" % where)
    for i, f in enumerate(doc["predicted"]):
        check_figure(f, "%s: predicted[%d]" % (where, i))
    real = doc["real"]
    if real is not None:
        if not isinstance(real, dict) or not isinstance(real.get("figures"), list):
            raise PredictionError("%s: real must be null or hold figures" % where)
        for i, f in enumerate(real["figures"]):
            check_figure(f, "%s: real.figures[%d]" % (where, i))


def load_dir(folder=PREDICTIONS_DIR):
    """[(path, entry)] of every *.json in 'folder', sorted by name; a
    missing folder is empty.  Raises PredictionError on a bad file."""
    if not os.path.isdir(folder):
        return []
    out = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        path = os.path.join(folder, name)
        try:
            with open(path) as f:
                doc = json.load(f)
        except ValueError as exc:
            raise PredictionError("%s: %s" % (path, exc))
        check(doc, path)
        out.append((path, doc))
    return out


def commit_of(path):
    """(sha, ISO date) of the commit that added 'path', or None when git or
    the history is not at hand (or the file is not committed)."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        r = subprocess.run(["git", "-C", folder, "log", "--diff-filter=A",
                            "--follow", "--format=%H %cI", "--",
                            os.path.basename(path)],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = r.stdout.split("\n") if r.returncode == 0 else []
    lines = [l for l in lines if l.strip()]
    if not lines:
        return None
    sha, date = lines[-1].split(" ", 1)     # The oldest: the first add.
    return sha, date


# --------------------------------------------------------------- verdicts

def figure_key(f):
    return (f["dataset"], float(f["scale"]), f["form"], f["metric"], f.get("clients"))


def verdicts(doc, target=None):
    """[(predicted figure, real figure or None, verdict or None)]: the
    verdict is realclaims.target_verdict of the predicted change against
    the real one ({"met", "how"})."""
    target = target or DEFAULT_TARGET
    real = {}
    if doc.get("real"):
        real = {figure_key(f): f for f in doc["real"]["figures"]}
    out = []
    for p in doc["predicted"]:
        r = real.get(figure_key(p))
        v = (realclaims.target_verdict(p.get("change_pct"), r.get("change_pct"), target)
             if r else None)
        out.append((p, r, v))
    return out


# ------------------------------------------------------ from suite results

_LABEL = re.compile(r"^(nb|sb)-s([0-9.]+)-(snapshot|log)-")


def _dataset_of(entry):
    """(kind, scale, form) from the dataset's path or label."""
    names = [entry.context.get("dataset", ""), entry.dataset or ""]
    for n in names:
        m = _LABEL.match(os.path.basename(n))
        if m:
            return m.group(1), float(m.group(2)), m.group(3)
    return None


def collect(paths):
    """{(impl, kind, scale, form, workload): {rep id: {phase: metrics}}}
    from suite results folders or harness result files."""
    from .report import results
    out = {}
    for p in paths:
        rs = results.load(p)
        for e in rs.harness_entries():
            ds = _dataset_of(e)
            if not ds:
                continue
            key = (e.impl, ds[0], ds[1], ds[2], e.workload)
            reps = out.setdefault(key, {})
            for s in results.samples_of(e):
                if "/" not in s.name:
                    continue
                wl, phase = s.name.split("/", 1)
                if wl != e.workload:
                    continue
                reps.setdefault((e.path, s.rep), {})[phase] = s.metrics
    return out


def medians(data, impl, kind, scale, metric):
    """(median, n) of 'metric' over the repetitions of 'impl', or None."""
    workloads, form, phases, field, factor, _unit = METRICS[metric]
    reps = {}
    for workload in workloads:
        reps.update(data.get((impl, kind, scale, form, workload), {}))
    values = []
    for rep in reps.values():
        if all(ph in rep and field in rep[ph] for ph in phases):
            values.append(sum(rep[ph][field] for ph in phases) * factor)
    if not values:
        return None
    return statistics.median(values), len(values)


def figures(data, before, after, scale=1.0, datasets=("nb", "sb"),
            metrics=tuple(METRICS)):
    """Predicted figures of 'after' against 'before' (medians), and the
    repetition counts {(dataset, metric): (n_before, n_after)}."""
    out, counts = [], {}
    for kind in datasets:
        for metric in metrics:
            b = medians(data, before, kind, scale, metric)
            a = medians(data, after, kind, scale, metric)
            if not b or not a:
                continue
            unit = METRICS[metric][5]
            digits = 1 if unit == "MiB" else 2
            out.append({"dataset": kind, "scale": scale, "form": METRICS[metric][1],
                        "metric": metric, "before": round(b[0], digits),
                        "after": round(a[0], digits),
                        "change_pct": round(change_pct(b[0], a[0]), 1),
                        "unit": unit, "repetitions": [b[1], a[1]]})
            counts[(kind, metric)] = (b[1], a[1])
    return out, counts


# ------------------------------------------- from real-server measurements

def real_figures(summary, target):
    """Figures of 'target' against the base in 'summary' (the output of
    patches/ovs/summarize.py --json), for every metric of REAL_FIELDS it
    has."""
    out = []
    for label, entry in sorted(summary.get("series", {}).get(target, {}).items()):
        m = _REAL_LABEL.match(label)
        if not m:
            continue
        form = m.group(3) or "snapshot"
        for metric, (mform, field, factor) in sorted(REAL_FIELDS.items()):
            x = entry.get(field)
            if mform != form or not x:
                continue
            before, after = x["base_median"] * factor, x["patched_median"] * factor
            n = len(x.get("pair_ratios") or []) or entry.get("repetitions", 0)
            out.append({"dataset": m.group(1), "scale": float(m.group(2)), "form": form,
                        "metric": metric, "before": round(before, 2),
                        "after": round(after, 2),
                        "change_pct": round(change_pct(before, after), 1),
                        "unit": METRICS[metric][5], "repetitions": [n, n]})
    return out


def results_figures(folders, base, target, scales):
    """Figures of 'target' against 'base' (real targets' names, e.g.
    ovs-v3.7.1 and ovs-v3.7.1+half) from real-ovs results folders
    (`scripts/jsonbench ovs run`), medians of their repetitions, at each
    of 'scales'."""
    data = collect(folders)
    out = []
    for scale in sorted(set(scales)):
        out += figures(data, base, target, scale=scale)[0]
    return out


def fill_real(doc, figures, command, results):
    """'doc' with its real figures replaced by those of 'figures' that it
    predicted (same dataset, scale, form and metric; real figures of other
    keys stay, and so does the file they came from, in "results").  The predicted figures are not touched.  Raises
    PredictionError when none matches."""
    keys = {figure_key(p) for p in doc["predicted"]}
    new = [f for f in figures if figure_key(f) in keys]
    if not new:
        raise PredictionError("%s: none of the measured figures is one it predicted"
                              % doc["id"])
    old = (doc.get("real") or {}).get("figures", [])
    replaced = {figure_key(f) for f in new}
    order = {figure_key(p): i for i, p in enumerate(doc["predicted"])}
    kept = [f for f in old if figure_key(f) not in replaced]
    before = doc.get("real") or {}
    if kept and before.get("results") and before["results"] != results:
        results = "%s; %s" % (before["results"], results)
    doc["real"] = {"command": command, "results": results,
                   "figures": sorted(kept + new, key=lambda f: order.get(figure_key(f), -1))}
    return doc


def write_entry(doc, path):
    check(doc, path)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(json.dumps(doc, indent=1) + "\n")
    os.replace(tmp, path)


def make(args):
    data = collect(args.results)
    figs, _ = figures(data, args.before, args.after, scale=args.scale)
    if not figs:
        raise SystemExit("predictions: no %s and %s runs at scale %g in %s"
                         % (args.before, args.after, args.scale, " ".join(args.results)))
    doc = {"id": args.id, "title": args.title, "patch": args.patch,
           "model": {"before": args.before, "after": args.after},
           "command": args.command,
           "measured": args.measured or datetime.datetime.now(
               datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
           "note": args.note, "predicted": figs, "real": None}
    if args.output:
        write_entry(doc, args.output)
    else:
        check(doc, "<stdout>")
        sys.stdout.write(json.dumps(doc, indent=1) + "\n")


def real(args):
    try:
        with open(args.entry) as f:
            doc = json.load(f)
        check(doc, args.entry)
        if os.path.isdir(args.summary):
            base = args.base or args.target.split("+", 1)[0]
            figs = results_figures([args.summary], base, args.target,
                                   [p["scale"] for p in doc["predicted"]])
        else:
            with open(args.summary) as f:
                summary = json.load(f)
            figs = real_figures(summary, args.target)
        if args.only:
            figs = [f for f in figs if f["metric"] in args.only.split(",")]
        if not figs:
            raise PredictionError("%s: no figures of target %r" % (args.summary, args.target))
        fill_real(doc, figs, args.command, args.summary)
        write_entry(doc, args.entry)
    except (OSError, ValueError) as exc:
        raise SystemExit("predictions: %s" % exc)
    for p, r, v in verdicts(doc):
        print("%s %s %s: predicted %+.1f%%, real %s, %s"
              % (p["dataset"], p["form"], p["metric"], p["change_pct"],
                 "%+.1f%%" % r["change_pct"] if r else "-",
                 ("met" if v["met"] else "missed") + " (%s)" % v["how"] if v else "pending"))


def main(argv):
    ap = argparse.ArgumentParser(prog="python3 -m jsonbench.predictions")
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("make", help="a prediction entry from suite results")
    m.add_argument("results", nargs="+", help="suite results folders or files")
    m.add_argument("--before", required=True)
    m.add_argument("--after", required=True)
    m.add_argument("--scale", type=float, default=1.0)
    m.add_argument("--id", required=True)
    m.add_argument("--title", required=True)
    m.add_argument("--patch", required=True)
    m.add_argument("--command", required=True, help="the command that measured it")
    m.add_argument("--note", default="")
    m.add_argument("--measured", help="UTC date (default: now)")
    m.add_argument("-o", "--output")
    r = sub.add_parser("real", help="fill an entry's real figures from "
                       "patches/ovs/summarize.py --json output or a results "
                       "folder of scripts/jsonbench ovs run")
    r.add_argument("entry", help="claims/predictions/ID.json, rewritten")
    r.add_argument("summary", help="summarize.py --json output, or a results "
                   "folder of `scripts/jsonbench ovs run`")
    r.add_argument("--target", required=True, help="the patched target's name there "
                   "(in a results folder: ovs-v3.7.1+half)")
    r.add_argument("--base", help="in a results folder: the base target's name "
                   "(default: --target up to its first '+', ovs-v3.7.1)")
    r.add_argument("--command", required=True, help="the command that measured it")
    r.add_argument("--only", help="these metrics only, comma-separated (dump_cpu,"
                   "compact_cpu); the entry's other real figures stay")
    c = sub.add_parser("check", help="validate claims/predictions/")
    c.add_argument("folder", nargs="?", default=PREDICTIONS_DIR)
    args = ap.parse_args(argv)
    if args.cmd == "make":
        make(args)
    elif args.cmd == "real":
        real(args)
    else:
        try:
            entries = load_dir(args.folder)
        except PredictionError as exc:
            raise SystemExit("predictions: %s" % exc)
        for path, doc in entries:
            print("%s: %d figures, real %s" % (os.path.relpath(path), len(doc["predicted"]),
                                                "filled" if doc["real"] else "null"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
