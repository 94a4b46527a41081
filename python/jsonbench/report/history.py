"""The report of a history or find study (jsonbench.history): report.md
from the folder's study.json, and for history a chart of each figure over
the commits (history.png and history.svg), release tags labelled on the x
axis, the spread over repetitions as whiskers, failed builds as gaps.
Without matplotlib the markdown is written and the chart is skipped (said
in the report)."""

import json
import os

from ..historyfigures import FIGURES, SCALE, STUDY
from ..historymetrics import ONCE


def load(out_dir):
    with open(os.path.join(out_dir, STUDY)) as f:
        return json.load(f)


def _fmt(f, unit):
    if f is None:
        return "-"
    k = SCALE[unit]
    if unit == "ratio":
        return "%.3f (%.3f-%.3f)" % (f["median"], f["min"], f["max"])
    if f["n"] == 1 or f["min"] == f["max"]:
        return "%.2f" % (f["median"] * k)
    return "%.2f (%.2f-%.2f)" % (f["median"] * k, f["min"] * k, f["max"] * k)


def _write(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def is_release(label):
    return label.startswith("v") and label[1:2].isdigit()


def chart(study, out_dir, stem="history", svg=True):
    """The figures over the points; returns the file names written, or a
    reason when matplotlib is missing."""
    try:
        import matplotlib.pyplot as plt
        fig = history_figure(study)
    except ImportError:
        return "matplotlib is not installed: no chart"
    names = []
    for ext, kw in (("png", {"dpi": 100}), ("svg", {}))[:2 if svg else 1]:
        path = os.path.join(out_dir, "%s.%s" % (stem, ext))
        fig.savefig(path, **kw)
        names.append(os.path.basename(path))
    plt.close(fig)
    return names


def history_figure(study):
    """The history chart as a matplotlib figure (tests read its points)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figs = [f for f in study["figures"]
            if any(f in p.get("figures", {}) for p in study["points"])]
    pts = study["points"]
    fig, axes = plt.subplots(len(figs), 1, figsize=(max(10.0, 0.6 * len(pts) + 3),
                                                    2.4 * len(figs) + 0.9),
                             sharex=True, squeeze=False)
    xs = list(range(len(pts)))
    for ax, name in zip(axes[:, 0], figs):
        label, unit = FIGURES[name].label, FIGURES[name].unit
        k = SCALE[unit]
        px, mid, lo, hi = [], [], [], []
        for x, p in zip(xs, pts):
            f = p.get("figures", {}).get(name)
            if not f:
                continue
            px.append(x)
            mid.append(f["median"] * k)
            # Whiskers: the 95% interval against the reference where the
            # study has it, else (older studies) min-max.
            low, high = f.get("low", f["min"]), f.get("high", f["max"])
            lo.append(max(0.0, f["median"] - low) * k)
            hi.append(max(0.0, high - f["median"]) * k)
        # A line broken at failed points: each run of measured points.
        runs, cur = [], []
        for x, m in zip(px, mid):
            if cur and x != cur[-1][0] + 1:
                runs.append(cur)
                cur = []
            cur.append((x, m))
        runs.append(cur)
        for r in runs:
            if r:
                ax.plot([a for a, _ in r], [b for _, b in r], color="#4c72b0", lw=1.2)
        ax.errorbar(px, mid, yerr=[lo, hi], fmt="o", ms=4, color="#4c72b0",
                    ecolor="#222222", capsize=3, lw=1)
        for x, p in zip(xs, pts):
            if "failed" in p or "not_built" in p:
                ax.axvspan(x - 0.4, x + 0.4, color="#c44e52" if "failed" in p
                           else "#8c8c8c", alpha=0.15, lw=0)
        if unit == "ratio":
            ax.axhline(1.0, color="#888888", lw=0.8, ls="--")
        ax.set_ylabel("%s\n(%s)" % (label, unit), fontsize=10)
        ax.tick_params(labelsize=10)
        ax.grid(axis="y", alpha=0.3)
    ax = axes[-1, 0]
    ax.set_xticks(xs)
    ax.set_xticklabels([p["label"] if is_release(p["label"]) else p["commit"][:7]
                        for p in pts], rotation=45, ha="right", fontsize=10)
    for x, p in zip(xs, pts):
        if "failed" in p or "not_built" in p:
            axes[0, 0].annotate("build\nfailed" if "failed" in p else "not\nbuilt", (x, 0.5),
                                xycoords=("data", "axes fraction"), ha="center", fontsize=9,
                                color="#c44e52" if "failed" in p else "#555555")
    whiskers = ("95%% interval against the reference, %d repetitions" % study["repetitions"]
                if any("low" in f for p in pts for f in p.get("figures", {}).values())
                else "min-max of %d" % study["repetitions"])
    # Two lines: a few points make a narrow chart.
    fig.suptitle("real OVS over commits: %s\nmedian, %s; reference %s" % (
        ", ".join(study_datasets(study)), whiskers, study["reference"]["label"]),
        fontsize=12)
    fig.tight_layout()
    return fig


def find_figure(study):
    """The find chart as a matplotlib figure: the measured values along the
    searched line, each commit found marked by a dashed line and named in
    a row of its own above the data (found commits are often neighbours:
    their labels never share a row)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    res, line = study["result"], study["line"]
    info = study.get("commits", {})
    how = FIGURES[study["metric"]].how
    pts = sorted((int(k), f) for k, f in study["measured"].items() if f)

    def rel(f, key):
        return f[key] / f["reference"] if f.get("reference") and how != "ratio" else f[key]

    xs = [0] + [i for i, _f in pts]
    mid = [1.0] + [f["median"] if how == "ratio" else f["ratio"] for _i, f in pts]
    lo = [0.0] + [max(0.0, m - rel(f, "min")) for m, (_i, f) in zip(mid[1:], pts)]
    hi = [0.0] + [max(0.0, rel(f, "max") - m) for m, (_i, f) in zip(mid[1:], pts)]
    found = list(res["found"])
    fig, ax = plt.subplots(figsize=(11.0, 4.2 + 0.3 * len(found)))
    order = sorted(range(len(xs)), key=lambda k: xs[k])
    ax.step([xs[k] for k in order], [mid[k] for k in order], where="post",
            color="#4c72b0", lw=1.2, alpha=0.6)
    ax.errorbar(xs, mid, yerr=[lo, hi], fmt="o", ms=5, color="#4c72b0", ecolor="#222222",
                capsize=3, lw=1)
    ax.axhline(1.0, color="#888888", lw=0.8, ls=":")
    # Headroom above the data: one row per found commit.
    ymin = min(m - d for m, d in zip(mid, lo))
    ymax = max(m + d for m, d in zip(mid, hi))
    span = (ymax - ymin) or abs(ymax) * 0.05 or 1.0
    row = span * 0.16
    ax.set_ylim(ymin - span * 0.08, ymax + row * (len(found) + 0.6))
    ax.set_xlim(-0.03 * max(len(line) - 1, 1), (len(line) - 1) * 1.03 or 1)
    # Labels on the side with more room, each ending short of every found
    # line of its side, with an arrow to its own line: a label never
    # crosses a neighbour's line, and each has a row of its own.
    right_half = (len(line) - 1) / 2
    lefts = [i for i in found if i > right_half]
    rights = [i for i in found if i <= right_half]
    for n, i in enumerate(found):
        y = ymax + row * (len(found) - n)
        ax.axvline(i, color="#c44e52", lw=1, ls="--")
        c = info.get(str(i), {})
        text = ("%s %s" % (line[i][:10], c.get("subject", ""))).strip()
        vals = res.get("values", {})
        v0, v1 = (vals.get(str(k), vals.get(k)) for k in (i - 1, i))
        if v0 and v1:
            text += " (%+.1f%%)" % ((v1 / v0 - 1) * 100)   # found_steps()' change
        left = i in lefts
        gap = 0.015 * max(len(line) - 1, 1)
        anchor = min(lefts) - gap if left else max(rights) + gap
        ax.annotate(text, xy=(i, y), xytext=(anchor, y), textcoords="data",
                    ha="right" if left else "left", va="center", fontsize=10,
                    color="#c44e52",
                    bbox={"boxstyle": "round,pad=0.2", "fc": "white", "ec": "none",
                          "alpha": 0.9},
                    arrowprops={"arrowstyle": "->", "color": "#c44e52", "lw": 1,
                                "shrinkA": 0, "shrinkB": 2})
        ax.plot([i], [y], marker="o", ms=4, color="#c44e52")
    # No ticks in the labels' headroom: the axis covers the data only.
    bottom = ymin - span * 0.08
    ax.set_yticks([t for t in ax.get_yticks() if bottom <= t <= ymax + span * 0.02])
    ax.set_xlabel("first-parent commits after %s" % line[0][:10], fontsize=11)
    ax.set_ylabel("%s / good end" % FIGURES[study["metric"]].label, fontsize=11)
    ax.tick_params(labelsize=10)
    ax.set_title("find: %s..%s, threshold %g%%" % (study["good"], study["bad"],
                                                    study["threshold"]), fontsize=12)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def find_chart(study, out_dir, svg=True):
    """find.png and find.svg in out_dir; returns [file names] or a reason."""
    try:
        import matplotlib.pyplot as plt
        fig = find_figure(study)
    except ImportError:
        return "matplotlib is not installed: no chart"
    names = []
    for ext, kw in (("png", {"dpi": 100}), ("svg", {}))[:2 if svg else 1]:
        fig.savefig(os.path.join(out_dir, "find.%s" % ext), **kw)
        names.append("find.%s" % ext)
    plt.close(fig)
    return names


# A history step: a figure that moves by more than this between two
# consecutive measured points.  CPU ratios are left out of the steps (they
# depend on the machine's load; the table and chart show them).
STEP_PCT = 2.0


def history_steps(study, threshold=STEP_PCT):
    """[(figure, from point, to point, before, after, change %)] of every
    move above 'threshold' between consecutive measured points, in the
    figures' units (the table's numbers)."""
    steps = []
    for name in study["figures"]:
        unit = FIGURES[name].unit
        if unit == "ratio":
            continue
        prev = None
        for p in study["points"]:
            f = p.get("figures", {}).get(name)
            if not f:
                continue
            if prev is not None:
                a, b = prev[1]["median"], f["median"]
                if a and abs(b / a - 1) * 100 > threshold:
                    steps.append((name, prev[0], p, a * SCALE[unit], b * SCALE[unit],
                                  (b / a - 1) * 100))
            prev = (p, f)
    return steps


def _step_value(v):
    """Enough digits that the printed values give the printed change to
    0.1 points (2.30 -> 2.47 M would read +7.4% for a +7.2% step)."""
    return "%.2f" % v if abs(v) >= 100 else "%.3f" % v if abs(v) >= 1 else "%.4f" % v


def _steps_table(study):
    steps = history_steps(study)
    if not steps:
        return ["No figure moved by more than %g%% between two consecutive points."
                % STEP_PCT, ""]
    lines = ["| figure | from | to | before | after | change |", "|---|---|---|---:|---:|---:|"]
    for name, a, b, va, vb, ch in steps:
        unit = FIGURES[name].unit
        lines.append("| %s | %s | %s (`%s`) | %s %s | %s %s | %+.1f%% |" % (
            FIGURES[name].label, a["label"], b["label"], b["commit"][:10], _step_value(va),
            unit, _step_value(vb), unit, ch))
    return lines + ["", "Every move above %g%% between consecutive points; change = after / "
                    "before - 1, lower is better (CPU ratios are in the table below, not "
                    "here: they depend on the machine's load)." % STEP_PCT, ""]


def study_datasets(study):
    """The distinct datasets a study measured (a study from before
    workloads named them per figure: its load dataset)."""
    ds = study.get("datasets") or {}
    return list(dict.fromkeys(ds.values())) or [study["load_dataset"]]


def dataset_of(study, name):
    """The dataset figure 'name' was measured on."""
    ds = study.get("datasets") or {}
    if name in ds:
        return ds[name]
    return study.get("ir_dataset") if FIGURES[name].workload in ONCE \
        else study["load_dataset"]


def _runs(study, name):
    """How often a figure's workload ran per commit, and what it is."""
    f = FIGURES[name]
    if f.workload in ONCE:
        return "`%s` (%s form) once under valgrind" % (f.workload, f.form)
    return "`%s` (%s form) %d times" % (f.workload, f.form, study["repetitions"])


def figures_table(study, names):
    """How each figure was measured: its workload and form (with the
    workload's parameters), dataset, what is read and how a point's value
    is formed."""
    params = study.get("params") or {}
    lines = ["| figure | workload (form) | dataset | measured | value |",
             "|---|---|---|---|---|"]
    for name in names:
        f = FIGURES[name]
        p = params.get(f.workload)
        lines.append("| %s (`%s`, %s) | `%s` (%s)%s | %s | %s: `%s` of `%s` | %s |" % (
            f.label, name, f.unit, f.workload, f.form,
            " " + " ".join("%s=%s" % kv for kv in sorted(p.items())) if p else "",
            dataset_of(study, name), f.measured, f.field, f.row,
            "median of the per-repetition ratios to the reference" if f.how == "ratio"
            else "one run" if f.workload in ONCE else "median (min-max)"))
    return lines


def made_by(command, commit, folder):
    """The report's provenance line: the command, its commit, how to
    render the report again."""
    return "Made by `%s`%s; this report: `reports/generate.py %s`." % (
        command or "(command not recorded)",
        " at commit `%s`" % commit[:12] if commit else " (commit not recorded)", folder)


def history_md(study, out_dir, command, charts, commit="", folder="FOLDER"):
    ref = study["reference"]
    lines = ["# Real ovsdb-server over OVS history", "",
             made_by(command, commit, folder), "", "## Steps", ""] + _steps_table(study) + ["## How it was measured", "",
             "Each point is one OVS commit built once (build cache); each workload "
             "below runs %d times on it, interleaved with the reference %s (`%s`) on "
             "the same machine, the valgrind one once (machine-independent).  A CPU "
             "figure is the median of the per-repetition ratios to the reference; "
             "the others are medians with min-max." % (
                 study["repetitions"], ref["label"], ref["commit"][:10]), ""] + \
        figures_table(study, study["figures"]) + [""]
    for n in study.get("notes", []):
        lines += ["Note: %s" % n, ""]
    lines += ["## Every point", ""]
    if isinstance(charts, list):
        lines += ["![history](%s)" % charts[0], ""]
    else:
        lines += ["(%s)" % charts, ""]
    head = ["point", "commit", "date"] + ["%s (%s)" % (FIGURES[f].label, FIGURES[f].unit)
                                         for f in study["figures"]]
    lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for p in study["points"]:
        row = [p["label"], "`%s`" % p["commit"][:10], p["date"][:10]]
        if "failed" in p or "not_built" in p or "not_measured" in p:
            row += ["build failed" if "failed" in p else "not built (--no-build)"
                    if "not_built" in p else "not measured (%s)" % p["not_measured"]] + \
                [""] * (len(study["figures"]) - 1)
        else:
            row += [_fmt(p.get("figures", {}).get(f), FIGURES[f].unit)
                    for f in study["figures"]]
        lines.append("| " + " | ".join(row) + " |")
    fails = [p for p in study["points"] if "failed" in p]
    if fails:
        lines += ["", "Failed builds (not patched; the chart shows the gap):", ""]
        for p in fails:
            tail = [ln for ln in p["failed"].splitlines() if ln.strip()]
            reason = next((ln for ln in tail if "error" in ln.lower()), tail[-1] if tail else "")
            lines.append("- %s: `%s`" % (p["label"], reason.strip()[:200]))
    b = study.get("builds")
    lines += [""] if b is None else ["", "Builds: %d built here, %d from the cache, %d failed, %d not built "
              "(--no-build)%s." % (b.get("built", 0), b.get("cached", 0), b.get("failed", 0),
                                   b.get("not_built", 0), "" if not study.get("shards") else
                                   ", over %d shards (each builds the reference)"
                                   % study["shards"]), ""]
    return "\n".join(lines)


def measured_count(study):
    """Commits with a measured figure: the rows of the find report's
    measurements table."""
    return sum(1 for f in study["measured"].values() if f)


def found_steps(study):
    """[(index on the line, value before, value after, change %)] of each
    commit found: the step's size, as the table and the chart show it."""
    res = study["result"]
    out = []
    for i in res["found"]:
        v0 = res["values"].get(str(i - 1), res["values"].get(i - 1))
        v1 = res["values"].get(str(i), res["values"].get(i))
        out.append((i, v0, v1, (v1 / v0 - 1) * 100 if v0 and v1 else None))
    return out


def _found_table(study):
    res, line, info = study["result"], study["line"], study["commits"]
    lines = []
    steps = found_steps(study)
    if steps:
        lines += ["| commit | subject | before -> after (good end = 1) | change |",
                  "|---|---|---:|---:|"]
        for i, v0, v1, ch in steps:
            c = info.get(str(i), {})
            lines.append("| `%s` | %s | %.4f -> %.4f | %s |" % (
                line[i][:10], c.get("subject", ""), v0, v1,
                "%+.1f%%" % ch if ch is not None else "-"))
        lines += ["", "Change = after / before - 1 of %s (lower is better)." %
                  FIGURES[study["metric"]].label, ""]
    elif not res.get("open"):
        lines += ["No single commit moved %s by more than %g%%." % (
            FIGURES[study["metric"]].label, study["threshold"]), ""]
    return lines


def find_md(study, command, out_dir, commit="", folder="FOLDER", svg=True):
    res = study["result"]
    line = study["line"]
    info = study["commits"]
    metric = study["metric"]
    unit = FIGURES[metric].unit
    measured = study["measured"]

    def name(i):
        c = info.get(str(i), {})
        return "`%s` %s" % (line[i][:10], c.get("subject", ""))

    lines = ["# Which commit moved %s" % FIGURES[metric].label, "",
             made_by(command, commit, folder), "", "## Result", ""] + _found_table(study) + [
             "## How it searched", "",
             "%d first-parent commits from `%s` (good) to %s (bad); each measured "
             "commit runs %s interleaved with the good end on %s; a value is the "
             "commit's median over the good end's; an interval whose ends differ by "
             "more than %g%% is split (%d commit(s) per round)." % (
                 len(line) - 1, line[0][:10], study["bad"], _runs(study, metric),
                 dataset_of(study, metric), study["threshold"], study["parallel"]), ""] + \
        figures_table(study, [metric]) + [""]
    if study.get("note"):
        lines += ["Note: %s" % study["note"], ""]
    b = study["builds"]
    charts = find_chart(study, out_dir, svg)
    if isinstance(charts, list):
        lines += ["![find](%s)" % charts[0], ""]
    if res.get("open"):
        lines.append("- search not finished; still to search: %s" % ", ".join(
            "`%s`..`%s` (%d commits)" % (line[lo][:10], line[hi][:10], hi - lo)
            for lo, hi in res["open"]))
    for lo, hi in res["unresolved"]:
        lines.append("- unresolved between %s and %s (no buildable commit between)"
                     % (line[lo][:10], line[hi][:10]))
    for lo, hi in res.get("inconclusive", []):
        lines.append("- inconclusive between %s and %s: the two ends' 95%% intervals allow "
                     "both a step above %g%% and none, after more repetitions"
                     % (line[lo][:10], line[hi][:10], study["threshold"]))
    engine = study.get("engine")
    n = measured_count(study)
    last = b["commits"] if isinstance(b["commits"], int) else len(b["commits"])
    # The good end is built and run too, but has no row of its own (it is 1).
    resumed = last < n + 1
    lines += ["", "Builds: %s; %s %d compiled %s, %d from the cache, %d failed." % (
                  "%d commits measured (the table below), %d of them by the last run (it "
                  "resumed an earlier one, which measured the others)" % (n, last)
                  if resumed else "%d commits, the good end and the %d measured (the "
                  "table below)" % (last, n),
                  "that run" if resumed else "of them",
                  b["built"], "here" if not engine else
                  "on the nodes (each also builds the good end)", b["cached"], b["failed"]),
              ""]
    if engine:
        lines += ["Each round's commits ran as shards of one history, one commit per "
                  "shard, through `--engine %s` (`round-R/merged` in the results "
                  "folder)." % engine, ""]
    lines += ["## Search rounds", "",
              "| round | interval | values (good = 1) | change | split? |", "|---|---|---|---|---|"]
    for r, rnd in enumerate(res["rounds"]):
        for lo, hi, vlo, vhi, change, moved in rnd["intervals"]:
            lines.append("| %d | `%s`..`%s` (%d commits) | %.4f -> %.4f | %+.2f%% | %s |" % (
                r, line[lo][:10], line[hi][:10], hi - lo, vlo, vhi, change,
                "undecided: more repetitions" if moved is None else
                ("yes" if hi - lo > 1 else "one commit: found") if moved else "no"))
    lines += ["", "## Measurements", "",
              "| commit | %s (%s): median (min-max) | / good |" % (FIGURES[metric].label,
                                                                    unit),
              "|---|---|---|"]
    for k in sorted(measured, key=int):
        f = measured[k]
        lines.append("| %s | %s | %s |" % (name(int(k)), _fmt(f, unit),
                                           "%.4f" % f["ratio"] if f and f.get("ratio")
                                           else "-"))
    return "\n".join(lines) + "\n"


def render(out_dir, folder=None, svg=True):
    """Writes report.md (and the history chart); returns the markdown.
    'folder': how the report names its folder in the line that says how to
    render it again (default results/<name>); 'svg': also the charts as SVG."""
    study = load(out_dir)
    try:
        with open(os.path.join(out_dir, "env.json")) as f:
            env = json.load(f)
    except (OSError, ValueError):
        env = {}
    command, commit = env.get("command", ""), env.get("git_commit", "")
    folder = folder or "results/" + os.path.basename(os.path.normpath(out_dir))
    if study["tool"] == "history":
        text = history_md(study, out_dir, command, chart(study, out_dir, svg=svg), commit,
                          folder)
    else:
        text = find_md(study, command, out_dir, commit, folder, svg)
    _write(os.path.join(out_dir, "report.md"), text)
    return text
