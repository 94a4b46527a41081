"""Report section: the seed claims table, claimed vs measured (results of
scripts/reproduce.sh only; other results folders have no claims-run.json)."""

import os

from ... import realclaims
from ... import cachesim, instructions, intervals as I
from ...env import memory_drift_pct, noise_floor_pct
from ...claims import (DETAIL_HEADERS, HEADERS, VERDICT_NOISE, VERDICT_OPPOSITE,
                       VERDICT_OUTSIDE, VERDICT_WITHIN, Notes, detail_rows, evaluate,
                       filled_from, load_run, summary_counts, table_rows)
from ..charts import figure
from ..document import Figure, Section, Table
from .model_vs_real import failure_text


def build(ctx):
    """The report section: claims table, datasets and how to read it."""
    loaded = load_run(ctx.results.root) if os.path.isdir(ctx.results.root) else None
    if not loaded:
        return None
    doc, runs, meta = loaded
    rows = evaluate(doc, runs, meta.get("dataset_stats"), meta.get("scale", 1.0),
                    meta.get("caps", True))
    instructions.annotate(rows, doc, ctx.results.root, meta.get("instructions"),
                          meta.get("instructions_scale"))
    s = Section("Seed claims: claimed vs measured", "claims")
    if meta.get("complete") is False:
        s.para("**Incomplete run**: the reproduction was interrupted; claims whose runs "
               "had not finished are marked 'not measured'.")
    counts = summary_counts(rows)
    s.para("Verdicts: " + "; ".join("%s: %d" % (k, v) for k, v in sorted(counts.items())) + ".")
    notes = Notes()
    floor = noise_floor_pct(ctx.results.env)
    if floor is not None:
        # A claim whose noise band is below the machine's process-to-process
        # spread: its timing verdict needs more pairs, not a wider band.
        for r in rows:
            if r.get("noise_pct") is not None and r["noise_pct"] < floor and \
                    r.get("measured_change_pct") is not None and r["unit"] != "bytes":
                r["below_floor"] = True
    real = meta.get("real")
    real_results = {}
    if real:
        real_results = _real_table(s, ctx.results.root, doc, runs, meta, rows, notes)
    else:
        table, heads = table_rows(rows, notes), list(HEADERS)
        if any(r.get("instructions") for r in rows):
            det = [[instructions.cell(r)] for r in rows]
            det_heads = [INSTR_HEAD]
            if any((r.get("instructions") or {}).get("ll_misses") for r in rows):
                det = [d + [instructions.misses_cell(r)] for d, r in zip(det, rows)]
                det_heads.append(MISSES_HEAD)
            table = [t[:4] + d + t[4:] for t, d in zip(table, det)]
            heads = heads[:4] + det_heads + heads[4:]
        s.add(Table(heads, table, align=["l", "r", "r", "l"] + ["l"] * (len(heads) - 4)))
    s.para("Changes are after / before - 1 (negative: smaller or faster, except for "
           "rates).  The interval is the %.0f%% interval of the change from the "
           "interleaved before/after pairs (`python/jsonbench/intervals.py`); a verdict "
           "is given only when the whole interval says it (beyond the noise band in one "
           "direction, inside it, or inside or outside the claimed size's tolerance), "
           "otherwise it is inconclusive and its note says how many repetitions would "
           "likely decide it." % (100 * I.CONFIDENCE))
    if any(r.get("instructions") for r in rows):
        s.para("**Instructions** (a CPU figure that cannot flip): valgrind's count of the "
               "same before and after runs at dataset scale %g, one process each; exact, "
               "so their verdict (same rules, a 1%% noise band) is always confident.  They "
               "count work, not time: a change that saves page faults or cache misses "
               "shows in the time and not here." % meta.get("instructions_scale"))
    if any((r.get("instructions") or {}).get("ll_misses") for r in rows):
        s.para("**LL misses**: the same runs' last-level cache misses, simulated by "
               "cachegrind on a fixed geometry (%s; `jsonbench.cachesim`), the same on "
               "every machine: the accesses that go to memory, the memory-bound work "
               "that instructions do not show and that makes most of the time's noise "
               "on a VM.  Exact as well; the same rules." % cachesim.geometry_text())
    low = [r["id"] for r in rows if r.get("below_floor")]
    if floor is not None:
        s.para("**This machine's noise floor**: %.1f%% spread (max - min over median) of "
               "the CPU time of fixed memory-bound work in fresh processes, measured at the "
               "start of the run (`jsonbench-noise-probe`, docs/noise.md).  %s" % (
                   floor, "Claims whose noise band is below it, so that their timing verdict "
                   "rests on many pairs: %s." % ", ".join(low) if low else
                   "Every claim's noise band is at or above it."))
    drift = memory_drift_pct(ctx.results.env)
    if drift is not None:
        s.para("**Memory drift**: the same memory-bound work, timed in slices of one "
               "process, varied by %.1f%% (max - min over median) at the start of the run: "
               "a timed phase of some seconds may run in a slower or faster stretch than "
               "its pair, so the intervals of long memory-bound phases (dumps, "
               "compactions at scale 1) are wider than the process-to-process floor "
               "suggests (docs/noise.md)." % drift)
    for line in notes.lines():
        s.para(line)
    s.add(Table(DETAIL_HEADERS, detail_rows(rows), caption="What each claim compares",
                align=["r", "l", "l", "r", "r", "r"]))
    fig_path = _change_chart(ctx, rows, real_results)
    if fig_path:
        s.add(Figure(fig_path, "Claimed, model%s change per claim, after / before - 1 "
                     "(negative = smaller or faster), the figures of the table above.  "
                     "Claims without a claimed figure and unmeasured ones are left out."
                     % (" and real OVS" if real_results else "")))
    # How the table was made, after it.
    reps = meta.get("repetitions")
    s.para("Produced by `scripts/reproduce.sh %s` at dataset scale %g (1 = the seeds' "
           "database sizes), %s per run (each a separate process; before and after "
           "interleaved)%s.  The claims, their sources and tolerances are data in "
           "`claims/seeds.json`; `claims/README.md` explains the tolerance."
           % (meta.get("command_args", ""), meta.get("scale"),
              "1 repetition" if reps == 1 else "%s repetitions" % reps,
              ": single values, no median, so small changes are within run-to-run noise"
              if reps == 1 else ", values are medians"))
    filled = [f for f in filled_from(meta) if f.get("runs")]
    if filled:
        s.para("Runs not made by that command (the claims capped at a smaller scale, or "
               "left out with `--only`) come from %s (same build and datasets; where "
               "several hold a run, the first one's is used)." % "; ".join(
                   "`%s` (`scripts/reproduce.sh %s`): %d runs, that reproduction took "
                   "%.0f s" % (f["folder"], f["command_args"], len(f["runs"]),
                               f.get("duration_s") or 0) for f in filled))
    real = meta.get("real") or {}
    real_src = realclaims.real_sources(real)
    if real_src:
        runs_r = real.get("runs", {}).values()
        own = sum(1 for v in runs_r if v.get("file") and not v.get("source"))
        s.para("%sThe real-OVS runs %s %s, %s on the same datasets (real builds "
               "do not change with the model; where several hold a run, the first "
               "one's is used): %d runs; %.0f s of measuring." % (
                   "%d real-OVS runs were measured by that command.  " % own if own else "",
                   "not measured by it come from" if own else "come from",
                   ", ".join("`results/%s`" % f for f in real_src),
                   "a separate reproduction (`--only real`, or interleaved with its "
                   "model runs)" if len(real_src) == 1
                   else "separate reproductions (`--only real`, or interleaved with "
                   "their model runs)",
                   sum(1 for v in runs_r if v.get("file") and v.get("source")),
                   real.get("duration_s") or 0))
    tol = doc.get("defaults", {}).get("tolerance", {})
    if tol.get("why"):
        s.para("**Tolerance.** " + tol["why"] + "  Noise band (a smaller measured change "
               "counts as no change): " + ", ".join(
                   "%s %.0f%%" % kv for kv in sorted(tol.get("noise_pct", {}).items())) + ".")
    st = meta.get("dataset_stats") or {}
    if st:
        drows = []
        for name, d in sorted(st.items()):
            strings = d.get("strings") or 0
            drows.append([name.upper(), d.get("file", ""), "%.1f MB" % (d.get("bytes", 0) / 1e6),
                          "{:,}".format(d.get("rows_total", 0)),
                          "{:,}".format(d.get("atoms_total", 0)),
                          "{:,}".format(strings),
                          "%.0f%%" % (100.0 * d.get("strings_le_23", 0) / strings) if strings else "-",
                          "%.1f B" % (d.get("string_bytes", 0) / strings) if strings else "-",
                          (doc.get("datasets", {}).get(name, {}).get("seed_size", ""))])
        s.add(Table(["dataset", "file", "size", "rows", "atoms", "string atoms",
                     "strings <= 23 B", "mean string", "seed's database"], drows,
                    caption="Generated datasets measured (ovsdb-stats)",
                    align=["l", "l", "r", "r", "r", "r", "r", "r", "l"]))
    timing = meta.get("run_seconds") or {}
    if timing:
        trows = [[k, "%.1f s" % v] for k, v in timing.items()]
        s.add(Table(["run group", "wall time"], trows,
                    caption="Time per run group (all repetitions, before and after)",
                    align=["l", "r"]))
    if meta.get("duration_s"):
        s.para("Whole reproduction: %.0f s (%.1f min), including dataset generation %.0f s."
               % (meta["duration_s"], meta["duration_s"] / 60, meta.get("generate_s", 0)))
    return s


