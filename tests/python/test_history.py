#!/usr/bin/env python3
"""scripts/jsonbench history and find without real OVS (CI has none).

- bisect() on synthetic lines: the planted steps are found, one-way and
  k-way, with far fewer measurements than commits; a step below the
  threshold is not; an unbuildable commit next to a step is stepped around
  or reported as unresolved.
- A throw-away git repository with a release branch off the main line:
  the --ovs-ref forms (tag glob in version order, A..B:N, ref=) and a good
  ref off the first-parent line (the search starts at the merge base, and
  says so).
- End to end: `find` and `history` on that repository through the one
  execute loop, with builds and the real load replaced by stand-ins whose
  RSS is a number stored in the commit's tree: find names the planted
  commit, history writes its study, report and chart.
- Shards of a history on the same stand-ins: --plan-shards is
  deterministic and keeps each commit with its reference, three shards
  merged equal the serial run (every job once, the same figures, the
  chart), a missing shard leaves its points unmeasured, and the merge
  refuses a shard of another commit or plan.
- find --resume refuses a folder of another commit, line or dataset.

usage: test_history.py BUILD_ROOT (its datasets/ovsdb-gen makes the small
dataset the valgrind load would read; the load itself is a stand-in)"""

import contextlib
import io
import json
import os
import random
import sys
import tempfile

from jsonbench import history, measuring
from jsonbench.realovs import workloads as real_workloads

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks  # noqa: E402
from standin_ovs import install, make_repo  # noqa: E402

check = Checks()
BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"


def line_measure(steps, n, noise=0.002, fail=(), seen=None):
    """measure() over a line of n commits whose value rises by steps
    {index: factor} at each planted index."""
    rng = random.Random(7)

    def value(i):
        v = 1.0
        for at, f in steps.items():
            if i >= at:
                v *= f
        return v

    def measure(indices):
        if seen is not None:
            seen.extend(indices)
        return {i: None if i in fail else value(i) * (1 + rng.uniform(-noise, noise))
                for i in indices}
    return measure


def test_bisect_intervals():
    """Steps decided only on confident differences: a 6% step whose points
    carry +-3% intervals cannot be told from the 5% threshold; more
    repetitions (tighter intervals) find it, and without them the step
    is inconclusive, not found."""
    def value(i):
        return 1.06 if i >= 40 else 1.0

    def measure_width(width):
        return lambda idx: {i: (value(i), value(i) * (1 - width), value(i) * (1 + width))
                            for i in idx}
    asked = []

    def more(idx):
        asked.extend(idx)
        return measure_width(0.002)(idx)
    r = history.bisect(80, measure_width(0.03), 5.0, more=more)
    check(r["found"] == [40] and not r["inconclusive"] and asked,
          "more repetitions decide a 6%% step: found %s, inconclusive %s, asked %s"
          % (r["found"], r["inconclusive"], asked))
    r = history.bisect(80, measure_width(0.03), 5.0)
    check(r["found"] == [] and r["inconclusive"] == [[0, 79]],
          "without more repetitions the step is inconclusive: %s %s"
          % (r["found"], r["inconclusive"]))
    check(any(iv[5] is None for rnd in r["rounds"] for iv in rnd["intervals"]),
          "the undecided step is logged as such")
    # A 20% step with the same intervals is decided at once.
    r = history.bisect(80, lambda idx: {i: (1.2 if i >= 40 else 1.0) * 1.0 for i in idx}, 5.0)
    check(r["found"] == [40], "a point value without interval: found %s" % r["found"])


