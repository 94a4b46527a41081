"""Summary, the report's first screen: per workload the representations
ranked on RSS and CPU, each with its change against `ovs` (the
representation OVS ships), its interval and a Mann-Whitney mark
(significance.py, i.e. compare.py's test); the Pareto chart of RSS after load against load CPU; the memory
breakdown chart.  The detailed sections follow it."""

from ..document import Figure, Section, Table
from ..metrics import change_pct, fmt_value, median
from .. import charts as C
from . import breakdown
from .common import by_key, model_entries, total_values
from ... import intervals as I
from ..significance import LEGEND, compare

BASE = "ovs"
# Jobs that measure something else than the representation (the breakdown
# run pays for its own bookkeeping): kept out of the summary.
PROFILING_VARIANTS = ("load-breakdown",)


def measured_groups(rs):
    # Model impls only: real OVS builds have their own sections.
    return by_key([e for e in model_entries(rs)
                   if e.variant not in PROFILING_VARIANTS])


RANK_METRICS = [("RSS after", "rss_bytes", "bytes"), ("CPU time", "cpu_time", "s")]


def summary_rows(rs):
    """The answer table: per dataset and workload, every representation
    ranked by its median RSS after the workload, then CPU time, each with
    its change against `ovs` (best / ovs - 1, lower is better), the change's
    interval and the significance mark.  Workloads without `ovs` or with
    one impl only have nothing to rank against: no rows.  Returns (table
    rows, figures) where figures[(dataset, workload, impl)] = {metric:
    median} are the numbers the cells show (the charts take the same)."""
    rows, figures = [], {}
    for (dataset, variant), impls in measured_groups(rs).items():
        vals = {i: {m: total_values(rs, e, m) for _l, m, _u in RANK_METRICS}
                for i, e in impls.items()}
        meds = {i: {m: median(v) for m, v in vs.items() if v} for i, vs in vals.items()}
        meds = {i: m for i, m in meds.items() if m}
        if BASE not in meds or len(meds) < 2:
            continue            # nothing to rank against: no row
        big = float("inf")
        ranked = sorted(meds, key=lambda i: tuple(meds[i].get(m, big)
                                                  for _l, m, _u in RANK_METRICS))
        for rank, impl in enumerate(ranked, 1):
            row = [dataset, variant, str(rank), impl]
            for _label, metric, unit in RANK_METRICS:
                mine, base = meds[impl].get(metric), meds[BASE].get(metric)
                row.append(fmt_value(mine, unit) if mine is not None else "-")
                if impl == BASE:
                    row.append("reference")
                elif mine is None or base is None:
                    row.append("-")
                else:
                    v = compare(vals[BASE][metric], vals[impl][metric])
                    row.append(v.change_cell(change_pct(base, mine)))
            figures[(dataset, variant, impl)] = dict(meds[impl])
            rows.append(row)
    return rows, figures


HEADERS = ["dataset", "workload", "rank", "impl", "RSS after", "RSS vs ovs",
           "CPU time", "CPU vs ovs"]


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
    rows, _figures = summary_rows(rs)
    if not rows:
        return None
    s = Section("Summary", "summary")
    s.add(Table(HEADERS, rows, align=["l", "l", "r", "l", "r", "r", "r", "r"]))
    s.para("Per dataset and workload, the representations ranked by median RSS after "
           "the workload (then CPU time), each against `%s`, the representation OVS "
           "ships: **change = impl / ovs - 1**, lower is better, with its %.0f%% "
           "interval and a mark.  Marks: %s" % (BASE, 100 * I.CONFIDENCE, LEGEND))
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
