#!/usr/bin/env python3
"""Real OVS in the loop with the installed ovsdb-server & co. on tiny
generated databases: the results parse in the suite's shape, the metrics
are positive, RSS after load grows with the dataset, a corrupt database
gives a clear error (not a hang), and no process the runner started
outlives it, also when the runner itself is killed mid-run.

usage: test_installed.py OVSDB-GEN SOURCE-ROOT
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import fail  # noqa: E402

GEN, ROOT = sys.argv[1], sys.argv[2]
SCHEMA = "/usr/share/ovn/ovn-%s.ovsschema"
RUN_TIMEOUT = 240
sys.path.insert(0, os.path.join(ROOT, "python"))
from jsonbench.realovs.proc import (  # noqa: E402
    fine_cpu_clock, live_pids_mentioning)
FINE_CPU = fine_cpu_clock()


def gen(tmp, kind, scale, form="snapshot"):
    path = os.path.join(tmp, "%s-%g-%s.ovsdb" % (kind, scale, form))
    subprocess.run([GEN, "-q", "--schema", SCHEMA % kind, "--profile",
                    os.path.join(ROOT, "datasets", "profiles",
                                 kind + ".profile"),
                    "--scale", "%g" % scale, "--form", form,
                    "--txns", "50", "-o", path], check=True)
    return path


def env_for(tmp):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(ROOT, "python")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["TMPDIR"] = tmp      # run dirs (sockets, db copies) go in here
    env["JSONBENCH_OVS_CACHE"] = os.path.join(tmp, "cache")  # txn client
    return env


def runner(tmp, out, datasets, workloads, reps=1):
    argv = [sys.executable, "-m", "jsonbench.realovs", "run", "--ovs-installed",
            "--workloads", workloads, "--repetitions", str(reps),
            "--out", out]
    for d in datasets:
        argv += ["--dataset", d]
    return argv


def ours(tmp):
    """pids of live processes whose command line mentions 'tmp'."""
    return live_pids_mentioning(tmp)


def check_none_left(tmp, what):
    left = ours(tmp)
    if left:
        fail("%s: processes left behind: %s" % (what, left))
    dirs = [d for d in os.listdir(tmp) if d.startswith("realovs-")]
    if dirs:
        fail("%s: run dirs left behind: %s" % (what, dirs))


def metric(doc, name, key):
    rows = [b for b in doc["benchmarks"]
            if b["name"] == name and b["run_type"] == "iteration"]
    if not rows:
        fail("no %s row in results" % name)
    return rows[0].get(key)


def test_results(tmp):
    small = gen(tmp, "nb", 0.002)
    big = gen(tmp, "nb", 0.02)
    log = gen(tmp, "nb", 0.002, "log")
    out = os.path.join(tmp, "res")
    p = subprocess.run(runner(tmp, out, [small, big, log],
                              "load,dump,compact", reps=2),
                       env=env_for(tmp), capture_output=True, text=True,
                       timeout=RUN_TIMEOUT)
    if p.returncode:
        fail("runner exited %d: %s" % (p.returncode, p.stderr))
    check_none_left(tmp, "normal run")
    with open(os.path.join(out, "index.json")) as f:
        index = json.load(f)
    if index["failures"]:
        fail("failures: %s" % index["failures"])
    docs = {}
    for e in index["entries"]:
        for k in ("impl", "workload", "variant", "dataset", "kind", "source"):
            if not e.get(k):
                fail("index entry lacks %s: %s" % (k, e))
        with open(os.path.join(out, e["file"])) as f:
            doc = json.load(f)
        ctx = doc["context"]
        if ctx["impl"] != "ovs-debian" or not ctx.get("ovs_version"):
            fail("context lacks the target: %s" % ctx)
        docs[(os.path.basename(ctx["dataset"]), e["workload"])] = doc
    # Each of the three files gets each of the three workloads (--dataset
    # with mixed forms: compact on the log form, the rest on snapshots).
    want = {(os.path.basename(small), "load"), (os.path.basename(big), "load"),
            (os.path.basename(small), "dump"), (os.path.basename(big), "dump"),
            (os.path.basename(log), "compact")}
    if set(docs) != want:
        fail("ran %s, wanted %s" % (sorted(docs), sorted(want)))
    for (ds, w), doc in docs.items():
        name = {"load": "load/load", "dump": "dump/dump",
                "compact": "compact/compact"}[w]
        reps = [b for b in doc["benchmarks"]
                if b["name"] == name and b["run_type"] == "iteration"]
        if len(reps) != 2:
            fail("%s %s: %d repetitions, wanted 2" % (ds, w, len(reps)))
        medians = [b for b in doc["benchmarks"]
                   if b.get("aggregate_name") == "median"]
        if not medians:
            fail("%s %s: no aggregates" % (ds, w))
        for r in reps:
            if r["time_unit"] != "ms":
                fail("time_unit %s" % r["time_unit"])
            for key in ("real_time", "cpu_time", "rss_bytes",
                        "peak_rss_bytes"):
                # With 10 ms ticks only, a small dump's server CPU may
                # truly read 0; with schedstat it must not.
                if key == "cpu_time" and not FINE_CPU and \
                        r.get(key, -1) >= 0:
                    continue
                if not r.get(key, 0) > 0:
                    fail("%s %s: %s = %r, not positive"
                         % (ds, w, key, r.get(key)))
            if w != "load" and not r.get("bytes_out", 0) > 0:
                fail("%s %s: no bytes_out" % (ds, w))
    rss_small = metric(docs[(os.path.basename(small), "load")], "load/load",
                       "rss_after_load_bytes")
    rss_big = metric(docs[(os.path.basename(big), "load")], "load/load",
                     "rss_after_load_bytes")
    if not rss_big > rss_small:
        fail("RSS after load does not grow: %d (x1) vs %d (x10)"
             % (rss_small, rss_big))
    print("ok: results parse, metrics positive, RSS %d -> %d"
          % (rss_small, rss_big))


def corrupt(src, dst):
    with open(src, "rb") as f:
        data = f.read()
    half = len(data) // 2
    with open(dst, "wb") as f:
        f.write(data[:half] + b"garbage{{" + data[half:])
    return dst


def test_corrupt(tmp):
    snap = corrupt(gen(tmp, "sb", 0.002),
                   os.path.join(tmp, "bad-snapshot.ovsdb"))
    out = os.path.join(tmp, "res-bad")
    t0 = time.monotonic()
    p = subprocess.run(runner(tmp, out, [snap], "load"), env=env_for(tmp),
                       capture_output=True, text=True, timeout=RUN_TIMEOUT)
    if p.returncode != 1:
        fail("corrupt db: exit %d, wanted 1: %s" % (p.returncode, p.stderr))
    if snap not in p.stderr or "offset" not in p.stderr:
        fail("corrupt db: error does not name file and offset: %s"
             % p.stderr)
    if os.listdir(os.path.join(out, "runs")):
        fail("corrupt db: results written for a failed job")
    with open(os.path.join(out, "index.json")) as f:
        if not json.load(f)["failures"]:
            fail("corrupt db: failure not recorded in index.json")
    check_none_left(tmp, "corrupt snapshot")

    log = corrupt(gen(tmp, "sb", 0.002, "log"),
                  os.path.join(tmp, "bad-log.ovsdb"))
    p = subprocess.run(runner(tmp, out, [log], "compact"), env=env_for(tmp),
                       capture_output=True, text=True, timeout=RUN_TIMEOUT)
    if p.returncode != 1 or "offset" not in p.stderr:
        fail("corrupt log: exit %d: %s" % (p.returncode, p.stderr))
    check_none_left(tmp, "corrupt log")
    print("ok: corrupt databases fail clearly in %.1f s"
          % (time.monotonic() - t0))


def run_one(tmp, out, argv, what):
    """Runs the runner's 'argv', which must succeed and leave no process,
    and returns the document of its first result in 'out'."""
    p = subprocess.run(argv, env=env_for(tmp), capture_output=True,
                       text=True, timeout=RUN_TIMEOUT)
    if p.returncode:
        fail("%s: exit %d: %s" % (what, p.returncode, p.stderr))
    check_none_left(tmp, what)
    with open(os.path.join(out, "index.json")) as f:
        e = json.load(f)["entries"][0]
    with open(os.path.join(out, e["file"])) as f:
        return json.load(f)


def test_monitor(tmp):
    """Real monitor-cond clients: they detach as daemons, so this also
    checks that the runner stops them by their pidfile pid."""
    db = gen(tmp, "sb", 0.01)
    out = os.path.join(tmp, "res-mon")
    argv = runner(tmp, out, [db], "monitor") + [
        "--concurrency", "2", "--workload-params", "batches=3,batch_rows=5"]
    doc = run_one(tmp, out, argv, "monitor")
    if metric(doc, "monitor/updates", "rows_per_batch") != 5:
        fail("monitor: rows_per_batch")
    for name, key in (("monitor/initial", "cpu_time"),
                      ("monitor/initial", "rows_matching"),
                      ("monitor/updates", "iter_median_ms"),
                      ("monitor/updates", "cpu_after_load_s")):
        if "cpu" in key and not FINE_CPU and metric(doc, name, key) >= 0:
            continue            # ticks only: a small CPU may read 0
        if not metric(doc, name, key) > 0:
            fail("monitor: %s %s not positive" % (name, key))
    # The server's CPU per batch, the model's iter_cpu_*_ms: ordered, and
    # its windows lie inside the updates phase (whose CPU reading may be
    # tick-based: 10 ms either way).
    cpu = [metric(doc, "monitor/updates", "iter_cpu_%s_ms" % k)
           for k in ("min", "median", "mean", "max")]
    floor = 0 if FINE_CPU else -1e-9        # ticks: a batch may read 0
    if None in cpu or not (floor < cpu[0] <= cpu[1] <= cpu[3]
                           and cpu[0] <= cpu[2] <= cpu[3]):
        fail("monitor: per-batch CPU min/median/mean/max %s" % cpu)
    phase_ms = metric(doc, "monitor/updates", "updates_cpu_s") * 1e3
    if not cpu[2] * 3 <= phase_ms + 20:
        fail("monitor: 3 batches x %.2f ms > the updates phase's %.2f ms"
             % (cpu[2], phase_ms))
    print("ok: monitor with real clients")


def test_txn(tmp):
    """The project's C client: C concurrent clients x M inserts."""
    db = gen(tmp, "nb", 0.002)
    out = os.path.join(tmp, "res-txn")
    argv = runner(tmp, out, [db], "txn") + ["--concurrency", "3", "--workload-params",
                                            "txns=40"]
    doc = run_one(tmp, out, argv, "txn")
    if metric(doc, "txn/server", "items") != 120:
        fail("txn: %r transactions, wanted 120"
             % metric(doc, "txn/server", "items"))
    for key in ("txn_per_s", "iter_median_ms", "real_time", "rss_bytes"):
        if not metric(doc, "txn/server", key) > 0:
            fail("txn: %s not positive" % key)
    print("ok: txn, %.0f inserts/s" % metric(doc, "txn/server", "txn_per_s"))


