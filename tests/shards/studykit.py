"""What the real-engine tests (test_slurm.py, test_ssh.py) share: a tiny
suite study of 3 groups, its split and serial plan, and the checks every
engine's result must pass (each shard folder holds exactly its groups'
jobs, every group whole in one shard, the merged index is the serial
plan with each job once)."""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from testkit import generate_tiny_nb  # noqa: E402


# Set by .ci/run, which installs the engines (scripts/deps.sh --engines):
# there an engine test that cannot run fails instead of skipping.
REQUIRE = "JSONBENCH_REQUIRE_ENGINES"
# What a skip says about installing the engines.
INSTALL_HINT = ("scripts/deps.sh --engines installs them: Slurm, munge, GNU parallel, rsync, "
                "ssh and sshd, their services disabled and none started")


def skip(why):
    """Skips (exit 77), or fails where the engines are required."""
    if os.environ.get(REQUIRE) == "1":
        print("FAIL: %s, and %s=1 requires this test to run" % (why, REQUIRE))
        sys.exit(1)
    print("SKIP: %s" % why)
    sys.exit(77)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop_by_pid(procs):
    """Stops each process we started (Popen objects), last first: SIGTERM,
    then SIGKILL after 15 s."""
    for p in reversed(list(procs)):
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def clean_up(check, tmp):
    """Removes the test's folder, or keeps it (and says where) when a check
    failed."""
    if check.failures:
        print("(files kept in %s)" % tmp)
    else:
        shutil.rmtree(tmp, ignore_errors=True)


def tail(path):
    """The last 1500 characters of a daemon's output file, "" if none."""
    try:
        with open(path) as f:
            return f.read()[-1500:]
    except OSError:
        return ""


def read(path):
    with open(path) as f:
        return json.load(f)


def stems(index):
    return [os.path.splitext(os.path.basename(e["file"]))[0] for e in index["entries"]]


class TinyStudy:
    """A suite study of three groups (NB load, SB load, NB txn) on tiny
    generated datasets in TMP, run with the build in BUILD_ROOT."""

    def __init__(self, build_root, gen, root, tmp):
        nb, sb = os.path.join(tmp, "nb.ovsdb"), os.path.join(tmp, "sb.ovsdb")
        generate_tiny_nb(gen, root, nb)
        subprocess.run([gen, "-q", "--schema", "/usr/share/ovn/ovn-sb.ovsschema",
                        "--profile", os.path.join(root, "datasets/profiles/sb.profile"),
                        "--scale", "0.002", "-o", sb], check=True)
        self.opts = ["--no-build", "--build-dir", build_root, "--impls", "plain,ovs",
                     "--workloads", "load,txn", "--repetitions", "1", "--no-mem-breakdown",
                     "--no-probe", "--dataset", nb, "--dataset", sb]
        self.env = dict(os.environ, PYTHONPATH=os.path.join(root, "python"))
        self.jb = [os.path.join(root, "scripts", "jsonbench")]
        self.split = self.plan(3)
        self.serial = self.plan(1)
        self.serial_jobs = sorted(self.serial["assignment"][0]["jobs"])

    def plan(self, n):
        r = subprocess.run(self.jb + ["run"] + self.opts + ["--shards", str(n),
                                                            "--plan-shards"],
                           env=self.env, capture_output=True, text=True, check=True)
        return json.loads(r.stdout)

    def check_results(self, check, folders, merged):
        """The shard folders and the merge, against the split and the
        serial plan; returns the merged index (None when missing)."""
        where = {}
        for k, f in enumerate(folders, 1):
            if not os.path.exists(os.path.join(f, "index.json")):
                continue
            have = sorted(stems(read(os.path.join(f, "index.json"))))
            want = sorted(self.split["assignment"][k - 1]["jobs"])
            check(have == want, "shard %d holds exactly its groups' jobs: %s, want %s"
                  % (k, have, want))
            for j in have:
                where.setdefault(j, []).append(k)
        for part in self.split["assignment"]:
            # Every job of a group in one shard folder: the group's shard.
            for j in part["jobs"]:
                check(where.get(j) == [part["shard"]], "%s ran in shard %s only, not %s"
                      % (j, part["shard"], where.get(j)))
        if not check(os.path.exists(os.path.join(merged, "index.json")),
                     "the merge wrote %s" % merged):
            return None
        index = read(os.path.join(merged, "index.json"))
        check(sorted(stems(index)) == self.serial_jobs and not index["failures"],
              "the merged index is the serial plan, each job once: %s vs %s, failures %s"
              % (sorted(stems(index)), self.serial_jobs, index["failures"]))
        return index
