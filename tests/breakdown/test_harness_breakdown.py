"""The harness's --mem-breakdown on real workloads, every impl:

- switching it on changes no allocation figure (calls and bytes of every
  phase; heap allocated after the load phase, which is what the gate reads);
- per-category sums equal the totals, after each phase and at its peak;
- every block was freed with xfree (no stale block), and after the free
  phase nearly nothing is left;
- after load, untagged ("other") bytes are under 5% of live bytes, and live
  bytes are at most the heap glibc reports (usable sizes <= chunks; not
  checked under ASan, whose allocator mallinfo does not see).

Usage: test_harness_breakdown.py DATASET NAME EXE [NAME EXE]..."""

import json
import os
import subprocess
import sys
import tempfile

CATEGORIES = ["other", "json_nodes", "strings", "arrays", "objects", "intern",
              "model", "indexes"]
RUNS = [("load", []),
        ("monitor", ["--mode", "cache", "--clients", "2", "--batches", "2",
                     "--batch-rows", "3", "--table", "Logical_Switch_Port"])]

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks  # noqa: E402

check = Checks(sys.stderr)


def run(exe, workload, opts, dataset, tmp, breakdown):
    out = os.path.join(tmp, "r.json")
    cmd = [exe, workload, "--no-sha256", "--results", out] + opts
    if breakdown:
        cmd.append("--mem-breakdown")
    cmd.append(dataset)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        sys.exit("FAIL: %s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr))
    with open(out) as f:
        data = json.load(f)
    return {b["name"]: b for b in data["benchmarks"] if b["run_type"] == "iteration"}


def check_impl(name, exe, dataset, tmp):
    for workload, opts in RUNS:
        off = run(exe, workload, opts, dataset, tmp, False)
        on = run(exe, workload, opts, dataset, tmp, True)
        where = "%s %s" % (name, workload)
        check(sorted(off) == sorted(on), "%s: phases differ" % where)
        for phase, b in on.items():
            w = "%s %s" % (where, phase)
            for k in ("alloc_calls", "alloc_bytes", "frees"):
                check(b[k] == off[phase][k], "%s: %s %s with the breakdown, %s without"
                      % (w, k, b[k], off[phase][k]))
            check("mem_live_bytes" not in off[phase], "%s: counters without the option" % w)
            for what, key in (("bytes", "mem_%s_bytes"), ("blocks", "mem_%s_blocks"),
                              ("peak bytes", "mem_peak_%s_bytes")):
                total = {"bytes": "mem_live_bytes", "blocks": "mem_live_blocks",
                         "peak bytes": "mem_peak_live_bytes"}[what]
                s = sum(b[key % c] for c in CATEGORIES)
                check(s == b[total], "%s: %s by category sum to %s, total %s"
                      % (w, what, s, b[total]))
            check(b["mem_peak_live_bytes"] >= b["mem_live_bytes"],
                  "%s: peak below live" % w)
            check(b["mem_stale_blocks"] == 0,
                  "%s: %d blocks freed without xfree" % (w, b["mem_stale_blocks"]))
            check(b["malloc_overhead_bytes"] == b["rss_bytes"] - b["mem_table_bytes"]
                  - b["mem_live_bytes"], "%s: malloc overhead is not RSS - table - live" % w)
        ld = on[workload + "/load"]
        w = "%s %s load" % (name, workload)
        check(ld["heap_allocated_bytes"] == off[workload + "/load"]["heap_allocated_bytes"],
              "%s: heap allocated %s with the breakdown, %s without"
              % (w, ld["heap_allocated_bytes"], off[workload + "/load"]["heap_allocated_bytes"]))
        other = ld["mem_other_bytes"] / ld["mem_live_bytes"]
        check(other < 0.05, "%s: other is %.1f%% of live bytes" % (w, other * 100))
        if ld["heap_allocated_bytes"]:     # 0 under ASan: its allocator's
            check(ld["mem_live_bytes"] <= ld["heap_allocated_bytes"],
                  "%s: live %s > heap %s" % (w, ld["mem_live_bytes"],
                                             ld["heap_allocated_bytes"]))
        check(ld["mem_model_bytes"] > 0 and ld["mem_json_nodes_bytes"] > 0
              and ld["mem_indexes_bytes"] > 0, "%s: model, nodes or indexes empty" % w)
        fr = on[workload + "/free"]
        check(fr["mem_live_bytes"] < 64 * 1024,
              "%s free: %d bytes still live" % (where, fr["mem_live_bytes"]))


def main(argv):
    if len(argv) < 3 or len(argv) % 2 == 0:
        sys.exit(__doc__)
    dataset = argv[0]
    with tempfile.TemporaryDirectory() as tmp:
        for name, exe in zip(argv[1::2], argv[2::2]):
            check_impl(name, exe, dataset, tmp)
    return check.finish("memory breakdown checks passed for %d impls"
                        % (len(argv) // 2))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
