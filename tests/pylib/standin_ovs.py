"""A stand-in for OVS in history and find tests (CI has no OVS tree):
a throw-away git repository whose commits store an RSS figure, builds
that build nothing, and real loads that report the commit's figure.

  repo, shas = make_repo(root)   main: 40 commits, RSS 100 MB until commit
                                 23 ('json: Store short strings in-place.')
                                 makes it 80; v1.0.0 at commit 5, a
                                 branch-1.0 with v1.0.1 off the line,
                                 v1.1.0 at the end
  install(repo)                  jsonbench.history builds and the real
                                 load/load-ir workloads become stand-ins

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


def commit(repo, rss, msg):
    with open(os.path.join(repo, "rss.txt"), "w") as f:
        f.write("%d\n" % rss)
    git(repo, "add", "rss.txt")
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
        if i == 23:
            shas.append(commit(repo, 80 << 20, "json: Store short strings in-place."))
        else:
            shas.append(commit(repo, (80 if i > 23 else 100) << 20, "change %d" % i))
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


def fake_load(repo):
    def load(target, ds, opts):
        rss = int(git(repo, "show", "%s:rss.txt" % target.commit))
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


def install(repo):
    history.Builder = FakeBuilder
    real_workloads.load = fake_load(repo)
    real_workloads.ONCE["load-ir"] = fake_load_ir(repo)
