"""Memory breakdown: where the bytes of a loaded database go, per impl.

Reads the harness's --mem-breakdown counters (the suite's `load-breakdown`
jobs): live bytes per allocation category after the load phase and at its
peak, and malloc overhead = RSS - live bytes - the breakdown's own table.
One stacked bar per impl; the summary shows the same chart."""

from ..document import Figure, Section, Table
from ..metrics import fmt_value, median
from .. import charts as C

# Category keys as the harness names them (util.c), in stacking order.
CATEGORIES = [
    ("json_nodes", "JSON nodes"),
    ("strings", "strings"),
    ("arrays", "arrays"),
    ("objects", "objects"),
    ("intern", "intern tables"),
    ("model", "model (rows, datums)"),
    ("indexes", "indexes"),
    ("other", "other (untagged)"),
]
OVERHEAD = ("malloc_overhead", "malloc overhead")
CATEGORY_COLORS = {
    "json_nodes": "#4c72b0", "strings": "#dd8452", "arrays": "#55a868",
    "objects": "#c44e52", "intern": "#8172b3", "model": "#937860",
    "indexes": "#da8bc3", "other": "#8c8c8c", "malloc_overhead": "#e5e5e5",
}


def collect(rs, phase="load", peak=False):
    """{dataset: {impl: {key: median}}} from entries whose `phase` carries
    the breakdown counters.  Keys: the categories, 'malloc_overhead',
    'live', 'rss', 'heap', 'blocks'.  peak=True: at the phase's peak."""
    values = {}
    for s in rs.samples:
        e = s.entry
        if e.source != "harness" or s.phase != phase or "mem_live_bytes" not in s.metrics:
            continue
        m = s.metrics
        row = {}
        for key, _label in CATEGORIES:
            k = ("mem_peak_%s_bytes" if peak else "mem_%s_bytes") % key
            if k in m:
                row[key] = m[k]
        table = m.get("mem_table_bytes", 0)
        if peak:
            row["live"] = m.get("mem_peak_live_bytes")
            row["rss"] = m.get("peak_rss_bytes")
            row["malloc_overhead"] = m.get("peak_malloc_overhead_bytes")
        else:
            row["live"] = m.get("mem_live_bytes")
            row["rss"] = m.get("rss_bytes")
            row["malloc_overhead"] = m.get("malloc_overhead_bytes")
            row["heap"] = m.get("heap_allocated_bytes")
            row["blocks"] = m.get("mem_live_blocks")
        # RSS as the plain load job would have it: without the side map.
        if row.get("rss") is not None:
            row["rss"] -= table
        row["table"] = table
        d = values.setdefault(e.dataset, {}).setdefault(e.impl, {})
        for k, v in row.items():
            if v is not None:
                d.setdefault(k, []).append(v)
    out = {}
    for ds, impls in values.items():
        out[ds] = {impl: {k: median(v) for k, v in d.items()} for impl, d in impls.items()}
    return out


def used_categories(data):
    return [(k, label) for k, label in CATEGORIES
            if any(row.get(k) for impls in data.values() for row in impls.values())]