def test_bisect():
    seen = []
    r = history.bisect(200, line_measure({71: 1.10, 140: 1.08}, 200, seen=seen), 5.0)
    check(r["found"] == [71, 140], "two planted steps found: %s" % r["found"])
    check(len(seen) <= 20, "bisection measures %d of 200 commits" % len(seen))
    seen3 = []
    r3 = history.bisect(200, line_measure({71: 1.10, 140: 1.08}, 200, seen=seen3), 5.0,
                        ways=3)
    check(r3["found"] == [71, 140] and len(r3["rounds"]) < len(r["rounds"]),
          "3-way: same commits in fewer rounds (%d vs %d)" % (len(r3["rounds"]),
                                                             len(r["rounds"])))
    r = history.bisect(200, line_measure({71: 1.03}, 200), 5.0)
    check(r["found"] == [] and len(r["rounds"]) == 1,
          "a 3% step under a 5% threshold: nothing found after measuring the bad end")
    r = history.bisect(200, line_measure({71: 0.80}, 200), 5.0)
    check(r["found"] == [71], "a drop is found too")
    r = history.bisect(60, line_measure({30: 1.2}, 60, fail={29}), 5.0)
    check(r["found"] == [] and r["unresolved"] == [[28, 30]],
          "the commit before the step does not build: unresolved 28..30, got %s %s"
          % (r["found"], r["unresolved"]))
    r = history.bisect(60, line_measure({30: 1.2}, 60, fail={45, 15}), 5.0)
    check(r["found"] == [30], "unbuildable commits away from the step are stepped around")
    moved = [iv for rnd in r["rounds"] for iv in rnd["intervals"] if iv[5]]
    check(all(abs(iv[4]) > 5.0 for iv in moved) and moved[-1][:2] == [29, 30],
          "every split interval moved by more than the threshold, the last is the commit")


def test_points(repo, shas):
    pts, labels, ref, notes = history.expand_points(repo, "v1.*.0")
    check(pts == [shas[5], shas[39]] and ref == shas[39] and not notes,
          "tag glob in version order, reference the last point")
    pts, labels, ref, notes = history.expand_points(repo, "v1.0.0..v1.1.0:10,ref=v1.0.0")
    check(pts == [shas[i] for i in (5, 15, 25, 35, 39)] and ref == shas[5],
          "A..B:10 keeps every 10th first-parent commit and B; ref= names the "
          "reference: %s" % [shas.index(p) for p in pts if p in shas])
    line, note = history.line_between(repo, "v1.0.1", "v1.1.0")
    check(line[0] == shas[5] and line[-1] == shas[39] and "merge base" in note
          and "v1.0.1" in note, "a good ref off the first-parent line: the merge base, "
          "said so (%s)" % note)
    try:
        history.expand_points(repo, "v9.*")
        check(False, "a glob matching no tag is an error")
    except history.StudyError as exc:
        check("v9.*" in str(exc), "a glob matching no tag is an error naming it")


def line_commit(repo, index):
    return history.line_between(repo, "v1.0.1", "v1.1.0")[0][index]


def test_resume_refused(out, ds):
    """find --resume refuses, before it builds or loads anything, a folder
    of another commit of this project, of another line of OVS commits or
    of a dataset that changed since; the folder is left as it was."""
    from jsonbench import resultsdir
    plan = resultsdir.read_plan(out)
    study_path = os.path.join(out, "study.json")
    study = json.load(open(study_path))
    index = open(os.path.join(out, "index.json")).read()
    with open(ds) as f:
        ds_text = f.read()

    def resume():
        calls, err = [], io.StringIO()
        orig = real_workloads.load
        real_workloads.load = lambda t, d, o: calls.append(t.commit) or orig(t, d, o)
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                rc = history.main_find(["--resume", out])
        finally:
            real_workloads.load = orig
        return rc, err.getvalue(), calls

    resultsdir.write_plan(out, dict(plan, commit="0000000"))
    rc, err, calls = resume()
    resultsdir.write_plan(out, plan)
    check(rc == 2 and "measured at commit 0000000" in err and "start a new folder" in err
          and not calls, "--resume refuses another commit's folder (rc %d): %s"
          % (rc, err.strip()))
    with open(study_path, "w") as f:
        json.dump(dict(study, line=study["line"][:-1]), f)
    rc, err, calls = resume()
    with open(study_path, "w") as f:
        json.dump(study, f)
    check(rc == 2 and "names another one now" in err and not calls,
          "--resume refuses a folder of another line (rc %d): %s" % (rc, err.strip()))
    with open(ds, "w") as f:
        f.write(ds_text + "\n")
    rc, err, calls = resume()
    with open(ds, "w") as f:
        f.write(ds_text)
    check(rc == 2 and "with sha256" in err and not calls,
          "--resume refuses a folder of another dataset (rc %d): %s" % (rc, err.strip()))
    check(open(os.path.join(out, "index.json")).read() == index,
          "a refused --resume leaves the folder's index as it was")


