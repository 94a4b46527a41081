"""Studies over OVS's history: `scripts/jsonbench history` draws figures of
real ovsdb-server builds over commits, `scripts/jsonbench find` bisects
the first-parent history for the commit(s) that moved one figure.

Both are front ends of the job model: each commit is built once through
the build cache (realovs/build.py, only the four programs the runner
starts, through ccache when installed) and is one group
(suite_order.paired_steps): its load on the measured dataset and its
reference's, interleaved per repetition, plus one valgrind load of a
small dataset (workload load-ir), or the workloads the figures name;
jsonbench.execute runs the steps
through the RealBackend into one results folder (index.json, runs/).

Points (--ovs-ref, comma list):
  REF            a commit, tag or branch
  PATTERN        a tag glob, e.g. v3.*.0 (version order)
  A..B           A and every first-parent commit after it up to B
  A..B:N         the same, every Nth of them (B always)
  ref=REF        the reference every point is paired with (default: the
                 last point)

Figures per point (historymetrics.FIGURES, --metrics): each names its
real OVS workload and dataset form: the standalone load's (RSS after
load, peak RSS, load CPU as the ratio to the reference per repetition,
the valgrind load's instructions), the clustered load's (cluster_*), the
log replay's (log_*), the schema conversion's (convert_*) and the
monitor storm's (storm_*).  Every workload but the valgrind one runs
--repetitions times next to the reference; each workload and form the
figures name is one job per commit.

Shards (--shards N --shard K, --plan-shards; jsonbench.shards): the unit
is one point's group, so a commit and its reference are measured on one
node; the reference's valgrind load (machine-independent) is a unit of
its own.  Each shard builds the reference and its points only, and
writes a complete results folder whose study.json names the shard of
every point; jsonbench.merge joins them (historyfigures.merge_study: the
figures are computed again from the merged index) and renders one report
and chart.

find: jsonbench.find (its options are here, in main_find).

The parts, each in its layer (jsonbench.layers): OVS commits and point
lists in realovs/commits.py, the build-cache policy in
realovs/buildcache.py, the figures read from runs/*.json in
historyfigures.py, the k-way bisection in bisection.py, the plan and
results folder both studies share in historyplan.py."""

import argparse
import os
import sys
import time

from . import ROOT, find, measuring, options as O
from .util import StudyError, log

from .bisection import bisect  # noqa: F401
from .historyfigures import (FIGURES, HISTORY_FIGURES, SCALE, STUDY,  # noqa: F401
                             point_figures)
from .historymetrics import describe
from .historyplan import (dataset_list, open_study, parse_figures, parse_params,
                          plan_groups, prepare_datasets, run_groups, start_folder,
                          study_datasets, study_fields, templates, units_of, write_env,
                          write_study)
from .realovs.buildcache import Builder
from .realovs.commits import commit_info, expand_points, line_between  # noqa: F401


