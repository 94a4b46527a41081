"""Summary, the report's first screen: per workload and metric the best impl
and its change against `ovs` (the representation OVS ships), marked
significant or not by Mann-Whitney (significance.py, i.e. compare.py's
test); the Pareto chart of RSS after load against load CPU; the memory
breakdown chart.  The detailed sections follow it."""

from ..document import Figure, Section, Table
from ..metrics import change_pct, fmt_value, median
from .. import charts as C
from . import breakdown
from .common import by_key, model_entries, total_values
from ... import intervals as I
from ..significance import LEGEND, compare

BASE = "ovs"
METRICS = [("CPU time", "cpu_time", "s"), ("RSS after", "rss_bytes", "bytes"),
           ("peak RSS", "peak_rss_bytes", "bytes")]
# Jobs that measure something else than the representation (the breakdown
# run pays for its own bookkeeping): kept out of the summary.
PROFILING_VARIANTS = ("load-breakdown",)


def measured_groups(rs):
    # Model impls only: real OVS builds have their own sections.
    return by_key([e for e in model_entries(rs)
                   if e.variant not in PROFILING_VARIANTS])


def summary_rows(rs):
    """[dataset, workload, metric, best impl, best, ovs, change, significance]
    per workload variant and metric (lower is better for all of them)."""
    rows = []
    for (dataset, variant), impls in measured_groups(rs).items():
        for label, metric, unit in METRICS:
            vals = {i: total_values(rs, e, metric) for i, e in impls.items()}
            meds = {i: median(v) for i, v in vals.items() if v}
            if not meds:
                continue
            ranked = sorted(meds, key=lambda i: meds[i])
            best = ranked[0]
            row = [dataset, variant, label]
            if BASE not in meds or len(ranked) < 2:
                continue            # nothing to compare: no row
            if best != BASE:
                v = compare(vals[BASE], vals[best])
                row += [best, fmt_value(meds[best], unit), fmt_value(meds[BASE], unit),
                        v.change_cell(change_pct(meds[BASE], meds[best]), mark=False), v.describe()]
            else:
                nxt = ranked[1]
                v = compare(vals[BASE], vals[nxt])
                row += ["%s (next: %s)" % (BASE, nxt), fmt_value(meds[BASE], unit),
                        fmt_value(meds[BASE], unit),
                        "next " + v.change_cell(change_pct(meds[BASE], meds[nxt]), mark=False),
                        v.describe()]
            rows.append(row)
    return rows


def pareto_points(rs):
    """{dataset: {impl: (load CPU s, RSS after load bytes)}} from load jobs."""
    out = {}
    for (dataset, variant), impls in measured_groups(rs).items():
        if variant != "load":
            continue
        for impl, e in impls.items():
            cpu = median(total_values(rs, e, "cpu_time"))
            rss = median(total_values(rs, e, "rss_bytes"))
            if cpu is not None and rss is not None:
                out.setdefault(dataset, {})[impl] = (cpu, rss)
    return out


def frontier(points):
    """Impls no other impl beats on both CPU and RSS (lower is better),
    in CPU order."""
    front = []
    best_rss = None
    for impl, (cpu, rss) in sorted(points.items(), key=lambda kv: (kv[1][0], kv[1][1])):
        if best_rss is None or rss < best_rss:
            front.append(impl)
            best_rss = rss
    return front


def pareto_chart(ctx, data):
    datasets = list(data)[:4]
    if not datasets:
        return None
    fig, axes = C.figure(ncols=len(datasets), width=max(6.5, 4.6 * len(datasets)), height=4.0)
    for ax, ds in zip(axes, datasets):
        pts = data[ds]
        xdiv, xunit = C.unit_scale("s", [p[0] for p in pts.values()])
        ydiv, yunit = C.unit_scale("bytes", [p[1] for p in pts.values()])
        for impl, (cpu, rss) in pts.items():
            ax.scatter([cpu / xdiv], [rss / ydiv], s=60, color=ctx.charts.color(impl),
                       label=impl, zorder=3)
            ax.annotate(impl, (cpu / xdiv, rss / ydiv), textcoords="offset points",
                        xytext=(5, 5), fontsize=9)
        front = frontier(pts)
        ax.step([pts[i][0] / xdiv for i in front], [pts[i][1] / ydiv for i in front],
                where="post", color="#444", linestyle="--", linewidth=1,
                label="Pareto frontier", zorder=2)
        ax.set_xlabel("load CPU time (%s)" % xunit)
        ax.set_ylabel("RSS after load (%s)" % yunit)
        ax.set_title("%s: RSS after load vs load CPU" % ds, fontsize=11)
        ax.grid(alpha=0.3)
        ax.margins(0.15)
    path = ctx.charts.save(fig, "pareto-rss-cpu")
    return Figure(path, "RSS after load against load CPU time, medians, one point per impl; "
                        "the dashed line joins the impls no other impl beats on both "
                        "(lower left is better).")


def build(ctx):
    rs = ctx.results
    rows = summary_rows(rs)
    if not rows:
        return None
    s = Section("Summary", "summary")
    s.add(Table(["dataset", "workload", "metric", "best impl", "best", BASE, "change",
                 "significance"], rows,
                align=["l", "l", "l", "l", "r", "r", "r", "l"]))
    s.para("Per workload and metric, the impl with the lowest median and its change "
           "against `%s`, the representation OVS ships: **change = best / ovs - 1**, lower "
           "is better, with its %.0f%% interval; when `%s` is best, the change of the next "
           "impl.  Marks: %s" % (BASE, 100 * I.CONFIDENCE, BASE, LEGEND))
    points = pareto_points(rs)
    fig = pareto_chart(ctx, points)
    if fig:
        s.add(fig)
        s.para("Pareto-optimal (RSS after load vs load CPU): " + "; ".join(
            "%s: %s" % (ds, ", ".join("`%s`" % i for i in frontier(p)))
            for ds, p in points.items()) + ".")
    bd = breakdown.collect(rs)
    fig = breakdown.chart(ctx, bd)
    if fig:
        s.add(fig)
    else:
        s.para("No memory breakdown in this run (the suite's `load-breakdown` jobs, "
               "skipped with `--no-mem-breakdown`).")
    return s