def test_raft(tmp):
    """A 3-server cluster on unix sockets, K transactions to the leader."""
    db = gen(tmp, "nb", 0.002)
    out = os.path.join(tmp, "res-raft")
    argv = runner(tmp, out, [db], "raft") + ["--workload-params", "entries=20"]
    doc = run_one(tmp, out, argv, "raft")
    if metric(doc, "raft/send", "items") != 20 or \
            metric(doc, "raft/send", "followers") != 2:
        fail("raft: wrong entries or followers")
    for name, key in (("raft/load", "rss_bytes"),
                      ("raft/load", "follower_rss_bytes"),
                      ("raft/send", "iter_median_ms")):
        if not metric(doc, name, key) > 0:
            fail("raft: %s %s not positive" % (name, key))
    print("ok: raft cluster")


def test_killed(tmp, sig):
    """The runner killed while a server runs: with SIGTERM it stops the
    server and removes its run dir; with SIGKILL (no cleanup can run) the
    server still goes, by the parent-death signal it was started with."""
    db = gen(tmp, "sb", 0.05)
    out = os.path.join(tmp, "res-killed")
    p = subprocess.Popen(runner(tmp, out, [db], "dump", reps=50),
                         env=env_for(tmp), stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            servers = [q for q in ours(tmp) if q != p.pid]
            if servers:
                break
            time.sleep(0.05)
        else:
            fail("no server appeared")
        p.send_signal(sig)
        p.wait(timeout=60)
        if sig == signal.SIGKILL:
            deadline = time.monotonic() + 10
            while ours(tmp) and time.monotonic() < deadline:
                time.sleep(0.1)
            for d in os.listdir(tmp):
                if d.startswith("realovs-"):
                    shutil.rmtree(os.path.join(tmp, d))
        check_none_left(tmp, "runner killed by signal %d" % sig)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    print("ok: a runner killed by signal %d leaves no process behind" % sig)


def main():
    for prog in ("ovsdb-server", "ovsdb-tool", "ovsdb-client", "ovs-appctl"):
        if not any(os.access(os.path.join(d, prog), os.X_OK) for d in
                   os.environ.get("PATH", "").split(":") + ["/usr/sbin"]):
            print("SKIP: %s not installed" % prog)
            sys.exit(77)
    with tempfile.TemporaryDirectory(prefix="realovs-test-") as tmp:
        try:
            test_results(tmp)
            test_corrupt(tmp)
            test_monitor(tmp)
            test_txn(tmp)
            test_raft(tmp)
            test_killed(tmp, signal.SIGTERM)
            test_killed(tmp, signal.SIGKILL)
        finally:
            # Whatever happened above, nothing of ours stays running.
            for pid in ours(tmp):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass


main()
