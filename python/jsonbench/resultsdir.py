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
before plan.json existed read the same; they cannot be resumed.

join() makes a new claims folder from two (scripts/jsonbench join): the
first plus every run it lacks taken from the second, with the index
entries, failures, datasets, real targets and the claims definitions
that go with them; real runs recorded before the server code era was
(older folders) get it derived when joined."""

import argparse
import hashlib
import json
import os
import shutil
import sys

from . import gbench, shards

INDEX = "index.json"
ENV = "env.json"
PLAN = "plan.json"


class ResumeError(Exception):
    pass


def entry(job, rel_file, allocator="glibc"):
    """The index entry of a finished job; its allocator is the job's when
    it names one, else 'allocator' (the model's build) or the real
    target's."""
    ds = job.ds
    e = {"file": rel_file, "impl": job.impl, "workload": job.workload,
         "variant": job.variant, "dataset": ds["label"],
         "kind": (ds.get("kind") or "").upper(), "scale": ds.get("scale"),
         "form": ds.get("form"), "clients": job.clients, "mode": job.mode,
         "allocator": job.allocator or allocator, "source": "harness"}
    if job.side != "real":
        e["params"] = " ".join(job.opts)
        if job.side == "model":
            e["hyperfine"] = "hyperfine/%s.json" % job.name
    else:
        t = job.target
        e["params"] = " ".join("%s=%s" % kv for kv in sorted(job.opts.items())
                               if kv[0] != "txn_client")
        e.update({"allocator": job.allocator or getattr(t, "allocator", "glibc"),
                  "real_ovs": True, "ovs_version": t.version,
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

def append_round(out_dir, scratch, names):
    """More repetitions of jobs already in out_dir, measured into the
    folder 'scratch': each job's runs/<name>.json there is appended to
    out_dir's (gbench.append_repetitions), then 'scratch' is removed.
    Returns {name: repetitions added}."""
    added = {}
    for name in names:
        main = os.path.join(out_dir, "runs", name + ".json")
        more = os.path.join(scratch, "runs", name + ".json")
        if not (os.path.exists(main) and os.path.exists(more)):
            continue
        extra = gbench.read(more)
        gbench.write_atomic(main, gbench.append_repetitions(gbench.read(main), extra))
        added[name] = 1 + max((b.get("repetition_index", 0)
                               for b in gbench.iterations(extra)), default=-1)
    shutil.rmtree(scratch, ignore_errors=True)
    return added


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


def _tool_plan(out_dir, tool):
    """The plan state of a folder 'tool' wrote; raises ResumeError when it
    has none or another tool's."""
    state = read_plan(out_dir)
    if state is None:
        raise ResumeError("%s has no %s: it was not written by a run that can be "
                          "resumed" % (out_dir, PLAN))
    if state.get("tool") != tool:
        raise ResumeError("%s was written by %s, not %s" % (out_dir, state.get("tool"), tool))
    return state


def stored_argv(out_dir, tool):
    """The command line a folder was made with (--resume without options),
    in today's option names."""
    return renamed(_tool_plan(out_dir, tool)["argv"], tool)


def check_resume(out_dir, tool, commit, digest):
    """The plan state of a folder to resume; raises ResumeError when it is
    another tool's, another commit's or another plan's."""
    state = _tool_plan(out_dir, tool)
    if state.get("commit") != commit:
        raise ResumeError("%s was measured at commit %s, this tree is %s: its results and "
                          "new ones would not be comparable; start a new folder"
                          % (out_dir, state.get("commit"), commit))
    if state.get("plan_hash") != digest:
        raise ResumeError("%s holds another plan (other jobs, datasets, options or "
                          "repetitions); resume it with the options it was started with "
                          "(--resume FOLDER alone reuses them)" % out_dir)
    return state


def resume_or_exit(out_dir, tool, commit, digest, shard_args=None):
    """check_resume(), and with 'shard_args' (a shard's options) that the
    folder holds that shard (shards.check_resumed()); exits naming 'tool'
    and why when it cannot resume."""
    try:
        state = check_resume(out_dir, tool, commit, digest)
    except ResumeError as exc:
        sys.exit("%s: --resume: %s" % (tool, exc))
    if shard_args is not None:
        why = shards.check_resumed(state, shard_args)
        if why:
            sys.exit("%s: --resume: %s: %s" % (tool, out_dir, why))
    return state


def _union(mine, theirs, key):
    """mine, then the items of theirs whose 'key' mine does not hold."""
    mine = list(mine or [])
    have = {m.get(key) for m in mine}
    return mine + [t for t in theirs or [] if t.get(key) not in have]


def resumed_args(argv, who):
    """--resume FOLDER: the options 'who' (suite, reproduce) started the
    folder with, then any given with it (they must make the same plan)."""
    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("--resume")
    known, rest = ap.parse_known_args(argv)
    if not known.resume:
        return argv
    try:
        stored = stored_argv(known.resume, who)
    except ResumeError as exc:
        sys.exit("%s: --resume: %s" % (who, exc))
    return stored + rest + ["--resume", known.resume]


# Options a stored command line may hold under an older name.
RENAMED = {"--ovs-claims": "--claims", "--harness-args": "--workload-opts"}
# ... and those renamed in one command only (one meaning per name).
RENAMED_IN = {
    "find": {"--ovs-ref": "--range", "--metrics": "--metric", "--threshold": "--min-change",
             "--parallel": "--ways"},
}


def renamed(argv, tool=None):
    """A stored command line in today's option names (--real-only is
    --only real)."""
    names = dict(RENAMED, **RENAMED_IN.get(tool, {}))
    out = [names.get(a.split("=", 1)[0], a.split("=", 1)[0]) + a[len(a.split("=", 1)[0]):]
           for a in argv if a != "--real-only"]
    if "--real-only" in argv:
        if "--only" in out:
            i = out.index("--only") + 1
            out[i] = "real," + out[i]
        else:
            out += ["--only", "real"]
    return out
