"""Model vs real OVS: each model impl next to the real build of the same
JSON representation, ratio model/real per metric, and the calibration
chart (bars of model/real, a line at 1.0), then what they mean.  Ratios
come from jsonbench.calibration; calibration_figure() draws the chart for
both kinds of section.  A run without real targets still gets the
section: the latest calibration the project knows, the regression gate's
(baselines/gate.json, jsonbench.gatecal), labelled as such, and the one
command that measures it on the run's own data.  The section says whether
model and real ran interleaved or grouped (calibration.run_order()): a
grouped run's time ratios include the machine's drift."""

import json
import os

from ... import ROOT, calibration, gatecal
from ...realovs import representation
from ..charts import figure
from ..document import Figure, Section, Table
from ..metrics import fmt_value
from .common import model_entries, real_entries


def ovs_trees(rs, meta):
    """The OVS git trees a build's commit can be looked up in: the one given
    to the report (rs.ovs_trees, e.g. reproduce --ovs-tree), the tree the
    build was made from (its "ovs_source", TREE@COMMIT) and the run's
    --ovs-tree (claims-run.json); missing ones are skipped later."""
    trees = list(getattr(rs, "ovs_trees", None) or [])
    trees.append(representation.source_tree(meta.get("ovs_source")))
    trees.append(rs.env.get("ovs_tree"))
    path = os.path.join(rs.root, "claims-run.json")
    if os.path.exists(path):
        try:
            with open(path) as f:
                trees.append((json.load(f).get("real") or {}).get("ovs_tree"))
        except (OSError, ValueError):
            pass
    return [t for t in trees if t]


def server_era(rs, meta):
    """(era, how) of a real build: what its runs recorded, else derived
    from its version and commit (representation.derive_server_era()) for
    results made before the era was recorded; era None when unknown."""
    if meta.get("ovs_server_era"):
        return meta["ovs_server_era"], meta.get("ovs_server_era_source") or \
            "recorded"
    return representation.derive_server_era(
        meta.get("ovs_commit") or "", meta.get("ovs_version") or "",
        ovs_trees(rs, meta))


def _target_meta(rs, e):
    """Everything known about the build of real entry 'e': the run's
    context, its index entry and the folder's env.json target."""
    info = {t["name"]: t for t in rs.env.get("ovs_targets", [])}
    meta = dict(info.get(e.impl, {}))
    meta.update({k: v for k, v in e.context.items() if v not in (None, "")})
    meta.update({k: v for k, v in e.meta.items() if v not in (None, "")})
    return meta


def real_targets(rs):
    """[{"name", "representation", "server_era", "how", "version"}] of the
    real builds that ran, in run order ("how": how the era was told)."""
    out = []
    for e in _first_real_entries(rs):
        meta = _target_meta(rs, e)
        era, how = server_era(rs, meta)
        out.append({"name": e.impl,
                    "representation": meta.get("ovs_representation"),
                    "server_era": era, "how": how,
                    "version": meta.get("ovs_version") or ""})
    return out


def pairs_of(rs):
    """[{"impl", "target", "role", "server_era"}]
    (jsonbench.calibration.pairs()): the suite's --pair list when given,
    else every real target with the impl of its representation, the
    builds of the model's server era first (the calibration), older
    server code after them (references)."""
    models = {e.impl for e in model_entries(rs)}
    given = [tuple(p) for p in rs.env.get("ovs_pairs") or []]
    return calibration.pairs(models, real_targets(rs), given)


ROLE_TEXT = {
    calibration.ROLE_CALIBRATION: "calibration: same JSON representation, "
    "the server code the model's load path follows",
    calibration.ROLE_REFERENCE: "reference: same JSON representation, older "
    "server code (before OVS 6f11d9daa and d51d4f42d, 2024): its load "
    "commits each record with more work that has nothing to do with JSON, "
    "so model/real here also measures that (docs/model.md)",
    calibration.ROLE_UNKNOWN: "reference (server era unknown): same JSON "
    "representation, but whether its server code is the one the model's "
    "load path follows could not be told (see the targets table), so it "
    "does not calibrate the model; `--ovs-tree DIR` with an OVS tree "
    "holding its commit tells",
}


# The role in a pair's title, inside its parentheses.
ROLE_TITLE = {calibration.ROLE_CALIBRATION: "calibration",
              calibration.ROLE_REFERENCE: "reference",
              calibration.ROLE_UNKNOWN: "reference, server era unknown"}


def targets_table(rs):
    """The builds' table and the notes on server eras derived here."""
    rows, told = [], {}
    for e, t in zip(_first_real_entries(rs), real_targets(rs)):
        meta = _target_meta(rs, e)
        era = t["server_era"] or "unknown"
        if t["how"] != "recorded":
            told.setdefault((era, t["how"]), []).append("`%s`" % e.impl)
        rows.append([e.impl, meta.get("ovs_version", ""),
                     (meta.get("ovs_commit") or "")[:12] or "-",
                     meta.get("ovs_representation") or "-", era,
                     meta.get("configure_flags") or "(defaults)",
                     meta.get("compiler", "")])
    table = Table(["target", "version", "commit", "representation (model impl)",
                   "server code", "configure flags", "compiler"], rows,
                  align=["l"] * 7)
    notes = ["%s: %s (%s)" % (", ".join(names), era, how)
             for (era, how), names in told.items()]
    return table, notes