def run_history(args, argv):
    from . import datasets as D
    from . import resultsdir, shards
    tree = args.ovs_tree
    points, labels, ref, notes = expand_points(tree, args.ovs_ref)
    for n in notes:
        log("history: " + n)
    info = {c: dict(commit_info(tree, c), label=labels[c]) for c in points + [ref]}
    figures = parse_figures(args.metrics)
    datasets = study_datasets(args, figures, prepare=False)
    tmpls = templates(figures, datasets, args.repetitions, parse_params(args.workload_params))
    units, planned, shard_digest = units_of(args, points, labels, ref, tmpls)
    if args.plan_shards:
        shards.print_split(units, args.shards, shard_digest, "history")
        return 0
    mine = shards.selected(args, units)
    if mine is not None:
        planned = [g for g in planned if g[0] in mine]
        log("history: shard %d of %d: %d of %d groups" % (args.shard, args.shards,
                                                         len(planned), len(units)))
    measured = [g[0][1] for g in planned if g[0][0] == "point"]
    if args.dry_run:
        print("reference: %s (%s)" % (labels[ref], ref[:10]))
        for i, c in enumerate(points):
            if i in measured:
                print("%3d  %-14s %s  %s" % (i, labels[c], c[:10], info[c]["subject"][:60]))
        return 0
    try:
        prepare_datasets(args, *dataset_list(datasets))
    except D.Error as exc:
        raise StudyError(str(exc))
    study_dir = open_study(args, "history", argv)
    out_dir = study_dir.out_dir
    state, index_doc = start_folder(study_dir)
    state["plan_hash"] = shard_digest
    state["jobs"] = [j.name for g in planned for side in g[1:] for j in side]
    if mine is not None:
        state["shard"] = shards.plan_state(args, units, shard_digest, "history")
    resultsdir.write_plan(out_dir, state)
    builder = Builder(tree, args.ovs_cache_dir, args.ovs_retry_failed,
                      no_build=args.no_build)
    log("history: %d points, reference %s, results in %s" % (len(measured), labels[ref],
                                                           out_dir))
    ref_t = builder(ref, labels[ref])
    if ref_t is None:
        raise StudyError("the reference %s does not build: %s"
                         % (labels[ref], builder.failed.get(ref, "not built (--no-build)")
                            .splitlines()[0]))
    study = dict(study_fields(figures, datasets, tmpls), tool="history",
                 reference=info[ref], points=[], notes=notes, figures=figures,
                 repetitions=args.repetitions)
    where = {}
    if mine is not None:
        for k, part in enumerate(shards.assign(units, args.shards), 1):
            for u in part:
                if u.key[0] == "point":
                    where[u.key[1]] = k
    for i, c in enumerate(points):
        p = dict(info[c], index=i)
        if i in where:
            p["shard"] = where[i]
        study["points"].append(p)
        if i not in measured:
            continue
        t = builder(c, labels[c])
        if t is None and c in builder.failed:
            p["failed"] = builder.failed[c][:1500]
        elif t is None:
            p["not_built"] = True
    # A point that is not built is a failure entry for each of its jobs,
    # so the index names every job of the plan once.
    for key, ref_jobs, point_jobs, once in planned:
        p = study["points"][key[1]] if key[0] == "point" else {}
        if "failed" in p or "not_built" in p:
            why = "build of %s %s" % (p["label"], "failed: " + (
                p["failed"].strip().splitlines() or ["?"])[0][:300]
                if "failed" in p else "not cached (--no-build)")
            index_doc["failures"] += [resultsdir.failure(j, why)
                                      for j in ref_jobs + point_jobs + once]
    keys = {g[0] for g in planned}
    groups = [g for g in plan_groups(points, ref, tmpls, builder.targets.get) if g[0] in keys]
    # Builds first, then the measurements: the timed processes never share
    # the machine with a compiler.
    setup = measuring.begin(args, args.build_dir, lambda m: log("history: " + m))
    t_measure = time.time()
    run_groups(out_dir, groups, args.repetitions, state, index_doc, setup=setup)
    for p in study["points"]:
        if p["index"] in measured and "failed" not in p and "not_built" not in p:
            p["figures"] = point_figures(out_dir, index_doc["entries"], p["index"],
                                         figures, ref)
    study["builds"] = {"built": len(builder.built), "cached": len(builder.cached),
                       "failed": len(builder.failed), "not_built": len(builder.skipped)}
    write_study(out_dir, study)
    extra = dict(setup.env_fields(), ovs_tree=tree)
    if mine is not None:
        extra["shard"] = shards.shard_env(args, units, shard_digest, t_measure, time.time())
    write_env(study_dir, args.build_dir, dataset_list(datasets), extra)
    if mine is not None:
        log("history: shard %d of %d done; merge the shards' folders: scripts/jsonbench "
            "merge SHARD_DIR... --out DIR" % (args.shard, args.shards))
        return 0
    from .report import history as R
    R.render(out_dir)
    log("history: report %s" % os.path.join(out_dir, "report.md"))
    return 0


def run_find(args, argv):
    # History's Builder: the one tests/pylib/standin_ovs.py replaces.
    return find.run_find(args, argv, Builder)


# -------------------------------------------------------------------- CLI

HISTORY_EXAMPLES = """examples:
  scripts/jsonbench history --ovs-tree ~/ovs --ovs-ref 'v2.17.0,v3.*.0' --scale 0.1
  scripts/jsonbench history --ovs-tree ~/ovs --ovs-ref 'v3.*.0' \\
      --metrics cluster_rss_after_load,convert_peak_rss,storm_rss
  scripts/jsonbench history --ovs-tree ~/ovs --ovs-ref 'v3.5.0..v3.6.0:20,ref=v3.5.0'
  scripts/jsonbench history --ovs-tree ~/ovs --ovs-ref 'v3.*.0' --dry-run
  scripts/jsonbench history --ovs-tree ~/ovs --ovs-ref 'v3.*.0' --shards 3 --plan-shards
  scripts/jsonbench slurm --shards 3 --out S history --ovs-tree ~/ovs --ovs-ref 'v3.*.0'
(docs/history.md)"""

