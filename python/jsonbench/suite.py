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
import os
import shlex
import sys
import time

from . import ROOT, build, datasets as D, measuring, resultsdir, shards, suite_order
from .backends import DeterministicBackend, ModelBackend
from .realovs.backend import RealBackend
from .env import warn_timing_hazards
from .execute import execute
from .jobs import Job, Step
from .study import Study
from .util import fmt_dur, log, sha256_of

ALL_WORKLOADS = ["load", "dump", "compact", "monitor", "txn", "raft"]


EXAMPLES = """examples:
  scripts/suite.sh                                   everything at scale 0.01
  scripts/suite.sh --impls plain,ovs --workloads load,dump
  scripts/suite.sh --workloads load --scale 0.005,0.01,0.02   scaling charts
  scripts/suite.sh --ovs-tree ~/ovs --ovs-ref 9669b50f5^,9669b50f5   + real OVS
  scripts/suite.sh --resume results/20260101T000000Z-abc1234  after Ctrl-C
  scripts/suite.sh --shards 3 --plan-shards          the split over 3 machines
  scripts/suite.sh --shards 3 --shard 2 --out S2     one of them (docs/shards.md)
(docs/suite.md has the rest)"""

MONITOR_MODES = ("tree", "cache", "direct")
RAFT_MODES = ("tree", "serialized")


def parse_args(argv):
    from . import options as O
    ap = argparse.ArgumentParser(
        prog=O.prog("run"), description=__doc__.split("\n\n")[0],
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--impls", help="comma list (default: every impl the build defines)")
    ap.add_argument("--workloads",
                    help="comma list of %s and micro (default: all but micro)"
                         % ", ".join(ALL_WORKLOADS))
    ap.add_argument("--scale", default="0.01",
                    help="comma list of dataset scales, 1 = the seeds' sizes (default 0.01)")
    O.dataset(ap)
    O.repetitions(ap)
    ap.add_argument("--allocator", choices=["glibc", "jemalloc"], default="glibc",
                    help="glibc uses build/, jemalloc build-jemalloc/ (unless --build-dir)")
    ap.add_argument("--clients", default="1,10", help="monitor client counts (default 1,10)")
    ap.add_argument("--modes", default="tree,cache,direct,serialized",
                    help="monitor composition modes (tree, cache, direct) and raft log "
                         "entry forms (tree, serialized) to run (default: all)")
    ap.add_argument("--no-mem-breakdown", dest="mem_breakdown", action="store_false",
                    help="skip the load-breakdown jobs (the report's memory breakdown)")
    O.seed(ap)
    O.build_dir(ap)
    O.out(ap, "results/<UTC stamp>-<commit>")
    ap.add_argument("--workload-opts", default="", metavar="OPTS",
                    help="extra harness options for every model job, e.g. '--batches 3' "
                         "or '--model json-only' (docs/model.md)")
    O.no_build(ap)
    ap.add_argument("--no-probe", action="store_true",
                    help="skip each job's warm-up process (long jobs at scale 1)")
    O.no_report(ap)
    O.dry_run(ap)
    O.as_deployed(ap)
    ap.add_argument("--order", choices=suite_order.ORDERS,
                    help="interleaved (default with real OVS builds): repetition r of every "
                         "model impl and real build before r+1, so model/real ratios compare "
                         "neighbouring processes; grouped (default without): each job's "
                         "repetitions back to back (docs/suite.md)")
    O.resume(ap)
    shards.add_args(ap)
    from .realovs import suite_jobs
    suite_jobs.add_args(ap)
    args = ap.parse_args(argv)
    shards.check_args(ap, args)
    modes = csv(args.modes)
    bad = [m for m in modes if m not in MONITOR_MODES + RAFT_MODES]
    if bad:
        ap.error("--modes: unknown %s (monitor: %s; raft: %s)" % (
            ", ".join(bad), ", ".join(MONITOR_MODES), ", ".join(RAFT_MODES)))
    args.monitor_modes = [m for m in modes if m in MONITOR_MODES]
    args.raft_modes = [m for m in modes if m in RAFT_MODES]
    return args


def csv(text):
    return [x.strip() for x in text.split(",") if x.strip()]


# ---------------------------------------------------------------- build

def ensure_build(args):
    from . import options as O
    bdir = args.build_dir
    if args.allocator != "glibc" and bdir == O.BUILD_DIR:   # no --build-dir given
        bdir = "build-" + args.allocator
    args.build_dir = build.build_path(bdir)
    if not args.no_build:
        build.meson_build(args.build_dir, "suite", ["-Dallocator=" + args.allocator])


# ---------------------------------------------------------------- plan

def plan(args, impls, workloads, datasets):
    """Jobs ordered workload-major so that impls of one comparison run close
    together in time (less drift between them)."""
    extra = shlex.split(args.workload_opts)
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
                             int(c), m) for m in args.monitor_modes for c in csv(args.clients)]
            elif wl == "raft":
                variants = [("raft-%s" % m, ["--mode", m], None, m) for m in args.raft_modes]
            for variant, opts, clients, mode in variants:
                for impl in impls:
                    jobs.append(Job(impl, wl, variant, ds, opts + extra, clients, mode))
    return jobs


