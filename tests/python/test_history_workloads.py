#!/usr/bin/env python3
"""scripts/jsonbench history and find over the workloads other than the
standalone load, without real OVS: the stand-in OVS tree
(tests/pylib/standin_ovs.py) plants a step of RSS at commit 23 (every
figure derived from the load's RSS, among them the conversion's peaks)
and one of the monitor storm's RSS at commit 31 only.

- The figure table: every figure names a real workload, a dataset form,
  a row of that workload, a unit the report scales and how its value is
  formed; an unknown figure name is refused by history (--metrics) and
  find (--metric), naming it and the known ones, before anything runs.
- history over the clustered load, the conversion and the monitor storm:
  each figure from its own workload and dataset (the cluster form's file
  for cluster_*), the storm with --workload-params, the report's labels,
  units and how-measured table, one chart panel per figure, the steps.
- find on convert_peak_rss names commit 23, on storm_rss commit 31: each
  reads its own figure.
- history over the condition changes (cond_*): its rows, --workload-params
  held, changes and datapaths reach it (and held the storm too), the
  storm's keys are refused for it alone; find on cond_rss names commit 31.
- A figure whose form no --dataset FILE has is refused, naming the form.

usage: test_history_workloads.py BUILD_ROOT"""

import contextlib
import io
import json
import os
import sys
import tempfile

from jsonbench import datasets, history, measuring
from jsonbench.historymetrics import FIGURES, SCALE
from jsonbench.realovs import workloads as real_workloads

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks  # noqa: E402
import standin_ovs  # noqa: E402

check = Checks()
BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
FLOOR = {"spread_pct": 1.5, "median_s": 0.1, "runs": [], "setup": "measuring"}


