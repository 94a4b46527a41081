"""What the history and find studies share: their plan (one group per
point: its runs of each workload the figures read (historymetrics),
paired with the reference's and interleaved per repetition
(suite_order.paired_steps), and its valgrind load; the shard units and
plan hash every node computes alike), the run of those groups through
the one execute loop and the RealBackend, their datasets, and their
results folder (through jsonbench.study, and study.json)."""

import os

from .historyfigures import FIGURES, STUDY
from .historymetrics import KINDS, ONCE, PARAMS, UnknownFigure, parse
from .realovs.buildcache import Planned
from .study import Study
from .util import StudyError, log


def workloads_of(figures):
    """The (workload, form) pairs the figures read, in their order."""
    return list(dict.fromkeys((FIGURES[f].workload, FIGURES[f].form) for f in figures))


def templates(figures, datasets, repetitions, params=None):
    """One real job template per (workload, form) the figures read, on
    its dataset (datasets[(workload, form)], study_datasets()); the
    workloads run once (valgrind) even without repetitions.  Raises
    StudyError when two of them would be one job (one --dataset FILE for
    two forms of a workload)."""
    from .jobs import Job
    out, names = [], {}
    for workload, form in workloads_of(figures):
        if workload not in ONCE and not repetitions:
            continue
        opts = dict((params or PARAMS).get(workload, {}))
        j = Job(None, workload, workload, datasets[(workload, form)], opts, side="real",
                meta={"study_form": form})
        if j.name in names:
            raise StudyError("%s needs the %s and the %s form of %s on one dataset (%s): "
                             "give one --dataset FILE per form" % (
                                 ",".join(figures), names[j.name], form, workload,
                                 j.ds["label"]))
        names[j.name] = form
        out.append(j)
    return out


def paired(tmpl):
    """Whether a template's runs are paired with the reference's (every
    workload but the valgrind ones, which run once)."""
    return tmpl.workload not in ONCE


def group_jobs(index, ref_t, point_t, tmpls, ir_of_ref=False):
    """(key, reference jobs, point jobs, once jobs) of one point."""
    prefix = "p%03d__" % index

    def on(tmpl, t, role):
        j = tmpl.for_target(t)
        j.prefix = prefix
        j.meta.update({"study_point": index, "study_role": role,
                       "study_commit": t.commit})
        return j
    twice = [t for t in tmpls if paired(t)]
    once = [t for t in tmpls if not paired(t)]
    same = point_t.commit == ref_t.commit
    ref_jobs = [] if same else [on(t, ref_t, "reference") for t in twice]
    point_jobs = [on(t, point_t, "point") for t in twice]
    once_jobs = [on(t, point_t, "point") for t in once]
    if ir_of_ref and not same:
        once_jobs += [on(t, ref_t, "reference") for t in once]
    return ("point", index), ref_jobs, point_jobs, once_jobs


def reference_group(ref_t, tmpls):
    """The reference's valgrind load when the reference is not a point:
    one group of its own (machine-independent, so it may run on any
    node; every node builds the reference anyway)."""
    jobs = []
    for tmpl in tmpls:
        if paired(tmpl):
            continue
        j = tmpl.for_target(ref_t)
        j.prefix = "ref__"
        j.meta.update({"study_point": None, "study_role": "reference",
                       "study_commit": ref_t.commit})
        jobs.append(j)
    return ("reference",), [], [], jobs


def plan_groups(points, ref, tmpls, target):
    """The history's groups in run order: one per point whose build
    target(commit) gives (None: not built, no group), then the
    reference's valgrind load when the reference is not a point."""
    ref_t = target(ref)
    out = []
    for i, c in enumerate(points):
        t = target(c)
        if t is not None:
            out.append(group_jobs(i, ref_t, t, tmpls))
    if ref not in points and not all(paired(t) for t in tmpls):
        out.append(reference_group(ref_t, tmpls))
    return out


# A valgrind process costs about this many native loads of its dataset.
VALGRIND_COST = 50


