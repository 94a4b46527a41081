#!/usr/bin/env python3
"""A real Slurm on this machine runs a tiny study in 3 shards.

Starts munged, slurmctld and slurmd (Debian's slurm-wlm) on localhost with
a one-node configuration (OverSubscribe=EXCLUSIVE, state, spool, logs and
the munge key in a temporary folder), submits a suite study of 3 groups
with `scripts/jsonbench slurm --shards 3` under SBATCH_WAIT=1 (sbatch
--wait), and checks: 3 shard folders, no two shards' measuring intervals
overlap, every group whole in one shard, the merged index holds every job
of the serial plan once, the report renders (with the nodes), and the
merge refuses a shard edited to carry another commit.  Then a history
of a stand-in OVS tree (tests/pylib/standin_ovs.py) in 3 shards the same
way: each commit whole in one shard, the merged index the serial plan,
the merged report with its chart.  The daemons it started are stopped
by pid, also when a check fails.

Skips (exit 77) when not root or a Slurm/munge program is missing
(scripts/deps.sh --engines installs them), or fails there when
JSONBENCH_REQUIRE_ENGINES=1 (.ci/run).

usage: test_slurm.py BUILD_ROOT OVSDB_GEN SOURCE_ROOT"""

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from testkit import Checks  # noqa: E402
from studykit import (INSTALL_HINT, TinyStudy, clean_up, free_port, read, skip,  # noqa: E402
                      stems, stop_by_pid, tail)

PROGRAMS = ("munged", "slurmctld", "slurmd", "sbatch", "sinfo", "scancel")
SBIN = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"


def slurm_conf(tmp, host):
    return "\n".join([
        "ClusterName=jsonbench-test",
        "SlurmctldHost=%s(127.0.0.1)" % host,
        "SlurmctldPort=%d" % free_port(),
        "SlurmdPort=%d" % free_port(),
        "AuthType=auth/munge",
        "AuthInfo=socket=%s/munge/munge.socket" % tmp,
        "CredType=cred/munge",
        "SlurmUser=root",
        "SlurmdUser=root",
        "StateSaveLocation=%s/state" % tmp,
        "SlurmdSpoolDir=%s/spool" % tmp,
        "SlurmctldPidFile=%s/slurmctld.pid" % tmp,
        "SlurmdPidFile=%s/slurmd.pid" % tmp,
        "SlurmctldLogFile=%s/slurmctld.log" % tmp,
        "SlurmdLogFile=%s/slurmd.log" % tmp,
        "ProctrackType=proctrack/linuxproc",
        "TaskPlugin=task/none",
        "JobAcctGatherType=jobacct_gather/none",
        "AccountingStorageType=accounting_storage/none",
        "JobCompType=jobcomp/none",
        "MpiDefault=none",
        "SelectType=select/cons_tres",
        "SelectTypeParameters=CR_Core",
        "ReturnToService=2",
        "NodeName=%s NodeAddr=127.0.0.1 CPUs=%d State=UNKNOWN" % (host, os.cpu_count() or 1),
        "PartitionName=test Nodes=%s Default=YES MaxTime=INFINITE State=UP "
        "OverSubscribe=EXCLUSIVE" % host, ""])


