#!/usr/bin/env python3
"""scripts/suite.sh --order: the planned order alternates model and real
per repetition (interleaved, the default with real builds), the grouped
order is the one the suite always had, and the results folder, the
report's model-vs-real section and compare say which.

No real OVS runs: the end-to-end part runs the model's harness on a tiny
NB database and a stand-in real build whose workloads return made-up rows
(the real runner's own document and index code still runs), recording
the order in which processes ran.  One stand-in repetition fails, to show
a failed real job is a failure entry and the rest goes on.  The micro
step (--workloads ...,micro) runs stand-in executables as det jobs.

usage: test_suite_order.py BUILD_ROOT OVSDB_GEN SOURCE_ROOT"""

import contextlib
import io
import json
import os
import sys
import tempfile

from jsonbench import report  # noqa: F401  (before compare: it imports compare)
from jsonbench import backends, compare, suite, suite_order
from jsonbench.realovs import gbench as rgbench
from jsonbench.realovs import suite_jobs
from jsonbench.realovs import workloads as real_workloads
from jsonbench.realovs.proc import RunError
from jsonbench.realovs.target import Target

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks, generate_tiny_nb  # noqa: E402

check = Checks()
BUILD, GEN, ROOT = sys.argv[1:4]


def ds(label, form):
    return {"label": label, "path": "/x/%s.ovsdb" % label, "kind": "nb",
            "scale": 0.1, "form": form}


def test_plan():
    """The planner alone, on hand-made jobs."""
    nb, log_ = ds("nb-0.1", "snapshot"), ds("nb-0.1-log", "log")
    jobs = [suite.Job(i, w, w, d, []) for w, d in
            (("load", nb), ("dump", nb), ("compact", log_)) for i in ("ovs", "compact")]
    real = suite_jobs.plan(jobs)
    targets = ["ovs-a", "ovs-b"]
    check(suite_order.default_order(True) == "interleaved" and
          suite_order.default_order(False) == "grouped",
          "default: interleaved with real builds, grouped without")

    rows = suite_order.describe("interleaved", jobs, real, targets, 3)
    # Per dataset and workload family, each repetition: the model impls,
    # then each real build; load and dump share a group because real OVS
    # measures load inside its dump run.
    want = []
    for d, models, reals in (("nb-0.1", [("ovs", "load"), ("compact", "load"),
                                         ("ovs", "dump"), ("compact", "dump")], ["dump"]),
                             ("nb-0.1-log", [("ovs", "compact"), ("compact", "compact")],
                              ["compact"])):
        for r in range(3):
            want += [("model", i, v, d, "%d/3" % (r + 1)) for i, v in models]
            want += [("real", t, v, d, "%d/3" % (r + 1)) for t in targets for v in reals]
    want += [("real", t, "load", "nb-0.1", "(from dump)") for t in targets]
    check(rows == want, "interleaved order:\n  got  %s\n  want %s" % (rows, want))
    kinds = [r[0] for r in rows if r[4] != "(from dump)"]
    switches = sum(1 for a, b in zip(kinds, kinds[1:]) if a != b)
    # model->real and real->model once per repetition of each of 2 groups.
    check(switches == 2 * 3 * 2 - 1, "model and real alternate per repetition "
          "(%d switches)" % switches)

    rows = suite_order.describe("grouped", jobs, real, targets, 3)
    want = [("model", j.impl, j.variant, j.ds["label"], "1-3") for j in jobs]
    want += [("real", t, rj.variant, rj.ds["label"], "1-3") for t in targets for rj in real]
    check(rows == want, "grouped order is the plan's: every model job, then every "
          "real one per target:\n  got  %s" % rows)
    check([r[2] for r in rows if r[0] == "real"][:3] == ["dump", "load", "compact"],
          "grouped real jobs: dump before load (load reuses its start)")

    # Within a repetition the impl paired with a real build runs last,
    # right before it, and the memory-breakdown loads (no real
    # counterpart) first.
    lb = [suite.Job(i, "load", "load-breakdown", nb, []) for i in ("ovs", "compact")]
    mixed = [jobs[0], lb[0], jobs[1], lb[1], jobs[2], jobs[3]]
    rows = suite_order.describe("interleaved", mixed, suite_jobs.plan(mixed), ["ovs-a"], 2,
                                paired={"ovs"})
    first = [(r[1], r[2]) for r in rows if r[4] == "1/2"]
    want = [("ovs", "load-breakdown"), ("compact", "load-breakdown"), ("compact", "load"),
            ("compact", "dump"), ("ovs", "load"), ("ovs", "dump"), ("ovs-a", "dump")]
    check(first == want, "paired impl last in a repetition:\n  got  %s\n  want %s"
          % (first, want))

    # A real load without a real dump on its dataset runs on its own.
    only_load = [j for j in jobs if j.workload == "load"]
    gs = suite_order.groups(only_load, suite_jobs.plan(only_load))
    check(len(gs) == 1 and [rj.workload for rj in gs[0].real_runs] == ["load"]
          and not gs[0].derived, "a real load with no dump beside it runs itself")


