#!/usr/bin/env python3
"""Shards without a cluster: the split (deterministic, largest first, whole
groups), the merge of made-up shard folders (every job once; a missing or
unfinished shard as failure entries; refusals of another commit, plan,
split or dataset, writing nothing; a warning for mixed CPU models), and
the scripts the Slurm and GNU parallel engines write, the instruction
counts of a sharded claims reproduction, and compare_claims.py's
repetition spread.

usage: test_merge.py SOURCE_ROOT"""

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from testkit import Checks  # noqa: E402

from jsonbench import merge, shards  # noqa: E402

check = Checks()
ROOT = sys.argv[1]


def units():
    # Costs chosen so that largest-first differs from plan order.
    return [shards.Unit(("nb", "txn"), "nb txn", ["nb__txn__plain", "nb__txn__ovs"], 1),
            shards.Unit(("sb", "load"), "sb load+dump", ["sb__load__plain", "sb__load__ovs"], 9),
            shards.Unit(("nb", "load"), "nb load+dump", ["nb__load__plain", "nb__load__ovs"], 5),
            shards.Unit(("nb", "raft"), "nb raft", ["nb__raft-tree__plain"], 5)]


def test_split():
    parts = shards.assign(units(), 3)
    labels = [[u.label for u in p] for p in parts]
    check(labels == [["sb load+dump"], ["nb txn", "nb load+dump"], ["nb raft"]],
          "largest first, ties by label, to the least loaded shard, plan order within: %s"
          % labels)
    check([[u.label for u in p] for p in shards.assign(list(reversed(units())), 3)] ==
          [["sb load+dump"], ["nb load+dump", "nb txn"], ["nb raft"]],
          "the same shards whatever the plan order (only the order within one changes)")
    check(len(shards.assign(units(), 6)[5]) == 0, "more shards than groups: empty shards")
    a = shards.plan_hash(units(), {"repetitions": 2})
    check(a == shards.plan_hash(units(), {"repetitions": 2}) and
          a != shards.plan_hash(units(), {"repetitions": 3}), "the plan hash covers 'what'")
    try:
        shards.assign(units() + [shards.Unit("x", "nb txn", [], 1)], 2)
        check(False, "two groups with one label are refused")
    except ValueError:
        pass
    check(shards.strip_args(["--scale", "1", "--shards", "3", "--shard=2", "--plan-shards",
                             "--out", "X"], ["--out"]) == ["--scale", "1"],
          "strip_args drops the shard options (and --out when asked)")


class Args:
    def __init__(self, n, k):
        self.shards, self.shard = n, k


def make_shards(tmp, n=3, commit="abc1234", cpu=lambda k: "CPU A", hazards=lambda k: []):
    us = units()
    digest = shards.plan_hash(us, {"repetitions": 1})
    folders = []
    for k in range(1, n + 1):
        d = os.path.join(tmp, "shard-%d" % k)
        os.makedirs(os.path.join(d, "runs"))
        args = Args(n, k)
        mine = shards.assign(us, n)[k - 1]
        entries = []
        for u in mine:
            for j in u.jobs:
                with open(os.path.join(d, "runs", j + ".json"), "w") as f:
                    json.dump({"benchmarks": []}, f)
                entries.append({"file": "runs/%s.json" % j, "impl": j.split("__")[-1]})
        env = {"git_commit": commit + "full", "cpu_model": cpu(k),
               "datasets": [{"label": "nb", "sha256": "11"}, {"label": "sb", "sha256": "22"}],
               "timing_hazards": [{"setting": h, "value": "1"} for h in hazards(k)],
               "loadavg_start": "0.%d0 0.00 0.00" % k, "loadavg_end": "1.%d0 0.00 0.00" % k,
               "command": "scripts/suite.sh --scale 1 --shards %d --shard %d --out %s"
                          % (n, k, d),
               "shard": dict(shards.shard_env(args, us, digest, 10.0 * k, 10.0 * k + 5),
                             cpu_model=cpu(k))}
        plan = {"tool": "suite", "argv": ["--shards", str(n), "--shard", str(k)],
                "commit": commit, "plan_hash": "own", "jobs": [e["file"] for e in entries],
                "finished": [], "interrupted": False,
                "shard": shards.plan_state(args, us, digest, "suite")}
        for name, doc in (("env.json", env), ("plan.json", plan),
                          ("index.json", {"entries": entries, "failures": []})):
            with open(os.path.join(d, name), "w") as f:
                json.dump(doc, f)
        folders.append(d)
    return folders


def all_jobs():
    return sorted(j for u in units() for j in u.jobs)


def merged(folders, out, n=None):
    with contextlib.redirect_stdout(io.StringIO()):
        return merge.merge(folders, out, n)