class Daemons:
    """munged, slurmctld, slurmd in the foreground of processes we own."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.procs = []
        self.host = socket.gethostname().split(".")[0]
        self.conf = os.path.join(tmp, "slurm.conf")
        self.env = dict(os.environ, SLURM_CONF=self.conf)

    def start(self):
        t = self.tmp
        for d in ("state", "spool"):
            os.makedirs(os.path.join(t, d), mode=0o700)
        mdir = os.path.join(t, "munge")
        os.makedirs(mdir, mode=0o755)      # munged: its socket's folder must be searchable
        key = os.path.join(mdir, "munge.key")
        if not os.path.exists(key):
            with open(key, "wb") as f:
                f.write(os.urandom(1024))
            os.chmod(key, 0o400)
        with open(self.conf, "w") as f:
            f.write(slurm_conf(t, self.host))
        self._spawn("munged", ["munged", "-F", "--key-file", key,
                               "--socket", os.path.join(mdir, "munge.socket"),
                               "--pid-file", os.path.join(mdir, "munged.pid"),
                               "--log-file", os.path.join(mdir, "munged.log"),
                               "--seed-file", os.path.join(mdir, "munged.seed")])
        self._wait(lambda: os.path.exists(os.path.join(mdir, "munge.socket")), 10, "munged")
        self._spawn("slurmctld", ["slurmctld", "-D", "-i", "-f", self.conf])
        self._spawn("slurmd", ["slurmd", "-D", "-N", self.host, "-f", self.conf])
        self._wait(self._idle, 60, "the node to be idle (sinfo)")

    def _spawn(self, name, argv):
        log = open(os.path.join(self.tmp, name + ".out"), "w")
        path = shutil.which(argv[0], path=SBIN)
        p = subprocess.Popen([path] + argv[1:], stdout=log, stderr=subprocess.STDOUT,
                             env=self.env, start_new_session=True)
        self.procs.append((name, p))

    def _idle(self):
        for name, p in self.procs:
            if p.poll() is not None:
                raise RuntimeError("%s exited %d (%s)" % (name, p.returncode, self.tail(name)))
        r = subprocess.run(["sinfo", "-h", "-o", "%t"], env=self.env, capture_output=True,
                           text=True)
        return r.returncode == 0 and r.stdout.strip() == "idle"

    def _wait(self, cond, secs, what):
        end = time.time() + secs
        while time.time() < end:
            if cond():
                return
            time.sleep(0.5)
        raise RuntimeError("timed out waiting for %s" % what)

    def tail(self, name):
        return tail(os.path.join(self.tmp, name + ".out"))

    def stop(self):
        """Cancels what is left of our jobs, then stops each daemon we
        started, by pid (SIGTERM, then SIGKILL)."""
        if any(p.poll() is None for n, p in self.procs if n == "slurmctld"):
            subprocess.run(["scancel", "--full", "--user", "root"], env=self.env,
                           capture_output=True)
            time.sleep(1)
        stop_by_pid(p for name, p in self.procs)


def plan_shards(command, env, n):
    """The split a study's command prints with --shards N --plan-shards."""
    r = subprocess.run(command + ["--shards", str(n), "--plan-shards"], env=env,
                       capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def history_study(daemons, tmp, root, build_root, check):
    """A history of the stand-in OVS tree (tests/pylib/standin_ovs.py: its
    builds and loads are stand-ins in every process the job starts) in 3
    shards on the same Slurm, merged: every group whole in one shard, no
    overlapping measuring intervals, the merged index is the serial plan,
    and the merged report draws the chart."""
    sys.path.insert(0, os.path.join(root, "tests", "pylib"))
    import standin_ovs
    repo, _shas = standin_ovs.make_repo(os.path.join(tmp, "history"))
    ds = os.path.join(tmp, "nb.ovsdb")
    study = ["--ovs-tree", repo, "--ovs-ref", "v1.0.0..v1.1.0:8,ref=v1.0.1", "--dataset", ds,
             "--repetitions", "2", "--build-dir", build_root]
    env = dict(daemons.env, JSONBENCH_STANDIN_OVS=repo, SBATCH_WAIT="1",
               PYTHONPATH=os.pathsep.join([os.path.join(root, "python"),
                                           os.path.join(root, "tests", "pylib", "standin")]))
    jb = [os.path.join(root, "scripts", "jsonbench")]
    split, serial = [plan_shards(jb + ["history"] + study, env, n) for n in (3, 1)]
    out = os.path.join(tmp, "hstudy")
    t0 = time.time()
    r = subprocess.run(jb + ["slurm", "--shards", "3", "--out", out, "history"] + study,
                       env=env, capture_output=True, text=True)
    print("slurm history study: exit %d in %.0f s" % (r.returncode, time.time() - t0))
    check(r.returncode == 0, "slurm history study exits 0:\n%s%s" % (r.stdout[-2000:],
                                                                    r.stderr[-2000:]))
    intervals = []
    for part in split["assignment"]:
        f = os.path.join(out, "shard-%d" % part["shard"])
        if not check(os.path.exists(os.path.join(f, "index.json")),
                     "history shard %d folder" % part["shard"]):
            continue
        index = read(os.path.join(f, "index.json"))
        have = sorted(stems(index) + [x["job"] for x in index["failures"]])
        check(have == sorted(part["jobs"]), "history shard %d holds exactly its groups "
              "(each commit with its reference): %s" % (part["shard"], have))
        intervals.append(read(os.path.join(f, "env.json"))["shard"]["measured"])
    intervals.sort()
    check(len(intervals) == 3 and all(a[1] <= b[0] for a, b in zip(intervals, intervals[1:])),
          "no two history shards measured at once: %s" % intervals)
    merged = os.path.join(out, "merged")
    if check(os.path.exists(os.path.join(merged, "index.json")), "history merged"):
        index = read(os.path.join(merged, "index.json"))
        check(sorted(stems(index)) == sorted(serial["assignment"][0]["jobs"]) and
              not index["failures"], "the merged history index is the serial plan, each "
              "job once (failures %s)" % index["failures"])
        text = open(os.path.join(merged, "report.md")).read() \
            if os.path.exists(os.path.join(merged, "report.md")) else ""
        check("![history](history.png)" in text and "over 3 shards" in text and
              os.path.exists(os.path.join(merged, "history.png")),
              "the merged history report draws the chart")


def main():
    if os.geteuid() != 0:
        skip("not root: slurmd and munged are started as root here")
    missing = [p for p in PROGRAMS if not shutil.which(p, path=SBIN)]
    if missing:
        skip("%s not installed (%s)" % (", ".join(missing), INSTALL_HINT))
    build_root, gen, root = sys.argv[1:4]
    check = Checks()
    tmp = tempfile.mkdtemp(prefix="jsonbench-slurm-")
    os.chmod(tmp, 0o755)
    daemons = Daemons(tmp)
    try:
        study = TinyStudy(build_root, gen, root, tmp)
        split, env, jb = study.split, study.env, study.jb
        check(split["plan_hash"] == study.serial["plan_hash"] and split["units"] == 3,
              "--plan-shards: one plan hash whatever N, 3 groups (%s)" % split)

        daemons.start()
        out = os.path.join(tmp, "study")
        t0 = time.time()
        r = subprocess.run(jb + ["slurm", "--shards", "3", "--out", out, "run"] + study.opts,
                           env=dict(daemons.env, PYTHONPATH=env["PYTHONPATH"], SBATCH_WAIT="1"),
                           capture_output=True, text=True)
        print("slurm study: exit %d in %.0f s" % (r.returncode, time.time() - t0))
        if not check(r.returncode == 0, "scripts/jsonbench slurm exits 0:\n%s%s" % (
                r.stdout[-3000:], r.stderr[-3000:])):
            for f in sorted(os.listdir(os.path.join(out, "slurm"))):
                if f.endswith(".out"):
                    print("--- %s\n%s" % (f, open(os.path.join(out, "slurm", f)).read()[-2000:]))

        folders = [os.path.join(out, "shard-%d" % k) for k in (1, 2, 3)]
        check(all(os.path.exists(os.path.join(f, "index.json")) for f in folders),
              "3 shard folders with an index: %s" % os.listdir(out))
        intervals = []
        for k, f in enumerate(folders, 1):
            if not os.path.exists(os.path.join(f, "env.json")):
                continue
            sh = read(os.path.join(f, "env.json")).get("shard") or {}
            check(sh.get("index") == k and sh.get("count") == 3 and
                  sh.get("plan_hash") == split["plan_hash"] and sh.get("host") and
                  sh.get("cpu_model"), "shard %d's env.json names it: %s" % (k, sh))
            intervals.append((sh.get("measured") or [None, None], k))
        intervals.sort(key=lambda x: x[0][0] or 0)
        check(len(intervals) == 3 and all(a[0][1] and b[0][0] and a[0][1] <= b[0][0]
                                           for a, b in zip(intervals, intervals[1:])),
              "no two shards' measuring intervals overlap: %s" % intervals)
        merged = os.path.join(out, "merged")
        if study.check_results(check, folders, merged) is not None:
            menv = read(os.path.join(merged, "env.json"))
            check(sorted(x["shard"] for x in menv.get("shards", [])) == [1, 2, 3],
                  "merged env.json lists the 3 shards' nodes")
            md = os.path.join(merged, "report.md")
            text = open(md).read() if os.path.exists(md) else ""
            check("Environment" in text and "shard 3" in text and daemons.host in text,
                  "merged report.md renders, naming the shards' node")

        # A shard edited to carry another commit is refused, nothing written.
        bad = os.path.join(tmp, "shard-2-other-commit")
        shutil.copytree(folders[1], bad)
        p = read(os.path.join(bad, "plan.json"))
        p["commit"] = "0000000"
        with open(os.path.join(bad, "plan.json"), "w") as f:
            json.dump(p, f)
        r = subprocess.run(jb + ["merge", folders[0], bad, folders[2], "--out",
                                 os.path.join(tmp, "refused")], env=env, capture_output=True,
                           text=True)
        check(r.returncode != 0 and "another commit" in r.stderr and
              not os.path.exists(os.path.join(tmp, "refused")),
              "merge refuses a shard of another commit (exit %d): %s" % (r.returncode,
                                                                         r.stderr[-500:]))
        history_study(daemons, tmp, root, build_root, check)
    except (RuntimeError, subprocess.CalledProcessError, OSError) as exc:
        check(False, "%s\nslurmctld: %s\nslurmd: %s" % (exc, daemons.tail("slurmctld"),
                                                        daemons.tail("slurmd")))
    finally:
        daemons.stop()
        clean_up(check, tmp)
    return check.finish("ok: a 3-shard study on a real one-node Slurm, merged")


if __name__ == "__main__":
    sys.exit(main())
