#!/usr/bin/env python3
"""jsonbench.predictions and the report section "Predictions vs real
patches" on a made-up predictions folder: entries checked (a bad one named
by its file), the verdict of each figure against the real one (within 30%,
within 3 points under 10%, missed, pending while "real" is null), the
commit and date of the commit that added the file (not of a later edit),
"commit unknown" outside git, and the predicted figures made from
harness results (medians over repetitions, compaction = load + compact +
free, the load phase of dump runs)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

from jsonbench import predictions as P
from jsonbench.report import document
from jsonbench.report.sections import predictions as section

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks, git  # noqa: E402

check = Checks()


def fig(dataset, metric, before, after, unit="MiB", form="snapshot"):
    return {"dataset": dataset, "scale": 1, "form": form, "metric": metric,
            "before": before, "after": after,
            "change_pct": round(100.0 * (after - before) / before, 1), "unit": unit}


def entry(pid, real=None):
    return {"id": pid, "title": "a made-up patch", "patch": "patches/ovs/" + pid,
            "model": {"before": "ovs", "after": "ovs-" + pid},
            "command": "scripts/suite.sh --impls ovs,ovs-%s" % pid,
            "measured": "2026-01-02T03:04Z", "note": "made up",
            "predicted": [fig("nb", "rss_after_load", 2000, 1200),     # -40%
                          fig("nb", "load_cpu", 10, 9.5, "s"),         # -5%
                          fig("sb", "dump_cpu", 10, 5, "s")],          # -50%
            "real": real}


def render(sec, tmp):
    return document.render_markdown("t", "", [sec], tmp)


class Ctx:
    def __init__(self, folder):
        self.predictions_dir = folder


tmp = tempfile.mkdtemp(prefix="test-predictions-")
try:
    # --- verdicts, in a git tree.
    repo = os.path.join(tmp, "repo")
    folder = os.path.join(repo, "claims", "predictions")
    os.makedirs(folder)
    git(repo, "init", "-q")
    real = {"command": "scripts/real-ovs.sh ...", "results": "results/x",
            "figures": [fig("nb", "rss_after_load", 2100, 1400),     # -33.3%: met
                        fig("nb", "load_cpu", 10, 10.2, "s"),        # +2%: 7 points
                        fig("sb", "dump_cpu", 10, 9, "s")]}          # -10%: missed
    with open(os.path.join(folder, "a.json"), "w") as f:
        json.dump(entry("a"), f)
    with open(os.path.join(folder, "b.json"), "w") as f:
        json.dump(entry("b"), f)
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "predictions")
    added = subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], text=True,
                           capture_output=True, check=True).stdout.strip()
    # The real figures arrive later, in another commit.
    with open(os.path.join(folder, "b.json"), "w") as f:
        json.dump(entry("b", real), f)
    git(repo, "commit", "-q", "-am", "real")

    entries = P.load_dir(folder)
    check([d["id"] for _, d in entries] == ["a", "b"], "load_dir order: %s" % entries)
    va = P.verdicts(entries[0][1])
    check(all(r is None and v is None for _, r, v in va), "a is pending: %s" % va)
    vb = {p["metric"]: v for p, _, v in P.verdicts(entries[1][1])}
    check(vb["rss_after_load"] and vb["rss_after_load"]["met"], "rss met: %s" % vb)
    check(vb["load_cpu"] and not vb["load_cpu"]["met"]
          and vb["load_cpu"]["how"] == "7.0 points", "load cpu 7 points: %s" % vb)
    check(vb["dump_cpu"] and not vb["dump_cpu"]["met"], "dump missed: %s" % vb)

    c = P.commit_of(os.path.join(folder, "b.json"))
    check(c is not None and c[0] == added, "commit that added b.json: %s vs %s" % (c, added))
    check(c is not None and c[1][:4].isdigit() and "T" in c[1], "ISO date: %s" % (c,))

    md = render(section.build(Ctx(folder)), tmp)
    check("Predictions vs real patches" in md, "section title")
    check("commit `%s`" % added[:12] in md, "commit shown:\n" + md)
    check("met (" in md and "missed (" in md and "pending" in md, "verdicts shown:\n" + md)
    check("1 of 3 met" in md and "not measured yet" in md, "summary counts:\n" + md)
    check("-40.0%" in md and "2000 MiB" in md, "predicted figures shown:\n" + md)

    # --- outside git: "commit unknown".
    loose = os.path.join(tmp, "loose")
    shutil.copytree(folder, loose)
    env_dir = os.environ.get("GIT_CEILING_DIRECTORIES")
    os.environ["GIT_CEILING_DIRECTORIES"] = tmp
    check(P.commit_of(os.path.join(loose, "a.json")) is None, "no commit outside git")
    check("commit unknown" in render(section.build(Ctx(loose)), tmp), "commit unknown shown")
    if env_dir is None:
        del os.environ["GIT_CEILING_DIRECTORIES"]
    else:
        os.environ["GIT_CEILING_DIRECTORIES"] = env_dir

    # --- no folder: no section; a bad entry: named.
    check(section.build(Ctx(os.path.join(tmp, "none"))) is None, "no folder, no section")
    bad = os.path.join(tmp, "bad")
    os.makedirs(bad)
    doc = entry("c")
    del doc["predicted"][0]["metric"]
    with open(os.path.join(bad, "c.json"), "w") as f:
        json.dump(doc, f)
    try:
        P.load_dir(bad)
        check(False, "a figure without its metric is rejected")
    except P.PredictionError as exc:
        check("c.json" in str(exc) and "metric" in str(exc), "error names file: %s" % exc)
    check("could not be read" in render(section.build(Ctx(bad)), tmp), "bad folder shown")

    # --- figures from harness results.
    runs = os.path.join(tmp, "runs")
    os.makedirs(runs)

    def result(impl, workload, dataset, rep, phases):
        benches = [dict({"name": "%s/%s" % (workload, ph), "run_type": "iteration",
                         "repetition_index": 0, "time_unit": "ms"}, **m)
                   for ph, m in phases.items()]
        path = os.path.join(runs, "%s-%s-%s-%d.json" % (impl, workload,
                                                         dataset.split("-seed")[0], rep))
        with open(path, "w") as f:
            json.dump({"context": {"impl": impl, "workload": workload,
                                   "dataset": "/x/%s" % dataset},
                       "benchmarks": benches}, f)

    mib = 2 ** 20
    for rep, (rss, cpu) in enumerate([(100, 1000), (110, 3000), (300, 2000)]):
        result("ovs", "dump", "nb-s1-snapshot-seed1.ovsdb", rep,
               {"load": {"cpu_time": cpu, "rss_bytes": rss * mib, "peak_rss_bytes": 400 * mib},
                "dump": {"cpu_time": 500}})
        result("ovs-a", "dump", "nb-s1-snapshot-seed1.ovsdb", rep,
               {"load": {"cpu_time": cpu / 2, "rss_bytes": 60 * mib,
                         "peak_rss_bytes": 500 * mib},
                "dump": {"cpu_time": 400}})
        result("ovs", "compact", "nb-s1-log-seed1.ovsdb", rep,
               {"load": {"cpu_time": 1000}, "compact": {"cpu_time": 500},
                "free": {"cpu_time": 500}})
        result("ovs-a", "compact", "nb-s1-log-seed1.ovsdb", rep,
               {"load": {"cpu_time": 1000}, "compact": {"cpu_time": 500},
                "free": {"cpu_time": 100}})
    figs, counts = P.figures(P.collect([runs]), "ovs", "ovs-a")
    by = {f["metric"]: f for f in figs}
    check(set(by) == set(P.METRICS), "every metric: %s" % sorted(by))
    check(by.get("rss_after_load", {}).get("before") == 110.0
          and by["rss_after_load"]["after"] == 60.0, "rss medians: %s" % by.get("rss_after_load"))
    check(by.get("load_cpu", {}).get("before") == 2.0 and by["load_cpu"]["change_pct"] == -50.0,
          "load cpu: %s" % by.get("load_cpu"))
    check(by.get("peak_rss_load", {}).get("change_pct") == 25.0, "peak: %s" % by.get("peak_rss_load"))
    check(by.get("compact_cpu", {}).get("before") == 2.0 and by["compact_cpu"]["after"] == 1.6
          and by["compact_cpu"]["form"] == "log", "compaction: %s" % by.get("compact_cpu"))
    check(counts.get(("nb", "dump_cpu")) == (3, 3), "repetitions: %s" % counts)
    check(not any(f["dataset"] == "sb" for f in figs), "no sb runs, no sb figures")

    # --- real figures from a results folder of `jsonbench ovs run`: the
    # patched target against its base (the name before '+'), medians of
    # the load rows; the clustered form is no predicted figure's.
    runs = os.path.join(tmp, "runs-real")
    os.makedirs(runs)
    for rep, rss in enumerate([2000, 2100, 2200]):
        result("ovs-v3.7.1", "load", "nb-s1-snapshot-seed1.ovsdb", rep,
               {"load": {"cpu_time": 10000, "rss_bytes": rss * mib}})
        result("ovs-v3.7.1+half", "load", "nb-s1-snapshot-seed1.ovsdb", rep,
               {"load": {"cpu_time": 9000, "rss_bytes": (rss - 1200) * mib}})
        result("ovs-v3.7.1+half", "load", "nb-s1-cluster-seed1.ovsdb", rep,
               {"load": {"cpu_time": 1, "rss_bytes": mib}})
    rfigs = P.results_figures([runs], "ovs-v3.7.1", "ovs-v3.7.1+half", [1.0])
    by = {f["metric"]: f for f in rfigs}
    check(sorted(by) == ["load_cpu", "rss_after_load"]
          and by["rss_after_load"]["before"] == 2100 and by["rss_after_load"]["after"] == 900
          and by["rss_after_load"]["repetitions"] == [3, 3]
          and by["load_cpu"]["change_pct"] == -10.0,
          "real figures from a results folder: %s" % by)
    entry_path = os.path.join(tmp, "f.json")
    P.write_entry(entry("f"), entry_path)
    P.real(type("A", (), {"entry": entry_path, "summary": runs, "target": "ovs-v3.7.1+half",
                          "base": None, "only": None, "command": "ovs run ..."})())
    with open(entry_path) as f:
        got = json.load(f)["real"]
    check(got["results"] == runs and sorted(x["metric"] for x in got["figures"])
          == ["load_cpu", "rss_after_load"],
          "predictions real fills from a results folder, base by name: %s" % got)

    # --- real figures from patches/ovs/summarize.py --json output.
    def med(b, a, n=3):
        return {"base_median": b, "patched_median": a, "pair_ratios": [a / b] * n}
    summary = {"series": {"new": {
        "nb-1": {"repetitions": 3, "rss_bytes": med(2100 * mib, 1400 * mib),
                 "cpu_s": med(10.0, 10.2, 2)},
        "nb-1-cluster": {"repetitions": 3, "rss_bytes": med(3000 * mib, 3000 * mib)},
        "nb-1-log": {"repetitions": 3, "compact_cpu_s": med(20.0, 18.0)},
        "sb-1": {"repetitions": 3, "dump_cpu_s": med(10.0, 9.0)}}}}
    real_figs = P.real_figures(summary, "new")
    keys = sorted((f["dataset"], f["form"], f["metric"]) for f in real_figs)
    check(keys == [("nb", "log", "compact_cpu"), ("nb", "snapshot", "load_cpu"),
                   ("nb", "snapshot", "rss_after_load"), ("sb", "snapshot", "dump_cpu")],
          "real figures by form (cluster left out): %s" % keys)
    doc = entry("d")
    predicted = json.dumps(doc["predicted"])
    P.fill_real(doc, real_figs, "measure-load.py ...", "x.json")
    check(json.dumps(doc["predicted"]) == predicted, "predicted figures untouched")
    rf = {f["metric"]: f for f in doc["real"]["figures"]}
    check(sorted(rf) == ["dump_cpu", "load_cpu", "rss_after_load"],
          "only predicted keys filled: %s" % sorted(rf))
    check(rf["rss_after_load"]["before"] == 2100 and rf["rss_after_load"]["change_pct"] == -33.3
          and rf["load_cpu"]["repetitions"] == [2, 2], "real figures: %s" % rf)
    vd = {p["metric"]: v for p, _, v in P.verdicts(doc)}
    check(vd["rss_after_load"]["met"] and not vd["dump_cpu"]["met"], "verdicts: %s" % vd)
    try:
        P.fill_real(entry("e"), [f for f in real_figs if f["form"] == "log"], "c", "x")
        check(False, "no matching figure is an error")
    except P.PredictionError as exc:
        check("predicted" in str(exc), "error says why: %s" % exc)
finally:
    shutil.rmtree(tmp)

sys.exit(check.finish("ok: prediction entries, verdicts, commits, section, figures"))
