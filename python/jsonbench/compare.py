"""Compare two result sets: per benchmark and metric, the ratio of medians and
a Mann-Whitney U test over the repetitions.

A and B are results folders (scripts/suite.sh output) or single
google-benchmark JSON files (harness --results, micro-benchmarks).  Typical:
  two commits:     scripts/compare results/OLD results/NEW
  two impls:       scripts/compare results/RUN results/RUN --impl-a plain --impl-b ovs
  two allocators:  scripts/compare results/GLIBC results/JEMALLOC
Rows are matched by dataset, workload variant, phase (and impl, unless
--impl-a/--impl-b pick one on each side).  The verdict is honest about
small samples: with n repetitions per side the smallest two-sided p-value
Mann-Whitney can give is 2/C(2n, n) (0.10 for n=3), so below that it says
"too few repetitions" instead of "not significant".  A folder holding both
model and real OVS results says whether they ran interleaved (neighbouring
processes) or grouped (minutes apart: time ratios include the drift)."""

import argparse
import os
import signal
import statistics
import sys

from . import calibration, intervals, options as O
from .mannwhitney import min_p_two_sided, test  # noqa: F401  (min_p: tests)
from .report import results as R
from .report.metrics import fmt_value, metric

DEFAULT_METRICS = ["cpu_time", "real_time", "rss_bytes", "peak_rss_bytes",
                   "heap_allocated_bytes", "alloc_calls", "alloc_bytes",
                   "bytes_per_second", "items_per_second"]


def parse_args(argv):
    ap = argparse.ArgumentParser(prog=O.prog("compare"), description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("a", help="baseline: results folder or JSON file")
    ap.add_argument("b", help="contender: results folder or JSON file")
    ap.add_argument("--impl-a", help="only this impl from A (e.g. plain)")
    ap.add_argument("--impl-b", help="only this impl from B (e.g. ovs)")
    ap.add_argument("--metrics", metavar="NAME,...", help="comma list (default: %s)" % ",".join(DEFAULT_METRICS))
    ap.add_argument("--filter", help="only rows whose dataset/workload/phase contains this")
    ap.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    ap.add_argument("--markdown", action="store_true", help="markdown table instead of text")
    return ap.parse_args(argv)


def load_side(path, impl):
    rs = R.load(path)
    if not rs.entries:
        sys.exit("compare: no results in %s" % path)
    samples = [s for s in rs.samples if impl is None or s.entry.impl == impl]
    if impl and not samples:
        sys.exit("compare: no impl %r in %s (have: %s)" % (impl, path, ", ".join(rs.impls())))
    return rs, samples


def order_lines(sides):
    """For each side that holds both model and real OVS results: whether
    they ran interleaved (ratios between them compare neighbouring
    processes) or grouped."""
    from .report.sections.common import is_real
    out = []
    for name, rs in sides:
        real = [is_real(e) for e in rs.entries if e.source == "harness"]
        if any(real) and not all(real):
            out.append("%s: model and real OVS %s\n" % (name, calibration.run_order(rs.env)[1]))
    return "".join(out)


def group(samples, with_impl, loose):
    """{key: {metric: [values per repetition]}}"""
    out = {}
    for s in samples:
        e = s.entry
        key = (s.name,) if loose else (e.dataset, e.variant, s.name)
        if with_impl:
            key = (e.impl,) + key
        if e.source == "micro":
            key = ("micro",) + key
        d = out.setdefault(key, {})
        for k, v in s.metrics.items():
            d.setdefault(k, []).append(v)
    return out


def rows_for(ga, gb, metrics, alpha, flt):
    rows = []
    for key in ga:
        if key not in gb:
            continue
        # "nb-0.01 load load/parse" reads better as "nb-0.01 load/parse".
        parts = [str(k) for k in key if k]
        if len(parts) >= 2 and parts[-1].startswith(parts[-2] + "/"):
            del parts[-2]
        label = " ".join(parts)
        if flt and flt not in label:
            continue
        for m in metrics:
            a, b = ga[key].get(m), gb[key].get(m)
            if m == "cpu_time" and key[-1].endswith("/process"):
                continue  # hyperfine keeps only a mean CPU time, not per run
            if not a or not b:
                continue
            ma, mb = statistics.median(a), statistics.median(b)
            ratio = mb / ma if ma else float("nan")
            p, verdict = test(a, b, alpha)
            met = metric(m)
            if verdict == "significant" or verdict == "constant: differs":
                better = (mb > ma) if met.higher_is_better else (mb < ma)
                verdict += ", B %s" % ("better" if better else "worse")
            iv = intervals.interval(a, b, pairs=False)
            rows.append([label, met.label, fmt_value(ma, met.unit), fmt_value(mb, met.unit),
                         "%.3f" % ratio if ma else "-",
                         "%+.1f%%" % ((ratio - 1) * 100) if ma else "-",
                         intervals.fmt(iv), "-" if p is None else "%.3g" % p, verdict])
    return rows


def print_text(headers, rows, out):
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows)]
    fmt = "  ".join("%%-%ds" % w if i in (0, 1, 8) else "%%%ds" % w
                    for i, w in enumerate(widths))
    out.write((fmt % tuple(headers)).rstrip() + "\n")
    out.write("  ".join("-" * w for w in widths) + "\n")
    for r in rows:
        out.write((fmt % tuple(r)).rstrip() + "\n")