def units_of(args, points, labels, ref, tmpls):
    """The shard units (jsonbench.shards) of a history: one per point (its
    paired loads with the reference and its valgrind load) and the
    reference's valgrind load; the plan hash every node computes alike
    (commits, datasets by label, options; no build, no dataset file)."""
    from . import shards
    planned = {c: Planned(c, labels[c]) for c in points + [ref]}
    groups = plan_groups(points, ref, tmpls, planned.get)
    units = []
    for key, ref_jobs, point_jobs, once in groups:
        jobs = ref_jobs + point_jobs + once
        cost = sum(shards.job_cost(j, args.repetitions) for j in ref_jobs + point_jobs) + \
            sum(shards.job_cost(j, VALGRIND_COST) for j in once)
        label = "p%03d %s" % (key[1], labels[points[key[1]]]) if key[0] == "point" \
            else "reference %s valgrind" % labels[ref]
        units.append(shards.Unit(key, label, [j.name for j in jobs], cost))
    what = {"repetitions": args.repetitions, "seed": args.seed, "reference": ref,
            "points": points, "jobs": [j.identity() for g in groups for side in g[1:]
                                       for j in side]}
    return units, groups, shards.plan_hash(units, what)


def run_groups(out_dir, groups, repetitions, state, index_doc, say=log, setup=None):
    """Runs the groups' steps through the one execute loop into out_dir,
    each process in the measuring setup 'setup' (jsonbench.measuring);
    returns the updated (entries, failures)."""
    from . import suite_order
    from .realovs.backend import RealBackend
    from .execute import execute
    steps = suite_order.paired_steps(groups, repetitions)
    for s in steps:
        if s.job.name not in state["jobs"]:
            state["jobs"].append(s.job.name)
    res = execute(steps, {"real": RealBackend(out_dir, setup=setup)}, out_dir, state,
                  index_doc["entries"], index_doc["failures"], repetitions, say=say)
    index_doc["entries"], index_doc["failures"] = res.entries, res.failures
    if res.interrupted:
        raise KeyboardInterrupt
    return res


# ---------------------------------------------------- datasets and folder

def study_datasets(args, figures, prepare=True):
    """{(workload, form): dataset} of the figures: the valgrind workloads
    on NB generated at IR_SCALE in their form; the others on a --dataset
    FILE of their form (a file of no known form serves any) and kind (a
    workload of KINDS takes its kind or a file of no known kind), else on
    NB (KINDS: their kind) generated at --scale in their form.  prepare False: described only
    (nothing generated, no sha256).  Raises StudyError."""
    from . import datasets as D
    out, by_label = {}, {}
    try:
        given = D.from_files(args.dataset) if args.dataset else []
        for workload, form in workloads_of(figures):
            if workload in ONCE:
                ds = D.generated("nb", IR_SCALE, form, args.seed)
            elif given:
                ds = next((d for d in given if d["form"] in (form, "any") and (
                    workload not in KINDS or d["kind"] in (KINDS[workload], "db"))), None)
                if ds is None:
                    kind = " of %s" % KINDS[workload].upper() if workload in KINDS else ""
                    raise StudyError("%s reads the %s form%s: no --dataset FILE of that form "
                                     "(%s)" % (",".join(f for f in figures if (
                                         FIGURES[f].workload, FIGURES[f].form) ==
                                         (workload, form)), form, kind, ", ".join(
                                         "%s: %s" % (d["label"], d["form"]) for d in given)))
            else:
                ds = D.generated(KINDS.get(workload, "nb"), float(args.scale), form,
                                 args.seed)
            out[(workload, form)] = by_label.setdefault(ds["label"], ds)
        if prepare:
            prepare_datasets(args, *by_label.values())
    except D.Error as exc:
        raise StudyError(str(exc))
    return out


def dataset_list(datasets):
    """The distinct datasets of study_datasets()' dict, in order."""
    return list({id(d): d for d in datasets.values()}.values())


