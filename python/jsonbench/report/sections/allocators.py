"""glibc against jemalloc (scripts/jsonbench allocators): per dataset,
workload and impl (model impls and real ovsdb-server builds alike) the
median of each figure under each allocator and the change jemalloc /
glibc - 1 with its interval (pairs of neighbouring processes) and the
Mann-Whitney mark; a chart of RSS after load.  None for a folder without
an impl measured under two allocators."""

from .. import charts as C
from ..document import Figure, Section, Table
from ..metrics import change_pct, fmt_value, median
from ..significance import LEGEND, compare
from .common import entry_sort_key, is_real, total_values

BASE, OTHER = "glibc", "jemalloc"
MEMORY = [("RSS after", "rss_bytes"), ("peak RSS", "peak_rss_bytes"),
          ("heap", "heap_allocated_bytes")]
CPU = [("CPU time", "cpu_time")]


def pairs(rs):
    """[(dataset, workload, impl label, {allocator: entry})] with both."""
    out = {}
    for e in sorted(rs.harness_entries(), key=entry_sort_key):
        who = "%s (real %s)" % (e.impl, e.meta.get("ovs_version", "")) if is_real(e) else e.impl
        out.setdefault((e.dataset, e.variant, who), {})[e.allocator] = e
    return [(d, v, w, a) for (d, v, w), a in out.items() if BASE in a and OTHER in a]


def cells(rs, by_alloc, metric, unit):
    """glibc median, jemalloc median, change cell ("-" without figures)."""
    a = total_values(rs, by_alloc[BASE], metric)
    b = total_values(rs, by_alloc[OTHER], metric)
    if not a or not b:
        return ["-", "-", "-"], None
    ma, mb = median(a), median(b)
    v = compare(a, b, paired=len(a) == len(b))
    return [fmt_value(ma, unit), fmt_value(mb, unit),
            v.change_cell(change_pct(ma, mb))], (ma, mb)


def table(rs, found, figures):
    rows = []
    for dataset, workload, who, by_alloc in found:
        row = [dataset, workload, who]
        for _label, metric in figures:
            got, _ = cells(rs, by_alloc, metric, "s" if metric == "cpu_time" else "bytes")
            row += got
        if any(c != "-" for c in row[3:]):
            rows.append(row)
    headers = ["dataset", "workload", "impl"]
    for label, _m in figures:
        headers += ["%s %s" % (label, BASE), "%s %s" % (label, OTHER), "change"]
    return Table(headers, rows)


def chart(ctx, found):
    """RSS after load, glibc and jemalloc bars per impl, one panel per
    dataset; None without load jobs."""
    loads = [f for f in found if f[1] == "load"]
    if not loads:
        return None
    plt = C.plt
    datasets = list(dict.fromkeys(f[0] for f in loads))
    fig, axes = plt.subplots(1, len(datasets), figsize=(5.5 * len(datasets), 3.6),
                             squeeze=False)
    colors = {BASE: C.COLORS[0], OTHER: C.COLORS[1]}
    for ax, ds in zip(axes[0], datasets):
        mine = [f for f in loads if f[0] == ds]
        series = []
        for alloc in (BASE, OTHER):
            vals = []
            for _d, _w, _who, by_alloc in mine:
                v = total_values(ctx.results, by_alloc[alloc], "rss_bytes")
                vals.append((min(v), median(v), max(v)) if v else None)
            series.append((alloc, vals))
        C.grouped_bars(ax, [f[2] for f in mine], series, "bytes", ds, "RSS after load",
                       colors.get)
    C.shared_legend(fig, list(axes[0]))
    fig.suptitle("RSS after load: glibc against jemalloc (bars: median, whiskers: min..max)")
    return ctx.charts.save(fig, "allocators-rss-after-load")


def build(ctx):
    rs = ctx.results
    found = pairs(rs)
    if not found:
        return None
    sec = Section("glibc against jemalloc", "allocators")
    sec.para("Per dataset, workload and impl: the median of the repetitions under each "
             "allocator and the change jemalloc / glibc - 1 (lower is better) with its "
             "95% interval from the pairs of neighbouring processes.  " + LEGEND)
    sec.add(table(rs, found, MEMORY))
    sec.para("RSS after: what the workload leaves (after load for load, after the dump for "
             "dump); peak RSS: the largest during the run; heap: allocated bytes after the "
             "workload as the allocator counts them (glibc's mallinfo2, jemalloc's "
             "stats.allocated), the model only.  Memory does not depend on the machine's load.")
    path = chart(ctx, found)
    if path:
        sec.add(Figure(path, "RSS after load per impl, glibc and jemalloc."))
    cpu = sec.subsection("CPU time (a shared machine: not a verdict)", "allocators-cpu")
    env = rs.env
    cpu.para("CPU time of the workload's own phase, measured on a machine shared with other "
             "jobs (load average %s at the start, %s at the end): it shows the direction and "
             "size of a difference on this machine, not a verdict on the allocators."
             % (env.get("loadavg_start", "?"), env.get("loadavg_end", "?")))
    cpu.add(table(rs, found, CPU))
    how = sec.subsection("How each allocator came in", "allocators-how")
    rows = []
    for _d, _w, who, by_alloc in found:
        for alloc, e in sorted(by_alloc.items()):
            via = e.meta.get("allocator_via") or (
                "the build's own (%s, ldd)" % (env.get("real_target", {}).get("links") or alloc)
                if is_real(e) else "meson -Dallocator=%s build; the harness reports %s" % (
                    alloc, e.context.get("allocator", "?")))
            rows.append([who, alloc, via])
    how.add(Table(["impl", "allocator", "how"], [list(r) for r in dict.fromkeys(
        tuple(r) for r in rows)]))
    return sec
