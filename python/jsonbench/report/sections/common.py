"""Grouping helpers shared by the sections."""

from ..metrics import median, summary, workload_totals

WORKLOAD_ORDER = ["load", "dump", "compact", "monitor", "txn", "raft"]


def workload_rank(name):
    return WORKLOAD_ORDER.index(name) if name in WORKLOAD_ORDER else len(WORKLOAD_ORDER)


def entry_sort_key(e):
    return (e.kind or e.dataset, e.scale or 0, workload_rank(e.workload),
            e.mode or "", e.clients or 0, e.variant)


def by_key(entries):
    """{(dataset, variant): {impl: entry}} in a stable, readable order."""
    out = {}
    for e in sorted(entries, key=entry_sort_key):
        out.setdefault(e.key, {})[e.impl] = e
    return out


def samples_by_entry(rs):
    out = {}
    for s in rs.samples:
        out.setdefault(id(s.entry), []).append(s)
    return out


def phase_samples(samples):
    """Samples without the hyperfine 'process' rows, which are not phases."""
    return [s for s in samples if s.phase != "process"]


def totals(rs, entry):
    """{rep: {metric: value}} workload totals of one entry (cached on rs)."""
    cache = rs.__dict__.setdefault("_totals_cache", {})
    key = id(entry)
    if key not in cache:
        cache[key] = workload_totals(phase_samples(
            [s for s in rs.samples if s.entry is entry]))
    return cache[key]


def total_values(rs, entry, metric):
    return [row[metric] for row in totals(rs, entry).values() if metric in row]


def total_median(rs, entry, metric):
    return median(total_values(rs, entry, metric))


def total_summary(rs, entry, metric):
    return summary(total_values(rs, entry, metric))


def process_times(rs, entry):
    """Whole-process wall times (s) from hyperfine, merged as '<w>/process'."""
    return [s.metrics["real_time"] for s in rs.samples
            if s.entry is entry and s.phase == "process" and "real_time" in s.metrics]


def phases_of(rs, entry):
    """Phase names of an entry, in file order."""
    names = []
    for s in rs.samples:
        if s.entry is entry and s.phase != "process" and s.name not in names:
            names.append(s.name)
    return names


def phase_values(rs, entry, name, metric):
    return [s.metrics[metric] for s in rs.samples
            if s.entry is entry and s.name == name and metric in s.metrics]


def repetitions(rs, entry):
    return len({s.rep for s in rs.samples if s.entry is entry and s.phase != "process"})


def is_setup_phase(entry, phase):
    """The initial load inside a non-load workload, and teardown: excluded
    from 'work' figures (seed 3 counts CPU after the initial load)."""
    return phase in ("free", "process") or (
        entry.workload != "load" and phase in ("load", "setup"))


def work_values(rs, entry, metric="cpu_time"):
    """Per repetition: metric summed over the workload's phases after setup."""
    by_rep = {}
    for s in rs.samples:
        if s.entry is not entry or s.phase == "process" or is_setup_phase(entry, s.phase):
            continue
        if metric in s.metrics:
            by_rep[s.rep] = by_rep.get(s.rep, 0.0) + s.metrics[metric]
    return list(by_rep.values())


def is_real(entry):
    """A result of real OVS (suite --ovs-*, scripts/real-ovs.sh), not of
    the model."""
    return bool(entry.meta.get("real_ovs")) or \
        entry.context.get("source") == "real-ovs"


def model_entries(rs):
    return [e for e in rs.harness_entries() if not is_real(e)]


def real_entries(rs):
    return [e for e in rs.harness_entries() if is_real(e)]
