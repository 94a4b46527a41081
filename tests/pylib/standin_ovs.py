"""A stand-in for OVS in history and find tests (CI has no OVS tree):
a throw-away git repository whose commits store an RSS figure, builds
that build nothing, and real loads that report the commit's figure.

  repo, shas = make_repo(root)   main: 40 commits, RSS 100 MB until commit
                                 23 ('json: Store short strings in-place.')
                                 makes it 80; the monitor storm's RSS 50 MB
                                 until commit 31 ('ovsdb-monitor: Keep ...')
                                 makes it 60; v1.0.0 at commit 5, a
                                 branch-1.0 with v1.0.1 off the line,
                                 v1.1.0 at the end
  install(repo)                  jsonbench.history builds and the real
                                 load, load-ir, convert, monitor-storm and
                                 monitor-cond-change workloads become
                                 stand-ins: load reports the RSS (8 MB more
                                 on a dataset of the cluster form), convert
                                 1.4x (online peak) and 1.5x (offline peak)
                                 of it, the storm its own RSS, the condition
                                 changes 10 MB less than the storm's (the
                                 same step); CPU figures are noise

A process started by a test (scripts/jsonbench under Slurm) gets the
same stand-ins with tests/pylib/standin on PYTHONPATH and
JSONBENCH_STANDIN_OVS=REPO in its environment (standin/sitecustomize.py)."""

import os
import random
import subprocess

from jsonbench import history
from jsonbench.realovs import gbench as rgbench
from jsonbench.realovs import workloads as real_workloads
from jsonbench.realovs.target import Target


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True,
                          capture_output=True, text=True).stdout.strip()


STORM_STEP = 31


def commit(repo, rss, msg, storm=50 << 20):
    with open(os.path.join(repo, "rss.txt"), "w") as f:
        f.write("%d\n" % rss)
    with open(os.path.join(repo, "storm.txt"), "w") as f:
        f.write("%d\n" % storm)
    git(repo, "add", "rss.txt", "storm.txt")
    git(repo, "commit", "-q", "--allow-empty", "-m", msg)
    return git(repo, "rev-parse", "HEAD")


def make_repo(root):
    repo = os.path.join(root, "ovs")
    os.makedirs(repo)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "t@example.org")
    git(repo, "config", "user.name", "t")
    shas = []
    for i in range(40):
        storm = (60 if i >= STORM_STEP else 50) << 20
        if i == 23:
            shas.append(commit(repo, 80 << 20, "json: Store short strings in-place.", storm))
        elif i == STORM_STEP:
            shas.append(commit(repo, 80 << 20, "ovsdb-monitor: Keep a copy of each reply.",
                               storm))
        else:
            shas.append(commit(repo, (80 if i > 23 else 100) << 20, "change %d" % i, storm))
        if i == 5:
            git(repo, "tag", "v1.0.0")
            git(repo, "branch", "branch-1.0")
    git(repo, "checkout", "-q", "branch-1.0")
    commit(repo, 100 << 20, "Set release date for 1.0.1.")
    git(repo, "tag", "v1.0.1")
    git(repo, "checkout", "-q", "main")
    git(repo, "tag", "v1.1.0")
    return repo, shas


class FakeBuilder(history.Builder):
    """Builds nothing: a Target per commit, counted as built."""

    def __call__(self, c, label):
        if c in self.targets:
            return self.targets[c]
        if label == "v1.0.0-broken":
            self.failed[c] = "error: stand-in build failure"
            return None
        self.built.append(c)
        t = Target("ovs-" + label, {"ovsdb-server": "/bin/true", "ovsdb-tool": "/bin/true"},
                   "1.0", commit=c)
        self.targets[c] = t
        return t


def figure(repo, target, name="rss"):
    return int(git(repo, "show", "%s:%s.txt" % (target.commit, name)))


def fake_load(repo):
    def load(target, ds, opts):
        rss = figure(repo, target) + (8 << 20 if ds.get("form") == "cluster" else 0)
        rss += random.randint(0, 1 << 16)
        return [rgbench.row("load/load", {"real_time": 10.0, "cpu_time": 9.0 + random.random(),
                                          "rss_after_load_bytes": rss, "peak_rss_bytes": rss,
                                          "rss_bytes": rss})]
    return load


def fake_load_ir(repo):
    def load_ir(target, ds, opts):
        rss = int(git(repo, "show", "%s:rss.txt" % target.commit))
        return [rgbench.row("load-ir/load", {"real_time": 0.0, "cpu_time": 0.0,
                                             "instructions": rss * 3})]
    return load_ir


def fake_convert(repo):
    def convert(target, ds, opts):
        rss = figure(repo, target)
        off = {"real_time": 5.0, "cpu_time": 4.0, "convert_cpu_s": 0.4 + random.random() / 100,
               "convert_peak_rss_bytes": rss * 3 // 2, "rss_after_convert_bytes": rss * 3 // 2}
        on = {"real_time": 5.0, "cpu_time": 4.0, "convert_cpu_s": 0.4 + random.random() / 100,
              "convert_peak_rss_bytes": rss * 7 // 5, "rss_after_convert_bytes": rss * 13 // 10}
        return [rgbench.row("convert/offline", off),
                rgbench.row("convert/load", {"real_time": 1.0, "cpu_time": 1.0,
                                             "rss_after_load_bytes": rss}),
                rgbench.row("convert/convert", on)]
    return convert


# The monitor-storm options each stand-in run saw (tests check them).
STORM_OPTS = []


def fake_storm(repo):
    def storm(target, ds, opts):
        STORM_OPTS.append({k: opts.get(k) for k in ("held", "clients")})
        rss = figure(repo, target, "storm") + random.randint(0, 1 << 16)
        cpu = 20.0 + random.random()
        return [rgbench.row("monitor-storm/load", {"real_time": 1.0, "cpu_time": 1.0}),
                rgbench.row("monitor-storm/held", {"real_time": 1.0, "cpu_time": 1.0,
                                                   "rss_bytes": rss - (1 << 20)}),
                rgbench.row("monitor-storm/storm", {
                    "real_time": 1.0, "cpu_time": cpu * opts["clients"], "rss_bytes": rss,
                    "peak_rss_bytes": rss + (4 << 20), "cpu_per_request_ms": cpu})]
    return storm


# The monitor-cond-change options each stand-in run saw.
COND_OPTS = []


def fake_cond_change(repo):
    def cond_change(target, ds, opts):
        COND_OPTS.append({k: opts.get(k) for k in ("held", "changes", "datapaths")})
        rss = figure(repo, target, "storm") - (10 << 20) + random.randint(0, 1 << 16)
        cpu = 5.0 + random.random()
        n = opts["held"] * opts["changes"]
        return [rgbench.row("monitor-cond-change/load", {"real_time": 1.0,
                                                          "cpu_time": 1.0}),
                rgbench.row("monitor-cond-change/held", {"real_time": 1.0, "cpu_time": 1.0,
                                                         "rss_bytes": rss - (1 << 20)}),
                rgbench.row("monitor-cond-change/change", {
                    "real_time": 1.0, "cpu_time": cpu * n, "rss_bytes": rss,
                    "peak_rss_bytes": rss + (2 << 20), "cpu_per_change_ms": cpu})]
    return cond_change


def install(repo):
    history.Builder = FakeBuilder
    real_workloads.load = fake_load(repo)
    real_workloads.ONCE["load-ir"] = fake_load_ir(repo)
    real_workloads.convert = fake_convert(repo)
    real_workloads.NAMED["monitor-storm"] = fake_storm(repo)
    real_workloads.NAMED["monitor-cond-change"] = fake_cond_change(repo)
