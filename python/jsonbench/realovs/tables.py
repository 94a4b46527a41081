"""Model vs real and real A/B tables (markdown) on the terminal, from
results folders in the suite layout (index.json + runs/*.json): the
model's (scripts/suite.sh) and real OVS's (scripts/real-ovs.sh run).
scripts/suite.sh --ovs-* renders the same in its report; this is for
folders measured apart.

  model vs real   per dataset and metric, model impl / real build and
                  their ratio (jsonbench.calibration), for pairs such as
                  serialized=ovs-debian
  real A/B        builds in order (before -> after), the seed-table layout
                  "Before -> After (change)", change = after / before - 1
                  (lower is better)
"""

import json
import os

from .. import calibration


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


def real_ab(medians, chain):
    """Markdown: each consecutive pair of builds in 'chain' as a seed
    table, Before -> After (change)."""
    lines = []
    for before, after in zip(chain, chain[1:]):
        lines += ["", "### real A/B: `%s` -> `%s`" % (before, after), "",
                  "| dataset | metric | Before -> After (change) |",
                  "|---|---|---|"]
        # A real build against another: the same ratio rows, read as
        # before/after.
        for r in calibration.pair_ratios(medians, after, before):
            bv, av = r["real"], r["model"]
            imp = "%+.1f%%" % ((av / bv - 1) * 100) if bv else "-"
            lines.append("| %s | %s | %s -> %s (%s) |" % (
                r["dataset"].upper(), r["label"], _fmt(bv, r["unit"]),
                _fmt(av, r["unit"]), imp))
    return "\n".join(lines)


def order_line(folders):
    """Whether the model and real runs compared ran side by side."""
    if len(folders) > 1:
        return ("Order: from %d folders measured apart; the time ratios "
                "include the machine's drift between them." % len(folders))
    try:
        with open(os.path.join(folders[0], "env.json")) as f:
            env = json.load(f)
    except (OSError, ValueError):
        env = {}
    return "Order: %s." % calibration.run_order(env)[1]


def main(args):
    medians = {}
    for folder in args.results:
        medians.update(calibration.load_medians(folder))
    pairs = [tuple(p.split("=", 1)) for p in args.pair or [] if "=" in p]
    chains = [p.split(",") for p in args.pair or [] if "=" not in p]
    out = []
    if pairs:
        out.append("## Model vs real")
        out.append("\n" + order_line(args.results))
        out.append(model_vs_real(medians, pairs))
    for chain in chains:
        out.append("\n## Real A/B")
        out.append(real_ab(medians, chain))
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
