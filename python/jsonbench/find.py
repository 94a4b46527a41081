"""scripts/jsonbench find: the commits from GOOD to BAD on BAD's
first-parent line (GOOD off that line, e.g. a release branch's tag: the
newest first-parent commit GOOD contains, said so), each measured against
GOOD's stand-in (the first); an interval whose ends differ by more than
--min-change percent is split (k-way: --ways commits per round;
jsonbench.bisection) until each change is one commit.  A change spread
over several commits each below the threshold is reported as not
resolved.  With --engine (slurm, parallel:HOSTS) a round's commits run as
the shards of one history, one commit per shard (measure_round).

Its options and command line are jsonbench.history's (main_find)."""

import json
import os
import re
import shutil

from . import ROOT, engines, measuring, resultsdir
from .bisection import bisect
from .env import git_short_commit
from .historyfigures import STUDY, point_figures
from .historymetrics import deterministic
from .historyplan import (dataset_list, group_jobs, open_study, paired, parse_figures,
                          parse_params, run_groups, start_folder, study_datasets,
                          study_fields, templates, write_env, write_study)
from .realovs import build as B
from .realovs.buildcache import Builder
from .realovs.commits import commit_info, line_between
from .util import StudyError, log


def _engine(spec):
    """(engine, hosts) of find's --engine: slurm, or parallel:HOST,HOST
    (':' is this machine); None without."""
    if not spec:
        return None
    name, _, hosts = spec.partition(":")
    if name == "slurm" and not hosts:
        return "slurm", None
    if name == "parallel" and hosts:
        return "parallel", hosts
    raise StudyError("--engine %s: slurm, or parallel:HOST,HOST (':' is this machine)" % spec)


def measure_round(args, engine, metric, commits, todo, out_dir, index_doc, builder):
    """find --engine: one round's commits (line indices 'todo') measured as
    a history of those commits paired with the good end, one commit per
    shard, through Slurm or GNU parallel (jsonbench.engines), merged into
    OUT/round-R/merged.  Its index entries join find's index (file paths
    under round-R/merged, study_point the line index); a commit without a
    result (build failed, shard lost) reads as not measurable."""
    r = 1
    while os.path.exists(os.path.join(out_dir, "round-%d" % r)):
        r += 1
    rdir = os.path.join(out_dir, "round-%d" % r)
    hist = ["--ovs-tree", os.path.abspath(args.ovs_tree), "--ovs-ref",
            ",".join(commits[i][:12] for i in todo) + ",ref=" + commits[0][:12],
            "--metrics", metric, "--repetitions", str(args.repetitions), "--seed",
            str(args.seed), "--build-dir", os.path.abspath(args.build_dir)]
    hist += [x for d in args.dataset for x in ("--dataset", os.path.abspath(d))] or \
        ["--scale", str(args.scale)]
    if args.ovs_cache_dir:
        hist += ["--ovs-cache-dir", os.path.abspath(args.ovs_cache_dir)]
    if args.ovs_retry_failed:
        hist.append("--ovs-retry-failed")
    if args.as_deployed:
        hist.append("--as-deployed")
    if args.workload_params:
        hist += ["--workload-params", args.workload_params]
    argv = ["--shards", str(len(todo)), "--out", rdir, "history"] + hist
    log("find: round %d: %d commit(s) in %d shard(s) through %s -> %s"
        % (r, len(todo), len(todo), engine[0], rdir))
    old = os.environ.get("SBATCH_WAIT")
    try:
        if engine[0] == "slurm":
            os.environ["SBATCH_WAIT"] = "1"     # sbatch returns when the job ended
            engines.slurm(argv)
        else:
            engines.parallel([engine[1]] + argv)
    except SystemExit as exc:
        if exc.code not in (0, 1, None):
            raise StudyError("round %d: %s failed: %s" % (r, engine[0], exc.code))
    finally:
        if engine[0] == "slurm":
            if old is None:
                os.environ.pop("SBATCH_WAIT", None)
            else:
                os.environ["SBATCH_WAIT"] = old
    merged = os.path.join(rdir, "merged")
    if not os.path.exists(os.path.join(merged, STUDY)):
        log("find: round %d: no merged study in %s; its commits read as not measurable"
            % (r, merged))
        return
    with open(os.path.join(merged, STUDY)) as f:
        study = json.load(f)
    line = {p["index"]: todo[p["index"]] for p in study["points"]}
    rel = os.path.relpath(merged, out_dir)
    got = resultsdir.read_index(merged)
    for e in got["entries"]:
        e = dict(e, file=os.path.join(rel, e["file"]))
        if e.get("study_point") is not None:
            e["study_point"] = line[e["study_point"]]
        index_doc["entries"].append(e)
    index_doc["failures"] += [dict(x, job="round-%d/%s" % (r, x["job"]))
                              for x in got["failures"]]
    resultsdir.write_index(out_dir, index_doc["entries"], index_doc["failures"])
    for k in ("built", "cached", "failed"):
        builder.remote[k] += study.get("builds", {}).get(k, 0)
    builder.remote["commits"] += [commits[i] for i in todo]