# ------------------------------------------------------------ end to end

class Recorder:
    """The processes in the order they ran; the stand-in real workloads."""

    def __init__(self, fail_on=None):
        self.seq = []
        self.fail_on = fail_on      # (workload, call number) that fails
        self.calls = {}
        self.setups = []            # the measuring setup of each model call

    def model(self, orig):
        def run_processes(job, cmd, reps_dir, tmp, runs, hf_path, tag="", setup=None):
            self.seq.append(("model", job.variant, job.ds["label"], runs))
            self.setups.append(setup)
            return orig(job, cmd, reps_dir, tmp, runs, hf_path, tag, setup)
        return run_processes

    def real(self, workload):
        def run(target, ds_, opts):
            n = self.calls[workload] = self.calls.get(workload, 0) + 1
            self.seq.append(("real", workload, ds_["label"], 1))
            self.setups.append(opts.get("setup"))
            if self.fail_on == (workload, n):
                raise RunError("stand-in %s failed on purpose" % workload)
            ms = 10.0 * n
            rows = {"dump": [("dump/load", {"rss_after_load_bytes": 1 << 20}), ("dump/dump", {})],
                    "load": [("load/load", {"rss_after_load_bytes": 1 << 20})],
                    "compact": [("compact/compact", {"peak_rss_bytes": 2 << 20})]}[workload]
            return [rgbench.row(name, dict(fields, real_time=ms, cpu_time=ms))
                    for name, fields in rows]
        return run


def run_suite(argv, rec):
    target = Target("ovs-standin", {p: "/bin/false" for p in
                                     ("ovsdb-server", "ovsdb-tool", "ovsdb-client", "ovs-appctl")},
                    "2.5.0", commit="0" * 40, compiler="none", representation="plain")
    saved = (backends.run_processes, suite_jobs.targets, real_workloads.get)
    backends.run_processes = rec.model(saved[0])
    suite_jobs.targets = lambda args, log: ([target], [])
    real_workloads.get = rec.real
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out):
            rc = suite.main(argv)
    finally:
        backends.run_processes, suite_jobs.targets, real_workloads.get = saved
    return rc, out.getvalue()


def read(path):
    with open(path) as f:
        return json.load(f)


def model_vs_real_text(out):
    with open(os.path.join(out, "report.md")) as f:
        md = f.read()
    start = md.find("## Model vs real OVS")
    return md[start:md.find("\n## ", start + 5)] if start >= 0 else ""


