#!/usr/bin/env python3
"""jsonbench.measuring, the setup every timed process runs in: the heap
settings merged into GLIBC_TUNABLES and MALLOC_CONF (and nothing with
--as-deployed), the CPU a started process is pinned to, the real runner's
processes (RunDir) started in the same setup and measured with their page
faults, the noise floor from stand-in probes (spread, errors) and from the
real jsonbench-noise-probe (its page faults drop on huge pages), the
env.json accessors, the merged noise floor of shards, and the report's
rows (also for a folder from before any of it).

usage: test_measuring.py BUILD_DIR [SANITIZE]
(SANITIZE: the build's b_sanitize; under a sanitizer the probe's malloc is
the sanitizer's, which glibc's tunables do not reach)"""

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import types

from jsonbench import env as E
from jsonbench import measuring as M
from jsonbench import merge
from jsonbench.realovs import proc
from jsonbench.report.sections import cpu_split, environment

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks  # noqa: E402

check = Checks()
PY = sys.executable


def fake_probe(tmp, cpu_values):
    """A stand-in probe printing the next of cpu_values on each run."""
    counter = os.path.join(tmp, "n")
    with open(counter, "w") as f:
        f.write("0")
    path = os.path.join(tmp, "probe")
    with open(path, "w") as f:
        f.write("#!%s\nimport json\nv = %r\nn = int(open(%r).read())\nopen(%r, 'w')"
                ".write(str(n + 1))\nprint(json.dumps({'mib': 1, 'mops': 1, 'cpu_s': v[n], "
                "'user_s': v[n], 'sys_s': 0, 'wall_s': v[n], 'minor_faults': 10, "
                "'major_faults': 0}))\n" % (PY, list(cpu_values), counter, counter))
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


def child_affinity(setup):
    out = subprocess.run(setup.command([PY, "-c",
                                        "import os; print(sorted(os.sched_getaffinity(0)))"]),
                         stdout=subprocess.PIPE, text=True, check=True,
                         env=setup.environment())
    return out.stdout.strip()


def check_environment():
    base = {"GLIBC_TUNABLES": "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=0",
            "MALLOC_CONF": "narenas:1", "PATH": "/bin"}
    s = M.Setup(thp="madvise", cpu=0)
    env = s.environment(base)
    check(env["GLIBC_TUNABLES"] == "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1",
          "hugetlb replaces the old value, other tunables stay: %r" % env["GLIBC_TUNABLES"])
    check(env["MALLOC_CONF"] == "narenas:1,thp:always",
          "jemalloc's thp added: %r" % env["MALLOC_CONF"])
    check(env["PATH"] == "/bin", "the rest of the environment stays")
    check(M.Setup(thp="madvise").environment({})["GLIBC_TUNABLES"] == "glibc.malloc.hugetlb=1",
          "no GLIBC_TUNABLES before: just the heap setting")
    dep = M.Setup(as_deployed=True, thp="madvise")
    check(dep.environment(base) == base, "--as-deployed leaves the environment alone")
    check(dep.cpu is None and dep.command(["x"]) == ["x"], "--as-deployed pins nothing")
    check(M.Setup(thp="madvise", taskset="").cpu is None and any(
        "taskset" in w for w in M.Setup(thp="madvise", taskset="").warnings()),
          "no taskset: no pinning, and a warning")
    d = dep.describe()
    check(d["setup"] == "as-deployed" and d["applied"] == [] and d["pinned_cpu"] is None,
          "as-deployed description: %r" % d)
    never = M.Setup(thp="never", cpu=0)
    check(never.environment(base) == base and never.warnings(),
          "THP 'never': no heap setting, and a warning: %r" % never.warnings())
    d = s.describe()
    check(d["setup"] == "measuring" and d["pinned_cpu"] == 0 and len(d["applied"]) == 2
          and "glibc.malloc.hugetlb=1" in d["applied"][0] and d["as_deployed_option"]
          == "--as-deployed", "measuring description: %r" % d)
    check("--as-deployed" in s.summary(), "the log line names the way back: %r" % s.summary())
    args = types.SimpleNamespace(as_deployed=True)
    check(M.Setup.from_args(args).as_deployed, "from_args reads --as-deployed")
    check(M.Setup.from_args(types.SimpleNamespace()).name == "measuring",
          "the default is the measuring setup")


def check_pinning():
    cpus = sorted(os.sched_getaffinity(0))
    last = M.pin_cpu()
    check(last == cpus[-1], "pinned to the last allowed CPU: %r of %r" % (last, cpus))
    got = child_affinity(M.Setup(thp="madvise", cpu=cpus[0]))
    check(got == "[%d]" % cpus[0], "the child runs on the one CPU: %s" % got)
    got = child_affinity(M.Setup(as_deployed=True))
    check(got == str(cpus), "as deployed, the child may run anywhere: %s" % got)
    check(sorted(os.sched_getaffinity(0)) == cpus, "the parent is not pinned")