def check_resume(out_dir, commits=None, datasets=()):
    """find --resume: raises StudyError when the folder cannot go on here:
    measured at another commit of this project (its figures and new ones
    would not be comparable), or, given them, over another line of OVS
    commits (GOOD..BAD names other commits now) or on other datasets
    (another sha256)."""
    state = resultsdir.read_plan(out_dir) or {}
    here = git_short_commit(ROOT)
    if state.get("commit") != here:
        raise StudyError("--resume: %s was measured at commit %s, this tree is %s: its "
                         "results and new ones would not be comparable; start a new folder"
                         % (out_dir, state.get("commit"), here))
    path = os.path.join(out_dir, STUDY)
    if commits is not None and os.path.exists(path):
        with open(path) as f:
            line = json.load(f).get("line")
        if line is not None and line != commits:
            raise StudyError("--resume: %s searched the line %s..%s (%d commits), its "
                             "GOOD..BAD names another one now; start a new folder"
                             % (out_dir, line[0][:10], line[-1][:10], len(line)))
    then = {d.get("label"): d.get("sha256")
            for d in resultsdir.read_env(out_dir).get("datasets", [])}
    for d in datasets:
        if then.get(d["label"]) not in (None, d.get("sha256")):
            raise StudyError("--resume: %s measured dataset %s with sha256 %s, it is %s "
                             "now; start a new folder" % (out_dir, d["label"],
                                                          then[d["label"]][:12],
                                                          str(d.get("sha256"))[:12]))