def test_end_to_end(tmp):
    snap, log_db = os.path.join(tmp, "nb.ovsdb"), os.path.join(tmp, "nb-log.ovsdb")
    generate_tiny_nb(GEN, ROOT, snap)
    import subprocess
    subprocess.run([GEN, "-q", "--schema", "/usr/share/ovn/ovn-nb.ovsschema", "--profile",
                    os.path.join(ROOT, "datasets/profiles/nb.profile"), "--scale", "0.002",
                    "--form", "log", "--txns", "10", "-o", log_db], check=True)
    base = ["--no-build", "--build-dir", BUILD, "--impls", "plain",
            "--workloads", "load,dump,compact", "--repetitions", "2", "--no-mem-breakdown",
            "--dataset", snap, "--dataset", log_db, "--ovs-tree", tmp, "--ovs-ref", "standin",
            "--no-ovs-installed"]

    # --dry-run prints the order it would run.
    rc, text = run_suite(base + ["--dry-run"], Recorder())
    check(rc == 0 and "order: interleaved" in text and
          "1/2   model plain" in text and "1/2   real  ovs-" in text,
          "--dry-run prints the interleaved order:\n%s" % text[-1500:])

    # Interleaved (the default with a real build); its second compact fails.
    out_i = os.path.join(tmp, "interleaved")
    rec = Recorder(fail_on=("compact", 2))
    rc, text = run_suite(base + ["--out", out_i], rec)
    M, R = "model", "real"
    want = [(M, "load", "nb", 1), (M, "dump", "nb", 1), (R, "dump", "nb", 1),
            (M, "load", "nb", 1), (M, "dump", "nb", 1), (R, "dump", "nb", 1),
            (M, "compact", "nb-log", 1), (R, "compact", "nb-log", 1),
            (M, "compact", "nb-log", 1), (R, "compact", "nb-log", 1)]
    check(rec.seq == want, "interleaved: processes ran\n  %s\n  want %s" % (rec.seq, want))
    check(rc == 1, "a failed real repetition makes the exit status 1 (got %d)" % rc)
    check(read(os.path.join(out_i, "env.json")).get("run_order") == "interleaved",
          "env.json says interleaved")
    # Both sides of every pair in one measuring setup, recorded.
    check(len(rec.setups) == len(want) and len({id(s) for s in rec.setups}) == 1 and
          rec.setups[0] is not None and rec.setups[0].name == "measuring",
          "model and real processes share the measuring setup: %s" % rec.setups)
    env_i = read(os.path.join(out_i, "env.json"))
    check(env_i.get("measuring_setup", {}).get("setup") == "measuring" and
          "spread_pct" in env_i.get("noise_floor", {}),
          "env.json has the setup and the noise floor: %s" % {
              k: env_i.get(k) for k in ("measuring_setup", "noise_floor")})
    index = read(os.path.join(out_i, "index.json"))
    have = sorted((e["impl"], e["variant"]) for e in index["entries"])
    check(have == [("ovs-standin", "dump"), ("ovs-standin", "load"),
                   ("plain", "compact"), ("plain", "dump"), ("plain", "load")],
          "interleaved results: %s" % have)
    check([f["job"] for f in index["failures"]] == ["nb-log__compact__ovs-standin"] and
          "on purpose" in index["failures"][0]["error"], "the failed real job is a "
          "failure entry: %s" % index["failures"])
    load = read(os.path.join(out_i, "runs", "nb__load__ovs-standin.json"))
    reps = [b for b in load["benchmarks"] if b["name"] == "load/load"]
    check([b["real_time"] for b in reps] == [10.0, 20.0],
          "the real load is each dump repetition's load phase: %s" % reps)
    model = read(os.path.join(out_i, "runs", "nb__load__plain.json"))
    proc = [b for b in model["benchmarks"] if b["name"] == "load/process"]
    hf = read(os.path.join(out_i, "hyperfine", "nb__load__plain.json"))
    check(len(proc) == 2 and len(hf["results"][0]["times"]) == 2,
          "one-run hyperfine calls combine into one file of 2 times, 2 process rows")
    mvr = model_vs_real_text(out_i)
    check("**Order: interleaved" in mvr and "RSS after load" in mvr and
          "From a grouped run" not in mvr,
          "report: interleaved, with the calibration table:\n%s" % mvr[:1500])
    cmp_out = io.StringIO()
    with contextlib.redirect_stdout(cmp_out):
        compare.main([out_i, out_i, "--impl-a", "plain", "--impl-b", "ovs-standin"])
    check("A: model and real OVS interleaved" in cmp_out.getvalue(),
          "compare says interleaved:\n%s" % cmp_out.getvalue()[:600])

    # Grouped: the old order, every model job's repetitions, then real.
    out_g = os.path.join(tmp, "grouped")
    rec = Recorder()
    rc, text = run_suite(base + ["--order", "grouped", "--out", out_g], rec)
    want = [(M, "load", "nb", 2), (M, "dump", "nb", 2), (M, "compact", "nb-log", 2),
            (R, "dump", "nb", 1), (R, "dump", "nb", 1),
            (R, "compact", "nb-log", 1), (R, "compact", "nb-log", 1)]
    check(rc == 0, "grouped run exit 0 (got %d):\n%s" % (rc, text[-1500:]))
    check(rec.seq == want, "grouped: processes ran\n  %s\n  want %s" % (rec.seq, want))
    check(read(os.path.join(out_g, "env.json")).get("run_order") == "grouped",
          "env.json says grouped")

    # --as-deployed: both sides as deployed, and said so.
    out_d = os.path.join(tmp, "deployed")
    rec = Recorder()
    rc, text = run_suite(base + ["--order", "grouped", "--as-deployed", "--out", out_d], rec)
    check(rc == 0 and rec.setups and all(s.as_deployed for s in rec.setups),
          "--as-deployed reaches model and real processes: %s" % rec.setups)
    check("as deployed (--as-deployed)" in text and read(os.path.join(
        out_d, "env.json"))["measuring_setup"]["setup"] == "as-deployed",
          "--as-deployed is in the log and env.json:\n%s" % text[-800:])
    mvr = model_vs_real_text(out_g)
    check("**Order: grouped" in mvr and "From a grouped run" in mvr,
          "report: a calibration table from a grouped run says so:\n%s" % mvr[:1500])

    # A folder from before --order: no run_order, read as grouped.
    env = read(os.path.join(out_g, "env.json"))
    del env["run_order"]
    with open(os.path.join(out_g, "env.json"), "w") as f:
        json.dump(env, f)
    cmp_out = io.StringIO()
    with contextlib.redirect_stdout(cmp_out):
        compare.main([out_i, out_g, "--impl-a", "plain", "--impl-b", "plain"])
    text = cmp_out.getvalue()
    check("A: model and real OVS interleaved" in text and
          "B: model and real OVS not recorded" in text,
          "compare names each side's order:\n%s" % text[:800])