def test_end_to_end(root, repo, shas):
    ds = os.path.join(root, "tiny.ovsdb")
    with open(ds, "w") as f:
        f.write("OVSDB JSON 2 0\n{}\n")
    install(repo)
    out = os.path.join(root, "find")
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()) as so, contextlib.redirect_stderr(err):
        rc = history.main_find(["--ovs-tree", repo, "--range", "v1.0.1..v1.1.0",
                                "--metric", "rss_after_load", "--min-change", "5",
                                "--dataset", ds, "--repetitions", "3", "--out", out,
                                "--build-dir", BUILD])
    study = json.load(open(os.path.join(out, "study.json")))
    check(rc == 0 and study["result"]["found"] == [23 - 5],
          "find names the planted commit (rc %d, found %s)" % (rc, study["result"]["found"]))
    report = open(os.path.join(out, "report.md")).read()
    check(shas[23][:10] in report and "Store short strings" in report
          and "merge base" in report, "the report names it and the merge-base start")
    n_built = study["builds"]["built"]
    check(n_built <= 8, "%d builds for 34 commits" % n_built)
    index = json.load(open(os.path.join(out, "index.json")))
    refs = [e for e in index["entries"] if e["study_role"] == "reference"]
    check(len(refs) == n_built - 1 and all(e["study_commit"] == shas[5] for e in refs),
          "each measured commit is paired with the good end in its own group")
    check("\n# Which commit" in so.getvalue(), "find prints the report")
    # --resume: the groups measured before are not run again.  The folder
    # loses its last measured group, as an interrupted search would.
    last = max(e["study_point"] for e in index["entries"])
    kept = [e for e in index["entries"] if e["study_point"] != last]
    from jsonbench import resultsdir
    resultsdir.write_index(out, kept, [])
    plan = resultsdir.read_plan(out)
    plan["finished"] = [os.path.splitext(os.path.basename(e["file"]))[0] for e in kept]
    # ... and was started before find's options had names of their own.
    old = {"--range": "--ovs-ref", "--metric": "--metrics", "--min-change": "--threshold"}
    check(any(a in old for a in plan["argv"]), "find stores its options: %s" % plan["argv"])
    plan["argv"] = [old.get(a, a) for a in plan["argv"]]
    resultsdir.write_plan(out, plan)
    calls = []
    orig = real_workloads.load
    real_workloads.load = lambda t, d, o: calls.append(t.commit) or orig(t, d, o)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        rc = history.main_find(["--resume", out])
    real_workloads.load = orig
    study = json.load(open(os.path.join(out, "study.json")))
    check(rc == 0 and study["result"]["found"] == [18] and
          set(calls) == {shas[5], line_commit(repo, last)} and len(calls) == 6,
          "--resume measures only the missing group (%d loads)" % len(calls))
    test_resume_refused(out, ds)

    out = os.path.join(root, "history")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        rc = history.main_history(["--ovs-tree", repo, "--ovs-ref", "v1.0.0..v1.1.0:8",
                                   "--dataset", ds, "--repetitions", "2", "--out", out,
                                   "--build-dir", BUILD])
    study = json.load(open(os.path.join(out, "study.json")))
    pts = study["points"]
    check(rc == 0 and len(pts) == 6, "history: 6 points (rc %d)" % rc)
    rss = [p["figures"]["rss_after_load"]["median"] / (1 << 20) for p in pts]
    check([round(x) for x in rss] == [100, 100, 100, 80, 80, 80],
          "RSS over the points follows the planted commit: %s" % [round(x) for x in rss])
    cpu = pts[-1]["figures"]["load_cpu"]
    check(cpu["median"] == 1.0 and cpu["n"] == 2, "the reference's CPU ratio is 1")
    check(all(0.8 < p["figures"]["load_cpu"]["median"] < 1.25 for p in pts),
          "CPU ratios of the others are per-repetition ratios near 1")
    ir = [p["figures"]["load_instructions"]["ratio"] for p in pts]
    check([round(x, 2) for x in ir] == [1.25] * 3 + [1.0] * 3,
          "load instructions as a ratio to the reference: %s" % ir)
    text = open(os.path.join(out, "report.md")).read()
    check("v1.0.0" in text and "scripts/jsonbench history" in text,
          "the report has the tags and the command")
    env = json.load(open(os.path.join(out, "env.json")))
    check(env.get("measuring_setup", {}).get("setup") == "measuring" and
          env.get("noise_floor", {}).get("spread_pct") == STANDIN_FLOOR["spread_pct"],
          "history records its measuring setup and noise floor: %s" % {
              k: env.get(k) for k in ("measuring_setup", "noise_floor")})
    try:
        import matplotlib  # noqa: F401
        check(os.path.getsize(os.path.join(out, "history.png")) > 1000 and
              os.path.exists(os.path.join(out, "history.svg")), "chart written")
    except ImportError:
        print("skip: matplotlib not installed, chart not checked")
    check(os.path.exists(os.path.join(root, "find", "find.png")) or
          "matplotlib is not" in open(os.path.join(root, "find", "report.md")).read(),
          "find draws its measurements")
    # --cached-only: a commit without a cached build is skipped, not built.
    b = history.Builder.__mro__[1](repo, cache_dir=os.path.join(root, "cache"),
                                   no_build=True)
    check(b(shas[5], "v1.0.0") is None and b.skipped == [shas[5]] and not b.failed,
          "--cached-only skips a commit the cache lacks")
    rc = history.main_history(["--ovs-tree", repo, "--ovs-ref", "v1.0.0", "--out", out,
                               "--dataset", ds, "--build-dir", BUILD])
    check(rc == 2, "an existing results folder is refused")


