#!/usr/bin/env python3
"""Proof that the regression gate works (stdlib only).

  aa          measure the same build twice: the gate must pass (exit 0)
  regression  measure ovs, then an executable linked with the deliberately
              worse 'ovs-regressed' impl under the name ovs: the gate must
              fail (exit 1) and name the expected metric

--valgrind checks instruction counts (exit 77 = skipped in sanitizer builds,
where valgrind cannot run); without it, allocation counts only.  The gate is
python3 -m jsonbench.gate (PYTHONPATH=python/, as meson test sets it)."""

import argparse
import os
import subprocess
import sys
import tempfile

SKIP = 77


def gate(*args):
    r = subprocess.run([sys.executable, "-m", "jsonbench.gate"] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return r.returncode, r.stdout


def measure(a, tmp, name, harness, micro):
    out = os.path.join(tmp, name + ".json")
    args = ["--build-dir", a.build_root, "--data-dir", os.path.join(tmp, "data"),
            "--impls", "ovs", "--harness", "ovs=" + harness, "--out", out]
    args += ["--micro-harness", "ovs=" + micro] if micro else ["--parts", "harness,calibration"]
    if not a.valgrind:
        args.append("--no-valgrind")
    rc, text = gate(*args)
    print(text)
    if rc != 0:
        sys.exit("FAIL: measuring %s exited %d" % (name, rc))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["aa", "regression"])
    ap.add_argument("--build-root", required=True)
    ap.add_argument("--sanitize", default="none")
    ap.add_argument("--valgrind", action="store_true")
    ap.add_argument("--harness", required=True, help="jsonbench-ovs")
    ap.add_argument("--micro", help="jsonbench-micro-ovs")
    ap.add_argument("--regressed-harness")
    ap.add_argument("--regressed-micro")
    a = ap.parse_args()
    if a.valgrind and a.sanitize != "none":
        print("valgrind cannot run sanitizer builds: skipped")
        return SKIP
    with tempfile.TemporaryDirectory(prefix="gate-test-") as tmp:
        base = measure(a, tmp, "base", a.harness, a.micro)
        if a.mode == "aa":
            cur = measure(a, tmp, "again", a.harness, a.micro)
        else:
            cur = measure(a, tmp, "regressed", a.regressed_harness, a.regressed_micro)
        rc, text = gate("--baseline", base, "--current", cur)
        print(text)
        if a.mode == "aa":
            if rc != 0:
                sys.exit("FAIL: A/A gate exited %d, expected 0" % rc)
            if "passed" not in text:
                sys.exit("FAIL: A/A gate did not say it passed")
            return 0
        if rc != 1:
            sys.exit("FAIL: regressed build: gate exited %d, expected 1" % rc)
        wanted = ":instructions" if a.valgrind else ":alloc_calls"
        hits = [l for l in text.splitlines() if "REGRESSION" in l and wanted in l]
        if not hits:
            sys.exit("FAIL: no REGRESSION row names %s" % wanted)
        if a.regressed_micro and not a.valgrind and not any(
                "/micro/" in l for l in text.splitlines() if "REGRESSION" in l):
            sys.exit("FAIL: the micro-benchmark allocations did not regress")
        print("ok: the gate failed naming %d %s row(s)" % (len(hits), wanted))
    return 0


if __name__ == "__main__":
    sys.exit(main())