def test_micro(tmp):
    """--workloads ...,micro: one det job per impl through the execute
    loop; micro/<impl>.json with context.impl and the report's index entry,
    a failing executable a failure entry, a missing one skipped."""
    bench = os.path.join(tmp, "micro-build")
    os.makedirs(bench)
    exes = {}
    for impl, body in (("good", 'echo \'{"context": {}, "benchmarks": [{"name": "parse", '
                                '"run_type": "iteration", "real_time": 5, "cpu_time": 5, '
                                '"time_unit": "ns", "iterations": 9}]}\' > "${2#*=}"'),
                       ("bad", "echo broken >&2; exit 3")):
        exes[impl] = os.path.join(bench, "jsonbench-micro-" + impl)
        with open(exes[impl], "w") as f:
            f.write("#!/bin/sh\n%s\n" % body)
        os.chmod(exes[impl], 0o755)
    args = type("Args", (), {"build_dir": bench, "allocator": "glibc"})()
    saved = suite.build.impls
    suite.build.impls = lambda build_dir, kind="harness": dict(exes, gone="/nonexistent")
    try:
        jobs = suite.micro_jobs(args, ["good", "bad", "gone"])
    finally:
        suite.build.impls = saved
    check([j.impl for j in jobs] == ["good", "bad"], "micro jobs: %s" % jobs)
    check("--benchmark_out=__RESULTS__" in jobs[0].opts, "micro cmd: %s" % jobs[0].opts)
    out = os.path.join(tmp, "micro-out")
    res = suite.execute([suite.Step(j, None, 1, j.name) for j in jobs],
                        {"det": backends.DeterministicBackend(out)}, out, None, [], [], 1,
                        say=lambda m: None)
    check(res.entries == [{"file": "micro/good.json", "impl": "good", "workload": "micro",
                           "variant": "micro", "dataset": "", "source": "micro",
                           "allocator": "glibc"}], "micro entries: %s" % res.entries)
    check([f["job"] for f in res.failures] == [jobs[1].name] and
          "exited 3: broken" in res.failures[0]["error"], "micro failures: %s" % res.failures)
    doc = read(os.path.join(out, "micro", "good.json"))
    check(doc["context"].get("impl") == "good" and doc["benchmarks"][0]["name"] == "parse",
          "micro/good.json: %s" % doc)
    check(read(os.path.join(out, "index.json"))["entries"] == res.entries,
          "index.json holds the micro entries")


def main():
    test_plan()
    with tempfile.TemporaryDirectory(prefix="suite-order-test-") as tmp:
        os.environ["MPLCONFIGDIR"] = os.path.join(tmp, "mpl")
        os.environ["TMPDIR"] = tmp
        tempfile.tempdir = None
        test_end_to_end(tmp)
        test_micro(tmp)
    return check.finish("ok: suite order (interleaved / grouped) planned, run and recorded")


sys.exit(main())