def quiet(fn, argv):
    with contextlib.redirect_stdout(io.StringIO()) as so, \
            contextlib.redirect_stderr(io.StringIO()):
        rc = fn(argv)
    return rc, so.getvalue()


def stems(folder):
    with open(os.path.join(folder, "index.json")) as f:
        index = json.load(f)
    return sorted([os.path.splitext(os.path.basename(e["file"]))[0] for e in index["entries"]]
                  + [x["job"] for x in index["failures"]])


def test_shards(root, repo, shas):
    """history --shards N --shard K on the stand-in builds, merged: the
    split is deterministic and keeps each commit with its reference, the
    merged folder equals the serial run (every job once, the same
    figures, the chart), and the merge refuses mixed commits and plans."""
    from jsonbench import merge
    ds = os.path.join(root, "tiny.ovsdb")
    study = ["--ovs-tree", repo, "--ovs-ref", "v1.0.0..v1.1.0:8,ref=v1.0.1", "--dataset", ds,
             "--repetitions", "2", "--build-dir", BUILD]
    rc, out3 = quiet(history.main_history, study + ["--shards", "3", "--plan-shards"])
    rc2, again = quiet(history.main_history, study + ["--shards", "3", "--plan-shards"])
    split = json.loads(out3)
    _rc, out1 = quiet(history.main_history, study + ["--shards", "1", "--plan-shards"])
    serial_plan = json.loads(out1)
    check(rc == 0 and rc2 == 0 and out3 == again and split["units"] == 7 and
          split["plan_hash"] == serial_plan["plan_hash"],
          "--plan-shards: the same split twice, one plan hash whatever N, 6 points + the "
          "reference's valgrind load (%s)" % split.get("units"))
    costs = [part["cost"] for part in split["assignment"]]
    check(max(costs) - min(costs) <= max(costs) / 2,
          "largest first: the shards' costs are close: %s" % costs)
    for part in split["assignment"]:
        for u in part["units"]:
            if u.startswith("p"):
                prefix = u.split()[0] + "__"
                mine = [j for j in part["jobs"] if j.startswith(prefix)]
                elsewhere = [j for other in split["assignment"] if other is not part
                             for j in other["jobs"] if j.startswith(prefix)]
                check(len(mine) == 3 and not elsewhere and
                      any(j.endswith("__ovs-v1.0.1") for j in mine),
                      "%s: its loads, the reference's and its valgrind load in shard %d "
                      "only: %s" % (u, part["shard"], mine))

    serial = os.path.join(root, "hs-serial")
    rc, _ = quiet(history.main_history, study + ["--out", serial])
    check(rc == 0, "serial history runs")
    folders = []
    for k in (1, 2, 3):
        folders.append(os.path.join(root, "hs", "shard-%d" % k))
        rc, _ = quiet(history.main_history, study + ["--shards", "3", "--shard", str(k),
                                                     "--out", folders[-1]])
        check(rc == 0 and stems(folders[-1]) == sorted(split["assignment"][k - 1]["jobs"]),
              "shard %d runs exactly its groups' jobs" % k)
        check(not os.path.exists(os.path.join(folders[-1], "report.md")),
              "shard %d writes no report (the merge does)" % k)
    merged = os.path.join(root, "hs", "merged")
    rc, _ = quiet(merge.main, folders + ["--out", merged])
    check(rc == 0 and stems(merged) == stems(serial) == sorted(serial_plan["assignment"][0]
                                                                ["jobs"]),
          "the merged index is the serial plan, each job once (rc %d)" % rc)
    a = json.load(open(os.path.join(serial, "study.json")))
    b = json.load(open(os.path.join(merged, "study.json")))

    def figures(s, name, field):
        return [round(p["figures"][name][field] / (1 << 20)) if field == "median"
                else round(p["figures"][name][field], 4) for p in s["points"]]
    check(figures(a, "rss_after_load", "median") == figures(b, "rss_after_load", "median")
          == [100, 100, 100, 80, 80, 80] and
          figures(a, "load_instructions", "ratio") == figures(b, "load_instructions", "ratio")
          == [1.0] * 3 + [0.8] * 3,
          "merged figures equal the serial run's, the reference's valgrind count taken "
          "from another shard: %s" % figures(b, "load_instructions", "ratio"))
    text = open(os.path.join(merged, "report.md")).read()
    check("scripts/jsonbench history" in text and "--shard " not in text and
          "over 3 shards" in text and text.count("| v1.") >= 2,
          "the merged report renders with the study's command and the shards")
    try:
        import matplotlib  # noqa: F401
        check(os.path.getsize(os.path.join(merged, "history.png")) > 1000,
              "the merged report draws the chart")
    except ImportError:
        print("skip: matplotlib not installed, chart not checked")

    # A missing shard: its points are not measured, its jobs failure entries.
    rc, _ = quiet(merge.main, [folders[0], folders[2], "--out", merged + "-2"])
    doc = json.load(open(os.path.join(merged + "-2", "study.json")))
    gone = [p["index"] for p in doc["points"] if "not_measured" in p]
    check(rc == 1 and gone and stems(merged + "-2") == [
        j for j in sorted(stems(serial) + ["shard-2-of-3"])],
        "a missing shard: its points not measured (%s), every job still named once" % gone)

    # Refusals: another commit, another plan (other repetitions).
    other = os.path.join(root, "hs", "shard-2-other-commit")
    import shutil
    shutil.copytree(folders[1], other)
    with open(os.path.join(other, "plan.json")) as f:
        plan = json.load(f)
    plan["commit"] = "0000000"
    with open(os.path.join(other, "plan.json"), "w") as f:
        json.dump(plan, f)
    rc, _ = quiet(merge.main, [folders[0], other, folders[2], "--out", merged + "-3"])
    check(rc == 1 and not os.path.exists(merged + "-3"), "a shard of another commit is "
          "refused, nothing written")
    reps3 = os.path.join(root, "hs", "shard-2-reps3")
    rc, _ = quiet(history.main_history, [a if a != "2" else "3" for a in study] +
                  ["--shards", "3", "--shard", "2", "--out", reps3])
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        rc = merge.main([folders[0], reps3, folders[2], "--out", merged + "-4"])
    check(rc == 1 and "plan hash" in err.getvalue() and not os.path.exists(merged + "-4"),
          "a shard of another plan (3 repetitions) is refused: %s" % err.getvalue().strip())