def _first_real_entries(rs):
    """The first entry of each real build, in run order."""
    out, seen = [], set()
    for e in real_entries(rs):
        if e.impl not in seen:
            seen.add(e.impl)
            out.append(e)
    return out


def failures_block(s, rs):
    fails = rs.env.get("ovs_build_failures") or []
    if not fails:
        return
    s.para("**Builds that failed** (the rest of the suite ran without them; "
           "the full log is in the build cache):")
    rows = [[f.get("target", "?"), failure_text(f.get("error", ""))]
            for f in fails]
    s.add(Table(["target", "error and log tail"], rows, align=["l", "l"]))


# git's own diagnostics in a patch's error: the failing file and hunk.
_GIT_SAYS = ("error:", "fatal:", "CONFLICT")


def failure_text(error, tail=6):
    """One line for a failed target: the error's first line (what failed:
    the patch file and mail, the build and its log, the ref), git's
    error lines (the file and hunk a patch fails on), then the last
    'tail' other lines (a build log's tail, the hunk's context)."""
    lines = [ln.strip() for ln in error.splitlines() if ln.strip()]
    said = [ln for ln in lines[1:] if ln.startswith(_GIT_SAYS)]
    rest = [ln for ln in lines[1:] if not ln.startswith(_GIT_SAYS)]
    return " / ".join(lines[:1] + said + rest[-tail:])


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
    ax.set_xlabel("model / real (blue: memory, orange: time or work)")
    ax.set_xlim(0, max(1.2, max(r["ratio"] for r in rows) * 1.15))
    ax.set_title(title, fontsize=11)
    ax.grid(axis="x", alpha=0.3)
    return ctx.charts.save(fig, name)


# The gate's baseline: where the calibration of a run without real OVS
# comes from (tests point it elsewhere).
GATE_BASELINE = os.path.join(ROOT, "baselines", "gate.json")
GATE_DATASETS = ("NB scale 0.001 and SB scale 0.0005 snapshots, the NB log "
                 "form (50 transactions) for compaction; seed 1")


def measure_command(rs):
    """The suite command that measures model/real on this run's data: its
    scales, or its own database files (--dataset)."""
    ds = rs.env.get("datasets") or []
    files = [d["path"] for d in ds if d.get("scale") is None and d.get("path")]
    scales = sorted({d["scale"] for d in ds if d.get("scale") is not None} |
                    {e.scale for e in model_entries(rs) if e.scale is not None})
    if files:
        where = " ".join("--dataset %s" % f for f in files)
    else:
        where = "--scale %s" % (",".join("%g" % x for x in scales) or "0.01")
    return ("scripts/suite.sh --impls serialized --ovs-installed --workloads "
            "load,dump,compact,monitor --modes cache %s" % where)


def gate_calibration(path):
    """The baseline's calibration part when it holds ratios, else None."""
    try:
        with open(path) as f:
            cal = json.load(f).get("calibration")
    except (OSError, ValueError):
        return None
    return cal if cal and cal.get("ratios") else None


def _span(rows, metric):
    vals = [r["ratio"] for r in rows if r["metric"] == metric]
    if not vals:
        return None
    lo, hi = min(vals), max(vals)
    return "%.2fx" % lo if abs(hi - lo) < 0.005 else "%.2f-%.2fx" % (lo, hi)


