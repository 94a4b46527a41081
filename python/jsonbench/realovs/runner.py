"""Runs workloads x datasets x real OVS targets and writes a results folder
in the suite's layout (index.json, env.json, runs/*.json), so that the
report, compare and gate read it like the model's."""

import argparse
import os
import sys
import time

from .. import datasets as D
from .. import measuring, resultsdir, suite_order
from .. import options as O
from ..execute import execute
from ..jobs import Job
from ..study import Study
from ..util import sha256_of
from . import workloads as wl
from .backend import RealBackend, variant_name

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))


def log(msg):
    print(msg, file=sys.stderr, flush=True)


WORKLOAD_OPTS = {"batches": 5, "batch_rows": 100, "txns": 1000, "entries": 100,
                 "held": 100, "changes": 1, "datapaths": 4}


def add_run_args(p):
    O.dataset(p)
    p.add_argument("--scale", default="0.01",
                   help="comma list: generate NB and SB at these scales into "
                   "datasets/out/ (as scripts/suite.sh names them; default 0.01; "
                   "ignored with --dataset)")
    p.add_argument("--forms", help="comma list of the forms generated at --scale: "
                   "snapshot, log, cluster (a one-server raft cluster; load, dump "
                   "and monitor run on it too) (default: snapshot, and log when "
                   "compact runs)")
    O.seed(p)
    O.build_dir(p)
    p.add_argument("--workloads",
                   help="comma list of %s (default: all)" % ",".join(wl.WORKLOADS))
    O.repetitions(p)
    p.add_argument("--concurrency", dest="clients", type=int, metavar="N",
                   help="monitor: ovsdb-client monitor-cond clients (10); "
                   "txn: concurrent clients (5); monitor-storm: requests "
                   "sent at once (100)")
    O.workload_params(p, dest="workload_opts")
    O.out(p, "results/<UTC stamp>-real-ovs")
    O.resume(p)
    O.as_deployed(p)


def workload_opts(args):
    """--workload-params over the defaults; SystemExit on a bad one."""
    out = dict(WORKLOAD_OPTS)
    for item in (args.workload_opts or "").split(","):
        if not item.strip():
            continue
        k, _, v = item.partition("=")
        k = k.strip().replace("-", "_")
        if k not in WORKLOAD_OPTS or not v.strip().isdigit():
            raise SystemExit("real-ovs: --workload-params %s: expected one of %s=N"
                             % (item, ", ".join(sorted(WORKLOAD_OPTS))))
        out[k] = int(v)
    return out


def scale_forms(args, workloads):
    """The forms generated at --scale: --forms, else the snapshot and,
    when compact runs, the log form.  SystemExit on an unknown one."""
    given = getattr(args, "forms", None)
    if not given:
        return ["snapshot"] + (["log"] if "compact" in workloads else [])
    forms = [f.strip() for f in given.split(",") if f.strip()]
    for f in forms:
        if f not in D.FORMS:
            raise SystemExit("real-ovs: --forms %s: expected some of %s"
                             % (f, ", ".join(D.FORMS)))
    return forms


def datasets_from_args(args, workloads):
    """Dataset dicts as the suite makes them (jsonbench.datasets): files
    given by hand, and generated ones at --scale (in the forms of
    scale_forms()) through the one cached dataset function (regenerated
    when ovsdb-gen, the profile or the schema is newer than the cached
    file)."""
    forms = scale_forms(args, workloads)
    try:
        out = D.from_files(args.dataset)
        # Generated datasets instead of files, as in the suite.
        for s in ("" if args.dataset else args.scale or "").split(","):
            if not s:
                continue
            for kind in ("nb", "sb"):
                for form in forms:
                    ds = D.generated(kind, float(s), form, args.seed)
                    D.ensure(args.build_dir, ds, args.seed, who="real-ovs", say=log)
                    out.append(ds)
    except D.Error as exc:
        raise SystemExit("real-ovs: %s" % exc)
    if not out:
        raise SystemExit("real-ovs: give --dataset FILE or --scale S")
    return out