def figure_datasets(figures, datasets):
    """{figure: dataset label}: what the study and its report say."""
    return {f: datasets[(FIGURES[f].workload, FIGURES[f].form)]["label"] for f in figures}


def prepare_datasets(args, *datasets):
    """Generates the generated ones (unless cached) and records each one's
    sha256 and size.  Raises datasets.Error."""
    from . import build
    from . import datasets as D
    from .util import sha256_of
    gen = os.path.join(build.build_path(args.build_dir), "datasets", "ovsdb-gen")
    if any(d and d.get("generated") and not os.path.exists(d["path"]) for d in datasets) \
            and not os.access(gen, os.X_OK):
        # A node's own build dir (jsonbench slurm/parallel): build the generator.
        build.meson_build(build.build_path(args.build_dir), "history")
    for d in datasets:
        if not d:
            continue
        if d.get("generated"):
            D.ensure(args.build_dir, d, args.seed, who="history", say=log)
        d["sha256"] = sha256_of(d["path"])
        d["bytes"] = os.path.getsize(d["path"])


# The small dataset loaded under valgrind: ~3 MB, ~50x slower than native.
IR_SCALE = 0.01


def open_study(args, tool, argv):
    """The results folder of a history or find run (jsonbench.study):
    results/<stamp>-<tool>[-shardKofN] unless --out or --resume names one."""
    return Study(tool, argv, "scripts/jsonbench " + tool, args, name="{stamp}-" + tool)


def start_folder(study):
    """(plan state, index) of a new results folder, or of the folder to
    resume (find: groups already measured there are not run again)."""
    from . import resultsdir
    if study.resume:
        return resultsdir.read_plan(study.out_dir), resultsdir.read_index(study.out_dir)
    if os.path.exists(os.path.join(study.out_dir, resultsdir.INDEX)):
        raise StudyError("%s already holds results; give a new --out" % study.out_dir)
    state = study.new_plan("", [])
    state.pop("plan_hash")      # grows step by step; execute() leaves plan.json
    resultsdir.write_plan(study.out_dir, state)
    return state, {"entries": [], "failures": []}


def write_env(study, build_dir, ds, extra):
    """env.json at the end of the study: its common part and 'extra'."""
    env = study.environment(build_dir, datasets=ds)
    env.update(extra)
    study.finish(env)


def write_study(out_dir, doc):
    from .gbench import write_atomic
    write_atomic(os.path.join(out_dir, STUDY), doc)


def study_fields(figures, datasets, tmpls):
    """What study.json says of the figures' datasets and workloads:
    'datasets' {figure: label}, 'params' of the workloads that take any,
    and (as studies before workloads had them) 'load_dataset', the first
    figure's, and 'ir_dataset', the valgrind one's or None."""
    labels = figure_datasets(figures, datasets)
    ir = [labels[f] for f in figures if FIGURES[f].workload in ONCE]
    return {"datasets": labels, "load_dataset": labels[figures[0]],
            "ir_dataset": ir[0] if ir else None,
            "params": {t.workload: t.opts for t in tmpls if t.opts}}


def parse_figures(spec, option="--metrics"):
    """The figures a comma list names (historymetrics); raises StudyError."""
    try:
        return parse(spec)
    except UnknownFigure as exc:
        raise StudyError("%s: %s" % (option, exc))


def parse_params(spec):
    """--workload-params K=V,...: the sizes of PARAMS' workloads, each key
    set in every workload that has it ({workload: {key: N}}); raises
    StudyError on another key or a value not a number."""
    out = {w: dict(p) for w, p in PARAMS.items()}
    keys = sorted({k for p in PARAMS.values() for k in p})
    for item in (spec or "").split(","):
        if not item.strip():
            continue
        k, _, v = item.partition("=")
        k = k.strip()
        if k not in keys or not v.strip().isdigit() or not int(v):
            raise StudyError("--workload-params %s: expected %s=N (N > 0)"
                             % (item, "=N or ".join(keys)))
        for p in out.values():
            if k in p:
                p[k] = int(v)
    return out