def check_rundir():
    setup = M.Setup(thp="madvise", cpu=sorted(os.sched_getaffinity(0))[0])
    with proc.RunDir(setup=setup) as rd:
        out = rd.file("out")
        r = proc.run_to_end(rd, ["sh", "-c", "echo $GLIBC_TUNABLES; "
                                 "grep Cpus_allowed_list /proc/self/status"], "sh", 30,
                            stdout=out)
        with open(out) as f:
            lines = f.read().split("\n")
    check(lines[0] == "glibc.malloc.hugetlb=1", "real processes get the heap setting: %r"
          % lines)
    check(lines[1].split()[-1] == str(setup.cpu), "real processes are pinned: %r" % lines)
    check(r["minflt"] > 0 and r["majflt"] >= 0, "run_to_end counts faults: %r" % r)
    with proc.RunDir() as rd:
        p = rd.start(["sleep", "5"], "sleep")
        snap = proc.snapshot(p.pid)
        rd.stop(p)
    check(snap["minflt"] > 0 and "majflt" in snap, "a snapshot counts faults: %r" % snap)


def check_floor(build_dir, sanitized):
    tmp = tempfile.mkdtemp(prefix="jsonbench-measuring-")
    try:
        setup = M.Setup(thp="madvise", cpu=None)
        f = M.noise_floor(build_dir, setup, runs=5, exe=fake_probe(tmp, [9.0, 1.0, 1.1, 0.9,
                                                                         1.2, 1.0]))
        check(abs(f["spread_pct"] - 30.0) < 1e-9 and f["median_s"] == 1.0 and len(f["runs"])
              == 5 and f["setup"] == "measuring", "spread (1.2 - 0.9) / 1.0: %r" % f)
        check([r["cpu_s"] for r in f["warmup_runs"]] == [9.0],
              "the warm-up process is kept apart: %r" % f["warmup_runs"])
        check(E.noise_floor_pct({"noise_floor": f}) == 30.0, "the accessor reads it")
        check(E.noise_floor_pct({}) is None and E.noise_floor_pct(None) is None and
              E.noise_floor_pct({"noise_floor": {"error": "x"}}) is None,
              "no floor: None")
        check(E.measuring_setup({"measuring_setup": setup.describe()}) == "measuring" and
              E.measuring_setup({}) is None, "the setup accessor")
        bad = M.noise_floor(build_dir, setup, exe=os.path.join(tmp, "missing"))
        check("error" in bad and "not built" in bad["error"], "no probe: an error: %r" % bad)
        false = M.noise_floor(build_dir, setup, exe=shutil.which("false"))
        check("error" in false and "exited 1" in false["error"], "a failing probe: %r" % false)
        lines = []
        s = M.begin(types.SimpleNamespace(as_deployed=False), os.path.join(tmp, "nobuild"),
                    lines.append)
        check(any(l.startswith("measuring setup:") for l in lines) and
              any("noise floor not measured" in l for l in lines) and
              "noise_floor" in s.env_fields(), "begin says the setup and a missing probe: %r"
              % lines)
    finally:
        shutil.rmtree(tmp)

    exe = os.path.join(build_dir, M.PROBE)
    probe_args = ["--mib", "64", "--ops", "1"]
    f = M.noise_floor(build_dir, M.Setup(as_deployed=True), runs=2, probe_args=probe_args,
                      warmup=0)
    check("error" not in f and len(f["runs"]) == 2 and f["spread_pct"] is not None,
          "the real probe as deployed: %r" % f)
    small = f.get("median_minor_faults", 0)
    check(small > 64 * 256 / 2, "64 MiB on 4 KiB pages: tens of thousands of faults: %r"
          % small)
    if M.thp_mode() in ("always", "madvise") and not sanitized:
        f = M.noise_floor(build_dir, M.Setup(), runs=2, probe_args=probe_args, warmup=0)
        check("error" not in f and f["median_minor_faults"] < small / 2,
              "on huge pages the probe takes far fewer faults: %r vs %r"
              % (f.get("median_minor_faults"), small))
    r = subprocess.run([exe, "--mib", "0"], stderr=subprocess.PIPE, text=True)
    check(r.returncode == 1 and "--mib" in r.stderr, "a bad option is refused: %r" % r.stderr)