FIND_EXAMPLES = """examples:
  scripts/jsonbench find --ovs-tree ~/ovs --range v3.5.0..v3.6.0 --metric rss_after_load \\
      --min-change 5 --scale 0.1
  scripts/jsonbench find --ovs-tree ~/ovs --range v3.5.0..v3.6.0 --metric load_instructions
  scripts/jsonbench find --ovs-tree ~/ovs --range v3.1.0..v3.2.0 --metric convert_peak_rss
(docs/history.md)"""


def _common(ap):
    O.ovs_tree(ap)
    O.dataset(ap)
    ap.add_argument("--scale", default="0.01", help="NB scale of the measured dataset, "
                    "generated in each figure's form (default 0.01; the published history "
                    "used 0.1; ignored with --dataset)")
    O.seed(ap)
    O.build_dir(ap)
    O.repetitions(ap, "paired loads per commit")
    O.out(ap, "results/<UTC stamp>-<history|find>")
    O.ovs_cache_dir(ap)
    O.ovs_retry_failed(ap)
    O.dry_run(ap)
    O.as_deployed(ap)
    O.workload_params(ap)     # history and find: monitor-storm and monitor-cond-change sizes


def main_history(argv):
    ap = argparse.ArgumentParser(
        prog=O.prog("history"),
        description="Figures of real OVS builds over commits, charted with the release "
                    "tags labelled: memory, valgrind instructions and CPU (as a ratio to "
                    "a reference measured next to each commit) of a workload: the "
                    "standalone load (default), the clustered load, log replay, schema "
                    "conversion, a monitor storm.",
        epilog=HISTORY_EXAMPLES + "\n\n" + describe(),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    _common(ap)
    ap.add_argument("--cached-only", dest="no_build", action="store_true",
                    help="only commits whose build is cached; the others are gaps")
    ap.add_argument("--metrics", metavar="NAME,...",
                    help="figures to measure, comma list of the names below, each "
                    "naming its workload and form (default: %s)" % ",".join(HISTORY_FIGURES))
    O.ovs_refs(ap, "points: REF, tag glob (v3.*.0), A..B (first-parent), A..B:N (every "
                   "Nth), ref=REF (the reference; default the last point); comma list",
               required=True)
    from . import shards
    shards.add_args(ap)
    args = ap.parse_args(argv)
    shards.check_args(ap, args)
    return _run(run_history, args, argv)


def main_find(argv):
    ap = argparse.ArgumentParser(
        prog=O.prog("find"),
        description="Bisect BAD's first-parent history for the commit(s) that moved a "
                    "figure by more than --min-change percent, each commit measured "
                    "paired with GOOD.",
        epilog=FIND_EXAMPLES + "\n\n" + describe(),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    _common(ap)
    ap.add_argument("--range", dest="ovs_ref", metavar="GOOD..BAD",
                    help="the commits to search, GOOD excluded (refs of --ovs-tree)")
    ap.add_argument("--metric", dest="metrics", metavar="NAME", default="rss_after_load",
                    help="the figure, one of the names below (default rss_after_load); "
                    "prefer a memory or valgrind figure: CPU figures are ratios whose "
                    "intervals may leave a step undecided")
    ap.add_argument("--min-change", dest="threshold", metavar="PCT", type=float, default=5.0,
                    help="percent change that counts as moved (default 5)")
    ap.add_argument("--ways", dest="parallel", metavar="K", type=int, default=1,
                    help="commits measured per round (K-way bisection; default 1)")
    ap.add_argument("--engine", metavar="slurm|parallel:HOSTS",
                    help="measure each round's commits as shards, one commit per shard: "
                         "a Slurm job array, or GNU parallel over ssh on HOSTS (comma "
                         "list, ':' is this machine); default: here, one after the other")
    O.resume(ap, "commits")
    args = ap.parse_args(argv)
    if args.resume:
        from . import resultsdir
        try:
            argv = resultsdir.stored_argv(args.resume, "find")
        except resultsdir.ResumeError as exc:
            sys.stderr.write("find: --resume: %s\n" % exc)
            return 2
        args = ap.parse_args(argv + ["--resume", args.resume])
    return _run(run_find, args, argv)


def _run(fn, args, argv):
    if not args.ovs_tree:
        sys.stderr.write("%s: --ovs-tree DIR is required (an OVS git tree)\n" % fn.__name__[4:])
        return 2
    try:
        return fn(args, argv)
    except StudyError as exc:
        sys.stderr.write("%s: %s\n" % (fn.__name__[4:], exc))
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("%s: interrupted\n" % fn.__name__[4:])
        return 130
