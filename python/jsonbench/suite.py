"""Run the ovsdb-jsonbench suite and generate its report.

Every impl x workload (x variant) runs --repetitions times, each repetition a
separate process: hyperfine times the whole process (--export-json) while the
harness measures its phases (--results).  The per-process harness files are
merged into one google-benchmark JSON file per job, with hyperfine's times
added as '<workload>/process' rows, in results/<UTC stamp>-<commit>/runs/.
Load runs at every --scale (scaling charts); the other workloads run at the
first scale.  Monitor runs once per --modes x --clients value.

Order (--order): with real OVS builds (--ovs-*) the suite interleaves: per
dataset and workload, repetition r of every model impl and real build runs
before repetition r+1, each one process (a one-run hyperfine call on the
model's side; the impls paired with a real build last in each repetition),
so each model/real ratio compares neighbouring processes;
this machine's speed drifts within the hour.  Without real builds it runs
grouped: each job's repetitions in one hyperfine call, job after job, impls
of one comparison next to each other.  env.json records run_order."""

import argparse
import datetime
import glob
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from . import ROOT, build, gbench, suite_order
from .env import collect_env, git_short_commit, warn_timing_hazards
from .util import fmt_dur, log, sha256_of

ALL_WORKLOADS = ["load", "dump", "compact", "monitor", "txn", "raft"]
# build.dataset_path()'s names: nb-s1-snapshot-seed1.ovsdb.
GENERATED_NAME = re.compile(r"^(nb|sb)-s([0-9.e+-]+)-(snapshot|log)-seed\d+(?:-txns\d+)?\.ovsdb$")


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="scripts/suite.sh", description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--impls", help="comma list (default: every impl the build defines)")
    ap.add_argument("--workloads", default=",".join(ALL_WORKLOADS),
                    help="comma list of %s and 'micro' (default: all six; add micro "
                         "for the micro-benchmarks)" % ", ".join(ALL_WORKLOADS))
    ap.add_argument("--scale", default="0.01",
                    help="comma list of dataset scales (1 = seed size); several give "
                         "scaling charts (default 0.01)")
    ap.add_argument("--dataset", action="append", default=[],
                    help="an existing OVSDB file to use instead of generated ones "
                         "(repeatable; kind NB/SB from its schema)")
    ap.add_argument("--repetitions", type=int, default=5,
                    help="processes per job (default 5; Mann-Whitney needs >= 4 "
                         "per side for p < 0.05)")
    ap.add_argument("--allocator", choices=["glibc", "jemalloc"], default="glibc",
                    help="glibc uses build/, jemalloc build-jemalloc/")
    ap.add_argument("--clients", default="1,10", help="monitor client counts (default 1,10)")
    ap.add_argument("--modes", default="tree,cache,direct",
                    help="monitor composition modes (default tree,cache,direct)")
    ap.add_argument("--raft-modes", default="tree,serialized",
                    help="raft log entry forms (default tree,serialized)")
    ap.add_argument("--no-mem-breakdown", dest="mem_breakdown", action="store_false",
                    help="skip the load-breakdown jobs (load with --mem-breakdown at the "
                         "first scale: live bytes per allocation category for the report's "
                         "memory breakdown; their CPU is ~2x a plain load's)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--build-dir", help="meson build dir (default build/ or build-jemalloc/)")
    ap.add_argument("--out", help="results folder (default results/<UTC stamp>-<commit>)")
    ap.add_argument("--model", choices=["full", "json-only"], default="full",
                    help="harness model: full (default: the database plus what "
                         "ovsdb-server keeps around it) or json-only (docs/model.md)")
    ap.add_argument("--harness-args", default="",
                    help="extra harness options for every job, e.g. '--batches 3'")
    ap.add_argument("--no-build", action="store_true", help="do not run meson/ninja")
    ap.add_argument("--no-probe", action="store_true",
                    help="skip each job's warm-up process (long jobs at scale 1: the "
                         "repetitions alone; an error shows in hyperfine's output)")
    ap.add_argument("--no-report", action="store_true")
    ap.add_argument("--dry-run", action="store_true", help="print the plan and stop")
    ap.add_argument("--order", choices=suite_order.ORDERS,
                    help="interleaved (default with real OVS builds): per dataset and "
                         "workload, repetition r of every model impl and real build runs "
                         "before repetition r+1 (one process each), so a model/real ratio "
                         "compares neighbouring processes; this machine's speed drifts "
                         "within the hour, and grouped runs put a model job and its real "
                         "counterpart 10-20 minutes apart at scale 1.  grouped (default "
                         "without real builds): each job's repetitions back to back in one "
                         "hyperfine call, all model jobs, then all real ones, as suites "
                         "before --order ran (to repeat one of those, or to have the model "
                         "results before any real build runs)")
    from .realovs import suite_jobs
    suite_jobs.add_args(ap)
    return ap.parse_args(argv)