def plan(workloads, datasets):
    """(workload, dataset) pairs: compact on log forms, the rest on
    snapshots, and load, dump and monitor on clustered files too; a dataset
    of form 'any' takes every workload.  txn has its own schema: it runs
    once, filed under the first NB dataset, as the suite files the model's
    txn.  monitor-cond-change runs on SB datasets only."""
    jobs = []
    for w in workloads:
        want = (("log",) if w == "compact"
                else ("snapshot", "cluster") if w in ("load", "dump", "monitor")
                else ("snapshot",))
        mine = [ds for ds in datasets if ds["form"] in want + ("any",)]
        if w in ("txn", "raft"):
            mine = ([ds for ds in mine if ds["kind"] == "nb"] or mine)[:1]
        if w == "monitor-cond-change":      # Datapath_Binding: SB only
            mine = [ds for ds in mine if ds["kind"] == "sb"]
        jobs += [(w, ds) for ds in mine]
    return jobs


def env_fields(targets):
    """What env.json adds for a real-OVS run: the targets measured."""
    return {"targets": [dict(t.context(), name=t.name, programs=t.programs)
                        for t in targets]}


def job_opts(args, workload):
    o = workload_opts(args)
    return {"monitor": {"clients": args.clients or 10, "batches": o["batches"],
                        "batch_rows": o["batch_rows"]},
            "txn": {"clients": args.clients or 5, "txns": o["txns"]},
            "raft": {"entries": o["entries"]},
            "monitor-storm": {"held": o["held"], "clients": args.clients or 100},
            "monitor-cond-change": {"held": o["held"], "changes": o["changes"],
                                    "datapaths": o["datapaths"]},
            }.get(workload, {})


def run(args, targets, failures):
    """Every workload x dataset x target through the one execute loop
    (jsonbench.execute), interleaved: repetition r of every target before
    repetition r+1, so that two builds compared ran side by side (their
    A/B intervals are paired); an existing --out folder is added to (one
    target per invocation, one report), a --resume folder finished."""
    if getattr(args, "resume", None):
        args.out = args.resume
    workloads = [w for w in (args.workloads or ",".join(wl.WORKLOADS)).split(",") if w]
    for w in workloads:
        wl.get(w)
    datasets = datasets_from_args(args, workloads)
    # An existing --out folder is added to: one target per invocation.
    study = Study("real-ovs", sys.argv[1:], "scripts/real-ovs.sh",
                  argparse.Namespace(out=args.out), name="{stamp}-real-ovs")
    out_dir = study.out_dir
    resultsdir.make_dirs(out_dir)
    for d in datasets:
        d["sha256"] = sha256_of(d["path"])
        d["bytes"] = os.path.getsize(d["path"])
    start = time.time()
    index = resultsdir.read_index(out_dir)
    if not targets:
        log("real-ovs: no target to run")
        resultsdir.write_index(out_dir, index["entries"], index["failures"] + failures)
        return 1
    # dump before load on the same dataset: load reuses dump's start.
    order = sorted(workloads, key=lambda w: (w != "dump", w != "load"))
    templates = []
    for w, ds in plan(order, datasets):
        opts = job_opts(args, w)
        templates.append(Job(None, w, variant_name(w, opts), ds, opts,
                             clients=opts.get("clients"), side="real"))
    steps = suite_order.steps(suite_order.groups([], templates), targets, args.repetitions)
    jobs = [s.job for s in steps] + [d for s in steps for d in s.job.derived]
    digest = resultsdir.plan_hash(jobs, args.repetitions, "interleaved")
    # Builds measured by separate invocations into one folder did not run
    # side by side.
    run_order = "interleaved" if not index["entries"] or getattr(args, "resume", None) \
        else "grouped"
    if getattr(args, "resume", None):
        study.resume = True
        state = study.resumed(digest)
        old_failures = []
    else:
        state = study.new_plan(digest, jobs)
        old_failures = index["failures"]
    setup = measuring.begin(args, args.build_dir, lambda m: log("real-ovs: " + m))
    env = study.environment(args.build_dir, datasets=datasets, setup=setup)
    env.update(env_fields(targets))
    env["run_order"] = run_order
    res = execute(steps, {"real": RealBackend(out_dir, args.build_dir, args.ovs_cache_dir,
                                              setup=setup)},
                  out_dir, state, index["entries"], old_failures + failures,
                  args.repetitions, start, say=log)
    study.finish(env)
    log("real-ovs: %d results, %d failures in %s"
        % (len(res.entries), len(res.failures), out_dir))
    if res.interrupted:
        log("real-ovs: interrupted; to run the rest: scripts/real-ovs.sh run --resume %s "
            "(with the same target options)" % out_dir)
        return 128 + res.signal
    return 1 if res.failures else 0
