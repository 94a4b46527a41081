"""Model vs real and real A/B tables (markdown) from results folders.

Reads any folders in the suite layout (index.json + runs/*.json): the
model's (scripts/suite.sh) and real OVS's (scripts/real-ovs.sh run).  Until
the report generator has its own model-vs-real section, this prints:

  model vs real   per dataset and metric, model impl / real build and
                  their ratio, for pairs such as serialized=ovs-debian
  real A/B        builds in order (before -> after), the seed-table layout
                  "Before -> After (Improvement)", improvement =
                  (before - after) / before
"""

import json
import os
import statistics

# (label, workload, how to read the value from {phase: {metric: median}}).
# The compact row of real OVS is the whole ovsdb-tool process, which reads
# and writes: the model's counterpart is its load + compact phases.
METRICS = [
    ("RSS after load", "load", "bytes",
     lambda p: p.get("load", {}).get("rss_after_load_bytes")),
    ("load CPU", "load", "s",
     lambda p: p.get("load", {}).get("cpu_time")),
    ("compact wall", "compact", "s",
     lambda p: _sum(p, ("load", "compact"), "real_time")),
    ("compact CPU", "compact", "s",
     lambda p: _sum(p, ("load", "compact"), "cpu_time")),
    ("compact peak RSS", "compact", "bytes",
     lambda p: p.get("compact", {}).get("peak_rss_bytes")),
    ("dump CPU (server)", "dump", "s",
     lambda p: p.get("dump", {}).get("cpu_time")),
    ("monitor CPU after load", "monitor", "s",
     lambda p: p.get("updates", {}).get("cpu_after_load_s")),
]
_TIME_UNIT_S = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def _sum(phases, names, key):
    vals = [phases[n][key] for n in names if key in phases.get(n, {})]
    return sum(vals) if vals else None


def load_medians(folder):
    """{(dataset, workload, impl): {phase: {metric: median}}}; times in s."""
    with open(os.path.join(folder, "index.json")) as f:
        index = json.load(f)
    out = {}
    for e in index.get("entries", []):
        if e.get("source", "harness") != "harness":
            continue
        with open(os.path.join(folder, e["file"])) as f:
            doc = json.load(f)
        samples = {}
        for b in doc.get("benchmarks", []):
            if b.get("run_type", "iteration") != "iteration":
                continue
            phase = b["name"].split("/", 1)[-1]
            unit = _TIME_UNIT_S.get(b.get("time_unit", "ns"), 1e-9)
            for k, v in b.items():
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    continue
                if k in ("real_time", "cpu_time"):
                    v = v * unit
                samples.setdefault(phase, {}).setdefault(k, []).append(v)
        key = (e["dataset"], e["workload"], e["impl"])
        out[key] = {ph: {k: statistics.median(v) for k, v in m.items()}
                    for ph, m in samples.items()}
    return out


def _fmt(v, unit):
    if v is None:
        return "-"
    if unit == "bytes":
        return "%.0f MiB" % (v / 2**20) if v >= 2**20 else "%.0f KiB" % (
            v / 1024)
    return "%.2f s" % v if v < 100 else "%.0f s" % v


def _dataset_for(datasets, workload):
    """compact runs on the -log datasets, everything else on snapshots."""
    return [d for d in datasets if d.endswith("-log") == (workload ==
                                                          "compact")]


def _base(dataset):
    return dataset[:-4] if dataset.endswith("-log") else dataset


def model_vs_real(medians, pairs):
    """Markdown: one table per pair, rows metric x dataset."""
    datasets = sorted({k[0] for k in medians})
    lines = []
    for model, real in pairs:
        lines += ["", "### model `%s` vs real `%s`" % (model, real), "",
                  "| dataset | metric | real | model | model/real |",
                  "|---|---|---|---|---|"]
        for label, workload, unit, read in METRICS:
            for ds in _dataset_for(datasets, workload):
                r = medians.get((ds, workload, real))
                m = medians.get((ds, workload, model))
                if r is None and m is None:
                    continue
                rv = read(r) if r else None
                mv = read(m) if m else None
                ratio = "%.2fx" % (mv / rv) if rv and mv is not None else "-"
                lines.append("| %s | %s | %s | %s | %s |" % (
                    _base(ds).upper(), label, _fmt(rv, unit), _fmt(mv, unit),
                    ratio))
    return "\n".join(lines)


def real_ab(medians, chain):
    """Markdown: each consecutive pair of builds in 'chain' as a seed
    table, Before -> After (Improvement)."""
    datasets = sorted({k[0] for k in medians})
    lines = []
    for before, after in zip(chain, chain[1:]):
        lines += ["", "### real A/B: `%s` -> `%s`" % (before, after), "",
                  "| dataset | metric | Before -> After (Improvement) |",
                  "|---|---|---|"]
        for label, workload, unit, read in METRICS:
            for ds in _dataset_for(datasets, workload):
                b = medians.get((ds, workload, before))
                a = medians.get((ds, workload, after))
                if not a or not b:
                    continue
                bv, av = read(b), read(a)
                if bv is None or av is None:
                    continue
                imp = "%+.1f%%" % ((bv - av) / bv * 100) if bv else "-"
                lines.append("| %s | %s | %s -> %s (%s) |" % (
                    _base(ds).upper(), label, _fmt(bv, unit), _fmt(av, unit),
                    imp))
    return "\n".join(lines)


def main(args):
    medians = {}
    for folder in args.results:
        medians.update(load_medians(folder))
    pairs = [tuple(p.split("=", 1)) for p in args.pair or []]
    out = []
    if pairs:
        out.append("## Model vs real")
        out.append(model_vs_real(medians, pairs))
    if args.ab:
        out.append("\n## Real A/B")
        out.append(real_ab(medians, args.ab.split(",")))
    print("\n".join(out))
    return 0


def add_args(p):
    p.add_argument("results", nargs="+", help="results folders (model and "
                   "real; later folders win on the same key)")
    p.add_argument("--pair", action="append", help="MODEL_IMPL=REAL_TARGET, "
                   "e.g. serialized=ovs-debian (repeatable)")
    p.add_argument("--ab", help="comma list of real targets, before to "
                   "after, e.g. ovs-9669b50f5-parent,ovs-9669b50f5")
