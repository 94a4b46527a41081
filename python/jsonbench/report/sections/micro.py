"""Micro-benchmarks (google-benchmark), time per iteration and throughput."""

from ..document import Section, Table
from ..metrics import fmt_value, median


def build(ctx):
    rs = ctx.results
    entries = rs.micro_entries()
    if not entries:
        return None
    impls = []
    for e in entries:
        if e.impl not in impls:
            impls.append(e.impl)
    names = []
    vals = {}
    for smp in rs.samples:
        if smp.entry.source != "micro":
            continue
        if smp.name not in names:
            names.append(smp.name)
        vals.setdefault((smp.name, smp.entry.impl), []).append(smp.metrics)
    rows = []
    for n in names:
        row = [n]
        for impl in impls:
            ms = vals.get((n, impl), [])
            t = median([m.get("cpu_time") for m in ms])
            bps = median([m.get("bytes_per_second") for m in ms])
            cell = fmt_value(t, "s") if t is not None else "-"
            if bps:
                cell += " (%.0f MB/s)" % (bps / 1e6)
            row.append(cell)
        rows.append(row)
    s = Section("Micro-benchmarks", "micro")
    s.para("CPU time per iteration (median over repetitions) and throughput "
           "where the benchmark reports bytes.")
    s.add(Table(["benchmark"] + impls, rows))
    return s