def test_merge(tmp):
    f = make_shards(os.path.join(tmp, "a"))
    out = os.path.join(tmp, "a-merged")
    _tool, failures, nodes, warning = merged(f, out)
    with open(os.path.join(out, "index.json")) as fh:
        index = json.load(fh)
    stems = sorted(os.path.splitext(os.path.basename(e["file"]))[0] for e in index["entries"])
    check(stems == all_jobs() and not failures and not warning,
          "all shards: every job once, no failure: %s %s" % (stems, failures))
    check(all(os.path.exists(os.path.join(out, e["file"])) for e in index["entries"]),
          "the runs are copied")
    with open(os.path.join(out, "env.json")) as fh:
        env = json.load(fh)
    check([x["shard"] for x in env["shards"]] == [1, 2, 3] and
          "--shard" not in env["command"] and "shard-1" not in env["command"],
          "env.json lists the nodes, the command is the study's: %s" % env["command"])

    # Shard 2 missing: its job(s) and the shard itself are failure entries.
    out = os.path.join(tmp, "a-missing")
    _tool, failures, _n, _w = merged([f[0], f[2], os.path.join(tmp, "nowhere")], out)
    lost = sorted(x["job"] for x in failures if not x["job"].startswith("shard-"))
    check(lost == ["nb__load__ovs", "nb__load__plain", "nb__txn__ovs", "nb__txn__plain"] and
          any(x["job"] == "shard-2-of-3" for x in failures),
          "a missing shard: a failure entry for it and for each of its jobs: %s" % failures)

    # Mixed CPU models: a warning, both named.
    g = make_shards(os.path.join(tmp, "b"), cpu=lambda k: "CPU B" if k == 2 else "CPU A")
    _t, _f, _n, warning = merged(g, os.path.join(tmp, "b-merged"))
    with open(os.path.join(tmp, "b-merged", "env.json")) as fh:
        cpu = json.load(fh)["cpu_model"]
    check(warning and "CPU A" in cpu and "CPU B" in cpu, "different CPU models warn: %s" % cpu)

    # A timing hazard on one node only: listed with its shard, and a warning
    # naming that shard; the nodes keep their load averages.
    h = make_shards(os.path.join(tmp, "hz"),
                    hazards=lambda k: ["page reporting"] if k == 3 else ["autogroup"])
    _t, _f, _n, warning = merged(h, os.path.join(tmp, "hz-merged"))
    with open(os.path.join(tmp, "hz-merged", "env.json")) as fh:
        env = json.load(fh)
    got = {x["setting"]: x["shards"] for x in env["timing_hazards"]}
    check(got == {"autogroup": [1, 2], "page reporting": [3]},
          "every shard's hazards, with the shards they were on: %s" % got)
    check(warning and "shard(s) 3 ran with the timing hazard page reporting" in warning and
          "autogroup" in warning and "CPU models" not in warning,
          "a hazard some shards had warns, naming them: %s" % warning)
    check([x["loadavg"] for x in env["shards"]][2] == ["0.30 0.00 0.00", "1.30 0.00 0.00"] and
          [x["timing_hazards"] for x in env["shards"]][2] == ["page reporting"],
          "each node's load average and hazards: %s" % env["shards"])
    _t, _f, _n, warning = merged(make_shards(os.path.join(tmp, "hz2"),
                                             hazards=lambda k: ["autogroup"]),
                                 os.path.join(tmp, "hz2-merged"))
    check(not warning, "a hazard every shard had is listed, not warned of: %s" % warning)


def test_compare_spread():
    # compare_claims pairs each repetition's after with its own before.
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import compare_claims
    got = compare_claims.spread({"before_values": [10.0, 10.0, 20.0],
                                 "after_values": [9.0, 11.0, 10.0]})
    check(got is not None and abs(got[0] + 50.0) < 1e-9 and abs(got[1] - 10.0) < 1e-9,
          "the spread is the paired changes' range: %s" % (got,))
    check(compare_claims.spread({"before_values": [0.0], "after_values": [1.0]}) is None,
          "a zero before has no change")
    check(compare_claims.overlap((-5, 1), (0, 3)) and not compare_claims.overlap((-5, -1),
                                                                                 (0, 3)),
          "overlap of two ranges")
    further = compare_claims._further
    check(further(-10.0, +5.0, -8.0, 3.0, True, True),
          "shards 15 points off, a second serial run 2: further")
    check(not further(-10.0, +5.0, +9.0, 3.0, True, True),
          "a second serial run 19 points off: the shards are not further")
    check(not further(-10.0, -8.0, -10.0, 3.0, True, True),
          "2 points off is inside the 3-point band")
    check(further(-10.0, -10.0, -10.0, 3.0, False, True),
          "a verdict the two serial runs agree on and the shards change")
    check(not further(-10.0, -10.0, -10.0, 3.0, False, False),
          "a verdict the serial runs already disagree on")


