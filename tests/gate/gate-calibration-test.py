#!/usr/bin/env python3
"""The gate's calibration against the installed real OVS, end to end
(valgrind; exit 77 = skipped in sanitizer builds or without valgrind or
ovsdb-tool):

  - measured twice (the serialized model and ovsdb-tool under valgrind),
    the calibration passes: its figures are stable within the thresholds;
  - a model figure moved away from the real one (injected into the second
    measurement) fails the gate naming that ratio as a DRIFT; moved
    towards it, the gate passes and asks for a baseline refresh;
  - the same drift against a baseline made with other real binaries
    (version and sha256 changed) passes with a WARNING, the row marked
    not gated;
  - a missing real binary skips the calibration with a clear message, and
    checking that measurement passes, saying it was not measured.

The gate is python3 -m jsonbench.gate (PYTHONPATH=python/, as meson test
sets it)."""

import argparse
import copy
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks  # noqa: E402

check = Checks()


def gate(*args):
    r = subprocess.run([sys.executable, "-m", "jsonbench.gate"] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(r.stdout)
    return r.returncode, r.stdout


def measure(a, tmp, name, *extra):
    out = os.path.join(tmp, name + ".json")
    rc, text = gate("--build-dir", a.build_root, "--data-dir", os.path.join(tmp, "data"),
                    "--parts", "calibration", "--calibration-harness", a.harness,
                    "--out", out, *extra)
    if rc != 0:
        sys.exit("FAIL: measuring %s exited %d" % (name, rc))
    with open(out) as f:
        return out, json.load(f), text


def write(tmp, name, doc):
    path = os.path.join(tmp, name + ".json")
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def moved(doc, key, factor):
    """A copy of 'doc' whose model figure 'key' (and ratio) is * factor."""
    d = copy.deepcopy(doc)
    cal = d["calibration"]
    cal["model_figures"][key] = int(cal["model_figures"][key] * factor)
    cal["ratios"][key] = cal["ratios"][key] * factor
    return d


def rows_naming(text, key, word):
    return [ln for ln in text.splitlines() if key + "_ratio" in ln and word in ln]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-root", required=True)
    ap.add_argument("--sanitize", default="none")
    ap.add_argument("--harness", required=True, help="jsonbench-serialized")
    a = ap.parse_args()
    if a.sanitize != "none":
        print("valgrind cannot run sanitizer builds: skipped")
        return SKIP
    for prog in ("valgrind", "ovsdb-tool"):
        if not shutil.which(prog):
            print("%s is not installed (scripts/deps.sh): skipped" % prog)
            return SKIP
    with tempfile.TemporaryDirectory(prefix="gate-cal-test-") as tmp:
        base_path, base, _t = measure(a, tmp, "base")
        cal = base.get("calibration") or {}
        if "ratios" not in cal:
            sys.exit("FAIL: no calibration measured: %s" % cal.get("skipped", "?"))
        check(len(cal["ratios"]) == 9, "9 ratios (3 jobs x 3 figures), got %d"
              % len(cal["ratios"]))
        check(all(v > 0 for v in cal["real_figures"].values()), "real figures positive")

        # A/A: a second measurement passes.
        again_path, again, _t = measure(a, tmp, "again")
        rc, text = gate("--baseline", base_path, "--current", again_path)
        check(rc == 0 and "passed" in text, "A/A calibration: exit %d, expected 0" % rc)
        check(text.count(" ok") >= 9, "A/A: every calibration row ok")

        # Away from real: the ratio farthest from 1.0 moves 10% farther.
        key = max(cal["ratios"], key=lambda k: abs(math.log(cal["ratios"][k])))
        r = cal["ratios"][key]
        away = write(tmp, "away", moved(again, key, 1.1 if r >= 1 else 0.9))
        rc, text = gate("--baseline", base_path, "--current", away)
        check(rc == 1, "drift away from real: exit %d, expected 1" % rc)
        check(rows_naming(text, key, "DRIFT"), "no DRIFT row names %s" % key)
        check("FAILED" in text, "the gate did not say FAILED")

        # Towards real: half the distance to 1.0 (when there is one to close).
        if abs(r - 1) > 0.05:
            toward = write(tmp, "toward", moved(again, key, (1 + r) / 2 / r))
            rc, text = gate("--baseline", base_path, "--current", toward)
            check(rc == 0, "closer to real: exit %d, expected 0" % rc)
            check(rows_naming(text, key, "closer to real"), "no 'closer' row for %s" % key)

        # Other real binaries in the baseline: the drift is only a warning.
        other = copy.deepcopy(base)
        other["calibration"]["real"]["version"] = "ovsdb-tool (Open vSwitch) 9.9.9"
        other["calibration"]["real"]["files"]["ovsdb-tool"] = "0" * 64
        rc, text = gate("--baseline", write(tmp, "other", other), "--current", away)
        check(rc == 0, "different real binary: exit %d, expected 0" % rc)
        check("WARNING" in text and "differ" in text, "no WARNING about the real binaries")
        check(rows_naming(text, key, "not gated"), "the drift row is not marked not gated")

        # No real binary: skipped, clearly, and the check passes.
        none_path, none, text = measure(a, tmp, "none", "--real-ovsdb-tool",
                                        os.path.join(tmp, "no-such-ovsdb-tool"))
        check("real OVS not found" in none["calibration"].get("skipped", ""),
              "missing ovsdb-tool: calibration not skipped with a reason")
        check("calibration skipped" in text, "no 'calibration skipped' message")
        rc, text = gate("--baseline", base_path, "--current", none_path)
        check(rc == 0 and "calibration not measured" in text,
              "missing ovsdb-tool: check exit %d, expected 0 with a note" % rc)
    return check.finish("ok: calibration stable, drift flagged, other "
                        "binaries a warning, missing binaries skipped")


if __name__ == "__main__":
    sys.exit(main())
