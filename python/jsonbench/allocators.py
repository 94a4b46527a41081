"""Allocators: glibc malloc against jemalloc, one interleaved plan.

Model impls (--impls, default every impl the build defines) and the installed real
ovsdb-server (skipped with a message when none is installed) load and dump
generated NB and SB databases (--scale, default 0.01), each job under both
allocators: the model from build/ (glibc) and build-jemalloc/ (meson
-Dallocator=jemalloc, linked with libjemalloc), the real server with
Debian's libjemalloc.so.2 preloaded (LD_PRELOAD; every server start is
checked to have it mapped, /proc/PID/maps).  Per dataset and workload,
repetition r of every job runs before r+1, each impl's two allocators side
by side (which one first alternates), so each glibc/jemalloc pair compares
neighbouring processes.  The report gives RSS after the workload, peak
RSS, heap (the model: mallinfo2 or jemalloc's stats) and CPU per
allocator, with the change's 95% interval and a Mann-Whitney test."""

import argparse
import os
import subprocess
import sys
import time

from . import ROOT, build, datasets as D, measuring, options as O, resultsdir
from .backends import ModelBackend
from .execute import execute
from .jobs import Job, Step
from .realovs import target as T
from .realovs.backend import RealBackend
from .study import Study
from .util import fmt_dur, log, sha256_of

TOOL = "allocators"
ALLOCATORS = ("glibc", "jemalloc")
WORKLOADS = ("load", "dump")
BUILD_DIRS = {"glibc": "build", "jemalloc": "build-jemalloc"}
EXAMPLES = """examples:
  scripts/jsonbench allocators --impls ovs,arena --scale 0.1   the published study
  scripts/jsonbench allocators --scale 0.01 --workloads load --repetitions 3
  scripts/jsonbench allocators --out results/alloc --publish reports/allocators"""


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="scripts/jsonbench allocators",
                                 description=__doc__.split("\n\n")[0], epilog=EXAMPLES,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--impls", help="comma list (default: every impl the build defines)")
    ap.add_argument("--workloads", help="comma list of load, dump (default: all)")
    ap.add_argument("--scale", default="0.01", help="comma list of dataset scales "
                    "(default 0.01)")
    O.repetitions(ap)
    O.seed(ap)
    O.out(ap, "results/<UTC stamp>-<commit>-allocators")
    O.no_build(ap)
    O.dry_run(ap)
    O.as_deployed(ap)
    O.resume(ap)
    O.no_report(ap)
    ap.add_argument("--publish", metavar="DIR",
                    help="also copy report.md and its charts to DIR (e.g. reports/reference)")
    args = ap.parse_args(argv)
    args.workloads = csv(args.workloads or ",".join(WORKLOADS))
    if not set(args.workloads) <= set(WORKLOADS):
        ap.error("--workloads: one or both of %s" % ", ".join(WORKLOADS))
    return args


def csv(text):
    return [x.strip() for x in text.split(",") if x.strip()]

def model_exes(args):
    """{allocator: {impl: executable}}, each allocator's build made
    (only the executables the study runs) unless --no-build."""
    out = {}
    for alloc in ALLOCATORS:
        bdir = build.build_path(BUILD_DIRS[alloc])
        if not args.no_build and not args.dry_run:
            build.meson_build(bdir, TOOL, ["-Dallocator=" + alloc], [
                "datasets/ovsdb-gen", "tools/" + os.path.basename(measuring.PROBE)] + [
                os.path.relpath(build.exe_path(bdir, i), bdir) for i in args.impls])
        out[alloc] = {i: build.exe_path(bdir, i) for i in args.impls}
    return out


def real_target():
    """The installed ovsdb-server, None (said) when there is none."""
    try:
        return T.installed()
    except FileNotFoundError as exc:
        log("%s: %s: the real server's side is skipped" % (TOOL, exc))
        return None


def plan(args, datasets, target):
    """[(group, [jobs of one repetition in run order])]: per dataset and
    workload, each impl's allocators next to each other."""
    groups = []
    for ds in datasets:
        for wl in args.workloads:
            jobs = [Job(i, wl, wl, ds, [], allocator=a) for i in args.impls for a in ALLOCATORS]
            if target is not None:
                jobs += [Job(target.name, wl, wl, ds, {}, side="real", target=target,
                             prefix="real__", allocator=a) for a in ALLOCATORS]
            groups.append(("%s %s" % (ds["label"], wl), jobs))
    return groups


