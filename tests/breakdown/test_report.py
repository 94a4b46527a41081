"""The report leads with its answer, on synthetic results whose verdicts are
known: the summary is the first section and ranks the impls per workload
on RSS and CPU against `ovs`, with the right changes and significance marks; the Pareto frontier
is right; the memory breakdown chart and table appear with the right
shares; the Before / After cells carry significance marks.

Usage: test_report.py (with PYTHONPATH=python)."""

import json
import os
import sys
import tempfile

from jsonbench.report import generate
from jsonbench.report.sections import summary
from jsonbench.report.significance import compare

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks  # noqa: E402

check = Checks(sys.stderr)


MIB = 1 << 20
# Per impl and workload: per-repetition load/dump CPU (ms) and RSS (MiB).
# ovs vs fast: CPU clearly apart on load (5 vs 5 reps: p = 0.008,
# significant); interleaved on dump (not significant).  'slow' has 2 reps
# on dump only: too few for p < 0.05 (2 vs 5: p >= 0.095).
CPU = {
    ("ovs", "load"): [100, 101, 102, 103, 104],
    ("fast", "load"): [50, 51, 52, 53, 54],
    ("slow", "load"): [200, 201, 202, 203, 204],
    ("ovs", "dump"): [10, 20, 30, 40, 50],
    ("fast", "dump"): [15, 25, 35, 45, 9],
    ("slow", "dump"): [300, 301],
}
RSS = {"ovs": 100, "fast": 150, "slow": 90}        # MiB after load
# Breakdown after load (MiB) per impl; overhead is RSS - live.
BREAKDOWN = {
    "ovs": {"json_nodes": 40, "strings": 20, "arrays": 5, "objects": 1, "model": 20,
            "indexes": 4, "other": 2},
    "fast": {"json_nodes": 60, "strings": 40, "arrays": 5, "objects": 1, "model": 20,
             "indexes": 4, "other": 2},
    "slow": {"json_nodes": 30, "strings": 20, "arrays": 5, "objects": 1, "model": 20,
             "indexes": 4, "other": 2},
}
CATS = ["other", "json_nodes", "strings", "arrays", "objects", "intern", "model", "indexes"]


def bench(name, rep, cpu_ms, rss, extra=None):
    b = {"name": name, "run_name": name, "run_type": "iteration", "repetition_index": rep,
         "time_unit": "ms", "real_time": cpu_ms * 1.1, "cpu_time": cpu_ms,
         "rss_bytes": rss, "peak_rss_bytes": rss + MIB, "alloc_calls": 1000}
    b.update(extra or {})
    return b


def write_results(root):
    os.makedirs(os.path.join(root, "runs"))
    index = []

    def add(impl, workload, variant, benches):
        path = os.path.join("runs", "nb-1__%s__%s.json" % (variant, impl))
        with open(os.path.join(root, path), "w") as f:
            json.dump({"context": {"impl": impl, "workload": workload},
                       "benchmarks": benches}, f)
        index.append({"file": path, "impl": impl, "workload": workload, "variant": variant,
                      "dataset": "nb-1", "kind": "NB", "scale": 1, "source": "harness"})

    for impl in ("ovs", "fast", "slow"):
        rss = RSS[impl] * MIB
        add(impl, "load", "load", [bench("load/load", r, c, rss)
                                   for r, c in enumerate(CPU[(impl, "load")])])
        add(impl, "dump", "dump", [bench("dump/dump", r, c, rss + 10 * MIB)
                                   for r, c in enumerate(CPU[(impl, "dump")])])
        live = sum(BREAKDOWN[impl].values()) * MIB
        mem = {"mem_%s_bytes" % c: BREAKDOWN[impl].get(c, 0) * MIB for c in CATS}
        mem.update({"mem_peak_%s_bytes" % c: 2 * BREAKDOWN[impl].get(c, 0) * MIB
                    for c in CATS})
        mem.update({"mem_live_bytes": live, "mem_live_blocks": 1000,
                    "mem_peak_live_bytes": 2 * live, "mem_table_bytes": 0,
                    "malloc_overhead_bytes": rss - live,
                    "peak_malloc_overhead_bytes": rss + MIB - 2 * live,
                    "heap_allocated_bytes": live + 8000})
        add(impl, "load", "load-breakdown",
            [bench("load/load", r, 2 * c, rss, mem) for r, c in enumerate(CPU[(impl, "load")])])
    with open(os.path.join(root, "index.json"), "w") as f:
        json.dump({"entries": index, "failures": []}, f)


def section(md, title):
    """The text of section '## title' up to the next '## '."""
    start = md.index("\n## %s\n" % title)
    end = md.find("\n## ", start + 1)
    return md[start:end if end >= 0 else len(md)]


