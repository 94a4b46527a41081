"""What ran: datasets, workload variants, impls, repetitions."""

from ..document import Section, Table
from .common import by_key, repetitions


def build(ctx):
    rs = ctx.results
    groups = by_key(rs.harness_entries())
    s = Section("What ran", "overview")
    env = rs.env
    if env.get("command"):
        s.para("Command: `%s`" % env["command"])
    if env.get("duration_s"):
        s.para("Suite duration: %.0f s." % env["duration_s"])
    if not groups:
        s.para("No harness results in this folder.")
        return s
    rows = []
    for (dataset, variant), impls in groups.items():
        any_e = next(iter(impls.values()))
        reps = sorted({repetitions(rs, e) for e in impls.values()})
        rows.append([dataset, variant, ", ".join(impls),
                     "/".join(map(str, reps)),
                     any_e.context.get("params") or any_e.meta.get("params", "")])
    s.add(Table(["dataset", "workload", "impls", "repetitions", "parameters"], rows,
                align=["l", "l", "l", "r", "l"]))
    s.para("Each repetition is a separate process (timed by hyperfine as a "
           "whole; phases measured inside by the harness).  Medians are over "
           "repetitions; spreads are min..max.")
    return s
