"""Shards: one study's plan cut into parts that run on separate machines.

The unit is one interleaved group of the plan (a Unit): the jobs whose
repetitions alternate so that their ratios compare neighbouring processes
(a dataset x workload with all its impls, real builds and repetitions; one
claim's before and after; a commit and its reference).  A unit is never
split: every A/B pair is measured on one machine.

Any front end shards its plan the same way:

  units = [Unit(key, label, job_names, cost), ...]    its groups, plan order
  digest = plan_hash(units, what)     what: anything else that changes
                                      what runs (repetitions, options)
  add_args(ap) / check_args(ap, args) --shards N, --shard K, --plan-shards
  if args.plan_shards: print_split(units, N, digest, tool)
  keys = selected(args, units)        the unit keys of shard K (None: all)
  ... run only the jobs of those units into a complete results folder ...
  env["shard"] = shard_env(args, units, digest, t_measure_start, t_end)
  plan.json["shard"] = plan_state(args, units, digest, tool)

Assignment is deterministic (largest estimated cost first, each unit to
the shard with the least cost so far, ties to the lower shard), computed
from the plan alone: every node computes the same split, whatever it has
cached.  Costs are estimated dataset bytes x processes (dataset_bytes():
a generated dataset's size from its kind and scale, not from a file that
one node has and another has not).

jsonbench.merge joins the shard folders into one results folder."""

import hashlib
import json
import os
import socket
import sys

# Bytes of a generated dataset at scale 1 (README: NB ~350 MB, SB ~615 MB);
# the estimate only has to rank units, not predict seconds.
SCALE1_BYTES = {"nb": 350e6, "sb": 615e6}
BUILTIN_BYTES = float(1 << 20)


class Unit:
    """One interleaved group: key (the front end's own, to select its
    jobs), label (unique text: the split's JSON, tie-breaks), the names
    of its jobs (results file stems), cost (any unit, the same for all)."""

    def __init__(self, key, label, jobs, cost):
        self.key = key
        self.label = label
        self.jobs = list(jobs)
        self.cost = float(cost)

    def __repr__(self):
        return "Unit(%s, %d jobs, cost %g)" % (self.label, len(self.jobs), self.cost)


def dataset_bytes(kind, scale, path=None):
    """Estimated bytes of a dataset: generated (kind nb/sb and a scale) from
    its scale, a file given by hand from its size (the same file on every
    node), a workload's built-in database 1 MB."""
    kind = (kind or "").lower()
    if scale is not None and kind in SCALE1_BYTES:
        return float(scale) * SCALE1_BYTES[kind]
    if path and os.path.exists(path):
        return float(max(os.path.getsize(path), 1))
    return BUILTIN_BYTES


def job_cost(job, processes=1):
    """A jobs.Job's estimated cost: dataset bytes x processes."""
    ds = job.ds
    return dataset_bytes(ds.get("kind"), ds.get("scale"), ds.get("path")) * processes


def plan_hash(units, what=None):
    """Hash of a plan as shards see it: its units, their jobs, and 'what'
    (JSON-able: what else changes what runs).  Independent of the node
    (no paths, no dataset files)."""
    doc = {"units": [[u.label, u.jobs] for u in units], "what": what}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()


def assign(units, n):
    """[[Unit] per shard]: largest cost first, each to the shard with the
    least cost so far (ties: the lower shard); within a shard, plan order."""
    if n < 1:
        raise ValueError("shards must be >= 1")
    labels = [u.label for u in units]
    if len(set(labels)) != len(labels):
        raise ValueError("two units with one label: %s" % sorted(
            {x for x in labels if labels.count(x) > 1}))
    pos = {u.label: i for i, u in enumerate(units)}
    loads = [0.0] * n
    out = [[] for _ in range(n)]
    for u in sorted(units, key=lambda u: (-u.cost, u.label)):
        k = min(range(n), key=lambda i: (loads[i], i))
        out[k].append(u)
        loads[k] += u.cost
    return [sorted(s, key=lambda u: pos[u.label]) for s in out]