def chart_points(rows, real_results=None):
    """The claims the change chart draws, with the figures it draws: the
    same evaluated rows the table shows.  [(id, claimed %, model %, real %
    or None)]."""
    pts = []
    for r in rows:
        if r.get("claimed_change_pct") is None or r.get("measured_change_pct") is None:
            continue
        real = (real_results or {}).get(r["id"], {}).get("real", {})
        pts.append((r["id"], r["claimed_change_pct"], r["measured_change_pct"],
                    real.get("measured_change_pct")))
    return pts


# Bars past these ends are drawn at the end (the table has the figure).
CLIP = (-100, 300)


def _change_chart(ctx, rows, real_results=None):
    """Horizontal bars per claim: claimed, model and (when measured) real
    OVS change (%), from the rows the table shows."""
    pts = chart_points(rows, real_results)
    if not pts:
        return None
    byid = {r["id"]: r for r in rows}
    with_real = any(p[3] is not None for p in pts)
    n = 3 if with_real else 2
    fig, axes = figure(width=9.0, height=(0.32 + 0.14 * (n - 2)) * len(pts) + 1.9)
    ax = axes[0]
    ys = list(range(len(pts)))[::-1]
    h = 0.8 / n

    def clip(v):
        return max(min(v, CLIP[1]), CLIP[0])

    ax.barh([y + h * (n - 1) / 2 for y in ys], [p[1] for p in pts], h,
            label="claimed", color="#8c8c8c")
    colors = {VERDICT_WITHIN: "#55a868", VERDICT_OUTSIDE: "#dd8452",
              VERDICT_OPPOSITE: "#c44e52", VERDICT_NOISE: "#ccb974"}
    ax.barh([y + h * (n - 3) / 2 for y in ys], [clip(p[2]) for p in pts],
            h, color=[colors.get(byid[p[0]]["verdict"], "#4c72b0") for p in pts],
            label="model (green: within tolerance, orange: outside, red: opposite, "
                  "yellow: no change)")
    if with_real:
        real = [(y, p[3]) for y, p in zip(ys, pts) if p[3] is not None]
        ax.barh([y - h for y, _v in real], [clip(v) for _y, v in real], h,
                color="#4c72b0", label="real OVS")
    ax.set_yticks(ys)
    ax.set_yticklabels([p[0] for p in pts], fontsize=8)
    ax.axvline(0, color="#333", linewidth=0.8)
    ax.set_xlabel("change, after / before - 1 (%)")
    ax.set_title("Seed claims: claimed vs measured change", fontsize=11)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.9 / fig.get_figheight()),
              ncol=2, frameon=False)
    return ctx.charts.save(fig, "claims-change")