# ---------------------------------------------------------------- running

def job_cmd(args, job, results_path, output_path):
    return build.harness_cmd(args.exes[job.impl], job.workload, job.ds["path"], job.opts,
                             args.seed, results_path, output_path)


def micro_jobs(args, impls):
    """One job per impl (side "det", mode "micro": DeterministicBackend
    writes micro/<impl>.json and its index entry): the impl's
    micro-benchmark executable, 3 repetitions in one process.  An impl
    without one is skipped with a message."""
    try:
        exes = build.impls(args.build_dir, "micro")
    except build.BuildError as exc:
        log("suite: %s: micro-benchmarks skipped" % exc)
        return []
    jobs = []
    for impl in impls:
        exe = exes.get(impl, build.exe_path(args.build_dir, impl, "micro"))
        if not os.access(exe, os.X_OK):
            log("suite: no %s, micro-benchmarks skipped for %s" % (os.path.relpath(exe, ROOT), impl))
            continue
        cmd = [exe, "--benchmark_format=json", "--benchmark_out=__RESULTS__",
               "--benchmark_out_format=json", "--benchmark_repetitions=3",
               "--benchmark_min_time=0.05"]
        jobs.append(Job(impl, "micro", "micro", {"label": "", "path": ""}, cmd, mode="micro",
                        meta={"allocator": args.allocator}, side="det", prefix="micro"))
    return jobs


def real_plan(args, jobs):
    """The real OVS job templates (--ovs-*) for the model's plan; [] without
    --ovs-*."""
    from .realovs import suite_jobs
    if not suite_jobs.wanted(args):
        return []
    suite_jobs.parse_pairs(args.pair)          # a typo fails before any run
    return suite_jobs.plan(jobs)


def build_targets(args, real_jobs):
    """The real OVS targets (built, cached) and what env.json records."""
    from .realovs import suite_jobs
    if not real_jobs:
        return [], [], {}
    tgts, build_failures = suite_jobs.targets(args, sys.stdout)
    info = suite_jobs.env_info(tgts, build_failures, args)
    log("suite: real OVS: %d target(s) (%s) x %d jobs"
        % (len(tgts), ", ".join(t.name for t in tgts) or "none", len(real_jobs)))
    return tgts, build_failures, info


def steps_of(args, order, jobs, real_jobs, tgts):
    """The steps in run order: interleaved (per dataset and workload,
    repetition r of every model impl and real build before r+1; the model
    impls compared with a real build, --pair or each build's
    representation, last in each repetition) or grouped."""
    from .realovs import suite_jobs
    if order == "grouped":
        return suite_order.grouped_steps(jobs, real_jobs, tgts, args.repetitions)
    paired = {m for m, _ in suite_jobs.parse_pairs(args.pair)} or \
        {t.representation for t in tgts if t.representation}
    groups = suite_order.groups(jobs, real_jobs)
    steps = suite_order.steps(groups, tgts, args.repetitions, paired)
    log("suite: interleaved order: %d groups (dataset x workload), %d processes%s"
        % (len(groups), len(steps), "" if args.no_probe else " + warm-ups"))
    return steps


