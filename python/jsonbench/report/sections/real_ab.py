"""Real A/B: consecutive real OVS builds (the suite's --ovs-ref order) as
Before -> After (Improvement), in the seed tables' layout (the same rows
as the model's Before/After section)."""

from ..document import Section, Table
from .before_after import table_rows
from .common import by_key, real_entries


def chain_of(rs):
    """The builds in before -> after order: the suite's --ovs-ref order,
    else the order they ran in, without the installed binaries."""
    reals = real_entries(rs)
    names = [e.impl for e in reals]
    chain = [n for n in rs.env.get("ovs_ab") or [] if n in names]
    if len(chain) >= 2:
        return chain
    out = []
    for e in reals:
        if e.impl not in out and e.meta.get("ovs_commit"):
            out.append(e.impl)
    return out


def build(ctx):
    rs = ctx.results
    chain = chain_of(rs)
    if len(chain) < 2:
        return None
    groups = by_key(real_entries(rs))
    s = Section("Real A/B", "real-ab")
    s.para("Consecutive real OVS builds, %s.  Medians over repetitions of "
           "what real OVS runs (docs/real-ovs.md): CPU time is the "
           "workload's own phase (dump: the server's CPU during the dump; "
           "compact: the whole `ovsdb-tool compact`; monitor: the server "
           "after the load), RSS after is what that phase leaves.  "
           "**Improvement = (Before - After) / Before**."
           % " -> ".join("`%s`" % c for c in chain))
    for before, after in zip(chain, chain[1:]):
        headers, rows = table_rows(rs, groups, before, after)
        if not rows:
            s.para("`%s` -> `%s`: no workload ran on both." % (before, after))
            continue
        s.add(Table(headers, rows,
                    caption="Before (`%s`) -> After (`%s`) (Improvement)"
                    % (before, after),
                    align=["l", "l"] + ["r"] * (len(headers) - 2)))
    return s
