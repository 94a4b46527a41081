"""Per workload: CPU time and RSS per impl and phase, bars = median over
repetitions, whiskers = min..max."""

from .. import charts
from ..document import Figure, Section
from ..metrics import summary
from .common import by_key, phase_values, phases_of, total_values, work_values

PANELS = [("cpu_time", "CPU time", "s"),
          ("rss_bytes", "RSS after phase", "bytes"),
          ("peak_rss_bytes", "peak RSS in phase", "bytes")]


def build(ctx):
    rs = ctx.results
    groups = by_key(rs.harness_entries())
    if not groups:
        return None
    s = Section("Workloads: CPU and memory per impl", "workloads")
    s.para("One chart per dataset and workload; bars are medians over "
           "repetitions and whiskers span min..max.  Groups are the phases the "
           "harness measures (variant:phase when a workload ran in several "
           "variants).")
    # Merge variants of one workload on one dataset into one chart.
    charts_by = {}
    for (dataset, variant), impls in groups.items():
        wl = next(iter(impls.values())).workload
        charts_by.setdefault((dataset, wl), []).append((variant, impls))
    for (dataset, wl), variants in charts_by.items():
        if len(variants) == 1:
            _phase_chart(ctx, s, dataset, wl, variants[0][1])
        else:
            _variant_chart(ctx, s, dataset, wl, variants)
    return s


def _impl_names(variants):
    names = []
    for _v, impls in variants:
        names += [i for i in impls if i not in names]
    return names


def _phase_chart(ctx, s, dataset, wl, impls):
    """One variant: groups are its phases."""
    rs = ctx.results
    names = []
    for e in impls.values():
        names += [n for n in phases_of(rs, e) if n not in names]
    if not names:
        return
    labels = [n.split("/", 1)[-1] for n in names]
    fig, axes = charts.figure(ncols=len(PANELS), width=15, height=3.8)
    for ax, (metric, title, unit) in zip(axes, PANELS):
        series = []
        for impl, e in impls.items():
            vals = [phase_values(rs, e, n, metric) for n in names]
            series.append((impl, [summary(v) if v else None for v in vals]))
        charts.grouped_bars(ax, labels, series, unit, title, title, ctx.charts.color,
                            hatches=ctx.charts.hatch)
    charts.shared_legend(fig, axes)
    fig.suptitle("%s: %s" % (dataset, wl), x=0.01, ha="left", fontsize=12)
    path = ctx.charts.save(fig, "workload-%s-%s" % (dataset, wl))
    s.add(Figure(path, "%s, %s: CPU time, RSS after each phase and peak RSS in each "
                 "phase, per impl (median, whiskers min..max over repetitions)" % (dataset, wl)))


def _variant_chart(ctx, s, dataset, wl, variants):
    """Several variants (e.g. monitor modes x clients): groups are variants,
    CPU is the work after setup, memory the whole-run figures."""
    rs = ctx.results
    labels = [v.replace(wl + "-", "") for v, _i in variants]
    impl_names = _impl_names(variants)
    fig, axes = charts.figure(nrows=3, width=max(9, 0.75 * len(labels) * len(impl_names) / 3 + 3),
                              height=3.0)
    panels = [("cpu_time", "CPU time after setup", "s", lambda e: work_values(rs, e)),
              ("rss_bytes", "RSS at end", "bytes",
               lambda e: total_values(rs, e, "rss_bytes")),
              ("peak_rss_bytes", "peak RSS", "bytes",
               lambda e: total_values(rs, e, "peak_rss_bytes"))]
    for ax, (_m, title, unit, get) in zip(axes, panels):
        series = []
        for impl in impl_names:
            vals = []
            for _v, impls in variants:
                e = impls.get(impl)
                v = get(e) if e else []
                vals.append(summary(v) if v else None)
            series.append((impl, vals))
        charts.grouped_bars(ax, labels, series, unit, title, title, ctx.charts.color,
                            hatches=ctx.charts.hatch)
    charts.shared_legend(fig, axes)
    fig.suptitle("%s: %s" % (dataset, wl), x=0.01, ha="left", fontsize=12)
    path = ctx.charts.save(fig, "workload-%s-%s" % (dataset, wl))
    s.add(Figure(path, "%s, %s per variant: CPU time after the initial load, RSS at "
                 "the end and peak RSS, per impl (median, whiskers min..max over "
                 "repetitions)" % (dataset, wl)))