def quiet(fn, argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = fn(argv)
    return rc, out.getvalue(), err.getvalue()


def test_table():
    known = set(real_workloads.WORKLOADS) | set(real_workloads.ONCE)
    for name, f in FIGURES.items():
        check(f.workload in known and f.form in datasets.FORMS and
              f.row.split("/")[0] == f.workload and f.unit in SCALE and
              f.how in ("value", "ratio") and f.label and f.measured and
              (f.how == "ratio") == (f.unit == "ratio"),
              "figure %s: workload, form, row, unit and how are known: %s" % (name, f))
    for name in ("cluster_rss_after_load", "log_rss_after_load", "log_load_instructions",
                 "convert_peak_rss", "convert_cpu", "storm_rss", "storm_cpu_per_request",
                 "cond_held_rss", "cond_rss", "cond_peak_rss", "cond_change_cpu"):
        check(name in FIGURES, "history and find take %s" % name)


def test_unknown(root, repo, ds):
    calls = []
    orig = real_workloads.load
    real_workloads.load = lambda t, d, o: calls.append(t) or orig(t, d, o)
    try:
        rc, _o, err = quiet(history.main_history, [
            "--ovs-tree", repo, "--ovs-ref", "v1.0.0,v1.1.0", "--dataset", ds,
            "--metrics", "rss_after_load,cluster_rss", "--out", os.path.join(root, "u1"),
            "--build-dir", BUILD])
        check(rc == 2 and "--metrics" in err and "figure cluster_rss:" in err and
              "cluster_rss_after_load" in err and "storm_cpu_per_request" in err,
              "history refuses an unknown figure, naming it and the known ones (rc %d): %s"
              % (rc, err.strip()[:200]))
        rc, _o, err = quiet(history.main_find, [
            "--ovs-tree", repo, "--range", "v1.0.1..v1.1.0", "--dataset", ds,
            "--metric", "storm_cpu", "--out", os.path.join(root, "u2"),
            "--build-dir", BUILD])
        check(rc == 2 and "--metric" in err and "figure storm_cpu:" in err,
              "find refuses an unknown figure (rc %d): %s" % (rc, err.strip()[:200]))
    finally:
        real_workloads.load = orig
    check(not calls and not os.path.exists(os.path.join(root, "u1", "index.json")),
          "an unknown figure runs nothing")


def test_history(root, repo, ds, cluster):
    out = os.path.join(root, "history")
    figures = ["cluster_rss_after_load", "convert_peak_rss", "convert_offline_peak_rss",
               "convert_cpu", "storm_rss", "storm_cpu_per_request"]
    standin_ovs.STORM_OPTS.clear()
    rc, _o, err = quiet(history.main_history, [
        "--ovs-tree", repo, "--ovs-ref", "v1.0.0..v1.1.0:8", "--dataset", ds,
        "--dataset", cluster, "--metrics", ",".join(figures), "--workload-params",
        "held=3,clients=4", "--repetitions", "2", "--out", out, "--build-dir", BUILD])
    study = json.load(open(os.path.join(out, "study.json")))
    pts = study["points"]
    check(rc == 0 and len(pts) == 6 and study["figures"] == figures,
          "history over three workloads: 6 points (rc %d) %s" % (rc, err[-300:]))

    def mb(name):
        return [round(p["figures"][name]["median"] / (1 << 20)) for p in pts]
    check(mb("cluster_rss_after_load") == [108] * 3 + [88] * 3,
          "the clustered load on the cluster form's file: %s" % mb("cluster_rss_after_load"))
    check(mb("convert_peak_rss") == [140] * 3 + [112] * 3 and
          mb("convert_offline_peak_rss") == [150] * 3 + [120] * 3,
          "the conversion's peaks, online and offline, from their rows: %s %s"
          % (mb("convert_peak_rss"), mb("convert_offline_peak_rss")))
    check(mb("storm_rss") == [50] * 4 + [60] * 2,
          "the storm's RSS follows its own step (commit 31): %s" % mb("storm_rss"))
    for name in ("convert_cpu", "storm_cpu_per_request"):
        f = [p["figures"][name] for p in pts]
        check(f[-1]["median"] == 1.0 and all(0.9 < x["median"] < 1.1 and "ratio_low" in x
                                             for x in f),
              "%s: per-repetition ratios to the reference, with intervals" % name)
    check(standin_ovs.STORM_OPTS and all(o == {"held": 3, "clients": 4}
                                         for o in standin_ovs.STORM_OPTS),
          "--workload-params reaches the storm: %s" % standin_ovs.STORM_OPTS[:1])
    index = json.load(open(os.path.join(out, "index.json")))
    by = {(e["workload"], e["dataset"], e.get("study_form")) for e in index["entries"]}
    check(by == {("load", "tiny-cluster", "cluster"), ("convert", "tiny", "snapshot"),
                 ("monitor-storm", "tiny", "snapshot")},
          "one job per workload and form, each on its dataset: %s" % sorted(by))
    check(study["datasets"]["cluster_rss_after_load"] == "tiny-cluster" and
          study["params"] == {"monitor-storm": {"held": 3, "clients": 4}},
          "study.json names each figure's dataset and the storm's size")
    text = open(os.path.join(out, "report.md")).read()
    for name in figures:
        f = FIGURES[name]
        check("%s (%s)" % (f.label, f.unit) in text and "`%s`" % name in text,
              "the report's table and how-measured name %s" % name)
    check("clients=4 held=3" in text and "load instructions" not in text and
          "`monitor-storm` (snapshot)" in text and "`load` (cluster)" in text,
          "the how-measured table says each workload, form and size")
    steps = [ln for ln in text.splitlines() if ln.startswith("| RSS after the monitor storm |")]
    check(len(steps) == 1 and 19.5 < float(steps[0].split("|")[-2].strip(" +%")) < 20.5,
          "the steps table has the storm's step: %s" % steps)
    try:
        from jsonbench.report import history as H
        fig = H.history_figure(study)
        labels = [ax.get_ylabel() for ax in fig.axes]
        check(len(labels) == len(figures) and all(
            lab.startswith(FIGURES[n].label) for lab, n in zip(labels, figures)),
            "one chart panel per figure, labelled with it: %s" % labels)
        check(os.path.getsize(os.path.join(out, "history.png")) > 1000, "chart written")
    except ImportError:
        print("skip: matplotlib not installed, chart not checked")


def test_cond_change(root, repo, ds):
    out = os.path.join(root, "history-cond")
    figures = ["cond_held_rss", "cond_rss", "cond_peak_rss", "cond_change_cpu", "storm_rss"]
    standin_ovs.COND_OPTS.clear()
    standin_ovs.STORM_OPTS.clear()
    rc, _o, err = quiet(history.main_history, [
        "--ovs-tree", repo, "--ovs-ref", "v1.0.0..v1.1.0:8", "--dataset", ds,
        "--metrics", ",".join(figures), "--workload-params", "held=3,changes=2,datapaths=5",
        "--repetitions", "2", "--out", out, "--build-dir", BUILD])
    study = json.load(open(os.path.join(out, "study.json")))
    pts = study["points"]
    check(rc == 0 and len(pts) == 6 and study["figures"] == figures,
          "history over the condition changes: 6 points (rc %d) %s" % (rc, err[-300:]))

    def mb(name):
        return [round(p["figures"][name]["median"] / (1 << 20)) for p in pts]
    check(mb("cond_rss") == [40] * 4 + [50] * 2 and mb("cond_held_rss") == [39] * 4 + [49] * 2
          and mb("cond_peak_rss") == [42] * 4 + [52] * 2,
          "cond_* from their rows: %s %s %s" % (mb("cond_held_rss"), mb("cond_rss"),
                                                mb("cond_peak_rss")))
    f = [p["figures"]["cond_change_cpu"] for p in pts]
    check(f[-1]["median"] == 1.0 and all(0.8 < x["median"] < 1.25 and "ratio_low" in x
                                         for x in f),
          "cond_change_cpu: per-repetition ratios to the reference, with intervals")
    want = {"held": 3, "changes": 2, "datapaths": 5}
    check(standin_ovs.COND_OPTS and all(o == want for o in standin_ovs.COND_OPTS) and
          all(o == {"held": 3, "clients": 10} for o in standin_ovs.STORM_OPTS),
          "--workload-params reaches the condition changes, held the storm too: %s %s"
          % (standin_ovs.COND_OPTS[:1], standin_ovs.STORM_OPTS[:1]))
    check(study["params"] == {"monitor-cond-change": want,
                              "monitor-storm": {"held": 3, "clients": 10}},
          "study.json names each workload's size: %s" % study["params"])
    rc, _o, err = quiet(history.main_history, [
        "--ovs-tree", repo, "--ovs-ref", "v1.1.0", "--dataset", ds, "--metrics", "cond_rss",
        "--workload-params", "rows=3", "--out", os.path.join(root, "cp"),
        "--build-dir", BUILD])
    check(rc == 2 and "rows=3" in err and "changes=N" in err and "clients=N" in err,
          "an unknown --workload-params key is refused, naming the known ones: %s"
          % err.strip()[-200:])


def test_find(root, repo, shas, ds):
    for metric, step in (("convert_peak_rss", 23), ("storm_rss", standin_ovs.STORM_STEP),
                         ("cond_rss", standin_ovs.STORM_STEP)):
        out = os.path.join(root, "find-" + metric)
        rc, text, err = quiet(history.main_find, [
            "--ovs-tree", repo, "--range", "v1.0.1..v1.1.0", "--metric", metric,
            "--min-change", "5", "--dataset", ds, "--repetitions", "2", "--out", out,
            "--build-dir", BUILD])
        study = json.load(open(os.path.join(out, "study.json")))
        check(rc == 0 and study["result"]["found"] == [step - 5],
              "find --metric %s names commit %d (rc %d, found %s)"
              % (metric, step, rc, study["result"]["found"]))
        f = FIGURES[metric]
        check("# Which commit moved %s" % f.label in text and shas[step][:10] in text and
              "`%s` (%s form) 2 times" % (f.workload, f.form) in text,
              "the find report names %s, the commit and the workload" % metric)
    rc, said, _e = quiet(history.main_find, [
        "--ovs-tree", repo, "--range", "v1.0.1..v1.1.0", "--metric", "convert_cpu",
        "--dataset", ds, "--dry-run", "--build-dir", BUILD])
    check(rc == 0 and "CPU figure" in said and "deterministic" in said,
          "find on a CPU figure says memory and valgrind figures are deterministic: %s"
          % said.strip()[-200:])


def test_missing_form(root, repo, ds, log):
    rc, _o, err = quiet(history.main_history, [
        "--ovs-tree", repo, "--ovs-ref", "v1.1.0", "--dataset", ds, "--dataset", log,
        "--metrics", "cluster_peak_rss", "--out", os.path.join(root, "mf"),
        "--build-dir", BUILD])
    check(rc == 2 and "cluster_peak_rss" in err and "cluster form" in err,
          "a figure whose form no --dataset has is refused (rc %d): %s" % (rc, err.strip()))


def main():
    measuring.noise_floor = lambda build_dir, setup, **kw: dict(FLOOR)
    test_table()
    with tempfile.TemporaryDirectory() as root:
        repo, shas = standin_ovs.make_repo(root)
        standin_ovs.install(repo)
        ds = os.path.join(root, "tiny.ovsdb")
        with open(ds, "w") as f:
            f.write("OVSDB JSON 2 0\n{}\n")
        cluster = os.path.join(root, "tiny-cluster.ovsdb")
        with open(cluster, "w") as f:
            f.write("OVSDB CLUSTER 2 0\n{}\n")
        log = os.path.join(root, "tiny-log.ovsdb")
        with open(log, "w") as f:
            f.write("OVSDB JSON 3 0\n{}\n" * 3)     # 3 records (length with the newline)
        test_unknown(root, repo, ds)
        test_history(root, repo, ds, cluster)
        test_cond_change(root, repo, ds)
        test_find(root, repo, shas, ds)
        test_missing_form(root, repo, ds, log)
    return check.finish("history and find over the workloads: ok")


if __name__ == "__main__":
    sys.exit(main())
