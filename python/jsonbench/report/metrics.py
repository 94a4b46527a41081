"""What each metric is called, its unit, which direction is better, and the
per-repetition workload totals the headline tables use."""

import statistics


class Metric:
    def __init__(self, key, label, unit, higher_is_better=False, deterministic=False):
        self.key = key
        self.label = label
        self.unit = unit                  # "s", "bytes", "count", "ms", "/s"
        self.higher_is_better = higher_is_better
        self.deterministic = deterministic

    def fmt(self, v):
        return fmt_value(v, self.unit)


METRICS = {m.key: m for m in [
    Metric("cpu_time", "CPU time", "s"),
    Metric("real_time", "wall time", "s"),
    Metric("user_cpu_s", "user CPU", "s"),
    Metric("sys_cpu_s", "system CPU", "s"),
    Metric("minor_faults", "minor page faults", "count"),
    Metric("major_faults", "major page faults", "count"),
    Metric("rss_bytes", "RSS", "bytes"),
    Metric("peak_rss_bytes", "peak RSS", "bytes"),
    Metric("heap_allocated_bytes", "heap allocated", "bytes"),
    Metric("heap_active_bytes", "heap active", "bytes"),
    Metric("heap_resident_bytes", "heap resident", "bytes"),
    Metric("alloc_calls", "allocation calls", "count", deterministic=True),
    Metric("alloc_bytes", "allocated bytes", "bytes", deterministic=True),
    Metric("frees", "frees", "count", deterministic=True),
    Metric("bytes_out", "bytes produced", "bytes", deterministic=True),
    Metric("items", "items", "count", deterministic=True),
    Metric("iter_min_ms", "iteration min", "ms"),
    Metric("iter_median_ms", "iteration median", "ms"),
    Metric("iter_max_ms", "iteration max", "ms"),
    Metric("instructions", "instructions (Ir)", "count", deterministic=True),
]}


def metric(key):
    """Known metric, or a generic one guessed from the counter's name."""
    if key in METRICS:
        return METRICS[key]
    higher = key.endswith("_per_s") or key.endswith("per_second") or key in (
        "bytes_per_second", "items_per_second")
    unit = "bytes" if key.endswith("_bytes") else "ms" if key.endswith("_ms") else \
        "s" if key.endswith("_s") and not higher else "/s" if higher else "count"
    return Metric(key, key.replace("_", " "), unit, higher_is_better=higher)


def fmt_value(v, unit):
    if v is None:
        return "-"
    if unit == "bytes":
        a = abs(v)
        for div, suf in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
            if a >= div:
                return "%.3g %s" % (v / div, suf)
        return "%d B" % v
    if unit == "s":
        if abs(v) >= 1 or v == 0:
            return "%.3g s" % v
        if abs(v) >= 1e-3:
            return "%.3g ms" % (v * 1e3)
        return "%.3g us" % (v * 1e6)
    if unit == "ms":
        return fmt_value(v / 1e3, "s")
    if unit == "/s":
        return "{:,.0f}/s".format(v) if abs(v) >= 100 else "%.3g/s" % v
    if float(v).is_integer() and abs(v) < 1e15:
        return "{:,}".format(int(v))
    return "%.4g" % v


def bytes_scale(values):
    """(divisor, unit label) that keeps bytes in a readable range."""
    top = max([abs(v) for v in values] or [0])
    for div, suf in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if top >= div:
            return div, suf
    return 1, "B"


def time_scale(values):
    top = max([abs(v) for v in values] or [0])
    if top >= 1:
        return 1.0, "s"
    if top >= 1e-3:
        return 1e-3, "ms"
    return 1e-6, "us"


def summary(values):
    """min, median, max (None-safe)."""
    vals = [v for v in values if v is not None]
    if not vals:
        return None, None, None
    return min(vals), statistics.median(vals), max(vals)


def median(values):
    vals = [v for v in values if v is not None]
    return statistics.median(vals) if vals else None


def change_pct(before, after):
    """The change in percent, after / before - 1, the one sign convention of
    every report (for time, memory and allocations lower is better, so a
    negative change is an improvement)."""
    if before is None or after is None or before == 0:
        return None
    return (after / before - 1.0) * 100.0


# Headline figures of a workload run, per repetition.  The harness measures
# phases: the initial 'load' of the dataset, the workload's own phase(s), and
# 'free' (teardown).  The headline is the workload's own phase when there is
# one named like the workload (load, dump, compact), otherwise every phase
# after the initial load; 'free' never counts.  RSS is what the last counted
# phase leaves (for load: RSS after loading), peak the largest peak of any
# phase before teardown.
TOTALS = [
    ("CPU time", "cpu_time", "sum"),
    ("wall time", "real_time", "sum"),
    ("RSS after", "rss_bytes", "last"),
    ("peak RSS", "peak_rss_bytes", "max"),
    ("heap allocated", "heap_allocated_bytes", "last"),
    ("allocation calls", "alloc_calls", "sum"),
    ("allocated bytes", "alloc_bytes", "sum"),
    ("user CPU", "user_cpu_s", "sum"),
    ("system CPU", "sys_cpu_s", "sum"),
    ("minor page faults", "minor_faults", "sum"),
    ("major page faults", "major_faults", "sum"),
]
SETUP_PHASES = ("load", "setup")
TEARDOWN_PHASES = ("free", "process")


def headline_phases(workload, phases):
    """The phases (Samples of one repetition) a workload's headline counts."""
    own = [p for p in phases if p.phase == workload]
    if own:
        return own
    work = [p for p in phases if p.phase not in TEARDOWN_PHASES and
            p.phase not in SETUP_PHASES]
    return work or [p for p in phases if p.phase not in TEARDOWN_PHASES] or phases


def workload_totals(samples):
    """{rep: {metric key: value}} over the phases of one entry's samples.

    A phase named 'total' (if the harness writes one) is used as is."""
    by_rep = {}
    for s in samples:
        by_rep.setdefault(s.rep, []).append(s)
    out = {}
    for rep, phases in by_rep.items():
        totals = [p for p in phases if p.phase == "total"]
        if totals:
            out[rep] = dict(totals[0].metrics)
            continue
        wl = phases[0].entry.workload
        counted = headline_phases(wl, phases)
        alive = [p for p in phases if p.phase not in TEARDOWN_PHASES] or phases
        row = {}
        for _label, key, how in TOTALS:
            src = alive if how == "max" else counted
            vals = [p.metrics[key] for p in src if key in p.metrics]
            if not vals:
                continue
            row[key] = sum(vals) if how == "sum" else max(vals) if how == "max" else vals[-1]
        out[rep] = row
    return out