def known_calibration(ctx, path=None):
    """The section of a run without real OVS: the gate's calibration."""
    rs = ctx.results
    s = Section("Model vs real OVS (calibration)", "model-vs-real")
    cal = gate_calibration(path or GATE_BASELINE)
    cmd = measure_command(rs)
    if cal is None:
        s.para("**No real OVS ran in this suite, and no calibration is "
               "recorded** (the gate baseline has none; `scripts/gate.sh "
               "--update-baseline` records one).  Measure model/real on this "
               "run's data with `%s`." % cmd)
        return s
    rows = gatecal.report_rows(cal)
    parts = []
    for metric, text in (("instructions", "instructions"),
                         ("alloc_blocks", "malloc calls"),
                         ("peak_heap_bytes", "peak heap")):
        span = _span(rows, metric)
        if span:
            parts.append("%s %s" % (text, span))
    real = cal.get("real", {})
    s.para("**No real OVS ran in this suite: this is the latest calibration "
           "the project knows, the regression gate's, not a measurement of "
           "this run.**  Model `%s` / real %s on the gate's tiny datasets: %s "
           "(model/real; below 1 the model does less than the real server)."
           % (cal.get("model_impl", "serialized"),
              real.get("version") or real.get("name", "OVS"), ", ".join(parts)))
    s.add(ratio_table(rows))
    fig = calibration_figure(ctx, rows, "Gate calibration: model %s / %s" % (
        cal.get("model_impl", "serialized"), real.get("name", "real OVS")),
        "calibration-gate")
    if fig:
        s.add(Figure(fig, "model/real per dataset and figure on the gate's tiny "
                          "datasets (line at 1.0)"))
    if representation.server_era_of_version(real.get("version")) == \
            representation.PRE_2024:
        s.para("The gate's real build runs pre-2024 server code (Debian 12's "
               "3.1.0): its commit of a loaded record does work that today's "
               "server, which the model follows, no longer does (a reference "
               "count per datum, every column assessed for references).  Part "
               "of these ratios is that: on the gate's NB load, 0.912 of the "
               "instruction ratio and 0.827 of the malloc-call ratio; against "
               "9669b50f5^ (the same representation, today's server code) the "
               "model does 1-8%% fewer instructions and 1-2%% more malloc calls, "
               "and its load's peak heap is 1.07-1.20x, the rest being "
               "ovsdb-tool freeing each record's JSON before its commit, "
               "which ovsdb-server does after (docs/model.md, *What the "
               "gate's ratio holds*, *Peak heap against ovsdb-tool*).")
    s.para("Source: `baselines/gate.json`, measured %s at commit %s; datasets: "
           "%s.  Both sides under valgrind: instructions (cachegrind) "
           "and malloc calls (DHAT) net of the same command on an empty "
           "database, peak heap (DHAT) of the whole process; load is "
           "`ovsdb-tool query` against the model's `load`, compact "
           "`ovsdb-tool compact` against the model's `compact` "
           "(docs/real-ovs.md, *Calibration in the gate*)."
           % (cal.get("measured_at", "?"), cal.get("commit") or "?",
              GATE_DATASETS))
    s.para("Measure it on this run's data (RSS after load, load CPU, "
           "compaction time and peak RSS, dump and monitor CPU, model/real): "
           "`%s`." % cmd)
    return s


def build(ctx):
    rs = ctx.results
    if not real_entries(rs) and not rs.env.get("ovs_build_failures"):
        return known_calibration(ctx)
    s = Section("Model vs real OVS", "model-vs-real")
    order, text = calibration.run_order(rs.env)
    pairs = pairs_of(rs)
    medians = {}
    if pairs and os.path.isdir(rs.root) and os.path.exists(
            os.path.join(rs.root, "index.json")):
        medians = calibration.load_medians(rs.root)
    # Each pair's table and chart first, what they mean after.
    for p in pairs:
        model, real = p["impl"], p["target"]
        sub = s.subsection("`%s` vs real `%s` (%s)" % (
            model, real, ROLE_TITLE[p["role"]]),
                           "mvr-%s-%s" % (model, real))
        label = ROLE_TEXT[p["role"]]
        label = "*%s%s.*" % (label[0].upper(), label[1:])
        rows = calibration.pair_ratios(medians, model, real)
        if not rows:
            sub.para(label)
            sub.para("No metric measured on both (did both run the same "
                     "datasets and workloads?).")
            continue
        sub.add(ratio_table(rows))
        path = calibration_figure(
            ctx, rows, "%s: model `%s` / real `%s` (%s)" % (
                p["role"].capitalize(), model, real, order or "grouped"),
            "calibration-%s-%s" % (model, real))
        if path:
            sub.add(Figure(path, "model/real per metric, `%s` vs `%s` "
                           "(medians; line at 1.0)" % (model, real)))
        sub.para(label)
        if order != "interleaved":
            sub.para("From a grouped run: the model's and the real processes "
                     "ran minutes apart, so the time ratios above include "
                     "the machine's drift between them.")
    if not pairs:
        s.para("No pair: no real build here carries the representation of a "
               "model impl that ran (see the table below), and no `--pair` "
               "was given.")
    table, notes = targets_table(rs)
    s.add(table)
    if notes:
        s.para("Server code of the builds whose runs did not record it "
               "(results from before it was recorded), told here: %s.  "
               "An unknown one is not counted as the model's calibration."
               % "; ".join(notes))
    failures_block(s, rs)
    s.para("**Order: %s.**%s" % (text, "" if order == "interleaved" else
                                 "  `scripts/suite.sh --order interleaved` (the "
                                 "default with real builds) measures them side "
                                 "by side."))
    s.para("**model/real** below 1: the model uses less memory or time than "
           "real OVS, on the same datasets, workloads and repetitions.  Real "
           "OVS is measured from outside its processes (`/proc`, `wait4()`; "
           "no heap or allocation counts).  Each model impl is paired with "
           "the builds of its JSON representation: its **calibration** has "
           "the server code the model's load path follows (OVS 3.3 and "
           "later, 3.0.6/3.1.4/3.2.2); older server code (*pre-2024*, e.g. "
           "Debian 12's 3.1.0) or an unknown one is a **reference** "
           "(`--pair IMPL=TARGET` overrides).  Compact is the model's load + "
           "compact + free against one `ovsdb-tool compact` process; monitor "
           "compares the model's `tree` mode (clients with a condition); "
           "raft the leader's RSS and CPU with the model's `serialized` mode "
           "(docs/model.md, docs/real-ovs.md).")
    return s
