#!/usr/bin/env python3
"""jsonbench.calibration on made-up results: the ratio model/real per
metric, what each metric reads (load CPU from the load run, else from the
dump run's load phase; compaction = the model's load + compact + free phases),
the model's monitor mode matched with real OVS's client count, metrics
missing on one side left out, a zero real value giving no ratio; and
load_medians() on a results folder (medians over repetitions, times in s,
older real monitor runs named by their clients), load_repetitions() (the
same per repetition) and the real A/B table's intervals from them (paired
only for a folder that ran its builds interleaved).  Also the
representation of an OVS release by version (realovs.representation)."""

import io
import json
import os
import sys
import tempfile

from jsonbench import calibration as C
from jsonbench.realovs import representation, tables

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks  # noqa: E402

check = Checks()


def near(a, b):
    return a is not None and b is not None and abs(a - b) < 1e-9


def phases(**kw):
    return {ph: dict(m) for ph, m in kw.items()}


model = {
    ("nb-1", "load", "serialized"): phases(
        load={"cpu_time": 10.0, "rss_after_load_bytes": 800.0}),
    ("nb-1-log", "compact", "serialized"): phases(
        load={"real_time": 2.0, "cpu_time": 1.5},
        compact={"real_time": 1.0, "cpu_time": 1.0, "peak_rss_bytes": 900.0},
        free={"real_time": 1.0, "cpu_time": 0.5}),
    ("nb-1", "dump", "serialized"): phases(
        load={"cpu_time": 11.0, "rss_bytes": 810.0},
        dump={"cpu_time": 4.0}),
    ("sb-1", "dump", "serialized"): phases(
        load={"cpu_time": 20.0, "rss_bytes": 2000.0},
        dump={"cpu_time": 0.0}),
    ("sb-1", "monitor-cache-c10", "serialized"): phases(
        updates={"cpu_after_load_s": 3.0}),
    ("sb-1", "monitor-tree-c10", "serialized"): phases(
        initial={"cpu_time": 27.0},
        updates={"cpu_time": 3.0, "cpu_after_load_s": 30.0}),
    ("nb-1", "load", "ovs"): phases(load={"cpu_time": 99.0}),
    ("nb-1", "raft-serialized", "serialized"): phases(
        send={"rss_bytes": 900.0, "cpu_time": 0.3}),
    ("nb-1", "raft-tree", "serialized"): phases(
        send={"rss_bytes": 5000.0, "cpu_time": 9.0}),
}
real = {
    ("nb-1", "load", "ovs-debian"): phases(
        load={"cpu_time": 20.0, "rss_after_load_bytes": 1000.0}),
    ("nb-1-log", "compact", "ovs-debian"): phases(
        compact={"real_time": 8.0, "cpu_time": 6.0, "peak_rss_bytes": 1800.0}),
    ("nb-1", "dump", "ovs-debian"): phases(dump={"cpu_time": 5.0}),
    ("sb-1", "dump", "ovs-debian"): phases(
        load={"cpu_time": 40.0, "rss_after_load_bytes": 2500.0},
        dump={"cpu_time": 0.0}),
    ("nb-1", "raft", "ovs-debian"): phases(
        send={"rss_bytes": 1000.0, "cpu_time": 0.6}),
    ("sb-1", "monitor-c10", "ovs-debian"): phases(
        initial={"cpu_time": 4.0},
        updates={"cpu_time": 2.0, "cpu_after_load_s": 6.0}),
}
medians = {**model, **real}

rows = C.pair_ratios(medians, "serialized", "ovs-debian")
got = {(r["dataset"], r["metric"]): r for r in rows}
want = {
    ("nb-1", "rss_after_load"): 0.8,        # the load run wins over dump
    ("nb-1", "load_cpu"): 0.5,
    ("nb-1", "compact_wall"): 0.5,          # (2 + 1 + 1) / 8
    ("nb-1", "compact_cpu"): 0.5,           # (1.5 + 1 + 0.5) / 6
    ("nb-1", "compact_peak_rss"): 0.5,
    ("nb-1", "dump_cpu"): 0.8,
    ("nb-1", "raft_leader_rss"): 0.9,       # serialized mode by default
    ("nb-1", "raft_leader_cpu"): 0.5,
    ("sb-1", "rss_after_load"): 0.8,        # from the dump run's load phase
    ("sb-1", "load_cpu"): 0.5,
    # tree mode by default (conditional clients get no json cache):
    ("sb-1", "monitor_initial_cpu_c10"): 6.75,  # 27 / 4
    ("sb-1", "monitor_updates_cpu_c10"): 1.5,   # 3 / 2
    ("sb-1", "monitor_cpu_c10"): 5.0,           # 30 / 6
}
for key, ratio in want.items():
    check(key in got and near(got[key]["ratio"], ratio),
          "%s: ratio %s, wanted %s" % (key, got.get(key, {}).get("ratio"),
                                       ratio))
check(("sb-1", "dump_cpu") in got and got[("sb-1", "dump_cpu")]["ratio"]
      is None, "a zero real value must give ratio None: %s"
      % got.get(("sb-1", "dump_cpu")))
check(set(got) == set(want) | {("sb-1", "dump_cpu")},
      "unexpected rows %s" % sorted(set(got) - set(want)))
check([r["dataset"] for r in rows] == sorted(r["dataset"] for r in rows),
      "rows not grouped by dataset")
check(got[("nb-1", "load_cpu")]["model"] == 10.0 and
      got[("nb-1", "load_cpu")]["real"] == 20.0, "model/real values kept")
check(got[("nb-1", "rss_after_load")]["unit"] == "bytes", "unit kept")

