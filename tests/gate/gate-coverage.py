#!/usr/bin/env python3
"""The regression gate covers every impl the build defines (stdlib only).

usage: gate-coverage.py --build-root DIR --baseline FILE IMPL...

IMPL... is impl_names from impls/meson.build, passed by meson.  Fails when
  - the gate's plan (python3 -m jsonbench.gate --dry-run) leaves one out, as
    harness or as micro-benchmark, or measures one the build does not
    define (a stale or test-only executable);
  - the committed baseline has no figure for one of its workloads or its
    micro-benchmarks: a new impl needs `scripts/gate.sh --update-baseline`
    or the gate only ever reports it as "new"."""

import argparse
import json
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-root", required=True)
    ap.add_argument("--baseline", required=True)
    ap.add_argument("impls", nargs="+")
    a = ap.parse_args()
    r = subprocess.run([sys.executable, "-m", "jsonbench.gate", "--build-dir", a.build_root,
                        "--dry-run"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("FAIL: gate --dry-run exited %d: %s" % (r.returncode, r.stderr.strip()))
    plan = json.loads(r.stdout)
    failures = []
    for part in ("harness", "micro"):
        planned = list(plan[part])
        missing = [i for i in a.impls if i not in planned]
        extra = [i for i in planned if i not in a.impls]
        if missing:
            failures.append("gate plan (%s) leaves out %s" % (part, ", ".join(missing)))
        if extra:
            failures.append("gate plan (%s) measures %s, not an impl of the build"
                            % (part, ", ".join(extra)))
        print("%s: the gate plans %s" % (part, ", ".join(planned)))

    with open(a.baseline) as f:
        metrics = json.load(f).get("metrics", {})
    for impl in a.impls:
        for where in plan["workloads"]:
            name = "%s/%s" % (impl, where)
            if not any(m.startswith(name + "/") or m.startswith(name + ":") for m in metrics):
                failures.append("baseline has no figure for %s" % name)
        if not any(m.startswith(impl + "/micro/") for m in metrics):
            failures.append("baseline has no micro-benchmark figure for %s" % impl)
    print("baseline: %d metrics checked for %d impls x %d workloads"
          % (len(metrics), len(a.impls), len(plan["workloads"])))
    if failures:
        for f in failures:
            print("FAIL: " + f)
        return 1
    print("ok: the gate covers every impl the build defines: %s" % ", ".join(a.impls))
    return 0


if __name__ == "__main__":
    sys.exit(main())
