#!/usr/bin/env python3
"""Charts people can read, on made-up results:

- every target of a report gets its own colour up to 20 targets, and past
  that its own colour and hatch (bars) or colour and marker (lines);
- a legend shared by several panels names every target, also one missing
  from the first panel, and leaves its rows room above the panels;
- the monitor scaling chart draws a panel only for a dataset and mode
  measured at two client counts or more, names the others in a sentence,
  and its legend names every target;
- the find chart is at least 1000 pixels wide and the labels of two found
  commits two commits apart do not overlap each other or leave the figure;
- the workload chart of 15 targets: 15 colours.

usage: test_charts.py"""

import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from testkit import Checks  # noqa: E402

import matplotlib  # noqa: E402
import matplotlib.container  # noqa: E402
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from jsonbench import report  # noqa: E402
from jsonbench.report import charts  # noqa: E402
from jsonbench.report import history as history_report  # noqa: E402

check = Checks()
TARGETS = ["plain", "refcount", "inline", "serialized", "ovs", "interned", "compact", "arena",
           "ovs-arena", "ovs-copytrim", "ovs-arena-heapstr", "ovs-9669b50f5-parent",
           "ovs-9669b50f5", "ovs-f5819e699", "ovs-3.1"]


def styles(tmp):
    c = charts.Charts(tmp)
    names = ["t%d" % i for i in range(40)]
    colors = [c.color(n) for n in names]
    check(len(set(colors[:20])) == 20, "20 targets, 20 colours: %s" % colors[:20])
    check(len({(c.color(n), c.hatch(n)) for n in names}) == 40,
          "40 targets: each its own colour and hatch")
    check(len({(c.color(n), c.marker(n)) for n in names}) == 40,
          "40 targets: each its own colour and marker")
    check(c.color("t3") == colors[3], "a target keeps its colour")


def shared_legend():
    fig, axes = charts.figure(ncols=3, width=15)
    for ax, names in zip(axes, (["plain", "interned"], ["plain", "ovs"], TARGETS)):
        for n in names:
            ax.plot([0, 1], [0, 1], label=n)
    charts.shared_legend(fig, axes)
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    check(labels[:3] == ["plain", "interned", "ovs"] and sorted(labels) == sorted(TARGETS),
          "the legend names every target once, first-seen order: %s" % labels)
    ncol = fig.legends[0]._ncols
    check(1 < ncol < len(TARGETS), "15 long names take more than one legend row (%d columns)"
          % ncol)
    tmp = tempfile.mkdtemp(prefix="jsonbench-charts-")
    try:
        c = charts.Charts(tmp)
        fig.suptitle("sb-1: dump", x=0.01, ha="left")
        # save() lays out: the panels must end below the legend.
        path = c.save(fig, "legend")
        check(os.path.getsize(path) > 1000, "the chart is written")
        r = fig.canvas.get_renderer()
        top = max(ax.get_window_extent(r).y1 for ax in axes)
        legend = fig.legends[0].get_window_extent(r)
        title = fig._suptitle.get_window_extent(r)
        check(legend.y0 >= top - 1, "the legend sits above the panels (%.0f >= %.0f)"
              % (legend.y0, top))
        check(not legend.overlaps(title), "the legend does not cover the title")
    finally:
        shutil.rmtree(tmp)


def _bench(name, cpu, rep, reps):
    return {"name": name, "run_name": name, "run_type": "iteration", "repetitions": reps,
            "repetition_index": rep, "threads": 1, "iterations": 1, "real_time": cpu * 1e3,
            "cpu_time": cpu * 1e3, "time_unit": "ms", "rss_bytes": 1e8 + rep,
            "peak_rss_bytes": 1.2e8 + rep}


def write_results(folder, runs):
    """runs: [(impl, workload, variant, dataset, clients, mode, {phase: cpu s})]."""
    os.makedirs(os.path.join(folder, "runs"))
    entries = []
    for impl, wl, variant, ds, clients, mode, phases in runs:
        stem = "%s__%s__%s" % (ds, variant, impl)
        entries.append({"file": "runs/%s.json" % stem, "impl": impl, "workload": wl,
                        "variant": variant, "dataset": ds, "kind": "SB", "scale": 0.01,
                        "form": "any", "clients": clients, "mode": mode, "params": "",
                        "allocator": "glibc", "source": "harness"})
        benches = [_bench("%s/%s" % (wl, p), cpu * (1 + 0.01 * rep), rep, 2)
                   for rep in range(2) for p, cpu in phases.items()]
        with open(os.path.join(folder, "runs", stem + ".json"), "w") as f:
            json.dump({"context": {"impl": impl, "workload": wl}, "benchmarks": benches}, f)
    with open(os.path.join(folder, "index.json"), "w") as f:
        json.dump({"entries": entries, "failures": []}, f)