def test_find_engine(root, repo, shas):
    """find --engine: each round's commits are a history of those commits
    in one shard each, submitted through the engine (here stand-ins for
    Slurm and GNU parallel that run the engine's shards in this process
    and merge them), and the bisection reads the merged rounds."""
    from jsonbench import engines, merge
    rounds = []

    def fake(name):
        def engine(argv):
            hosts = argv[0] if name == "parallel" else None
            args, study = engines._parse(argv, name, "", "", hosts=bool(hosts))
            check(args.command == "history" and (name != "slurm" or
                                                 os.environ.get("SBATCH_WAIT") == "1"),
                  "%s runs a history and waits for it: %s" % (name, argv))
            n = args.shards
            rounds.append((name, n, args.args[args.args.index("--ovs-ref") + 1]))
            folders = [os.path.join(study, "shard-%d" % k) for k in range(1, n + 1)]
            for k, f in enumerate(folders, 1):
                quiet(history.main_history, args.args + ["--shards", str(n), "--shard",
                                                         str(k), "--out", f])
            return quiet(merge.main, folders + ["--out", os.path.join(study, "merged")])[0]
        return engine
    engines.slurm, engines.parallel = fake("slurm"), fake("parallel")
    ds = os.path.join(root, "tiny.ovsdb")
    for engine in ("slurm", "parallel::"):
        out = os.path.join(root, "find-" + engine.rstrip(":"))
        rounds.clear()
        rc, text = quiet(history.main_find, [
            "--ovs-tree", repo, "--range", "v1.0.1..v1.1.0", "--metric", "rss_after_load",
            "--min-change", "5", "--dataset", ds, "--repetitions", "2", "--out", out,
            "--build-dir", BUILD, "--ways", "3", "--engine", engine])
        study = json.load(open(os.path.join(out, "study.json")))
        check(rc == 0 and study["result"]["found"] == [18],
              "find --engine %s names the planted commit (rc %d, found %s)"
              % (engine, rc, study["result"]["found"]))
        check(len(rounds) == len(study["result"]["rounds"]) and rounds[0][1] == 1 and
              all(1 <= n <= 3 and n == len(refs.split(",")) - 1 for _e, n, refs in rounds)
              and max(n for _e, n, _r in rounds) == 3,
              "one engine run per round, one shard per commit, up to 3: %s"
              % [n for _e, n, _r in rounds])
        check(all(refs.endswith(",ref=" + shas[5][:12]) for _e, _n, refs in rounds),
              "every round pairs its commits with the good end")
        with open(os.path.join(out, "index.json")) as f:
            index = json.load(f)
        check(index["entries"] and all(os.path.exists(os.path.join(out, e["file"]))
                                       for e in index["entries"]) and
              {e["study_point"] for e in index["entries"]} ==
              {int(k) for k in study["measured"]},
              "find's index holds the rounds' entries at their line positions")
        check("\n# Which commit" in text and shas[23][:10] in text,
              "find --engine prints the report naming the commit")
    rc, _ = quiet(history.main_find, ["--ovs-tree", repo, "--range", "v1.0.1..v1.1.0",
                                      "--dataset", ds, "--engine", "parallel",
                                      "--out", os.path.join(root, "find-bad")])
    check(rc == 2, "--engine parallel without hosts is an error")


# Each history and find run measures the noise floor first; here a
# stand-in (test_measuring.py runs the real probe) keeps the many runs short.
STANDIN_FLOOR = {"spread_pct": 1.5, "median_s": 0.1, "runs": [], "setup": "measuring"}


def main():
    measuring.noise_floor = lambda build_dir, setup, **kw: dict(STANDIN_FLOOR)
    test_bisect()
    test_bisect_intervals()
    with tempfile.TemporaryDirectory() as root:
        repo, shas = make_repo(root)
        test_points(repo, shas)
        test_end_to_end(root, repo, shas)
        test_shards(root, repo, shas)
        test_find_engine(root, repo, shas)
    print("real OVS not used: history/find with real builds run by hand "
          "(docs/history.md)")
    return check.finish("history and find: ok")


if __name__ == "__main__":
    sys.exit(main())