def datasets_of(args, workloads):
    if args.dataset:
        try:
            return D.from_files(args.dataset)
        except D.Error as exc:
            sys.exit("suite: %s" % exc)
    datasets = []
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
                datasets.append(D.generated(kind, scale, form, args.seed))
    return datasets


def dry_run(args, order, jobs, real_jobs):
    from .realovs import suite_jobs
    for j in jobs:
        log("%-10s %-20s %-14s %s" % (j.impl, j.variant, j.ds["label"],
                                     shlex.join(job_cmd(args, j, "R.json", "OUT"))))
    log("%d jobs x %d repetitions" % (len(jobs), args.repetitions))
    for rj in real_jobs:
        log("real OVS   %-20s %s" % (rj.variant, rj.ds["label"]))
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


def unit_key(job):
    return (job.ds["path"], suite_order.family(job.workload))


def units_of(args, order, jobs, real_jobs):
    """The plan's shard units (jsonbench.shards): one per dataset x
    workload family with every impl, real build and repetition, and the
    plan hash every node computes alike (before any dataset exists)."""
    from .realovs import suite_jobs
    names = suite_jobs.target_names(args) if real_jobs else []
    out = []
    for g in suite_order.groups(jobs, real_jobs):
        on = [rj.for_target(t) for t in names for rj in g.real]
        cost = sum(shards.job_cost(j, args.repetitions) for j in g.model) + \
            len(names) * sum(shards.job_cost(j, args.repetitions) for j in g.real_runs)
        out.append(shards.Unit(g.key, g.label, [j.name for j in g.model] +
                               [j.name for j in on], cost))
    what = {"repetitions": args.repetitions, "order": order, "targets": names,
            "seed": args.seed, "allocator": args.allocator,
            "jobs": [j.identity() for j in jobs + real_jobs]}
    return out, shards.plan_hash(out, what)


