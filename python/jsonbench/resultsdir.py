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

from . import build, gbench
from .util import log

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
    if job.side != "real":
        e["params"] = " ".join(job.opts)
        if job.side == "model":
            e["hyperfine"] = "hyperfine/%s.json" % job.name
    else:
        t = job.target
        e["params"] = " ".join("%s=%s" % kv for kv in sorted(job.opts.items())
                               if kv[0] != "txn_client")
        e.update({"allocator": getattr(t, "allocator", "glibc"), "real_ovs": True, "ovs_version": t.version,
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
    """The command line a folder was made with (--resume without options)."""
    return _tool_plan(out_dir, tool)["argv"]


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
        from . import shards
        why = shards.check_resumed(state, shard_args)
        if why:
            sys.exit("%s: --resume: %s: %s" % (tool, out_dir, why))
    return state


# ------------------------------------------------------------------ join

def join(primary, other, out_dir, ovs_claims=None):
    """out_dir = primary + the runs primary lacks (or that failed there) taken
    from other; both must be reproduce folders.  ovs_claims: the current
    real-OVS pairs file, whose metrics judge the real runs taken when it
    names the same commits as the file they ran with."""
    a, b = _claims().load_run(primary), _claims().load_run(other)
    if not a or not b:
        sys.exit("join: both folders must hold %s (claims reproductions)" % _claims().RUN_FILE)
    if os.path.exists(out_dir):
        sys.exit("join: %s exists; --out must be a new folder" % out_dir)
    shutil.copytree(primary, out_dir, ignore=shutil.ignore_patterns(
        "report.md", "report.html", "charts", PLAN))
    meta_a, meta_b = a[2], b[2]
    index = gbench.read(os.path.join(out_dir, "index.json"))
    index_b = gbench.read(os.path.join(other, "index.json"))
    env = gbench.read(os.path.join(out_dir, "env.json"))
    env_b = gbench.read(os.path.join(other, "env.json"))
    taken = []
    for key, info in meta_b["runs"].items():
        mine = meta_a["runs"].get(key)
        if not info.get("file") or (mine and mine.get("file")):
            continue
        shutil.copy(os.path.join(other, info["file"]), os.path.join(out_dir, info["file"]))
        meta_a["runs"][key] = dict(info, source=os.path.basename(other))
        index["entries"] += [e for e in index_b["entries"] if e["file"] == info["file"]]
        taken.append(key)
    _take_claims(meta_a, meta_b, taken)
    taken_real = _fill_real(meta_a, meta_b, other, out_dir, index, index_b, env, env_b)
    if taken_real and ovs_claims and os.path.exists(ovs_claims):
        _judge_with_current(meta_a["real"], ovs_claims)
    if taken_real:
        env["run_order"] = "grouped"     # model and real from separate runs
    # Failures name a run key (older folders) or the job's file stem.
    gone = set(taken) | set(taken_real) | {
        os.path.splitext(os.path.basename(info["file"]))[0]
        for runs in (meta_a["runs"], (meta_a.get("real") or {}).get("runs", {}))
        for key, info in runs.items() if key in taken or key in taken_real}
    index["failures"] = [f for f in index.get("failures", []) if f["job"] not in gone]
    env["datasets"] = _union(env.get("datasets"), env_b.get("datasets"), "path")
    env["command"] = "%s  +  runs from %s" % (env.get("command", ""), env_b.get("command", ""))
    # One entry per join, so a folder joined from several keeps them all.
    meta_a["filled_from"] = _claims().filled_from(meta_a) + [{
        "folder": "results/" + os.path.basename(other),
        "command_args": meta_b.get("command_args", ""),
        "runs": taken, "duration_s": meta_b.get("duration_s"),
        "run_seconds": meta_b.get("run_seconds", {})}]
    # Claims the primary did not plan (--only) are evaluated too now.
    write_index(out_dir, index["entries"], index["failures"])
    write_env(out_dir, env)
    gbench.write_atomic(os.path.join(out_dir, _claims().RUN_FILE), meta_a)
    log("join: %d runs taken from %s" % (len(taken), build.rel(other)))


def _take_claims(meta_a, meta_b, taken):
    """A claim whose runs all come from the other folder is read with that
    folder's definition of it (and its explanation): its runs were made for
    that definition, whose options (part of each run's key) may have
    changed since the primary ran."""
    used_by_a = {cid for key, info in meta_a["runs"].items()
                 if key not in taken and info.get("file")
                 for cid in info.get("claims", [])}
    from_b = {cid for key in taken
              for cid in meta_b["runs"][key].get("claims", [])} - used_by_a
    doc_a, doc_b = meta_a["claims"], meta_b["claims"]
    theirs = {c["id"]: c for c in doc_b.get("claims", [])}
    for i, c in enumerate(doc_a.get("claims", [])):
        if c["id"] in from_b and c["id"] in theirs and theirs[c["id"]] != c:
            doc_a["claims"][i] = theirs[c["id"]]
            expl = theirs[c["id"]].get("explain")
            if expl in doc_b.get("explanations", {}):
                doc_a.setdefault("explanations", {})[expl] = \
                    doc_b["explanations"][expl]


def _judge_with_current(real, ovs_claims):
    """The real runs were measured with an older copy of the pairs file; how
    a claim reads them (e.g. which metric stands for the model's) belongs to
    today's file, as long as it names the same builds."""
    with open(ovs_claims) as f:
        current = json.load(f)
    if current.get("pairs") != (real.get("claims") or {}).get("pairs"):
        log("join: %s names other builds than the real runs; judging "
            "them with the pairs file they ran with" % build.rel(ovs_claims))
        return
    real["claims"] = current


def _union(mine, theirs, key):
    """mine, then the items of theirs whose 'key' mine does not hold."""
    mine = list(mine or [])
    have = {m.get(key) for m in mine}
    return mine + [t for t in theirs or [] if t.get(key) not in have]


def _fill_real(meta_a, meta_b, other, out_dir, index, index_b, env, env_b):
    """The real-OVS half of fill(): every real run the other folder has (a
    --real-only run) and the primary lacks comes along, with the build
    targets it ran on, so several real-only runs can be joined one after the
    other (the first one's runs win).  Returns the run keys taken."""
    real_b = meta_b.get("real")
    if not real_b or not real_b.get("runs"):
        return []
    real_a = meta_a.get("real") or {}
    runs_a = dict(real_a.get("runs", {}))
    # A run of another key can have the same file name (a claim whose
    # model-only options changed since): the primary's file stays.
    files_a = {i.get("file") for i in runs_a.values() if i.get("file")}
    taken = []
    for key, info in real_b["runs"].items():
        if not info.get("file") or (runs_a.get(key) or {}).get("file"):
            continue
        if info["file"] in files_a:
            log("join: %s: not taken, %s already holds %s"
                % (key, build.rel(out_dir), info["file"]))
            continue
        files_a.add(info["file"])
        dst = os.path.join(out_dir, info["file"])
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(os.path.join(other, info["file"]), dst)
        index["entries"] = [e for e in index["entries"] if e["file"] != info["file"]]
        index["entries"] += [e for e in index_b["entries"] if e["file"] == info["file"]]
        runs_a[key] = dict(info, source=os.path.basename(other))
        taken.append(key)
    if not taken:
        return []
    index["failures"] = index.get("failures", []) + [
        f for f in index_b.get("failures", []) if f["job"] in real_b["runs"]
        and "error" in real_b["runs"][f["job"]] and f["job"] not in runs_a]
    env["ovs_targets"] = _union(env.get("ovs_targets"), env_b.get("ovs_targets"), "name")
    _record_eras(index["entries"], env["ovs_targets"], real_b.get("ovs_tree"))
    for k in ("ovs_build_failures", "ovs_ab_pairs"):
        env[k] = env.get(k) or env_b.get(k, [])
    if real_a.get("runs"):
        real_a["runs"] = runs_a
        # The builds the taken runs ran on, for the report's list of them.
        real_a["targets"] = _union(real_a.get("targets"), real_b.get("targets"), "name")
        real_a["sources"] = _realclaims().real_sources(real_a) + [os.path.basename(other)]
        real_a.pop("source", None)
        real_a["duration_s"] = (real_a.get("duration_s") or 0) + (real_b.get("duration_s") or 0)
    else:
        meta_a["real"] = dict(real_b, runs=runs_a, sources=[os.path.basename(other)])
        meta_a["real"].pop("source", None)     # The older, single-folder key.
    log("join: %d real-OVS runs taken from %s" % (len(taken), build.rel(other)))
    return taken


def _record_eras(entries, targets, ovs_tree):
    """Real runs made before the server code era was recorded get it here,
    derived from their version and commit (representation.
    derive_server_era(): the tree each build came from, else the run's
    --ovs-tree), with how it was told in "ovs_server_era_source"; an era
    nobody can tell stays unrecorded (unknown)."""
    from .realovs import representation
    source = {t["name"]: t.get("ovs_source") or "" for t in targets}
    for item in list(targets) + [e for e in entries if e.get("real_ovs")]:
        if item.get("ovs_server_era"):
            continue
        name = item.get("name") or item.get("impl")
        src = item.get("ovs_source") or source.get(name, "")
        trees = [representation.source_tree(src), ovs_tree]
        era, how = representation.derive_server_era(
            item.get("ovs_commit") or "", item.get("ovs_version") or "",
            [t for t in trees if t])
        if era:
            item["ovs_server_era"] = era
            item["ovs_server_era_source"] = "derived when joined: " + how




def _claims():
    from . import claims
    return claims


def _realclaims():
    from . import realclaims
    return realclaims


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
    return renamed(stored) + rest + ["--resume", known.resume]


# Options a stored command line may hold under an older name.
RENAMED = {"--ovs-claims": "--claims", "--harness-args": "--workload-opts"}


def renamed(argv):
    """A stored command line in today's option names (--real-only is
    --only real)."""
    out = [RENAMED.get(a.split("=", 1)[0], a.split("=", 1)[0]) + a[len(a.split("=", 1)[0]):]
           for a in argv if a != "--real-only"]
    if "--real-only" in argv:
        if "--only" in out:
            i = out.index("--only") + 1
            out[i] = "real," + out[i]
        else:
            out += ["--only", "real"]
    return out
