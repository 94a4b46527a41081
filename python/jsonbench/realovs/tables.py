"""Model vs real and real A/B tables (markdown) on the terminal, from
results folders in the suite layout (index.json + runs/*.json): the
model's (scripts/suite.sh) and real OVS's (scripts/real-ovs.sh run).
scripts/suite.sh --ovs-* renders the same in its report; this is for
folders measured apart.

  model vs real   per dataset and metric, model impl / real build and
                  their ratio (jsonbench.calibration), for pairs such as
                  serialized=ovs-debian
  real A/B        builds in order (before -> after), the seed-table layout
                  "Before -> After (change [interval])", change = after /
                  before - 1 (lower is better); the interval from the
                  repetitions (jsonbench.intervals), paired when the folder
                  ran its builds interleaved
"""

import json
import os

from .. import calibration
from .. import intervals


def _fmt(v, unit):
    if v is None:
        return "-"
    if unit == "bytes":
        return "%.0f MiB" % (v / 2**20) if v >= 2**20 else "%.0f KiB" % (
            v / 1024)
    return "%.2f s" % v if v < 100 else "%.0f s" % v


def model_vs_real(medians, pairs):
    """Markdown: one table per pair, rows dataset x metric."""
    lines = []
    for model, real in pairs:
        lines += ["", "### model `%s` vs real `%s`" % (model, real), "",
                  "| dataset | metric | real | model | model/real |",
                  "|---|---|---|---|---|"]
        for r in calibration.pair_ratios(medians, model, real):
            lines.append("| %s | %s | %s | %s | %s |" % (
                r["dataset"].upper(), r["label"], _fmt(r["real"], r["unit"]),
                _fmt(r["model"], r["unit"]),
                "%.2fx" % r["ratio"] if r["ratio"] is not None else "-"))
    return "\n".join(lines)


def _per_repetition(reps, after, before):
    """{(dataset, label): ([before value per repetition], [after ...])}
    of the builds' rows, repetition by repetition (as many as both have)."""
    def runs(target):
        return {k: v for k, v in reps.items() if k[2] == target}
    b, a = runs(before), runs(after)
    n = min([len(v) for v in list(b.values()) + list(a.values())] or [0])
    out = {}
    for i in range(n):
        medians = {k: v[i] for k, v in list(b.items()) + list(a.items())}
        for r in calibration.pair_ratios(medians, after, before):
            if r["real"] is not None and r["model"] is not None:
                bv, av = out.setdefault((r["dataset"], r["label"]), ([], []))
                bv.append(r["real"])
                av.append(r["model"])
    return out


def real_ab(medians, chain, reps=None, paired=False):
    """Markdown: each consecutive pair of builds in 'chain' as a seed
    table, Before -> After (change [interval]); the interval from 'reps'
    (calibration.load_repetitions()), paired when the builds ran
    interleaved."""
    lines = []
    for before, after in zip(chain, chain[1:]):
        lines += ["", "### real A/B: `%s` -> `%s`" % (before, after), "",
                  "| dataset | metric | Before -> After (change [%.0f%% interval]) |"
                  % (100 * intervals.CONFIDENCE),
                  "|---|---|---|"]
        values = _per_repetition(reps or {}, after, before)
        # A real build against another: the same ratio rows, read as
        # before/after.
        for r in calibration.pair_ratios(medians, after, before):
            bv, av = r["real"], r["model"]
            imp = "%+.1f%%" % ((av / bv - 1) * 100) if bv else "-"
            per = values.get((r["dataset"], r["label"]))
            iv = intervals.interval(per[0], per[1], pairs=paired) if per else None
            if iv is not None:
                imp += " " + intervals.fmt(iv)
            lines.append("| %s | %s | %s -> %s (%s) |" % (
                r["dataset"].upper(), r["label"], _fmt(bv, r["unit"]),
                _fmt(av, r["unit"]), imp))
    return "\n".join(lines)


def _env(folder):
    try:
        with open(os.path.join(folder, "env.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def _interleaved(folders):
    """Whether the builds of 'folders' ran interleaved: one folder whose
    env.json says so."""
    return len(folders) == 1 and \
        calibration.run_order(_env(folders[0]))[0] == "interleaved"


def order_line(folders):
    """Whether the model and real runs compared ran side by side."""
    if len(folders) > 1:
        return ("Order: from %d folders measured apart; the time ratios "
                "include the machine's drift between them." % len(folders))
    return "Order: %s." % calibration.run_order(_env(folders[0]))[1]


def main(args):
    medians, reps = {}, {}
    for folder in args.results:
        samples = calibration.load_samples(folder)
        medians.update(calibration.medians(samples))
        reps.update(calibration.repetitions(samples))
    pairs = [tuple(p.split("=", 1)) for p in args.pair or [] if "=" in p]
    chains = [p.split(",") for p in args.pair or [] if "=" not in p]
    out = []
    if pairs:
        out.append("## Model vs real")
        out.append("\n" + order_line(args.results))
        out.append(model_vs_real(medians, pairs))
    for chain in chains:
        out.append("\n## Real A/B")
        paired = _interleaved(args.results)
        out.append("\nIntervals: %s." % (
            "from the builds' interleaved repetitions, as pairs" if paired else
            "from the repetitions as two independent samples (the builds did not "
            "run interleaved in one folder)"))
        out.append(real_ab(medians, chain, reps, paired))
    print("\n".join(out))
    return 0


def add_args(p):
    p.add_argument("results", nargs="+", help="results folders (model and "
                   "real; later folders win on the same key)")
    p.add_argument("--table", dest="pair", action="append", metavar="SPEC",
                   help="one table: MODEL_IMPL=REAL_TARGET, "
                   "e.g. serialized=ovs-debian: model vs real; or a comma list of "
                   "real targets, before to after, e.g. "
                   "ovs-9669b50f5-parent,ovs-9669b50f5: real A/B (repeatable)")