def monitor_chart(tmp):
    folder = os.path.join(tmp, "monitor")
    runs = []
    # tree mode at 1, 10 and 30 clients (plain, interned); ovs only in the
    # cache mode at 1 and 10; a real target at 120 clients only.
    for impl in ("plain", "interned"):
        for c in (1, 10, 30):
            runs.append((impl, "monitor", "monitor-tree-c%d" % c, "sb-0.01", c, "tree",
                         {"load": 1.0, "updates": 0.1 * c}))
    for c in (1, 10):
        runs.append(("ovs", "monitor", "monitor-cache-c%d" % c, "sb-0.01", c, "cache",
                     {"load": 1.0, "updates": 0.05 * c}))
    runs.append(("ovs-43e66fc27", "monitor", "monitor-c120", "sb-0.01", 120, None,
                 {"load": 1.0, "updates": 3.0}))
    write_results(folder, runs)
    from jsonbench.report import Context, results
    from jsonbench.report.sections import scaling
    rs = results.load(folder)
    ctx = Context(rs, folder)
    drawn = []
    original_save = ctx.charts.save

    def keep(fig, name):
        fig.canvas.draw()
        panels = [ax for ax in fig.axes if ax.get_visible()]
        labels = [t.get_text() for t in fig.legends[0].get_texts()] if fig.legends else []
        drawn.append((name, [ax.get_title() for ax in panels], labels))
        return original_save(fig, name)
    ctx.charts.save = keep
    sec = scaling.build(ctx)
    saved = [d for d in drawn if d[0] == "scaling-monitor-clients"]
    if not check(len(saved) == 1, "one monitor clients chart"):
        return
    _name, titles, labels = saved[0]
    check(sorted(titles) == ["sb-0.01 monitor, mode cache", "sb-0.01 monitor, mode tree"],
          "a panel for each mode with a line, none for the single point: %s" % titles)
    check(sorted(labels) == ["interned", "ovs", "plain"],
          "every target drawn is in the legend: %s" % labels)
    text = " ".join(b.text for b in sec.blocks if hasattr(b, "text"))
    check("sb-0.01 monitor at 120 clients" in text,
          "the single client count is named in a sentence: %s" % text)


def workload_colours(tmp):
    folder = os.path.join(tmp, "dump")
    runs = [(t, "dump", "dump", "nb-1", None, None, {"load": 1.0 + i, "dump": 2.0, "free": 0.5})
            for i, t in enumerate(TARGETS)]
    write_results(folder, runs)
    from jsonbench.report import Context, results
    from jsonbench.report.sections import workloads
    ctx = Context(results.load(folder), folder)
    colours = {}
    original_save = ctx.charts.save

    def keep(fig, name):
        for ax in fig.axes:
            for bars in ax.containers:
                if not isinstance(bars, matplotlib.container.BarContainer):
                    continue
                label = bars.get_label()
                for patch in bars.patches:
                    colours.setdefault(label, set()).add(
                        matplotlib.colors.to_hex(patch.get_facecolor()))
        return original_save(fig, name)
    ctx.charts.save = keep
    workloads.build(ctx)
    check(sorted(colours) == sorted(TARGETS) and
          len({min(c) for c in colours.values()}) == 15 and
          all(len(c) == 1 for c in colours.values()),
          "15 targets drawn in 15 colours, one each: %s" % colours)
    check(os.path.exists(os.path.join(folder, "charts", "workload-nb-1-dump.png")),
          "the workload chart is written")


def find_chart():
    line = ["%010x" % i for i in range(191)]
    measured = {}
    for i, r in ((95, 1.0), (168, 1.0), (169, 0.92), (170, 0.92), (171, 0.86), (190, 0.86)):
        measured[str(i)] = {"median": r * 3e8, "min": r * 3e8, "max": r * 3e8, "n": 3,
                            "ratio": r, "reference": 3e8}
    study = {"tool": "find", "metric": "rss_after_load", "good": "v3.5.0", "bad": "v3.6.0",
             "threshold": 5, "line": line, "measured": measured,
             "commits": {"169": {"subject": "json: Store short strings in-place."},
                         "171": {"subject": "json: Store short arrays in-place."}},
             "result": {"found": [169, 171], "values": {"168": 1.0, "169": 0.92,
                                                        "171": 0.86, "170": 0.92}}}
    fig = history_report.find_figure(study)
    fig.set_dpi(100)
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    width = fig.get_figwidth() * 100
    check(width >= 1000, "the find chart is at least 1000 px wide (%d)" % width)
    labels = [t for t in fig.axes[0].texts if "json:" in t.get_text()]
    check(len(labels) == 2, "both found commits are labelled")
    boxes = [t.get_window_extent(r) for t in labels]
    if len(boxes) == 2:
        check(not boxes[0].overlaps(boxes[1]), "the labels do not overlap: %s / %s"
              % (boxes[0], boxes[1]))
    fbox = fig.bbox
    check(all(b.x0 >= 0 and b.x1 <= fbox.x1 and b.y0 >= 0 and b.y1 <= fbox.y1 for b in boxes),
          "the labels are inside the figure")
    check(all(t.get_fontsize() >= 9 for t in labels), "the labels read at 100%")
    plt.close(fig)


def main():
    tmp = tempfile.mkdtemp(prefix="jsonbench-charts-")
    try:
        styles(tmp)
        shared_legend()
        monitor_chart(tmp)
        workload_colours(tmp)
        find_chart()
    finally:
        shutil.rmtree(tmp)
    sys.exit(check.finish("ok: colours, legends, monitor panels and find labels"))


if __name__ == "__main__":
    main()