def check_drift(build_dir):
    check(M.drift_args({}) == M.DRIFT_ARGS and M.drift_args({M.DRIFT_VARIABLE: " "}) ==
          M.DRIFT_ARGS, "no variable: the default drift probe")
    check(M.drift_args({M.DRIFT_VARIABLE: "off"}) is None, "off: no drift probe")
    check(M.drift_args({M.DRIFT_VARIABLE: "--mib 8 --slices 3"}) ==
          ("--mib", "8", "--slices", "3"), "the variable's arguments")
    exe = os.path.join(build_dir, M.PROBE)
    setup = M.Setup(as_deployed=True)
    d = M.memory_drift(build_dir, setup, ("--mib", "16", "--ops", "4", "--slices", "4"))
    check("error" not in d and d["slices"] == 4 and len(d["slice_cpu_s"]) == 4 and
          d["spread_pct"] >= 0 and d["median_slice_s"] > 0, "the real probe's slices: %r" % d)
    one = M.memory_drift(build_dir, setup, ("--mib", "16", "--ops", "1"))
    check("error" in one and "no slices" in one["error"], "no slices: an error: %r" % one)

    def checksum(*args):
        r = subprocess.run([exe, "--mib", "16", "--ops", "2"] + list(args),
                           stdout=subprocess.PIPE, text=True, check=True)
        return json.loads(r.stdout)["checksum"]
    check(checksum() == checksum("--slices", "7"), "slicing does not change the work")
    r = subprocess.run([exe, "--slices", "0"], stderr=subprocess.PIPE, text=True)
    check(r.returncode == 1 and "--slices" in r.stderr, "--slices 0 is refused: %r" % r.stderr)
    env = {"noise_floor": {"spread_pct": 3.0, "drift": d}}
    check(E.memory_drift_pct(env) == d["spread_pct"] and E.memory_drift_pct({}) is None and
          E.memory_drift_pct({"noise_floor": {"drift": {"error": "x"}}}) is None,
          "the drift accessor")
    rows = env_rows({"noise_floor": {"spread_pct": 3.0, "runs": [{}] * 5, "drift": {
        "spread_pct": 21.5, "slices": 20, "median_slice_s": 1.5}}})
    check("memory drift 21.5%" in rows.get("noise floor", "") and "20 slices" in
          rows["noise floor"], "the noise floor row shows the drift: %r"
          % rows.get("noise floor"))


def check_merge():
    def shard(k, setup, spread):
        env = {"measuring_setup": {"setup": setup}}
        if spread is not None:
            env["noise_floor"] = {"spread_pct": spread, "median_s": 1.0}
        return types.SimpleNamespace(k=k, env=env)
    env, warnings = {}, []
    merge._floor_of(env, [shard(1, "measuring", 2.0), shard(2, "measuring", 5.0),
                          shard(3, "measuring", None)], warnings)
    check(env["noise_floor"]["spread_pct"] == 5.0 and env["noise_floor"]["shards"] == [2]
          and not warnings, "the merged floor is the widest shard's: %r %r" % (env, warnings))
    env, warnings = {}, []
    merge._floor_of(env, [shard(1, "measuring", 2.0), shard(2, "as-deployed", 3.0)], warnings)
    check(len(warnings) == 1 and "different setups" in warnings[0],
          "shards in different setups: a warning: %r" % warnings)
    n = E.node_conditions({"noise_floor": {"spread_pct": 4.5},
                           "measuring_setup": {"setup": "measuring"}})
    check(n["noise_floor_pct"] == 4.5 and n["measuring_setup"] == "measuring",
          "a node's conditions: %r" % n)


def env_rows(env):
    rs = types.SimpleNamespace(env=env, entries=[], root="results/x",
                               harness_entries=lambda: [])
    return dict((r[0], r[1]) for r in environment.build(
        types.SimpleNamespace(results=rs)).blocks[0].rows)


def check_report():
    setup = M.Setup(thp="madvise", cpu=1)
    setup.floor = {"spread_pct": 4.2, "median_s": 0.5, "runs": [{}] * 5, "setup": "measuring",
                   "probe": {"mib": 256}, "median_minor_faults": 900, "loadavg": "0.1 0.1 0.1"}
    rows = env_rows(setup.env_fields())
    check("measuring setup" in rows.get("timed processes", "") and "pinned to CPU 1" in
          rows["timed processes"] and "--as-deployed" in rows["timed processes"],
          "the setup row: %r" % rows.get("timed processes"))
    check("4.2%" in rows.get("noise floor", "") and "5 fresh processes" in rows["noise floor"],
          "the noise floor row: %r" % rows.get("noise floor"))
    rows = env_rows(M.Setup(as_deployed=True).env_fields())
    check(rows.get("timed processes", "").startswith("as deployed"),
          "the as-deployed row: %r" % rows.get("timed processes"))
    rows = env_rows({"kernel": "6.1"})
    check("not recorded" in rows.get("timed processes", "") and "noise floor" not in rows,
          "a folder from before: says so, no floor row: %r" % rows)
    rs = types.SimpleNamespace(env={}, samples=[], harness_entries=lambda: [])
    check(cpu_split.build(types.SimpleNamespace(results=rs)) is None,
          "no entries, no CPU split section")


def main():
    build_dir = os.path.abspath(sys.argv[1])
    sanitized = len(sys.argv) > 2 and sys.argv[2] not in ("", "none")
    check_environment()
    check_pinning()
    check_rundir()
    check_floor(build_dir, sanitized)
    check_drift(build_dir)
    check_merge()
    check_report()
    return check.finish("measuring: ok")


if __name__ == "__main__":
    sys.exit(main())