def chart(ctx, data, name="memory-breakdown", title_suffix="after load"):
    """One subplot per dataset, one stacked bar per impl; None if no data."""
    if not data:
        return None
    cats = used_categories(data) + [OVERHEAD]
    datasets = list(data)[:4]
    fig, axes = C.figure(ncols=len(datasets), width=max(6.5, 4.2 * len(datasets)), height=4.2)
    for ax, ds in zip(axes, datasets):
        impls = list(data[ds])
        tops = [sum(max(row.get(k) or 0, 0) for k, _l in cats) for row in data[ds].values()]
        div, unit = C.unit_scale("bytes", tops)
        bottoms = [0.0] * len(impls)
        for key, label in cats:
            vals = [max(data[ds][i].get(key) or 0, 0) / div for i in impls]
            ax.bar(range(len(impls)), vals, 0.6, bottom=bottoms, label=label,
                   color=CATEGORY_COLORS[key], edgecolor="#666", linewidth=0.3)
            bottoms = [b + v for b, v in zip(bottoms, vals)]
        ax.set_xticks(range(len(impls)))
        ax.set_xticklabels(impls, rotation=30 if len(impls) > 3 else 0,
                           ha="right" if len(impls) > 3 else "center")
        ax.set_ylabel("bytes (%s)" % unit)
        ax.set_title("%s: memory %s" % (ds, title_suffix), fontsize=11)
        ax.grid(axis="y", alpha=0.3)
        ax.set_axisbelow(True)
    # Beside the last bar group, top of the stack first (tight_layout makes
    # room for an axes legend, not for a figure one outside the axes).
    handles, labels = axes[-1].get_legend_handles_labels()
    axes[-1].legend(handles[::-1], labels[::-1], loc="upper left", bbox_to_anchor=(1.02, 1.0),
                    frameon=False, fontsize=9)
    path = ctx.charts.save(fig, name)
    return Figure(path, "Memory %s per impl: live bytes per allocation category "
                        "(malloc_usable_size of live blocks) and malloc overhead "
                        "(RSS - live bytes - the breakdown's table), medians."
                  % title_suffix)


def pct(v, total):
    return "-" if v is None or not total else "%.1f%%" % (100.0 * v / total)


def table(data, peak=False, caption=None):
    cats = used_categories(data)
    headers = ["dataset", "impl"] + [label for _k, label in cats] + [
        "live bytes", "malloc overhead", "peak RSS - map" if peak else "RSS - map"]
    if not peak:
        headers += ["tagged / live", "live / heap"]
    rows = []
    for ds, impls in data.items():
        for impl, row in impls.items():
            live = row.get("live")
            r = [ds, impl] + ["%s (%s)" % (fmt_value(row.get(k), "bytes"), pct(row.get(k), live))
                              for k, _l in cats]
            r += [fmt_value(live, "bytes"),
                  "%s (%s)" % (fmt_value(row.get("malloc_overhead"), "bytes"),
                               pct(row.get("malloc_overhead"), row.get("rss"))),
                  fmt_value(row.get("rss"), "bytes")]
            if not peak:
                other = row.get("other") or 0
                r += [pct(live - other, live) if live else "-",
                      pct(live, row.get("heap")) if row.get("heap") else "-"]
            rows.append(r)
    return Table(headers, rows, caption=caption,
                 align=["l", "l"] + ["r"] * (len(headers) - 2))


def build(ctx):
    rs = ctx.results
    after = collect(rs)
    if not after:
        return None
    s = Section("Memory breakdown", "memory-breakdown")
    s.para("Live bytes per allocation category after loading the database "
           "(`load-breakdown` jobs: the harness's `--mem-breakdown`), in bytes and "
           "as a share of live bytes; malloc overhead = RSS - live bytes - the "
           "breakdown's own side map, as a share of RSS without the map (what "
           "the plain `load` job has): chunk headers, free "
           "chunks, fragmentation, and the program itself.  **tagged / live** is "
           "the share of live bytes in a named category (the rest is `other`: "
           "the schema, reader buffers, the harness); **live / heap** compares "
           "live bytes (usable sizes) with the heap glibc reports (chunks, "
           "with their 8-byte headers).  The breakdown run costs CPU (about 2x "
           "a load, see docs/memory-breakdown.md) but allocates exactly the same, "
           "so these bytes are those of the plain `load` jobs.")
    fig = chart(ctx, after)
    if fig:
        s.add(fig)
    s.add(table(after, caption="After load (medians over repetitions)"))
    peak = collect(rs, peak=True)
    if peak:
        s.add(table(peak, peak=True,
                    caption="At the load phase's peak of live bytes (malloc overhead "
                            "against peak RSS; the two peaks need not coincide)"))
    return s
