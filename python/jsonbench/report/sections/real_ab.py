"""Real A/B: real OVS builds (the seed pairs, or the suite's --ovs-ref order) as
Before -> After (change), in the seed tables' layout (the same rows
as the model's Before/After section)."""

from ..document import Section, Table
from .before_after import CHANGE_NOTE, table_rows
from .common import by_key, real_entries


def pairs_of(rs):
    """[(before, after)] builds: the reproduction's seed pairs, else the
    suite's --ovs-ref order, else the order the builds ran in (without
    the installed binaries)."""
    reals = real_entries(rs)
    names = {e.impl for e in reals}
    given = [tuple(p) for p in rs.env.get("ovs_ab_pairs") or []
             if all(n in names for n in p)]
    if given:
        return given
    chain = [n for n in rs.env.get("ovs_ab") or [] if n in names]
    if len(chain) < 2:
        chain = []
        for e in reals:
            if e.impl not in chain and e.meta.get("ovs_commit"):
                chain.append(e.impl)
    return list(zip(chain, chain[1:]))


def build(ctx):
    rs = ctx.results
    pairs = pairs_of(rs)
    if not pairs:
        return None
    groups = by_key(real_entries(rs))
    s = Section("Real A/B", "real-ab")
    for before, after in pairs:
        headers, rows = table_rows(rs, groups, before, after)
        if not rows:
            s.para("`%s` -> `%s`: no workload ran on both." % (before, after))
            continue
        s.add(Table(headers, rows,
                    caption="Before (`%s`) -> After (`%s`) (change)"
                    % (before, after),
                    align=["l", "l"] + ["r"] * (len(headers) - 2)))
    s.para("Real OVS builds as before -> after: %s.  Medians over repetitions of "
           "what real OVS runs (docs/real-ovs.md): CPU time is the "
           "workload's own phase (dump: the server's CPU during the dump; "
           "compact: the whole `ovsdb-tool compact`; monitor: the server "
           "after the load), RSS after is what that phase leaves.  %s"
           % (", ".join("`%s` -> `%s`" % p for p in pairs), CHANGE_NOTE))
    return s