def split(units, n, digest, tool):
    """The split as JSON (--plan-shards; stored in each shard's plan.json
    so that a merge knows what a missing shard held)."""
    parts = assign(units, n)
    return {"tool": tool, "plan_hash": digest, "shards": n, "units": len(units),
            "jobs": sum(len(u.jobs) for u in units),
            "assignment": [{"shard": k + 1, "cost": sum(u.cost for u in part),
                            "units": [u.label for u in part],
                            "jobs": [j for u in part for j in u.jobs]}
                           for k, part in enumerate(parts)]}


def print_split(units, n, digest, tool, stream=None):
    json.dump(split(units, n, digest, tool), stream or sys.stdout, indent=1)
    (stream or sys.stdout).write("\n")


# ------------------------------------------------------------------ options

def add_args(ap):
    ap.add_argument("--shards", type=int, metavar="N",
                    help="cut the plan into N shards (whole interleaved groups, largest "
                         "first); with --shard K run shard K only (docs/shards.md)")
    ap.add_argument("--shard", type=int, metavar="K",
                    help="with --shards N: run shard K (1..N) into a complete results folder")
    ap.add_argument("--plan-shards", action="store_true",
                    help="with --shards N: print the split as JSON (plan hash, groups and "
                         "jobs per shard) and stop")


def check_args(ap, args):
    n, k = args.shards, args.shard
    if n is None:
        if k is not None or args.plan_shards:
            ap.error("--shard and --plan-shards need --shards N")
        return
    if n < 1:
        ap.error("--shards must be >= 1")
    if k is None and not args.plan_shards:
        ap.error("--shards N needs --shard K (run one shard) or --plan-shards (print the split)")
    if k is not None and not 1 <= k <= n:
        ap.error("--shard must be in 1..%d" % n)


def selected(args, units):
    """The unit keys of shard --shard K of --shards N; None when not sharded."""
    if getattr(args, "shard", None) is None:
        return None
    return {u.key for u in assign(units, args.shards)[args.shard - 1]}


def strip_args(argv, also=()):
    """argv without --shards/--shard/--plan-shards and the options 'also'
    names (each with its value): the study's command."""
    valued = ("--shards", "--shard") + tuple(also)
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
            continue
        if a in valued:
            skip = True
            continue
        if a == "--plan-shards" or a.split("=")[0] in valued:
            continue
        out.append(a)
    return out


# ------------------------------------------------------------------ records

def node():
    """This machine: host name and CPU model."""
    from .env import cpu_model
    return {"host": socket.gethostname(), "cpu_model": cpu_model()}


def shard_env(args, units, digest, measure_start, measure_end):
    """env.json's "shard": which shard, of which plan, on which node, and
    the interval its timed processes ran in (epoch seconds)."""
    mine = assign(units, args.shards)[args.shard - 1]
    doc = {"index": args.shard, "count": args.shards, "plan_hash": digest,
           "units": [u.label for u in mine], "measured": [measure_start, measure_end]}
    doc.update(node())
    for var in ("SLURM_JOB_ID", "SLURM_ARRAY_JOB_ID", "SLURM_ARRAY_TASK_ID",
                "PARALLEL_SSHLOGIN"):
        if os.environ.get(var):
            doc[var.lower()] = os.environ[var]
    return doc


def plan_state(args, units, digest, tool):
    """plan.json's "shard": this shard, and the whole split (what a merge
    records as not measured when another shard is missing)."""
    return {"index": args.shard, "count": args.shards, "plan_hash": digest,
            "split": split(units, args.shards, digest, tool)}


def check_resumed(state, args):
    """A resumed shard folder must be the same shard of the same split."""
    have = state.get("shard") or {}
    want = (args.shard, args.shards)
    if (have.get("index"), have.get("count")) != want:
        return "it holds %s, not shard %d of %d" % (
            "shard %s of %s" % (have.get("index"), have.get("count")) if have
            else "an unsharded run", want[0], want[1])
    return None
