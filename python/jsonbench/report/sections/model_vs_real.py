"""Model vs real OVS: each model impl next to the real build of the same
JSON representation, ratio model/real per metric, and the calibration
chart (bars of model/real, a line at 1.0).  Ratios come from
jsonbench.calibration; calibration_figure() is reused by the model's
calibration work (issue 14)."""

import os

from ... import calibration
from ..charts import figure
from ..document import Figure, Section, Table
from ..metrics import fmt_value
from .common import model_entries, real_entries


def pairs_of(rs):
    """[(model impl, real target)]: the suite's --pair list when given,
    else every real target with the impl of its representation."""
    models = {e.impl for e in model_entries(rs)}
    given = rs.env.get("ovs_pairs") or []
    if given:
        return [(m, r) for m, r in given]
    out = []
    for e in real_entries(rs):
        rep = e.meta.get("ovs_representation") or \
            e.context.get("ovs_representation")
        if rep in models and (rep, e.impl) not in out:
            out.append((rep, e.impl))
    return out


def targets_table(rs):
    rows, seen = [], set()
    info = {t["name"]: t for t in rs.env.get("ovs_targets", [])}
    for e in real_entries(rs):
        if e.impl in seen:
            continue
        seen.add(e.impl)
        t = dict(e.context, **info.get(e.impl, {}))
        rows.append([e.impl, t.get("ovs_version", ""),
                     (t.get("ovs_commit") or "")[:12] or "-",
                     t.get("ovs_representation") or "-",
                     t.get("configure_flags") or "(defaults)",
                     t.get("compiler", "")])
    return Table(["target", "version", "commit", "representation (model impl)",
                  "configure flags", "compiler"], rows,
                 align=["l"] * 6)


def failures_block(s, rs):
    fails = rs.env.get("ovs_build_failures") or []
    if not fails:
        return
    s.para("**Builds that failed** (the rest of the suite ran without them; "
           "the full log is in the build cache):")
    rows = []
    for f in fails:
        tail = [ln for ln in f.get("error", "").splitlines() if ln.strip()]
        rows.append([f.get("target", "?"), " / ".join(tail[-6:])])
    s.add(Table(["target", "error and log tail"], rows, align=["l", "l"]))


def ratio_table(rows):
    out = []
    for r in rows:
        out.append([r["dataset"].upper(), r["label"],
                    fmt_value(r["real"], r["unit"]),
                    fmt_value(r["model"], r["unit"]),
                    "%.2fx" % r["ratio"] if r["ratio"] is not None else "-"])
    return Table(["dataset", "metric", "real", "model", "model/real"], out,
                 align=["l", "l", "r", "r", "r"])


def calibration_figure(ctx, rows, title, name):
    """Horizontal bars of model/real per dataset x metric with a line at
    1.0 (memory blue, time orange); returns the PNG path or None."""
    rows = [r for r in rows if r["ratio"] is not None]
    if not rows:
        return None
    fig, axes = figure(width=7.5, height=0.26 * len(rows) + 1.3)
    ax = axes[0]
    ys = list(range(len(rows)))[::-1]
    ax.barh(ys, [r["ratio"] for r in rows], 0.7,
            color=["#4c72b0" if r["unit"] == "bytes" else "#dd8452"
                   for r in rows])
    ax.axvline(1.0, color="#333", linewidth=1)
    ax.set_yticks(ys)
    ax.set_yticklabels(["%s %s" % (r["dataset"].upper(), r["label"])
                        for r in rows], fontsize=8)
    for y, r in zip(ys, rows):
        ax.text(r["ratio"], y, " %.2f" % r["ratio"], va="center", fontsize=7)
    ax.set_xlabel("model / real (blue: memory, orange: time)")
    ax.set_xlim(0, max(1.2, max(r["ratio"] for r in rows) * 1.15))
    ax.set_title(title, fontsize=11)
    ax.grid(axis="x", alpha=0.3)
    return ctx.charts.save(fig, name)


def build(ctx):
    rs = ctx.results
    if not real_entries(rs) and not rs.env.get("ovs_build_failures"):
        return None
    s = Section("Model vs real OVS", "model-vs-real")
    s.para("The model's impls and real OVS builds on the same datasets, "
           "workloads and repetitions.  Real OVS is measured from outside "
           "its processes (`/proc`, `wait4()`; docs/real-ovs.md); heap and "
           "allocation counts are not visible there.  Each model impl is "
           "paired with the real builds of the same JSON representation "
           "(`serialized` with OVS 2.17-3.5, e.g. Debian's 3.1; `ovs` with "
           "builds containing f5819e699, OVS 3.6; `--pair IMPL=TARGET` "
           "overrides).  **model/real** below 1 means the model uses less "
           "memory or time than real OVS.  Compact is the model's load + "
           "compact phases against one `ovsdb-tool compact` process.  Monitor "
           "runs the same requests on both sides: N clients with a "
           "condition, then K transact batches; its CPU is the server's "
           "for the initial replies, for the updates, and their sum "
           "(after load).  It compares the model's `tree` mode: "
           "ovsdb-server composes the update per client for clients with "
           "a condition, its json cache serves only unconditional ones.  "
           "Raft compares the leader's RSS and CPU over the inserts with "
           "the model's `serialized` mode (raft keeps its entries "
           "serialized since OVS 0de882954).")
    s.add(targets_table(rs))
    failures_block(s, rs)
    pairs = pairs_of(rs)
    if not pairs:
        s.para("No pair: no real build here carries the representation of a "
               "model impl that ran (see the table above), and no `--pair` "
               "was given.")
        return s
    medians = {}
    if os.path.isdir(rs.root) and os.path.exists(
            os.path.join(rs.root, "index.json")):
        medians = calibration.load_medians(rs.root)
    for model, real in pairs:
        sub = s.subsection("`%s` vs real `%s`" % (model, real),
                           "mvr-%s-%s" % (model, real))
        rows = calibration.pair_ratios(medians, model, real)
        if not rows:
            sub.para("No metric measured on both (did both run the same "
                     "datasets and workloads?).")
            continue
        sub.add(ratio_table(rows))
        path = calibration_figure(
            ctx, rows, "Calibration: model `%s` / real `%s`" % (model, real),
            "calibration-%s-%s" % (model, real))
        if path:
            sub.add(Figure(path, "model/real per metric, `%s` vs `%s` "
                           "(medians; line at 1.0)" % (model, real)))
    return s
