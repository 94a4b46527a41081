"""A results folder: what every runner writes and the report reads.

  index.json   {"entries": [one per finished job], "failures": [...]}
               written here only (write_index)
  env.json     machine, build, commit, datasets, command, run order
  runs/        google-benchmark JSON, one file per job (jobs.Job.name)
  hyperfine/   hyperfine's exports of the model's processes
  plan.json    what the run was asked to do, for --resume: the commit,
               the plan's hash, the command line, the job names, which
               finished, and whether the run was interrupted

An index entry describes one job (entry()): impl, workload, variant,
dataset, kind, scale, form, clients, mode, params (the job's options as
text: harness options on the model's side, name=value on the real one),
allocator, file, source, and on the real side real_ovs and the build's
version, commit, representation and server code era.  Folders written
before plan.json existed read the same; they cannot be resumed."""

import hashlib
import json
import os

from . import gbench

INDEX = "index.json"
ENV = "env.json"
PLAN = "plan.json"


class ResumeError(Exception):
    pass


def entry(job, rel_file, allocator="glibc"):
    """The index entry of a finished job."""
    ds = job.ds
    e = {"file": rel_file, "impl": job.impl, "workload": job.workload,
         "variant": job.variant, "dataset": ds["label"],
         "kind": (ds.get("kind") or "").upper(), "scale": ds.get("scale"),
         "form": ds.get("form"), "clients": job.clients, "mode": job.mode,
         "allocator": allocator, "source": "harness"}
    if job.side == "model":
        e["params"] = " ".join(job.opts)
        e["hyperfine"] = "hyperfine/%s.json" % job.name
    else:
        t = job.target
        e["params"] = " ".join("%s=%s" % kv for kv in sorted(job.opts.items())
                               if kv[0] != "txn_client")
        e.update({"allocator": "glibc", "real_ovs": True, "ovs_version": t.version,
                  "ovs_commit": t.commit, "ovs_representation": t.representation,
                  "ovs_server_era": t.server_era})
        e.pop("hyperfine", None)
    e.update(job.meta)
    return e


def failure(job, error):
    f = {"job": job.name, "error": str(error)[:2000]}
    if job.side == "real":
        f["impl"] = job.impl
    return f


def read_index(out_dir):
    path = os.path.join(out_dir, INDEX)
    if not os.path.exists(path):
        return {"entries": [], "failures": []}
    doc = gbench.read(path)
    doc.setdefault("entries", [])
    doc.setdefault("failures", [])
    return doc


def write_index(out_dir, entries, failures, **extra):
    """The one index.json writer."""
    doc = {"entries": list(entries), "failures": list(failures)}
    doc.update(extra)
    gbench.write_atomic(os.path.join(out_dir, INDEX), doc)


def write_env(out_dir, env):
    gbench.write_atomic(os.path.join(out_dir, ENV), env)


def read_env(out_dir):
    path = os.path.join(out_dir, ENV)
    return gbench.read(path) if os.path.exists(path) else {}


def make_dirs(out_dir):
    for sub in ("runs", "hyperfine"):
        os.makedirs(os.path.join(out_dir, sub), exist_ok=True)


# ------------------------------------------------------------------ resume

def plan_hash(jobs, repetitions, order):
    """Hash of what a plan runs, in which order, how many times."""
    doc = {"jobs": [j.identity() for j in jobs], "repetitions": repetitions, "order": order}
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()


def read_plan(out_dir):
    path = os.path.join(out_dir, PLAN)
    return gbench.read(path) if os.path.exists(path) else None


def write_plan(out_dir, state):
    gbench.write_atomic(os.path.join(out_dir, PLAN), state)


def new_plan(tool, argv, commit, digest, jobs):
    return {"tool": tool, "argv": list(argv), "commit": commit, "plan_hash": digest,
            "jobs": [j.name for j in jobs], "finished": [], "interrupted": False}


def stored_argv(out_dir, tool):
    """The command line a folder was made with (--resume without options)."""
    state = read_plan(out_dir)
    if state is None:
        raise ResumeError("%s has no %s: it was not written by a run that can be "
                          "resumed" % (out_dir, PLAN))
    if state.get("tool") != tool:
        raise ResumeError("%s was written by %s, not %s" % (out_dir, state.get("tool"), tool))
    return state["argv"]


def check_resume(out_dir, tool, commit, digest):
    """The plan state of a folder to resume; raises ResumeError when it is
    another tool's, another commit's or another plan's."""
    state = read_plan(out_dir)
    if state is None:
        raise ResumeError("%s has no %s: it was not written by a run that can be "
                          "resumed" % (out_dir, PLAN))
    if state.get("tool") != tool:
        raise ResumeError("%s was written by %s, not %s" % (out_dir, state.get("tool"), tool))
    if state.get("commit") != commit:
        raise ResumeError("%s was measured at commit %s, this tree is %s: its results and "
                          "new ones would not be comparable; start a new folder"
                          % (out_dir, state.get("commit"), commit))
    if state.get("plan_hash") != digest:
        raise ResumeError("%s holds another plan (other jobs, datasets, options or "
                          "repetitions); resume it with the options it was started with "
                          "(--resume FOLDER alone reuses them)" % out_dir)
    return state
