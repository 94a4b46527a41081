"""Workload-specific counters the harness reports (txn_per_s,
cpu_after_load_s, retained_log_heap_bytes, build_ms, ...), medians over
repetitions, one table per workload variant."""

from ..document import Section, Table
from ..metrics import METRICS, median, metric
from .common import by_key

# Standard fields shown elsewhere, and descriptive ones.
_SKIP = set(METRICS) | {"user_cpu_s", "sys_cpu_s", "iterations"}


def build(ctx):
    rs = ctx.results
    groups = by_key(rs.harness_entries())
    s = Section("Workload counters", "counters")
    s.para("Counters specific to a workload, medians over repetitions "
           "(`_s` seconds, `_ms` milliseconds, `_bytes` bytes, `_per_s` rates).")
    shown = False
    for (dataset, variant), impls in groups.items():
        cols = []      # (phase name, counter)
        vals = {}
        for impl, e in impls.items():
            for smp in rs.samples:
                if smp.entry is not e or smp.phase == "process":
                    continue
                for k, v in smp.metrics.items():
                    if k in _SKIP or k.startswith("mem_") or "malloc_overhead" in k:
                        # The memory breakdown has its own section.
                        continue
                    if (smp.name, k) not in cols:
                        cols.append((smp.name, k))
                    vals.setdefault((impl, smp.name, k), []).append(v)
        if not cols:
            continue
        shown = True
        rows = []
        for impl in impls:
            row = [impl]
            for n, k in cols:
                m = median(vals.get((impl, n, k), []))
                row.append(metric(k).fmt(m) if m is not None else "-")
            rows.append(row)
        s.add(Table(["impl"] + ["%s %s" % (n.split("/", 1)[-1], k) for n, k in cols], rows,
                    caption="%s %s" % (dataset, variant)))
    return s if shown else None