def refused(folders, out, what, n=None):
    try:
        merged(folders, out, n)
        check(False, "%s: merged anyway" % what)
    except merge.Refused as exc:
        check(not os.path.exists(out), "%s: refused (%s), nothing written" % (what, exc))


def edit(folder, name, fn):
    path = os.path.join(folder, name)
    with open(path) as fh:
        doc = json.load(fh)
    fn(doc)
    with open(path, "w") as fh:
        json.dump(doc, fh)


def test_refusals(tmp):
    f = make_shards(os.path.join(tmp, "c"))
    other = make_shards(os.path.join(tmp, "d"), commit="def5678")
    refused([f[0], other[1], f[2]], os.path.join(tmp, "r1"), "another commit")
    edit(other[1], "plan.json", lambda d: d.update(commit="abc1234"))
    refused([f[0], other[1], f[2]], os.path.join(tmp, "r2"), "another commit (env.json)")
    edit(other[1], "env.json", lambda d: d.update(git_commit="abc1234full"))
    edit(other[1], "plan.json", lambda d: d["shard"].update(plan_hash="0" * 64))
    refused([f[0], other[1], f[2]], os.path.join(tmp, "r3"), "another plan")
    refused([f[0], f[0], f[2]], os.path.join(tmp, "r4"), "one shard twice")
    refused(f, os.path.join(tmp, "r5"), "--shards 4 for a 3-way split", n=4)
    edit(f[1], "env.json", lambda d: d["datasets"][1].update(sha256="33"))
    refused(f, os.path.join(tmp, "r6"), "a dataset whose sha256 differs")


def test_engines(tmp):
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    jb = [sys.executable, "-m", "jsonbench"]
    study = os.path.join(tmp, "study")
    r = subprocess.run(jb + ["slurm", "--dry-run", "--shards", "3", "--out", study, "claims",
                             "--scale", "0.5"], env=env, capture_output=True, text=True)
    text = ""
    path = os.path.join(study, "slurm", "shards.sbatch")
    if os.path.exists(path):
        text = open(path).read()
    check(r.returncode == 0 and "#SBATCH --array=1-3" in text and "#SBATCH --exclusive" in text
          and "--shards 3 --shard \"$k\"" in text and "trap copy_back EXIT" in text and
          "--build-dir \"build-node-$(hostname -s)\"" in text and
          "afterany" in r.stdout + r.stderr,
          "slurm --dry-run writes the job array and says how the merge follows: %s %s"
          % (r.stderr[-500:], text[-800:]))
    m = os.path.join(study, "slurm", "merge.sbatch")
    check(os.path.exists(m) and "merge" in open(m).read() and
          os.path.join(study, "merged") in open(m).read(), "and the merge job")
    r = subprocess.run(jb + ["parallel", "--dry-run", "hostA,hostB", "--shards", "3", "--out",
                             study, "run", "--workloads", "load"], env=env, capture_output=True,
                       text=True)
    check(r.returncode == 0 and "--sshlogin 1/hostA,1/hostB" in r.stdout and
          "--return" in r.stdout and "::: 1 2 3" in r.stdout and "merge" in r.stdout,
          "parallel --dry-run: one shard per host, results returned: %s" % r.stdout)
    r2 = subprocess.run(jb + ["parallel", "--dry-run", ":,hostA", "--shards", "2", "--out",
                              study, "run"], env=env, capture_output=True, text=True)
    check("--sshlogin 1/:,1/hostA" in r2.stdout, "':' (this machine) runs one shard at a "
          "time too, not one per core: %s" % r2.stdout)
    check("--joblog" in r.stdout and os.path.join(study, "parallel", "joblog") in r.stdout,
          "parallel keeps GNU parallel's joblog in the study: %s" % r.stdout)
    test_parallel_hosts(tmp)
    hstudy = os.path.join(tmp, "hstudy")
    r = subprocess.run(jb + ["slurm", "--dry-run", "--shards", "2", "--out", hstudy, "history",
                             "--ovs-tree", "/ovs", "--ovs-ref", "v3.*.0"], env=env,
                       capture_output=True, text=True)
    path = os.path.join(hstudy, "slurm", "shards.sbatch")
    text = open(path).read() if os.path.exists(path) else ""
    check(r.returncode == 0 and "scripts/jsonbench history --ovs-tree /ovs --ovs-ref "
          "'v3.*.0'" in text and "--shards 2 --shard \"$k\"" in text,
          "slurm --dry-run takes a history study: %s" % (r.stderr[-300:] or text[-600:]))
    r = subprocess.run(jb + ["slurm", "--shards", "2", "--out", study, "run", "--shard", "1"],
                       env=env, capture_output=True, text=True)
    check(r.returncode == 2 and "--shard" in r.stderr, "the study may not name --shard")


