"""Per-iteration distributions (min / median / max inside a phase),
allocation counts and heap bytes, per impl."""

from .. import charts
from ..document import Figure, Section, Table
from ..metrics import fmt_value, median
from .common import by_key, is_setup_phase, phase_values, phases_of


def _med(rs, e, n, metric):
    return median(phase_values(rs, e, n, metric))


def build(ctx):
    rs = ctx.results
    groups = by_key(rs.harness_entries())
    if not groups:
        return None
    s = Section("Iterations, allocations and heap", "distributions")
    rows = []
    dist = {}   # dataset -> [(label, {impl: (lo, mid, hi)})]
    for (dataset, variant), impls in groups.items():
        names = []
        for e in impls.values():
            names += [n for n in phases_of(rs, e) if n not in names]
        for n in names:
            phase = n.split("/", 1)[-1]
            e0 = next(iter(impls.values()))
            # Teardown and the initial load of non-load workloads repeat
            # what the load workload shows.
            if phase == "free" or is_setup_phase(e0, phase):
                continue
            label = "%s:%s" % (variant, phase)
            cell = {}
            for impl, e in impls.items():
                lo = _med(rs, e, n, "iter_min_ms")
                mid = _med(rs, e, n, "iter_median_ms")
                hi = _med(rs, e, n, "iter_max_ms")
                items = _med(rs, e, n, "items")
                rows.append([dataset, variant, n.split("/", 1)[-1], impl,
                             "-" if mid is None or not hi else "%s / %s / %s" % (
                                 fmt_value(lo, "ms"), fmt_value(mid, "ms"), fmt_value(hi, "ms")),
                             fmt_value(items, "count") if items is not None else "-",
                             fmt_value(_med(rs, e, n, "alloc_calls"), "count"),
                             fmt_value(_med(rs, e, n, "alloc_bytes"), "bytes"),
                             fmt_value(_med(rs, e, n, "frees"), "count"),
                             fmt_value(_med(rs, e, n, "heap_allocated_bytes"), "bytes")])
                if mid is not None and hi is not None and hi > 0:
                    cell[impl] = (lo * 1e-3, mid * 1e-3, hi * 1e-3)
            if cell:
                dist.setdefault(dataset, []).append((label, cell))
    s.add(Table(["dataset", "workload", "phase", "impl", "iteration min / median / max",
                 "items", "alloc calls", "alloc bytes", "frees", "heap allocated"], rows,
                align=["l", "l", "l", "l", "r", "r", "r", "r", "r", "r"]))
    s.para("Per phase (teardown and the initial load inside non-load "
           "workloads left out), medians over repetitions of: the per-iteration "
           "min / median / max the harness records inside the phase (a "
           "phase with many iterations, e.g. monitor batches or transactions, "
           "shows its long tail here), allocation calls and bytes from the "
           "counting allocator (deterministic), and heap allocated after the "
           "phase (mallinfo2 or jemalloc stats).")
    for dataset, cells in dist.items():
        # Only phases with more than one iteration have a distribution to show.
        cells = [(l, c) for l, c in cells if any(t[0] != t[2] for t in c.values())]
        for part, chunk in enumerate(_chunks(cells, 10)):
            impl_names = []
            for _l, c in chunk:
                impl_names += [i for i in c if i not in impl_names]
            fig, axes = charts.figure(width=13, height=4.2)
            series = [(impl, [c.get(impl) for _l, c in chunk]) for impl in impl_names]
            charts.grouped_bars(axes[0], [l for l, _c in chunk], series, "s",
                                "%s: per-iteration time (bar = median, whiskers = min..max)"
                                % dataset, "iteration time", ctx.charts.color,
                                hatches=ctx.charts.hatch)
            axes[0].set_yscale("log")
            charts.shared_legend(fig, axes)
            s.add(Figure(ctx.charts.save(fig, "iterations-%s-%d" % (dataset, part)),
                         "%s: distribution of iteration times inside phases, per impl "
                         "(log scale)" % dataset))
    return s


def _chunks(items, n):
    return [items[i:i + n] for i in range(0, len(items), n)]