def csv(text):
    return [x.strip() for x in text.split(",") if x.strip()]


# ---------------------------------------------------------------- build

def ensure_build(args):
    bdir = args.build_dir or ("build" if args.allocator == "glibc" else "build-" + args.allocator)
    args.build_dir = build.build_path(bdir)
    if not args.no_build:
        build.meson_build(args.build_dir, "suite", ["-Dallocator=" + args.allocator])


# ---------------------------------------------------------------- datasets
# Generated ones come from build.ensure_dataset; these read --dataset files.

def schema_kind(path):
    """NB or SB from the schema record of an OVSDB file."""
    with open(path, "rb") as f:
        head = f.read(4096).decode("utf-8", "replace")
    if "OVN_Southbound" in head:
        return "sb"
    if "OVN_Northbound" in head:
        return "nb"
    return "db"


def record_count(path, stop=3):
    """OVSDB records in a standalone file, counting up to 'stop' (a snapshot
    has 2: schema + one transaction; a log more)."""
    n = 0
    with open(path, "rb") as f:
        while n < stop:
            header = f.readline()
            if not header.startswith(b"OVSDB JSON "):
                break
            try:
                f.seek(int(header.split()[2]), 1)
            except (IndexError, ValueError):
                break
            n += 1
    return n


# ---------------------------------------------------------------- plan

class Job:
    def __init__(self, impl, workload, variant, ds, opts, clients=None, mode=None, meta=None):
        self.meta = meta or {}    # extra keys for index.json (e.g. a claim id)
        self.impl = impl
        self.workload = workload
        self.variant = variant
        self.ds = ds              # dict: label, path, kind, scale, form
        self.opts = opts          # harness options for this job
        self.clients = clients
        self.mode = mode

    @property
    def name(self):
        return "%s__%s__%s" % (self.ds["label"], self.variant, self.impl)


def plan(args, impls, workloads, datasets):
    """Jobs ordered workload-major so that impls of one comparison run close
    together in time (less drift between them)."""
    extra = shlex.split(args.harness_args)
    if getattr(args, "model", "full") != "full":
        extra += ["--model", args.model]
    main_scale = datasets[0]["scale"] if datasets else None
    jobs = []
    for wl in workloads:
        for ds in datasets:
            if ds["form"] == "log" and wl != "compact":
                continue
            if ds["form"] == "snapshot" and wl == "compact":
                continue  # log forms exist for compaction
            if wl != "load" and ds.get("generated") and ds["scale"] != main_scale:
                continue  # other scales are for the load scaling chart only
            has_sb = any(d["kind"] == "sb" for d in datasets)
            if wl == "monitor" and ds["kind"] != ("sb" if has_sb else "nb"):
                continue  # Logical_Flow lives in SB; without SB, NB's ports
            if wl in ("txn", "raft") and ds["kind"] != "nb" and \
                    any(d["kind"] == "nb" for d in datasets):
                continue
            variants = [(wl, [], None, None)]
            if wl == "load" and args.mem_breakdown and ds["scale"] == main_scale:
                # A separate job: the breakdown costs CPU, so the plain load
                # keeps the timings and this one says where the bytes go.
                variants.append(("load-breakdown", ["--mem-breakdown"], None, None))
            if wl == "monitor":
                table = [] if ds["kind"] == "sb" else ["--table", "Logical_Switch_Port"]
                variants = [("monitor-%s-c%s" % (m, c), ["--mode", m, "--clients", c] + table,
                             int(c), m) for m in csv(args.modes) for c in csv(args.clients)]
            elif wl == "raft":
                variants = [("raft-%s" % m, ["--mode", m], None, m) for m in csv(args.raft_modes)]
            for variant, opts, clients, mode in variants:
                for impl in impls:
                    jobs.append(Job(impl, wl, variant, ds, opts + extra, clients, mode))
    return jobs