def main(argv):
    argv = resultsdir.resumed_args(list(argv), "suite")
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
    workloads = csv(args.workloads or ",".join(ALL_WORKLOADS))
    unknown = [w for w in workloads if w not in ALL_WORKLOADS + ["micro"]]
    if unknown:
        sys.exit("suite: unknown workload(s) %s" % ", ".join(unknown))

    datasets = datasets_of(args, workloads)
    jobs = plan(args, impls, [w for w in workloads if w != "micro"], datasets)
    real_jobs = real_plan(args, jobs)
    from .realovs import suite_jobs
    order = args.order or suite_order.default_order(suite_jobs.wanted(args))
    units, shard_digest = units_of(args, order, jobs, real_jobs)
    if args.plan_shards:
        shards.print_split(units, args.shards, shard_digest, "suite")
        return 0
    mine = shards.selected(args, units)
    if mine is not None:
        jobs = [j for j in jobs if unit_key(j) in mine]
        real_jobs = [j for j in real_jobs if unit_key(j) in mine]
        log("suite: shard %d of %d: %d of %d groups, %d jobs"
            % (args.shard, args.shards, len(mine), len(units), len(jobs)))
    if args.dry_run:
        return dry_run(args, order, jobs, real_jobs)
    unbuilt = build.unbuilt({i: args.exes[i] for i in impls})
    if unbuilt:
        sys.exit("suite: %s not built in %s (run ninja, or drop --no-build)"
                 % (", ".join(unbuilt), args.build_dir))
    for ds in datasets:
        if ds.get("generated") and any(j.ds is ds for j in jobs):
            try:
                D.ensure(args.build_dir, ds, args.seed, who="suite")
            except D.Error as exc:
                sys.exit("suite: %s" % exc)
    used = [ds for ds in datasets if any(j.ds is ds for j in jobs)]
    for ds in used:
        ds["sha256"] = sha256_of(ds["path"])
        ds["bytes"] = os.path.getsize(ds["path"])

    study = Study("suite", argv, "scripts/suite.sh", args, started=t_start)
    out_dir = study.out_dir
    digest = resultsdir.plan_hash(jobs + real_jobs, args.repetitions, "%s %s" % (
        order, ",".join(suite_jobs.target_names(args)) if real_jobs else ""))
    entries, failures = [], []
    if study.resume:
        state = study.resumed(digest)
        # Finished jobs stay; failed ones run again.
        entries = [e for e in resultsdir.read_index(out_dir)["entries"]
                   if e.get("source") != "micro"]
        log("suite: resuming %s: %d of %d jobs finished"
            % (study.rel(), len(set(state["finished"])), len(state["jobs"])))
    else:
        state = None
    setup = measuring.begin(args, args.build_dir, log)
    env = study.environment(args.build_dir, args.allocator, used, setup)
    warn_timing_hazards(env["timing_hazards"], log)
    log("suite: %d jobs (%s x %d impls) x %d repetitions -> %s"
        % (len(jobs), ", ".join(w for w in workloads if w != "micro"), len(impls),
           args.repetitions, os.path.relpath(out_dir, ROOT)))

    env["run_order"] = order
    tgts, build_failures, real_info = build_targets(args, real_jobs)
    env.update(real_info)
    steps = steps_of(args, order, jobs, real_jobs, tgts)
    all_jobs = list({s.job.name: s.job for s in steps}.values())
    all_jobs += [d for j in all_jobs for d in j.derived]
    if state is None:
        state = study.new_plan(digest, all_jobs)
        if mine is not None:
            state["shard"] = shards.plan_state(args, units, shard_digest, "suite")
    if mine is not None:
        env["shard"] = shards.shard_env(args, units, shard_digest, None, None)
    study.write_env(env)
    backends = {"model": ModelBackend(out_dir, args.exes, args.repetitions, args.seed,
                                      args.allocator, probe=not args.no_probe, setup=setup),
                "real": RealBackend(out_dir, args.build_dir, args.ovs_cache_dir, setup=setup)}
    t_measure = time.time()
    res = execute(steps, backends, out_dir, state, entries, build_failures,
                  args.repetitions, t_start)
    if "micro" in workloads and not res.interrupted and (mine is None or args.shard == 1):
        # Not in plan.json: a resumed run drops the micro entries and runs them again.
        res = execute([Step(j, None, 1, j.name) for j in micro_jobs(args, impls)],
                      {"det": DeterministicBackend(out_dir, setup)}, out_dir, None, res.entries,
                      res.failures, 1, t_start)
    index, failures = res.entries, res.failures
    if mine is not None:
        env["shard"] = shards.shard_env(args, units, shard_digest, t_measure, time.time())
    resultsdir.write_index(out_dir, index, failures)
    study.finish(env)
    log("suite: %d jobs ran, %d failed, in %s; results in %s"
        % (len(index), len(failures), fmt_dur(time.time() - t_start), os.path.relpath(out_dir, ROOT)))
    if res.interrupted:
        log("suite: interrupted; the report shows what finished; to run the rest: "
            "scripts/suite.sh --resume %s" % os.path.relpath(out_dir, ROOT))
    if mine is not None:
        log("suite: shard %d of %d done; merge the shards' folders: scripts/jsonbench merge "
            "SHARD_DIR... --out DIR" % (args.shard, args.shards))
    elif not args.no_report and index:
        from .report import generate  # matplotlib: only when a report is wanted
        html = generate(out_dir)
        log("suite: report %s" % os.path.relpath(html, ROOT))
        log("suite: report %s" % os.path.relpath(os.path.join(out_dir, "report.md"), ROOT))
    if res.interrupted:
        return 128 + res.signal
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