def main():
    # The marks themselves.
    check(compare(CPU[("ovs", "load")], CPU[("fast", "load")]).mark == "†", "separated: †")
    check(compare(CPU[("ovs", "dump")], CPU[("fast", "dump")]).mark == "n.s.",
          "interleaved: n.s.")
    check(compare([1, 2, 3], [4, 5, 6]).mark == "n<", "3 vs 3 repetitions: n<")
    check(compare([7, 7, 7], [7, 7, 7]).mark == "=", "equal constants: =")
    check(compare([7, 7, 7], [8, 8, 8]).mark == "†", "different constants: †")

    # Frontier: no other point is lower on both.  'fast' (least CPU),
    # 'ovs' (between) and 'slow' (least RSS) are on it, 'bad' is not.
    pts = {"ovs": (1.0, 100), "fast": (0.5, 150), "slow": (2.0, 90), "bad": (3.0, 200)}
    check(summary.frontier(pts) == ["fast", "ovs", "slow"],
          "frontier %s" % summary.frontier(pts))
    check(summary.frontier({"a": (1, 1), "b": (2, 2)}) == ["a"], "dominated point")

    with tempfile.TemporaryDirectory() as tmp:
        write_results(tmp)
        generate(tmp)
        with open(os.path.join(tmp, "report.md")) as f:
            md = f.read()
        with open(os.path.join(tmp, "report.html")) as f:
            html = f.read()

    first = md[md.index("\n## "):].split("\n")[1]
    check(first == "## Summary", "first section is %r" % first)
    check(html.index("id='summary'") < html.index("id='overview'"), "html: summary first")
    summ = section(md, "Summary")
    # dataset | workload | rank | impl | RSS after | RSS vs ovs | CPU time | CPU vs ovs
    rows = {}
    for line in summ.split("\n"):
        if line.startswith("| nb-1"):
            c = [x.strip() for x in line.strip().strip("|").split("|")]
            rows[(c[0], c[1], c[3].strip("`"))] = c
    fast_load = rows.get(("nb-1", "load", "fast"), [""] * 8)
    check(fast_load[7].startswith("-49.0% [") and "†" in fast_load[7],
          "load CPU of fast: %r" % fast_load)
    fast_dump = rows.get(("nb-1", "dump", "fast"), [""] * 8)
    check("n.s." in fast_dump[7], "dump CPU not significant: %r" % fast_dump)
    slow_load = rows.get(("nb-1", "load", "slow"), [""] * 8)
    check(slow_load[5].startswith("-10.0% [-10.0%, -10.0%]"), "load RSS of slow: %r"
          % slow_load)
    load_ranks = sorted((int(c[2]), k[2]) for k, c in rows.items() if k[1] == "load")
    check([r for r, _i in load_ranks] == [1, 2, 3] and load_ranks[0][1] == "slow",
          "load ranked by RSS, slow (-10%%) first: %r" % load_ranks)
    check(rows.get(("nb-1", "load", "ovs"), [""] * 8)[5] == "reference",
          "ovs is the reference row")
    check(not any(k[1] == "load-breakdown" for k in rows), "the profiling run is not summarized")
    check("charts/pareto-rss-cpu.png" in summ, "Pareto chart in the summary")
    check("Pareto-optimal (RSS after load vs load CPU): nb-1: `fast`, `ovs`, `slow`." in summ,
          "Pareto list: %s" % [l for l in summ.split("\n") if "Pareto-optimal" in l])
    check("charts/memory-breakdown.png" in summ, "breakdown chart in the summary")

    bd = section(md, "Memory breakdown")
    ovs_row = [l for l in bd.split("\n") if l.startswith("| nb-1 | ovs |")]
    check(bool(ovs_row), "breakdown table has ovs")
    if ovs_row:
        # ovs: 92 MiB live, JSON nodes 40 MiB = 43.5%; other 2 = tagged 97.8%;
        # overhead 8 MiB of 100 = 8.0%.
        r = ovs_row[0]
        check("40 MiB (43.5%)" in r, "ovs JSON nodes share: %r" % r)
        check("97.8%" in r, "ovs tagged share: %r" % r)
        check("8 MiB (8.0%)" in r, "ovs malloc overhead: %r" % r)

    ba = section(md, "Before / After / Change")
    fast_load = [l for l in ba.split("\n") if l.startswith("| nb-1 | load |") and "-> 52 ms" in l]
    check(bool(fast_load) and "(-49.0% [" in fast_load[0] and "] †)" in fast_load[0],
          "before/after change, interval and mark: %r" % fast_load)
    marks = [l for l in ba.split("\n") if l.startswith("| nb-1 | dump |") and "n.s." in l]
    check(bool(marks), "before/after dump rows marked n.s.")
    slow_dump = [l for l in ba.split("\n") if l.startswith("| nb-1 | dump |") and "-> 300 ms" in l]
    check(bool(slow_dump) and " n<" in slow_dump[0], "2 repetitions: n<: %r" % slow_dump)

    return check.finish("report summary, Pareto, breakdown and marks: ok")


if __name__ == "__main__":
    sys.exit(main())
