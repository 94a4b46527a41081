#!/usr/bin/env python3
"""The claims reproduction's self-test (meson test reproduce-self-test):
the verdict logic on synthetic numbers (jsonbench.claims), then every
claim of claims/seeds.json end to end at a tiny scale through
scripts/jsonbench claims in a temporary folder: each claim must get a
measured row (or 'not measured' only where a dataset profile does not
exist) and the report its claims section.

usage: self_test.py [--build-dir DIR] [--no-build]   (PYTHONPATH=python)"""

import argparse
import json
import os
import sys
import tempfile

from jsonbench import build
from jsonbench import claims as C
from jsonbench import reproduce
from jsonbench.util import log


def _synthetic(before, after, workload="dump", phase="dump", field="cpu_time"):
    def rows(v):
        return {"benchmarks": [{"name": "%s/%s" % (workload, phase), "run_type": "iteration",
                                "repetition_index": i, "time_unit": "ms", field: v * 1e3}
                               for i in range(3)]}
    return {"data": rows(before)}, {"data": rows(after)}


def self_test(args):
    """Verdict logic on made-up numbers, then a tiny end-to-end run."""
    doc = C.load_claims(reproduce.DEFAULT_CLAIMS)
    claim = next(c for c in doc["claims"] if c["id"] == "s4-nb-dump-strings")
    one = dict(doc, claims=[claim])
    kb, ka = C.run_key(C.side_run(claim, "before")), C.run_key(C.side_run(claim, "after"))
    # (evaluate() defaults to scale 1 with caps, as side_run() here.)
    cases = [((10.0, 9.0), C.VERDICT_WITHIN),      # -10% vs claimed -10.8%
             ((10.0, 9.8), C.VERDICT_NOISE),       # -2%: inside the 3% band
             ((10.0, 5.0), C.VERDICT_OUTSIDE),     # -50%: ~6x the claimed log ratio
             ((10.0, 11.0), C.VERDICT_OPPOSITE)]
    failed = 0
    for (b, a), want in cases:
        rb, ra = _synthetic(b, a)
        got = C.evaluate(one, {kb: rb, ka: ra})[0]["verdict"]
        ok = got == want
        failed += not ok
        log("self-test: %s -> %s: %s%s" % (b, a, got, "" if ok else "  (expected %s)" % want))
    got = C.evaluate(one, {kb: {"error": "boom"}, ka: {"error": "boom"}})[0]
    if got["verdict"] != C.VERDICT_MISSING or "boom" not in got["why"]:
        failed += 1
        log("self-test: a failed run must give 'not measured' with its message")
    if failed:
        log("self-test: %d verdict check(s) failed" % failed)
        return 1

    # End to end at a tiny scale, datasets and results in a temporary folder.
    with tempfile.TemporaryDirectory(prefix="jsonbench-reproduce-selftest-") as tmp:
        argv = ["--scale", "0.002", "--repetitions", "1", "--out", os.path.join(tmp, "out"),
                "--build-dir", args.build_dir]
        if args.no_build:
            argv.append("--no-build")
        saved, build.DATASETS_DIR = build.DATASETS_DIR, os.path.join(tmp, "datasets")
        try:
            rc = reproduce.main(argv)
        finally:
            build.DATASETS_DIR = saved
        out = os.path.join(tmp, "out")
        loaded = C.load_run(out)
        if not loaded:
            log("self-test: no %s written" % C.RUN_FILE)
            return 1
        d, runs, meta = loaded
        rows = C.evaluate(d, runs, meta.get("dataset_stats"), meta["scale"], meta["caps"])
        ids = {r["id"] for r in rows}
        missing = [c["id"] for c in d["claims"] if c["id"] not in ids]
        report_ok = os.path.exists(os.path.join(out, "report.md")) and \
            "Seed claims" in open(os.path.join(out, "report.md")).read()
        unmeasured = [r["id"] for r in rows if r["verdict"] == C.VERDICT_MISSING]
        log("self-test: %d claims, %d rows, missing rows %s, not measured %s, report %s, exit %d"
            % (len(d["claims"]), len(rows), missing or "none", unmeasured or "none",
               "ok" if report_ok else "MISSING the claims section", rc))
        if missing or not report_ok:
            return 1
        # Not measured is allowed only where a dataset profile does not exist.
        bad = [r["id"] for r in rows if r["verdict"] == C.VERDICT_MISSING
               and "profile" not in r.get("why", "")]
        if bad:
            log("self-test: runs failed for %s" % ", ".join(bad))
            return 1
        # Every timing claim measured on both sides (not txn) has its
        # instruction count, in the report's claims table too.
        from jsonbench import instructions
        instructions.annotate(rows, d, out, meta.get("instructions"),
                              meta.get("instructions_scale"))
        timed = [c["id"] for c in instructions.timing_claims(d)]
        lacking = [r["id"] for r in rows if r["id"] in timed and
                   r["verdict"] != C.VERDICT_MISSING and not r.get("instructions")]
        md = open(os.path.join(out, "report.md")).read()
        env = json.load(open(os.path.join(out, "env.json")))
        if env.get("noise_floor", {}).get("spread_pct") is not None and \
                "This machine's noise floor" not in md:
            log("self-test: the run measured a noise floor, the claims section lacks it")
            return 1
        # ... and their simulated cache misses beside it.
        no_misses = [r["id"] for r in rows if r.get("instructions")
                     and not r["instructions"].get("ll_misses")]
        if no_misses or "LL misses (verdict)" not in md:
            log("self-test: simulated cache misses missing for %s"
                % (no_misses or "every claim"))
            return 1
        if not timed or lacking or "instructions (verdict)" not in md:
            log("self-test: instruction counts missing for %s" % (lacking or "every claim"))
            return 1
    log("self-test: ok")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build-dir", default="build")
    ap.add_argument("--no-build", action="store_true")
    return self_test(ap.parse_args())


if __name__ == "__main__":
    sys.exit(main())