def run_find(args, argv, builder_class=Builder):
    """The find study; builder_class builds its commits (jsonbench.history
    passes its own, which tests replace by stand-ins)."""
    tree = args.ovs_tree
    if ".." not in (args.ovs_ref or ""):
        raise StudyError("find needs --range GOOD..BAD")
    good, bad = args.ovs_ref.split("..", 1)
    if args.resume:
        check_resume(os.path.abspath(args.resume))
    metric = parse_figures(args.metrics or "rss_after_load", "--metric")
    if len(metric) != 1:
        raise StudyError("--metric %s: one figure" % args.metrics)
    metric = metric[0]
    params = parse_params(args.workload_params)
    if not deterministic(metric):
        log("find: %s is a CPU figure: a ratio to the good end measured next to it, on "
            "a shared machine a step may stay undecided; memory and valgrind figures are "
            "deterministic" % metric)
    commits, note = line_between(tree, good, bad)
    if note:
        log("find: " + note)
    n = len(commits)
    log("find: %d first-parent commits from %s to %s, %s, threshold %g%%" % (
        n - 1, commits[0][:10], bad, metric, args.threshold))
    if args.dry_run:
        return 0
    engine = _engine(args.engine)
    datasets = study_datasets(args, [metric])
    tmpls = templates([metric], datasets, args.repetitions, params)
    study_dir = open_study(args, "find", argv)
    out_dir = study_dir.out_dir
    if args.resume:
        check_resume(out_dir, commits, dataset_list(datasets))
    state, index_doc = start_folder(study_dir)
    cache = args.ovs_cache_dir or B.default_cache_dir()
    builder = builder_class(tree, args.ovs_cache_dir, args.ovs_retry_failed,
                            worktree=os.path.join(cache, "worktrees", "bisect-" + re.sub(
                                r"[^A-Za-z0-9]", "_", os.path.abspath(tree)).strip("_")))
    if engine is None:
        base_t = builder(commits[0], good if not note else commits[0][:10])
        if base_t is None:
            raise StudyError("the good end %s does not build" % commits[0][:10])
    # With an engine each round's history measures its own noise floor.
    setup = measuring.begin(args, args.build_dir, lambda m: log("find: " + m),
                            probe=engine is None)
    measured = {}

    def measure(indices):
        groups = []
        done = {e.get("study_point") for e in index_doc["entries"]
                if e.get("study_role") == "point"}
        todo = [i for i in indices if i not in done]      # --resume: measured before
        if engine is not None and todo:
            measure_round(args, engine, metric, commits, todo, out_dir, index_doc, builder)
            todo = []
        for i in todo:
            t = builder(commits[i], bad if i == n - 1 else commits[i][:10])
            if t is not None:
                groups.append(group_jobs(i, base_t, t, tmpls, ir_of_ref=not measured))
        if groups:
            run_groups(out_dir, groups, args.repetitions, state, index_doc, setup=setup)
        out = {}
        for i in indices:
            f = point_figures(out_dir, index_doc["entries"], i, [metric],
                              commits[0]).get(metric)
            measured[i] = f
            r = f["ratio"] if f and f.get("ratio") else None
            out[i] = (r, f["ratio_low"], f["ratio_high"]) if r and "ratio_low" in f else r
            log("find: %s %s: %s" % (commits[i][:10], metric, "not measured" if not r else
                                    "%.4f of the good end%s" % (r, " [%.4f, %.4f]" % (
                                        f["ratio_low"], f["ratio_high"])
                                        if "ratio_low" in f else "")))
        return out

    def more(indices):
        """More interleaved repetitions of the points' paired loads (a
        step their intervals cannot decide), appended to their files."""
        scratch = os.path.join(out_dir, "more-repetitions")
        shutil.rmtree(scratch, ignore_errors=True)
        groups = []
        for i in indices:
            t = builder(commits[i], bad if i == n - 1 else commits[i][:10])
            if t is not None:
                key, ref_jobs, point_jobs, _once = group_jobs(i, base_t, t, tmpls)
                groups.append((key, ref_jobs, point_jobs, []))
        log("find: %d more repetitions of %s: their step is not decided yet"
            % (args.repetitions, ", ".join(commits[i][:10] for i in indices)))
        sub = {"jobs": [], "finished": []}
        run_groups(scratch, groups, args.repetitions, sub, {"entries": [], "failures": []})
        resultsdir.append_round(out_dir, scratch, sub["finished"])
        return measure(indices)

    write_env(study_dir, args.build_dir, dataset_list(datasets),
              dict(setup.env_fields(), ovs_tree=tree))
    from .report import history as R

    def save(result):
        infos = {i: commit_info(tree, commits[i]) for i in set(result["values"]) |
                 set(result["found"]) | {0, n - 1}}
        study = dict(study_fields([metric], datasets, tmpls))
        study.update({"tool": "find", "good": good, "bad": bad, "note": note, "metric": metric,
                 "threshold": args.threshold, "parallel": args.parallel, "line": commits,
                 "result": result, "measured": {str(k): v for k, v in measured.items()},
                 "commits": {str(k): v for k, v in infos.items()},
                 "builds": {"built": len(builder.built) + builder.remote["built"],
                            "cached": len(builder.cached) + builder.remote["cached"],
                            "failed": len(builder.failed) + builder.remote["failed"],
                            "commits": builder.built + builder.cached +
                            builder.remote["commits"]},
                 "engine": args.engine,
                 "repetitions": args.repetitions})
        write_study(out_dir, study)
        return R.render(out_dir)

    # More repetitions for undecided steps run here, not on an engine's nodes.
    result = bisect(n, measure, args.threshold, max(1, args.parallel), save,
                    more=more if engine is None and paired(tmpls[0]) else None)
    print(save(result))
    return 0 if result["found"] else 1
