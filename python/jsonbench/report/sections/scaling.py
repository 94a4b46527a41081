"""Scaling: RSS after load and load time vs dataset scale; monitor CPU vs
number of clients."""

from .. import charts
from ..document import Figure, Section
from ..metrics import summary
from .common import total_summary, work_values


def _series(rs, entries, xattr, metric, work=False):
    out = {}
    for e in entries:
        x = getattr(e, xattr)
        lo, mid, hi = summary(work_values(rs, e, metric)) if work else \
            total_summary(rs, e, metric)
        if x is None or mid is None:
            continue
        out.setdefault(e.impl, []).append((x, lo, mid, hi))
    return [(impl, pts) for impl, pts in out.items()]


def _monitor_title(dataset, mode):
    # Real OVS runs carry no composition mode.
    return "%s monitor, mode %s" % (dataset, mode) if mode else "%s monitor" % dataset


def build(ctx):
    rs = ctx.results
    s = Section("Scaling", "scaling")
    entries = rs.harness_entries()
    loads = [e for e in entries if e.workload == "load" and e.scale is not None]
    kinds = sorted({e.kind or e.dataset.split("-")[0] for e in loads})
    drew = False
    for kind in kinds:
        ks = [e for e in loads if (e.kind or e.dataset.split("-")[0]) == kind]
        scales = sorted({e.scale for e in ks})
        if len(scales) < 2:
            s.para("%s: only scale %s in this run; run the suite with several "
                   "scales (`--scale 0.005,0.01,0.02`) for scaling charts."
                   % (kind, ", ".join("%g" % x for x in scales)))
            continue
        fig, axes = charts.figure(ncols=2, width=13)
        charts.lines(axes[0], _series(rs, ks, "scale", "rss_bytes"), "bytes",
                     "%s: RSS after load" % kind, "dataset scale (1 = seed size)",
                     "RSS", ctx.charts.color, xlog=len(scales) > 2,
                     markers=ctx.charts.marker)
        charts.lines(axes[1], _series(rs, ks, "scale", "cpu_time"), "s",
                     "%s: load CPU time" % kind, "dataset scale (1 = seed size)",
                     "CPU time", ctx.charts.color, xlog=len(scales) > 2,
                     markers=ctx.charts.marker)
        charts.shared_legend(fig, axes)
        s.add(Figure(ctx.charts.save(fig, "scaling-%s" % kind),
                     "%s: RSS after load and load CPU time vs scale (median, band "
                     "= min..max)" % kind))
        drew = True
    mons = [e for e in entries if e.workload == "monitor" and e.clients is not None]
    groups = {}
    for e in mons:
        groups.setdefault((e.dataset, e.mode or ""), []).append(e)
    if groups:
        # A panel needs a line: datasets and modes measured at one client
        # count only are named in a sentence instead.
        keys = [k for k in sorted(groups) if len({e.clients for e in groups[k]}) >= 2]
        single = [k for k in sorted(groups) if k not in keys]
        if not keys:
            s.para("monitor: one client count only; run with `--clients 1,10,30` "
                   "for the clients chart.")
        else:
            ncols = min(len(keys), 2)
            fig, axes = charts.figure(ncols=ncols, nrows=(len(keys) + ncols - 1) // ncols,
                                      width=6.5 * ncols, height=4.0)
            for ax, k in zip(axes, keys):
                charts.lines(ax, _series(rs, groups[k], "clients", "cpu_time", work=True), "s",
                             _monitor_title(*k), "clients", "CPU time",
                             ctx.charts.color, markers=ctx.charts.marker)
            for ax in axes[len(keys):]:
                ax.set_visible(False)
            charts.shared_legend(fig, axes)
            s.add(Figure(ctx.charts.save(fig, "scaling-monitor-clients"),
                         "monitor: CPU time after the initial load vs number "
                         "of clients, per composition mode (median, band = min..max)"))
            drew = True
        if keys and single:
            s.para("At one client count only (no line to draw): %s."
                   % "; ".join("%s at %s clients" % (
                       _monitor_title(*k), ", ".join(str(c) for c in
                                                     sorted({e.clients for e in groups[k]})))
                       for k in single))
    if not drew and not s.blocks:
        return None
    return s
