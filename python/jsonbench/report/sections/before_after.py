"""Before / After / Change tables, each impl against `plain` and against
`ovs`, laid out like the seeds' tables ("18.6 -> 16.6 s (-10.8%)"), each
change with its interval."""

from ... import intervals as I
from ..document import Section, Table
from ..metrics import METRICS, change_pct, fmt_value, median
from ..significance import LEGEND, compare
from .common import by_key, model_entries, process_times, total_values

BASELINES = ("plain", "ovs")

# (row label, workload-total metric); None metric = hyperfine process time.
ROWS = [
    ("CPU time", "cpu_time"),
    ("RSS after", "rss_bytes"),
    ("peak RSS", "peak_rss_bytes"),
    ("allocation calls", "alloc_calls"),
    ("process wall time", None),
]


def values(rs, entry, metric):
    """Per-repetition values (medians are taken from these)."""
    if metric is None:
        return process_times(rs, entry)
    return total_values(rs, entry, metric)


CHANGE_NOTE = ("**Change = After / Before - 1** of the medians over repetitions, lower is "
               "better (less time, memory or allocations: a negative change is an "
               "improvement), with its %.0f%% interval (Hodges-Lehmann with the "
               "Mann-Whitney interval from 4 repetitions per side, Welch's t below; "
               "`python/jsonbench/intervals.py`)." % (100 * I.CONFIDENCE))


def table_rows(rs, groups, base, impl):
    """One row per dataset x workload; a cell per metric, as in the seeds:
    "Before -> After (change [interval] mark)"."""
    rows, used = [], [False] * len(ROWS)
    for (dataset, variant), impls in groups.items():
        if base not in impls or impl not in impls:
            continue
        row = [dataset, variant]
        for i, (_label, metric) in enumerate(ROWS):
            bv, av = values(rs, impls[base], metric), values(rs, impls[impl], metric)
            b, a = median(bv), median(av)
            if b is None or a is None:
                row.append("-")
                continue
            used[i] = True
            unit = METRICS[metric].unit if metric else "s"
            row.append("%s -> %s (%s)" % (fmt_value(b, unit), fmt_value(a, unit),
                                          compare(bv, av).change_cell(change_pct(b, a))))
        rows.append(row)
    # Drop metrics no workload reported.
    keep = [0, 1] + [i + 2 for i, u in enumerate(used) if u]
    headers = ["dataset", "workload"] + [label for label, _m in ROWS]
    return [headers[k] for k in keep], [[r[k] for k in keep] for r in rows]


def build(ctx):
    rs = ctx.results
    # Real OVS builds have their own sections (model_vs_real, real_ab).
    models = model_entries(rs)
    groups = by_key(models)
    impls = [i for i in rs.impls() if any(e.impl == i for e in models)]
    s = Section("Before / After / Change", "before-after")
    s.para(CHANGE_NOTE)
    any_table = False
    for base in BASELINES:
        if base not in impls:
            continue
        sub = s.subsection("Against `%s`" % base, "vs-" + base)
        for impl in impls:
            if impl == base:
                continue
            headers, rows = table_rows(rs, groups, base, impl)
            if not rows:
                continue
            any_table = True
            sub.add(Table(headers, rows,
                          caption="Before (`%s`) -> After (`%s`) (change)" % (base, impl),
                          align=["l", "l"] + ["r"] * (len(headers) - 2)))
    if not any_table:
        s.para("No impl pair to compare: the run needs `plain` or `ovs` and at "
               "least one other impl on the same workload.")
        return s
    s.para("CPU time and allocation calls are those of the workload's own "
           "phase (`load`, `dump`, `compact`) or, for monitor, txn and raft, "
           "of every phase after the initial load of the dataset; RSS after "
           "is what that phase leaves (for `load`: RSS after loading the "
           "database); peak RSS is the process peak before teardown; process "
           "wall time is hyperfine's whole process (start, load, work, free, "
           "exit).  Each cell ends with its significance mark: " + LEGEND)
    return s