def steps_of(groups, repetitions):
    """Repetition r of every job of a group before r + 1; in odd
    repetitions each pair runs jemalloc first."""
    out = []
    for key, jobs in groups:
        pairs = [jobs[i:i + 2] for i in range(0, len(jobs), 2)]
        for r in range(repetitions):
            for pair in pairs:
                out += [Step(j, r, 1, key) for j in (pair[::-1] if r % 2 else pair)]
    return out


def main(argv):
    argv = resultsdir.resumed_args(list(argv), TOOL)
    args = parse_args(argv)
    t_start = time.time()
    if not args.impls:          # every impl the build defines, known once it is set up
        bdir = build.build_path("build")
        if not args.no_build and not os.path.exists(os.path.join(bdir, "build.ninja")):
            build.meson_build(bdir, TOOL, (), ["datasets/ovsdb-gen"])
        try:
            args.impls = ",".join(build.impls(bdir))
        except build.BuildError as exc:
            sys.exit("%s: %s" % (TOOL, exc))
    args.impls = csv(args.impls)
    exes = model_exes(args)
    target = real_target()
    datasets = [D.generated(k, float(s), "snapshot", args.seed)
                for s in csv(args.scale) for k in ("nb", "sb")]
    groups = plan(args, datasets, target)
    steps = steps_of(groups, args.repetitions)
    jobs = [j for _, js in groups for j in js]
    if args.dry_run:
        for s in steps:
            log("rep %d  %-5s %-10s %-9s %s" % (s.rep + 1, s.job.side, s.job.impl,
                                                 s.job.allocator, s.group))
        log("%d jobs x %d repetitions, interleaved" % (len(jobs), args.repetitions))
        return 0
    missing = [e for x in exes.values() for e in x.values() if not os.access(e, os.X_OK)]
    if missing:
        sys.exit("%s: not built: %s (drop --no-build)" % (TOOL, ", ".join(missing)))
    for ds in datasets:
        try:
            D.ensure(build.build_path("build"), ds, args.seed, who=TOOL)
        except D.Error as exc:
            sys.exit("%s: %s" % (TOOL, exc))
        ds["sha256"], ds["bytes"] = sha256_of(ds["path"]), os.path.getsize(ds["path"])
    study = Study(TOOL, argv, "scripts/jsonbench " + TOOL, args, name="{stamp}-{commit}-" + TOOL,
                  started=t_start)
    out_dir = study.out_dir
    digest = resultsdir.plan_hash(jobs, args.repetitions, "interleaved")
    entries, state = [], None
    if study.resume:
        state = study.resumed(digest)
        entries = resultsdir.read_index(out_dir)["entries"]
    else:
        state = study.new_plan(digest, jobs)
    setup = measuring.begin(args, build.build_path("build"), log)
    env = study.environment(build.build_path("build"), "glibc", setup=setup, datasets=[
        dict(ds, path=build.rel(ds["path"])) for ds in datasets])
    env["study"], env["allocator"] = TOOL, "per job: " + ", ".join(ALLOCATORS)
    env["build_dirs"] = dict(BUILD_DIRS)
    env["jemalloc_preload"] = measuring.allocator_lib("jemalloc") or ""
    if target is not None:      # what the real server links by itself (ldd)
        ldd = subprocess.run(["ldd", target.path("ovsdb-server")], capture_output=True,
                             text=True).stdout
        env["real_target"] = {"name": target.name, "version": target.version,
                              "links": "jemalloc" if "libjemalloc" in ldd else "glibc"}
    env["run_order"] = "interleaved"
    study.write_env(env)
    log("%s: %d jobs x %d repetitions -> %s" % (TOOL, len(jobs), args.repetitions,
                                                os.path.relpath(out_dir, ROOT)))
    backends = {"model": ModelBackend(out_dir, exes["glibc"], args.repetitions, args.seed,
                                      "glibc", setup=setup, allocator_exes=exes),
                "real": RealBackend(out_dir, build.build_path("build"), setup=setup)}
    res = execute(steps, backends, out_dir, state, entries, None, args.repetitions, t_start)
    study.finish(env)
    log("%s: %d jobs ran, %d failed, in %s; results in %s" % (
        TOOL, len(res.entries), len(res.failures), fmt_dur(time.time() - t_start),
        os.path.relpath(out_dir, ROOT)))
    if res.entries and not args.no_report:
        from . import report
        report.generate(out_dir)
        log("%s: report %s" % (TOOL, os.path.relpath(os.path.join(out_dir, "report.md"), ROOT)))
        if args.publish:
            report.publish_report(out_dir, args.publish)
    return 128 + res.signal if res.interrupted else 1 if res.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