INSTR_HEAD = "instructions (verdict)"
MISSES_HEAD = "LL misses (verdict)"


def _real_table(s, root, doc, runs, meta, rows, notes):
    """The claims table with the real-OVS columns: the real builds' change,
    its verdict against the claim, and the model's change judged against
    the real one (same tolerance rules)."""
    real = meta["real"]
    results = realclaims.evaluate(
        doc, real["claims"], runs,
        realclaims.load_runs(root, real.get("runs", {})),
        meta.get("dataset_stats"), meta.get("scale", 1.0), meta.get("caps", True),
        twin_claims=meta.get("twins"))
    # Answer first: claim, claimed, model, real, verdict; then how the
    # real change and the model compare, and the note.
    table = []
    for t, r in zip(table_rows(rows, notes), rows):
        real_cells = realclaims.real_summary_cells(results.get(r["id"]), notes)
        table.append(t[:3] + real_cells[:1] + t[3:4] + real_cells[1:] + t[4:])
    headers = (HEADERS[:2] + [HEADERS[2].replace("measured", "model")]
               + realclaims.REAL_SUMMARY_HEADERS[:1] + HEADERS[3:4]
               + realclaims.REAL_SUMMARY_HEADERS[1:] + HEADERS[4:])
    s.add(Table(headers, table, align=["l", "r", "r", "r", "l", "l", "l", "l"]))
    n = sum(1 for v in results.values() if v["real"].get("measured_before") is not None)
    built = ", ".join("`%s` (%s)" % (t["ref"], t.get("ovs_version", "")) for t in
                      real.get("targets", []))
    s.para("**Real OVS** (`--ovs-tree %s`, pairs in `%s`): %d claims measured on real "
           "builds: %s.  'real vs claimed' judges the real builds' change against the "
           "published one; 'model vs real' judges the model's change against the real "
           "builds' change, with the same tolerance.  Real OVS runs the claim's workload, "
           "dataset and options measured from outside the processes (docs/real-ovs.md); "
           "where it cannot show the model's metric the pairs file names the one used "
           "(raft: leader RSS and CPU instead of heap figures)."
           % (real.get("ovs_tree", "?"), real.get("claims_file", "claims/real-ovs.json"),
              n, built or "none"))
    judged = [v["target"] for v in results.values() if v.get("target")]
    if judged:
        t = realclaims.effect_target(real["claims"])
        s.para("**Calibration target** (`effect_target` in the pairs file): the model's "
               "change within %g%% of the real builds' change, or within %g points where "
               "the real change is under %g%%; stricter than the tolerance above, which "
               "asks only whether a figure reproduces.  Met by %d of the %d claims "
               "measured on both sides; the 'model vs real' cell says by how much (the "
               "model's change over the real one, or the gap in points)."
               % (100 * t["relative"], t["points"], t["small_below_pct"],
                  sum(1 for v in judged if v["met"]), len(judged)))
    for f in real.get("build_failures", []):
        s.para("Build of `%s` failed, so its claims are not measured on real OVS: %s"
               % (f.get("ref", f.get("target")), failure_text(f.get("error", ""), 5)))
    return results