# ---------------------------------------------------------------- running

def job_cmd(args, job, results_path, output_path):
    return build.harness_cmd(args.exes[job.impl], job.workload, job.ds["path"], job.opts,
                             args.seed, results_path, output_path)


def probe(args, job, tmp):
    """One warm-up process (warms the page cache, shows the harness's error
    clearly) unless --no-probe; raises RuntimeError when it fails."""
    if getattr(args, "no_probe", False):
        return
    cmd = job_cmd(args, job, os.path.join(tmp, "probe.json"), os.path.join(tmp, "probe.out"))
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise RuntimeError("exit %d: %s\n%s" % (r.returncode, shlex.join(cmd),
                                                 (r.stderr or r.stdout)[-1500:]))


def reps_dir_of(job, tmp):
    path = os.path.join(tmp, job.name)
    os.makedirs(path, exist_ok=True)
    return path


def run_processes(args, job, tmp, runs, hf_path, tag=""):
    """hyperfine --runs 'runs' of the job's harness command, exported to
    hf_path; each process writes its own results file into the job's
    folder under tmp ('tag' in its name: calls of one job stay apart even
    if a pid comes back).  Returns hyperfine's export."""
    reps_dir = reps_dir_of(job, tmp)
    # Each hyperfine run writes its own results file: $$ is the run's shell.
    cmd = job_cmd(args, job, "__RESULTS__", "__OUTPUT__")
    shell_cmd = shlex.join(cmd).replace(
        "__RESULTS__", shlex.quote(reps_dir) + "/rep-%s$$.json" % tag).replace(
        "__OUTPUT__", shlex.quote(tmp) + "/out-$$")
    hf = subprocess.run(["hyperfine", "--runs", str(runs), "--warmup", "0",
                         "--style", "none", "--export-json", hf_path, shell_cmd],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for p in glob.glob(os.path.join(tmp, "out-*")):
        os.unlink(p)
    if hf.returncode != 0:
        raise RuntimeError("hyperfine failed: %s" % (hf.stderr or hf.stdout)[-1500:])
    return gbench.read(hf_path)


def combine_hyperfine(docs):
    """One hyperfine export of the runs of several (one run each in the
    interleaved order), so the job's file reads as one call's."""
    res = [d["results"][0] for d in docs]
    times = [t for r in res for t in r.get("times", [])]
    out = dict(res[0], times=times,
               exit_codes=[c for r in res for c in r.get("exit_codes", [])],
               mean=statistics.mean(times), median=statistics.median(times),
               stddev=statistics.stdev(times) if len(times) > 1 else None,
               min=min(times), max=max(times),
               user=statistics.mean(r.get("user", 0.0) for r in res),
               system=statistics.mean(r.get("system", 0.0) for r in res))
    return {"results": [out]}


def finish_job(args, job, out_dir, tmp, hf_doc):
    """Merges the job's per-process results files with hyperfine's times
    into runs/<job>.json; returns (path, merged) or raises RuntimeError."""
    reps_dir = reps_dir_of(job, tmp)
    rep_files = sorted(glob.glob(os.path.join(reps_dir, "rep-*.json")), key=os.path.getmtime)
    if len(rep_files) != args.repetitions:
        raise RuntimeError("expected %d harness results files, found %d"
                           % (args.repetitions, len(rep_files)))
    merged = gbench.merge_repetitions([gbench.read(p) for p in rep_files],
                                      hyperfine=hf_doc, workload=job.workload)
    merged["context"]["suite_variant"] = job.variant
    path = os.path.join(out_dir, "runs", job.name + ".json")
    gbench.write_atomic(path, merged)
    shutil.rmtree(reps_dir)
    return path, merged


def make_out_dirs(out_dir):
    for sub in ("runs", "hyperfine"):
        os.makedirs(os.path.join(out_dir, sub), exist_ok=True)


def run_job(args, job, out_dir, tmp):
    """The grouped order: probe once, then hyperfine --runs N.  Returns the
    merged results (path, data) or raises."""
    make_out_dirs(out_dir)
    probe(args, job, tmp)
    hf_path = os.path.join(out_dir, "hyperfine", job.name + ".json")
    hf_doc = run_processes(args, job, tmp, args.repetitions, hf_path)
    return finish_job(args, job, out_dir, tmp, hf_doc)


def index_entry(args, job, path, out_dir):
    return {"file": os.path.relpath(path, out_dir), "impl": job.impl,
            "workload": job.workload, "variant": job.variant,
            "dataset": job.ds["label"], "kind": job.ds["kind"].upper(),
            "scale": job.ds["scale"], "form": job.ds["form"],
            "clients": job.clients, "mode": job.mode,
            "params": " ".join(job.opts), "allocator": args.allocator,
            "hyperfine": "hyperfine/%s.json" % job.name, "source": "harness",
            **job.meta}


def run_micro(args, impls, out_dir):
    entries = []
    os.makedirs(os.path.join(out_dir, "micro"), exist_ok=True)
    try:
        exes = build.impls(args.build_dir, "micro")
    except build.BuildError as exc:
        log("suite: %s: micro-benchmarks skipped" % exc)
        return entries
    for impl in impls:
        exe = exes.get(impl, build.exe_path(args.build_dir, impl, "micro"))
        if not os.access(exe, os.X_OK):
            log("suite: no %s, micro-benchmarks skipped for %s" % (os.path.relpath(exe, ROOT), impl))
            continue
        path = os.path.join(out_dir, "micro", impl + ".json")
        log("suite: micro-benchmarks %s" % impl)
        r = subprocess.run([exe, "--benchmark_format=json", "--benchmark_out=" + path,
                            "--benchmark_out_format=json", "--benchmark_repetitions=3",
                            "--benchmark_min_time=0.05"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            log("suite: micro-benchmarks %s failed: %s" % (impl, r.stderr[-500:]))
            continue
        data = gbench.read(path)
        data.setdefault("context", {})["impl"] = impl
        gbench.write_atomic(path, data)
        entries.append({"file": os.path.relpath(path, out_dir), "impl": impl,
                        "workload": "micro", "variant": "micro", "dataset": "",
                        "source": "micro", "allocator": args.allocator})
    return entries


def run_jobs(args, jobs, out_dir, t_start):
    """Runs every job (probe + hyperfine + merge), printing progress; keeps
    index.json current after each job.  Returns (index entries, failures).
    Other runners (e.g. a claims runner) build their own Job list and call
    this with args from parse_args()."""
    index, failures = [], []
    rates = {}                      # workload -> seconds per dataset byte per run

    def estimate(rest):
        total = 0.0
        fallback = statistics.mean(rates.values()) if rates else None
        for j in rest:
            rate = rates.get(j.variant) or rates.get(j.workload) or fallback
            if rate is None:
                return None
            total += rate * os.path.getsize(j.ds["path"]) * (args.repetitions + (
                0 if getattr(args, "no_probe", False) else 1))
        return total

    with tempfile.TemporaryDirectory(prefix="jsonbench-suite-") as tmp:
        for i, job in enumerate(jobs):
            left = estimate(jobs[i:])
            log("[%*d/%d] %s elapsed, %s left: %-10s %-20s %s" % (
                len(str(len(jobs))), i + 1, len(jobs), fmt_dur(time.time() - t_start),
                "~" + fmt_dur(left) if left is not None else "?",
                job.impl, job.variant, job.ds["label"]))
            t0 = time.time()
            try:
                path, merged = run_job(args, job, out_dir, tmp)
            except (RuntimeError, OSError, ValueError) as exc:
                log("    FAILED: %s" % exc)
                failures.append({"job": job.name, "error": str(exc)[:2000]})
                continue
            dt = time.time() - t0
            per = dt / (args.repetitions + (0 if getattr(args, "no_probe", False) else 1)) / \
                max(os.path.getsize(job.ds["path"]), 1)
            rates[job.variant] = per
            rates.setdefault(job.workload, per)
            proc = [b["real_time"] for b in merged["benchmarks"]
                    if b.get("run_type") == "iteration" and b["name"].endswith("/process")]
            log("    done in %.1f s%s" % (dt, "; process median %.3f s" % (
                statistics.median(proc) / 1e3) if proc else ""))
            index.append(index_entry(args, job, path, out_dir))
            gbench.write_atomic(os.path.join(out_dir, "index.json"),
                                {"entries": index, "failures": failures})
    return index, failures


def real_plan(args, jobs):
    """The real OVS jobs (--ovs-*) for the model's plan; [] without --ovs-*."""
    from .realovs import suite_jobs
    if not suite_jobs.wanted(args):
        return []
    suite_jobs.parse_pairs(args.pair)          # a typo fails before any run
    return suite_jobs.plan(jobs)


def run_real(args, real_jobs, out_dir, index, failures):
    """Builds (cached) and runs the real OVS targets into the same folder;
    adds to index and failures; returns what env.json records."""
    from .realovs import suite_jobs
    t0 = time.time()
    tgts, build_failures = suite_jobs.targets(args, sys.stdout)
    failures += build_failures

    def on_result(entry, failure):
        if entry:
            index.append(entry)
        if failure:
            failures.append(failure)
        gbench.write_atomic(os.path.join(out_dir, "index.json"),
                            {"entries": index, "failures": failures})
    log("suite: real OVS: %d target(s) (%s) x %d jobs x %d repetitions"
        % (len(tgts), ", ".join(t.name for t in tgts) or "none", len(real_jobs),
           args.repetitions))
    try:
        suite_jobs.run(args, tgts, real_jobs, out_dir, on_result, log)
    finally:
        on_result(None, None)
    info = suite_jobs.env_info(tgts, build_failures, args)
    info["ovs_duration_s"] = time.time() - t0
    return info


def run_interleaved(args, jobs, real_jobs, out_dir, t_start):
    """The interleaved order: builds the real targets first (cached), then
    runs group after group (jsonbench.suite_interleaved).  Returns (index
    entries, failures, what env.json records about the real targets)."""
    from . import suite_interleaved
    from .realovs import suite_jobs
    index, failures, info, tgts = [], [], {}, []
    if real_jobs:
        tgts, build_failures = suite_jobs.targets(args, sys.stdout)
        failures += build_failures
        info = suite_jobs.env_info(tgts, build_failures, args)
        log("suite: real OVS: %d target(s) (%s) x %d jobs, interleaved with the model's"
            % (len(tgts), ", ".join(t.name for t in tgts) or "none", len(real_jobs)))
    # The model impls compared with a real build: --pair, else each
    # build's representation (as the report pairs them).
    paired = {m for m, _ in suite_jobs.parse_pairs(args.pair)} or \
        {t.representation for t in tgts if t.representation}
    groups = suite_order.groups(jobs, real_jobs)
    n = len(suite_order.steps(groups, tgts, args.repetitions))
    log("suite: interleaved order: %d groups (dataset x workload), %d processes%s"
        % (len(groups), n, "" if getattr(args, "no_probe", False) else " + warm-ups"))
    suite_interleaved.run(args, groups, tgts, out_dir, t_start, index, failures, paired)
    return index, failures, info


def main(argv):
    args = parse_args(argv)
    t_start = time.time()
    ensure_build(args)
    try:
        args.exes = build.impls(args.build_dir)
    except build.BuildError as exc:
        sys.exit("suite: %s" % exc)
    impls = csv(args.impls) if args.impls else list(args.exes)
    missing = [i for i in impls if i not in args.exes]
    if missing:
        sys.exit("suite: the build in %s defines no impl %s (it has: %s)"
                 % (args.build_dir, ", ".join(missing), ", ".join(args.exes) or "none"))
    workloads = csv(args.workloads)
    unknown = [w for w in workloads if w not in ALL_WORKLOADS + ["micro"]]
    if unknown:
        sys.exit("suite: unknown workload(s) %s" % ", ".join(unknown))

    datasets = []
    if args.dataset:
        for p in args.dataset:
            if not os.path.exists(p):
                sys.exit("suite: dataset %s not found" % p)
            m = GENERATED_NAME.match(os.path.basename(p))
            if m:
                # A file the suite generated keeps the suite's label, so runs
                # on it line up with other runs on it (model vs real OVS).
                kind, scale, form = m.group(1), float(m.group(2)), m.group(3)
                datasets.append({"label": "%s-%g%s" % (kind, scale, "-log" if form == "log"
                                                       else ""),
                                 "path": os.path.abspath(p), "kind": kind, "scale": scale,
                                 "form": form})
                continue
            label = os.path.basename(p).rsplit(".", 1)[0]
            form = "log" if record_count(p) > 2 else "snapshot"
            datasets.append({"label": label, "path": os.path.abspath(p), "kind": schema_kind(p),
                             "scale": None, "form": form})
        # compact reads log forms, the rest snapshots; use what there is.
        forms = {d["form"] for d in datasets}
        for d in datasets:
            if len(forms) == 1 and d["scale"] is None:
                d["form"] = "any"
    else:
        scales = [float(s) for s in csv(args.scale)]
        kinds = [k for k in ("nb", "sb") if os.path.exists(
            os.path.join(ROOT, "datasets", "profiles", k + ".profile"))]
        for k in ("nb", "sb"):
            if k not in kinds:
                log("suite: no datasets/profiles/%s.profile: %s datasets skipped" % (k, k.upper()))
        for scale in scales:
            for kind in kinds:
                for form in ("snapshot", "log"):
                    if form == "log" and ("compact" not in workloads or scale != scales[0]):
                        continue
                    if form == "snapshot" and scale != scales[0] and "load" not in workloads:
                        continue
                    path = build.dataset_path(kind, scale, form, args.seed)
                    label = "%s-%g%s" % (kind, scale, "-log" if form == "log" else "")
                    datasets.append({"label": label, "path": path, "kind": kind,
                                     "scale": scale, "form": form, "generated": True})
    jobs = plan(args, impls, [w for w in workloads if w != "micro"], datasets)
    real_jobs = real_plan(args, jobs)
    from .realovs import suite_jobs
    order = args.order or suite_order.default_order(suite_jobs.wanted(args))
    if args.dry_run:
        for j in jobs:
            log("%-10s %-20s %-14s %s" % (j.impl, j.variant, j.ds["label"],
                                         shlex.join(job_cmd(args, j, "R.json", "OUT"))))
        log("%d jobs x %d repetitions" % (len(jobs), args.repetitions))
        for w, variant, ds, _opts in real_jobs:
            log("real OVS   %-20s %s" % (variant, ds["label"]))
        if real_jobs:
            log("%d real OVS jobs per target x %d repetitions" % (len(real_jobs),
                                                                 args.repetitions))
        names = suite_jobs.target_names(args) if real_jobs else []
        # Without --pair the paired impls are known once the builds are.
        paired = {m for m, _ in suite_jobs.parse_pairs(args.pair)}
        log("order: %s%s" % (order, "" if paired or order == "grouped" or not real_jobs else
                             " (the impls paired with a real build, known once it is "
                             "built, run last in each repetition)"))
        for kind, who, variant, label, reps in suite_order.describe(
                order, jobs, real_jobs, names, args.repetitions, paired):
            log("  %-5s %-5s %-18s %-20s %s" % (reps, kind, who, variant, label))
        return 0
    unbuilt = build.unbuilt({i: args.exes[i] for i in impls})
    if unbuilt:
        sys.exit("suite: %s not built in %s (run ninja, or drop --no-build)"
                 % (", ".join(unbuilt), args.build_dir))
    for ds in datasets:
        if ds.get("generated") and any(j.ds is ds for j in jobs):
            try:
                build.ensure_dataset(args.build_dir, ds["kind"], ds["scale"], ds["form"],
                                     args.seed, who="suite")
            except build.DatasetError as exc:
                sys.exit("suite: %s" % exc)
    used = [ds for ds in datasets if any(j.ds is ds for j in jobs)]
    for ds in used:
        ds["sha256"] = sha256_of(ds["path"])
        ds["bytes"] = os.path.getsize(ds["path"])

    stamp = datetime.datetime.utcnow().strftime("%Y%m%dT%H%M%SZ")
    out_dir = args.out or os.path.join(ROOT, "results", "%s-%s" % (stamp, git_short_commit(ROOT)))
    os.makedirs(out_dir, exist_ok=True)
    env = collect_env(ROOT, args.build_dir, args.allocator)
    env["command"] = "scripts/suite.sh " + shlex.join(argv)
    env["datasets"] = [{k: ds.get(k) for k in ("label", "path", "kind", "scale", "form",
                                               "sha256", "bytes")} for ds in used]
    warn_timing_hazards(env["timing_hazards"], log)
    log("suite: %d jobs (%s x %d impls) x %d repetitions -> %s"
        % (len(jobs), ", ".join(w for w in workloads if w != "micro"), len(impls),
           args.repetitions, os.path.relpath(out_dir, ROOT)))

    env["run_order"] = order
    env["loadavg_start"] = " ".join("%.2f" % x for x in os.getloadavg())
    if order == "interleaved":
        index, failures, real_info = run_interleaved(args, jobs, real_jobs, out_dir, t_start)
        env.update(real_info)
    else:
        index, failures = run_jobs(args, jobs, out_dir, t_start)
        if real_jobs:
            env.update(run_real(args, real_jobs, out_dir, index, failures))
    env["loadavg_end"] = " ".join("%.2f" % x for x in os.getloadavg())
    if "micro" in workloads:
        index += run_micro(args, impls, out_dir)
    env["duration_s"] = time.time() - t_start
    gbench.write_atomic(os.path.join(out_dir, "index.json"), {"entries": index, "failures": failures})
    gbench.write_atomic(os.path.join(out_dir, "env.json"), env)
    log("suite: %d jobs ran, %d failed, in %s; results in %s"
        % (len(index), len(failures), fmt_dur(time.time() - t_start), os.path.relpath(out_dir, ROOT)))
    if not args.no_report and index:
        from .report import generate  # matplotlib: only when a report is wanted
        html = generate(out_dir)
        log("suite: report %s" % os.path.relpath(html, ROOT))
        log("suite: report %s" % os.path.relpath(os.path.join(out_dir, "report.md"), ROOT))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