def test_parallel_hosts(tmp):
    """The parallel engine's host probe and joblog summary, with a fake ssh
    (the real one: test_ssh.py)."""
    from jsonbench import engines
    fake = os.path.join(tmp, "fake-ssh")
    with open(fake, "w") as f:
        # Answers as a host would: up, down, without the checkout, without rsync.
        f.write('#!/bin/sh\nfor a; do h=$a; shift; [ $# -eq 1 ] && break; done\n'
                'case $h in up) exit 0 ;; nocheckout) exit 3 ;; norsync) exit 5 ;; esac\n'
                'echo "ssh: connect to host $h port 22: Connection refused" >&2; exit 255\n')
    os.chmod(fake, 0o755)
    old = os.environ.get("PARALLEL_SSH")
    os.environ["PARALLEL_SSH"] = fake
    try:
        check(engines.ssh_argv("h1")[0] == fake and engines.ssh_argv("h1")[-1] == "h1" and
              engines.ssh_argv("ssh -p 2222 h2") == ["ssh", "-p", "2222", "h2"],
              "ssh_argv: $PARALLEL_SSH HOST, or the sshlogin's own command: %s"
              % engines.ssh_argv("h1"))
        bad = engines.check_hosts([":", "up", "down", "nocheckout", "norsync"])
    finally:
        if old is None:
            del os.environ["PARALLEL_SSH"]
        else:
            os.environ["PARALLEL_SSH"] = old
    check(sorted(bad) == ["down", "nocheckout", "norsync"] and
          "Connection refused" in bad["down"] and "same path" in bad["nocheckout"] and
          "rsync" in bad["norsync"], "check_hosts: the hosts that cannot run a shard, and "
          "why: %s" % bad)
    log = os.path.join(tmp, "joblog")
    with open(log, "w") as f:
        f.write("Seq\tHost\tStarttime\tJobRuntime\tSend\tReceive\tExitval\tSignal\tCommand\n"
                "2\thostB\t1.0\t  3.2\t0\t0\t255\t0\tx\n"
                "1\thostA\t1.0\t 40.6\t0\t9\t0\t0\tx\n"
                "3\thostA\t9.0\t  5.0\t0\t9\t1\t0\tx\n")
    lines = engines.joblog_summary(log)
    check(len(lines) == 3 and lines[0] == "shard 1 on hostA: 41 s, exit 0" and
          "shard 2 on hostB" in lines[1] and "ssh to hostB failed" in lines[1] and
          lines[2].endswith("exit 1"), "joblog_summary: each shard's host and exit: %s" % lines)
    check("no joblog" in engines.joblog_summary(os.path.join(tmp, "none"))[0],
          "joblog_summary without a joblog says so")


def test_merge_claims_instructions(tmp):
    """Each shard of a claims reproduction counts the instructions of its
    own timing claims: the merged claims-run.json has every shard's."""
    class Shard:
        def __init__(self, k, meta):
            self.k, self.path = k, os.path.join(tmp, "claims-%d" % k)
            os.makedirs(self.path)
            with open(os.path.join(self.path, "claims-run.json"), "w") as fh:
                json.dump(dict(meta, claims={"claims": []}), fh)

    one = Shard(1, {"runs": {}, "complete": True, "instructions_scale": 0.01,
                    "instructions": {"a": {"file": "runs/a.json"},
                                     "b": {"error": "run by another shard"}}})
    two = Shard(2, {"runs": {}, "complete": True, "instructions_scale": 0.01,
                    "instructions": {"b": {"file": "runs/b.json"}}})
    out = os.path.join(tmp, "claims-merged")
    os.makedirs(out)
    merge.merge_claims([one, two], out, 2)
    with open(os.path.join(out, "claims-run.json")) as fh:
        got = json.load(fh)["instructions"]
    check(got == {"a": {"file": "runs/a.json"}, "b": {"file": "runs/b.json"}},
          "merged claims keep every shard's instruction counts: %s" % got)


def main():
    test_split()
    with tempfile.TemporaryDirectory(prefix="jsonbench-merge-test-") as tmp:
        test_merge(tmp)
        test_refusals(tmp)
        test_merge_claims_instructions(tmp)
        test_compare_spread()
        test_engines(tmp)
    return check.finish("ok: split, merge, refusals, engine scripts")


if __name__ == "__main__":
    sys.exit(main())
