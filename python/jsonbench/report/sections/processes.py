"""Whole processes timed by hyperfine (start, read, work, exit)."""

import statistics

from ..document import Section, Table
from ..metrics import fmt_value
from .common import by_key, process_times


def build(ctx):
    rs = ctx.results
    groups = by_key(rs.harness_entries())
    rows = []
    for (dataset, variant), impls in groups.items():
        for impl, e in impls.items():
            t = process_times(rs, e)
            if not t:
                continue
            sd = statistics.stdev(t) if len(t) > 1 else 0.0
            rows.append([dataset, variant, impl, len(t), fmt_value(statistics.median(t), "s"),
                         fmt_value(statistics.mean(t), "s") + " ± " + fmt_value(sd, "s"),
                         fmt_value(min(t), "s"), fmt_value(max(t), "s")])
    if not rows:
        return None
    s = Section("Whole processes (hyperfine)", "processes")
    s.para("Wall time of the whole harness process per run, measured by "
           "hyperfine (`--export-json`, merged into the results as "
           "`<workload>/process`).")
    s.add(Table(["dataset", "workload", "impl", "runs", "median", "mean ± sd", "min", "max"],
                rows, align=["l", "l", "l", "r", "r", "r", "r", "r"]))
    return s
