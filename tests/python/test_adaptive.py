"""Adaptive repetitions (scripts/reproduce.sh --budget): appending a
round's repetitions to a results file (gbench.append_repetitions), the
order of the undecided claims (reproduce.undecided), and end to end at a
tiny scale: when the run ends, every claim is decided, or has the most
repetitions allowed, or needs more than that; the results files hold the
repetitions claims-run.json says.

usage: test_adaptive.py BUILD_DIR   (PYTHONPATH=python)"""

import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from testkit import Checks  # noqa: E402
from jsonbench import adaptive, build, gbench, reproduce
from jsonbench import claims as C

check = Checks()


def doc(values):
    rows = [{"name": "load/parse", "run_name": "load/parse", "run_type": "iteration",
             "repetition_index": i, "cpu_time": v, "time_unit": "ms"}
            for i, v in enumerate(values)]
    return {"context": {"repetitions": str(len(values))}, "benchmarks": gbench.with_aggregates(rows)}


def appending():
    d = gbench.append_repetitions(doc([1.0, 2.0, 3.0]), doc([10.0, 20.0]))
    it = gbench.iterations(d)
    check([b["repetition_index"] for b in it] == [0, 1, 2, 3, 4], "indices follow on")
    check([b["cpu_time"] for b in it] == [1.0, 2.0, 3.0, 10.0, 20.0], "values kept in order")
    med = [b for b in d["benchmarks"] if b.get("aggregate_name") == "median"]
    check(len(med) == 1 and med[0]["cpu_time"] == 3.0 and med[0]["repetitions"] == 5,
          "aggregates over all five: %s" % med)
    check(d["context"]["repetitions"] == "5", "context repetitions")
    check(C.metric_values(d, "load", {"phase": "parse", "field": "cpu_time"}) ==
          [0.001, 0.002, 0.003, 0.01, 0.02], "claims read every repetition")


def ordering():
    def row(cid, need, lo, hi, reps=3):
        return {"id": cid, "confident": False, "repetitions": reps,
                "repetitions_to_decide": need, "interval": {"low_pct": lo, "high_pct": hi}}
    rows = [row("a", 6, -5, 1), row("b", 10, -9, 2), row("c", None, -9, 9),
            row("d", 40, -20, 20), {"id": "e", "confident": True}, row("f", 8, -4, 4, reps=12)]
    got = [r["id"] for r in adaptive.undecided(rows, 12)]
    check(got == ["b", "a"], "undecided, most repetitions needed first, within 12: %s" % got)


def end_to_end(build_dir):
    with tempfile.TemporaryDirectory(prefix="jsonbench-adaptive-") as tmp:
        out = os.path.join(tmp, "out")
        argv = ["--scale", "0.002", "--only", "s4-nb-dump-strings,s4-nb-rss-strings",
                "--repetitions", "2", "--budget", "2", "--max-repetitions", "12",
                "--out", out, "--build-dir", build_dir, "--no-build", "--no-report",
                "--instructions-scale", "0"]
        saved, build.DATASETS_DIR = build.DATASETS_DIR, os.path.join(tmp, "datasets")
        try:
            rc = reproduce.main(argv)
        finally:
            build.DATASETS_DIR = saved
        check(rc == 0, "reproduce --budget exit %d" % rc)
        d, runs, meta = C.load_run(out)
        rows = C.evaluate(d, runs, meta.get("dataset_stats"), meta["scale"], meta["caps"])
        for r in rows:
            if r["verdict"] == C.VERDICT_MISSING:
                continue
            ok = (r.get("confident") or r["repetitions"] >= 12 or
                  not r.get("repetitions_to_decide") or r["repetitions_to_decide"] > 12)
            check(ok, "%s left at %d repetitions, needs ~%s" % (
                r["id"], r["repetitions"], r.get("repetitions_to_decide")))
        for key, info in meta["runs"].items():
            if not info.get("file"):
                continue
            data = gbench.read(os.path.join(out, info["file"]))
            n = 1 + max(b["repetition_index"] for b in gbench.iterations(data))
            check(n == info["repetitions"] and 2 <= n <= 12,
                  "%s: %d repetitions in the file, %s in claims-run.json"
                  % (key, n, info["repetitions"]))
        check(not os.path.exists(os.path.join(out, "adaptive-round")), "scratch folder removed")


def main():
    appending()
    ordering()
    end_to_end(sys.argv[1])
    return check.finish("adaptive: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