cache_rows = C.ratios(C.results_for(medians, "serialized", "cache"),
                      C.results_for(medians, "ovs-debian"))
mon = [r for r in cache_rows if r["metric"].startswith("monitor_")]
check(len(mon) == 1 and mon[0]["metric"] == "monitor_cpu_c10"
      and near(mon[0]["ratio"], 0.5),
      "monitor_mode=cache must pick the cache run (which has no phase "
      "CPU here): %s" % mon)
check(C.DEFAULT_MONITOR_MODE == "tree", "default monitor mode is tree")
tree_raft = {r["metric"]: r["ratio"] for r in C.pair_ratios(
    medians, "serialized", "ovs-debian", raft_mode="tree")}
check(near(tree_raft.get("raft_leader_rss"), 5.0),
      "raft_mode=tree must pick the tree run: %s" % tree_raft)
check(C.pair_ratios(medians, "ovs", "ovs-debian") ==
      [r for r in C.pair_ratios(medians, "ovs", "ovs-debian")
       if r["metric"] == "load_cpu"], "ovs has only load CPU")
check(C.pair_ratios(medians, "serialized", "nothing") == [],
      "an unknown real target gives no rows")

# load_medians on a folder: medians over repetitions, ms -> s.
with tempfile.TemporaryDirectory() as tmp:
    os.makedirs(os.path.join(tmp, "runs"))
    doc = {"benchmarks": [
        {"name": "monitor/updates", "run_name": "monitor/updates",
         "run_type": "iteration", "time_unit": "ms", "real_time": t,
         "cpu_time": t, "cpu_after_load_s": t / 1000.0,
         "repetition_index": i} for i, t in enumerate((100.0, 300.0, 200.0))
    ] + [{"name": "monitor/updates_median", "run_type": "aggregate",
          "time_unit": "ms", "real_time": 1e9, "cpu_time": 1e9}]}
    with open(os.path.join(tmp, "runs", "a.json"), "w") as f:
        json.dump(doc, f)
    with open(os.path.join(tmp, "index.json"), "w") as f:
        json.dump({"entries": [{"file": "runs/a.json", "impl": "ovs-x",
                                "workload": "monitor", "variant": "monitor",
                                "clients": 7, "dataset": "sb-1"}]}, f)
    m = C.load_medians(tmp)
    ph = m.get(("sb-1", "monitor-c7", "ovs-x"), {}).get("updates", {})
    check(near(ph.get("cpu_time"), 0.2) and near(ph.get("cpu_after_load_s"),
                                                 0.2),
          "load_medians: %s" % m)

    reps = C.load_repetitions(tmp)
    got = [r["updates"]["cpu_time"] for r in reps[("sb-1", "monitor-c7", "ovs-x")]]
    check(got == [0.1, 0.3, 0.2], "load_repetitions: in run order: %r" % got)


def ab_folder(tmp, order, cpu_a, cpu_b):
    """A real runner's folder: builds A and B, load of nb-1, one CPU value
    per repetition each."""
    os.makedirs(os.path.join(tmp, "runs"))
    entries = []
    for target, cpus in (("ovs-a", cpu_a), ("ovs-b", cpu_b)):
        name = "runs/%s.json" % target
        with open(os.path.join(tmp, name), "w") as f:
            json.dump({"benchmarks": [
                {"name": "load/load", "run_type": "iteration", "time_unit": "s",
                 "cpu_time": c, "real_time": c, "rss_after_load_bytes": 2.0 ** 30,
                 "peak_rss_bytes": 2.0 ** 31} for c in cpus]}, f)
        entries.append({"file": name, "impl": target, "workload": "load",
                        "variant": "load", "dataset": "nb-1"})
    with open(os.path.join(tmp, "index.json"), "w") as f:
        json.dump({"entries": entries}, f)
    with open(os.path.join(tmp, "env.json"), "w") as f:
        json.dump({"run_order": order}, f)


# Real A/B: a change of -50% with little noise; pairs when interleaved.
for order in ("interleaved", None):
    with tempfile.TemporaryDirectory() as tmp:
        ab_folder(tmp, order, [10.0, 11.0, 10.5, 10.2, 10.8, 10.1],
                  [5.0, 5.4, 5.3, 5.1, 5.5, 5.0])
        args = type("A", (), {"results": [tmp], "pair": ["ovs-a,ovs-b"]})
        real_stdout = sys.stdout
        try:
            sys.stdout = io.StringIO()
            tables.main(args)
            text = sys.stdout.getvalue()
        finally:
            sys.stdout = real_stdout
        row = next((x for x in text.split("\n") if "load CPU" in x), "")
        check("-50." in row or "-49." in row, "the change: %r" % row)
        iv = row[row.find("[") + 1:row.find("]")].split(", ")
        check(len(iv) == 2 and all(-60.0 < float(x.rstrip("%")) < -40.0 for x in iv),
              "an interval around -50%%: %r" % row)
        peak = next((x for x in text.split("\n") if "peak RSS (load)" in x), "")
        check("2048 MiB -> 2048 MiB" in peak, "the peak RSS row: %r" % peak)
        check(("as pairs" in text) == (order == "interleaved"),
              "paired only when interleaved (%s): %r" % (order, text[:300]))

for version, rep in (("3.1.0", "serialized"), ("2.17.9", "serialized"),
                     ("3.6.2", "ovs"), ("2.7.0", "refcount"),
                     ("2.6.1", "plain"), ("", None)):
    check(representation.of_version(version) == rep,
          "of_version(%r) = %r, wanted %r"
          % (version, representation.of_version(version), rep))

sys.exit(check.finish("ok: calibration ratios, metric readers, monitor "
                      "pairing, medians"))