def print_markdown(headers, rows, out):
    out.write("| " + " | ".join(headers) + " |\n")
    out.write("|" + "|".join("---" if i in (0, 1, 8) else "---:" for i in range(len(headers))) + "|\n")
    for r in rows:
        out.write("| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |\n")


def main(argv):
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet under `| head`
    args = parse_args(argv)
    rsa, sa = load_side(args.a, args.impl_a)
    rsb, sb = load_side(args.b, args.impl_b)
    with_impl = not (args.impl_a or args.impl_b)
    loose = os.path.isfile(args.a) or os.path.isfile(args.b)
    ga, gb = group(sa, with_impl, loose), group(sb, with_impl, loose)
    metrics = args.metrics.split(",") if args.metrics else DEFAULT_METRICS
    rows = rows_for(ga, gb, metrics, args.alpha, args.filter)
    name_a = "%s%s" % (args.a, " [%s]" % args.impl_a if args.impl_a else "")
    name_b = "%s%s" % (args.b, " [%s]" % args.impl_b if args.impl_b else "")
    if not rows:
        sys.exit("compare: nothing in common between %s and %s" % (name_a, name_b))
    headers = ["benchmark", "metric", "A median", "B median", "B/A", "change",
               "%.0f%% interval" % (100 * intervals.CONFIDENCE), "p", "verdict"]
    head = ("A = %s\nB = %s\nMann-Whitney U, two-sided, alpha %.2g; medians over repetitions; "
            "change = B/A - 1 with its interval (Hodges-Lehmann, Mann-Whitney; Welch's t "
            "under 4 repetitions a side).\n" % (name_a, name_b, args.alpha))
    sides = [("A", rsa)] if os.path.abspath(args.a) == os.path.abspath(args.b) else \
        [("A", rsa), ("B", rsb)]
    head += order_lines(sides)
    if args.markdown:
        sys.stdout.write("\n".join("*%s*  " % l for l in head.strip().split("\n")) + "\n\n")
        print_markdown(headers, rows, sys.stdout)
    else:
        sys.stdout.write(head + "\n")
        print_text(headers, rows, sys.stdout)
    sig = [r for r in rows if r[8].startswith(("significant", "constant: differs"))]
    few = sum(1 for r in rows if r[8].startswith("too few"))
    sys.stdout.write("\n%d rows: %d differ (%d B better, %d B worse), %d too few repetitions\n" % (
        len(rows), len(sig), sum(1 for r in sig if r[8].endswith("better")),
        sum(1 for r in sig if r[8].endswith("worse")), few))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
