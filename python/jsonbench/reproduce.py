"""Reproduce the seeds' published figures: claimed vs measured, one command.

Reads the claims (claims/seeds.json), builds if needed, generates the NB/SB
datasets it needs at --scale (reusing datasets/out/ files made from the same
profile and generator), runs every claim's before and after with the harness
executables (each repetition a separate process; before and after
interleaved repetition by repetition, so drift hits both alike), writes the
raw results to results/reproduce-<UTC stamp>-<commit>/ and renders the
claims table into report.md + report.html there (with the rest of the
report generator's sections).

Scale 1 is the seeds' database sizes (NB ~350 MB, SB ~615 MB); the default
0.01 runs in a few minutes.  The txn claims (seed 1) always run at their
published sizes (50 x 1000 and 5 x 10000 inserts), which take seconds."""

import argparse
import os
import shlex
import sys
import time

from . import ROOT, build, gbench, measuring, resultsdir, shards
from . import adaptive
from . import claims as C
from . import instructions as I
from . import realclaims
from .reproduce_real import measure_real
from .backends import ModelBackend
from .execute import execute
from .jobs import Job, Step
from .study import Study
from .env import timing_hazards, warn_timing_hazards
from .util import fmt_dur, log, sha256_of

DEFAULT_CLAIMS = os.path.join(ROOT, "claims", "seeds.json")


EXAMPLES = """examples:
  scripts/reproduce.sh                       scale 0.01 (a few minutes)
  scripts/reproduce.sh --scale 1             the seeds' database sizes
  scripts/reproduce.sh --only s4-nb,s1       claims whose id starts so
  scripts/reproduce.sh --ovs-tree ~/ovs      + the real OVS columns
  scripts/reproduce.sh --ovs-tree ~/ovs --only real   the real OVS runs alone
  scripts/reproduce.sh --resume results/reproduce-...   after Ctrl-C
  scripts/reproduce.sh --shards 3 --shard 1 --out S1   one of 3 shards (docs/shards.md)
  scripts/jsonbench report results/reproduce-... --publish reports/reference
  scripts/jsonbench join MODEL REAL --out NEW   (claims/README.md)"""


def parse_args(argv):
    from . import options as O
    ap = argparse.ArgumentParser(
        prog=O.prog("claims"), description=__doc__.split("\n\n")[0],
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", default="0.01",
                    help="one dataset scale, 1 = the seeds' sizes (default 0.01)")
    O.repetitions(ap, "runs per before/after side")
    O.out(ap, "results/reproduce-<stamp>-<commit>")
    ap.add_argument("--only", metavar="ID,...",
                    help="comma list of claim ids or id prefixes (e.g. s4-nb,s1); 'real' "
                         "(with --ovs-tree): only the real-OVS runs, to join to a model "
                         "run later (scripts/jsonbench join)")
    O.claims(ap, "a claims file (repeatable): the seeds' claims (default "
                 "claims/seeds.json) or real-OVS pairs, a file with \"pairs\" (default "
                 "claims/real-ovs.json)")
    O.seed(ap)
    O.build_dir(ap)
    O.no_build(ap)
    ap.add_argument("--regenerate", action="store_true",
                    help="generate the datasets even if up-to-date copies are cached")
    O.no_report(ap)
    ap.add_argument("--no-caps", action="store_true",
                    help="ignore the claims' max_scale (claims/README.md)")
    O.ovs_tree(ap, "an OVS git tree: also measure the claims whose change is a pair of "
                   "OVS commits (claims/real-ovs.json) on real OVS builds (cached)")
    O.ovs_cache_dir(ap)
    O.dry_run(ap)
    O.as_deployed(ap)
    O.resume(ap, "runs")
    O.adaptive(ap)
    I.add_args(ap)
    shards.add_args(ap)
    args = ap.parse_args(argv)
    shards.check_args(ap, args)
    if args.repetitions < 1:
        ap.error("--repetitions must be >= 1")
    if args.budget < 0:
        ap.error("--budget must be >= 0 minutes")
    if args.budget and args.max_repetitions <= args.repetitions:
        ap.error("--max-repetitions must be above --repetitions (%d) for --budget to add any"
                 % args.repetitions)
    try:
        args.scale = float(args.scale)
    except ValueError:
        ap.error("--scale %s: one number (the claims run at one scale)" % args.scale)
    if args.scale <= 0:
        ap.error("--scale must be > 0")
    try:
        args.claims, args.ovs_claims = claims_files(args.claims)
    except (OSError, ValueError) as exc:
        ap.error("--claims: %s" % exc)
    only = [x.strip() for x in (args.only or "").split(",") if x.strip()]
    args.real_only = "real" in only
    args.only = ",".join(x for x in only if x != "real") or None
    if args.real_only and not args.ovs_tree:
        ap.error("--only real needs --ovs-tree")
    return args


def claims_files(paths):
    """(seeds' claims file, real-OVS pairs file) of --claims."""
    return realclaims.claims_files(paths, DEFAULT_CLAIMS)


# ------------------------------------------------------------------ plan

class Plan:
    """What a reproduction runs: the claims document, the run groups
    [(group key, [run, ...])], which claims use each run, and the steps
    (group, run, repetition) in the order they run."""

    def __init__(self, args):
        self.doc = C.load_claims(args.claims)
        self.only = [x.strip() for x in args.only.split(",")] if args.only else None
        self.caps = not args.no_caps
        # The model also runs the twins of claims/real-ovs.json (the claims
        # as real OVS measures them), so that a model-only reproduction
        # joined to an --only real one (scripts/jsonbench join) has them.
        twin_doc, self.twins = self.doc, {}
        if os.path.exists(args.ovs_claims):
            rdoc = realclaims.load(args.ovs_claims, self.doc, strict=False)
            twin_doc = realclaims.with_twins(self.doc, rdoc)
            self.twins = realclaims.twins(self.doc, rdoc)
        self.groups, self.users = C.plan(twin_doc, self.only, args.scale, self.caps)
        self.n_claims = len({c for ids in self.users.values() for c in ids})
        # Before and after interleaved repetition by repetition.
        self.steps = [(g, run, rep) for g, runs in self.groups
                      for rep in range(args.repetitions) for run in runs]

        # Real OVS (--ovs-tree): the claims with a pair of OVS commits.
        self.real_doc = self.sdoc = None
        self.real_groups, self.real_users = [], {}
        if getattr(args, "ovs_tree", None):
            self.real_doc = realclaims.load(args.ovs_claims, self.doc)
            self.sdoc = realclaims.shadow(self.doc, self.real_doc)
            self.real_groups, self.real_users = C.plan(self.sdoc, self.only, args.scale,
                                                       self.caps)
        if getattr(args, "real_only", False):
            self.groups, self.steps = [], []

    def n_runs(self):
        return sum(len(r) for _, r in self.groups)


def plan(args):
    """The Plan of this command line (claims module only: no build, no
    report); exits when --only matches nothing."""
    p = Plan(args)
    if not p.groups and not p.real_groups:
        sys.exit("reproduce: no claim matches --only %s%s" % (
            args.only, " with a real-OVS pair" if args.real_only else ""))
    return p


def run_label(run):
    ds = ("%s-%g%s" % (run["dataset"], run["scale"], "-log" if run["form"] == "log" else "")
          if run["dataset"] else "builtin")
    return "%s__%s__%s" % (ds, C.variant_name(run), run["impl"])


def dataset_file(args, run):
    """Where the run's dataset is cached (None: built-in database)."""
    if not run["dataset"]:
        return None
    return build.dataset_path(run["dataset"], run["scale"], run["form"], args.seed,
                              build.DATASETS_DIR)


def run_cmd(args, run, dataset, results, output):
    return build.harness_cmd(build.exe_path(args.build_dir, run["impl"]), run["workload"],
                             dataset, run["args"], args.seed, results, output, sha256=False)


def print_plan(args, p):
    for g, runs in p.groups:
        for run in runs:
            log("%-40s claims %s\n    %s" % (
                run_label(run), ",".join(p.users[C.run_key(run)]),
                shlex.join(run_cmd(args, run, dataset_file(args, run), "R.json", "OUT"))))
    log("%d claims, %d runs x %d repetitions = %d processes"
        % (p.n_claims, p.n_runs(), args.repetitions, len(p.steps)))
    for _g, runs in p.real_groups:
        for run in runs:
            log("real OVS %-40s claims %s" % (run_label(run),
                                              ",".join(p.real_users[C.run_key(run)])))


# ------------------------------------------------------------------ datasets

class Datasets:
    """The datasets a plan needs: path or error per (kind, form, scale),
    ovsdb-stats of the snapshots at --scale, what env.json records."""

    def __init__(self):
        self.paths, self.errors, self.stats, self.meta = {}, {}, {}, []
        self.seconds = 0.0

    def sha256(self, path):
        return next(d["sha256"] for d in self.meta if d["path"] == build.rel(path))


def prepare_datasets(args, p):
    """Generate what is missing (build.ensure_dataset's one staleness rule;
    --regenerate forces it) and remember what cannot be made."""
    ds = Datasets()
    t0 = time.time()
    for kind, form, scale in sorted({(r["dataset"], r["form"], r["scale"])
                                     for _, runs in p.groups for r in runs if r["dataset"]}):
        spec = p.doc["datasets"][kind]
        try:
            ds.paths[(kind, form, scale)] = build.ensure_dataset(
                args.build_dir, kind, scale, form, args.seed, build.DATASETS_DIR,
                profile=os.path.join(ROOT, spec["profile"]), schema=spec["schema"],
                regenerate=args.regenerate, who="reproduce")
        except build.DatasetError as exc:
            ds.errors[(kind, form, scale)] = str(exc)
            log("reproduce: %s" % exc)
    ds.seconds = time.time() - t0
    for (kind, form, scale), path in sorted(ds.paths.items()):
        if form == "snapshot" and scale == args.scale:
            st = build.dataset_stats(args.build_dir, path, "reproduce")
            if st:
                ds.stats[kind] = st
        ds.meta.append({"label": "%s-%g%s" % (kind, scale, "-log" if form == "log" else ""),
                        "path": build.rel(path), "kind": kind, "scale": scale,
                        "form": form, "sha256": sha256_of(path),
                        "bytes": os.path.getsize(path)})
    return ds


# ------------------------------------------------------------------ run

def model_jobs(args, p, ds):
    """The plan's runs as jobs (jsonbench.jobs), {run key: job}, and the
    steps (before and after interleaved repetition by repetition)."""
    by_key = {}
    for _g, runs in p.groups:
        for run_ in runs:
            key = C.run_key(run_)
            path = ds.paths.get((run_["dataset"], run_["form"], run_["scale"]), "")
            a = run_["args"]
            d = {"label": run_label(run_).split("__")[0], "path": path,
                 "kind": run_["dataset"] or "", "scale": run_["scale"], "form": run_["form"]}
            if path:
                d["sha256"] = ds.sha256(path)
                d["bytes"] = os.path.getsize(path)
            j = Job(run_["impl"], run_["workload"], C.variant_name(run_), d, a,
                    int(a[a.index("--clients") + 1]) if "--clients" in a else None,
                    run_["mode"], key=key)
            j.note = "(claims %s)" % ",".join(p.users[key])
            by_key[key] = j
    steps = [Step(by_key[C.run_key(r)], rep, 1, g) for g, r, rep in p.steps]
    return by_key, steps


def group_name(g):
    return "%s %s%s%s" % (g[0], g[1] or "", ("@%g" % g[4]) if g[1] else "",
                          (" " + g[3]) if g[3] else "")


def missing_datasets(p, ds):
    """{run key: why} for the runs whose dataset could not be made."""
    out = {}
    for _g, runs in p.groups:
        for run_ in runs:
            ds_key = (run_["dataset"], run_["form"], run_["scale"])
            if run_["dataset"] and ds_key not in ds.paths:
                out[C.run_key(run_)] = ds.errors.get(ds_key, "dataset missing")
    return out


def runs_meta(p, by_key, state, failures, interrupted):
    """claims-run.json's runs: per run key its file and claims, or why it
    has none."""
    finished = set(state.get("finished", []))
    errors = {f["job"]: f["error"] for f in failures if "job" in f}
    out = {}
    for key, j in by_key.items():
        if j.name in finished:
            out[key] = {"file": os.path.join("runs", j.name + ".json"), "claims": p.users[key],
                        "repetitions": p.repetitions + state.get("added", {}).get(j.name, 0)}
        else:
            out[key] = {"error": errors.get(j.name) or (
                "interrupted before it finished" if interrupted else "not run yet")}
    # A shard: the plan's other runs are another shard's (merge takes them).
    for key, k in getattr(p, "elsewhere", {}).items():
        out.setdefault(key, {"error": "run by shard %d of %d, not in this folder"
                                      % (k, p.shard_count), "shard": k})
    return out


# ------------------------------------------------------------------ save

def save(args, argv, p, ds, out_dir, runs, duration, complete, t_runs, seconds):
    """env.json and claims-run.json (index.json is the execute loop's);
    written after every finished run, so an interrupted reproduction can
    still be rendered (scripts/jsonbench report) or resumed (--resume).
    The machine's environment is collected once, in main() (it takes
    seconds)."""
    env = dict(args.env)
    if getattr(args, "shard_env", None):
        env["shard"] = args.shard_env
    # What an earlier invocation's real runs recorded (--resume).
    old = resultsdir.read_env(out_dir)
    for k in ("ovs_targets", "ovs_build_failures", "ovs_ab_pairs", "run_order"):
        if k in old and k not in env:
            env[k] = old[k]
    args.study.finish(env)
    prev = C.load_run(out_dir)
    meta = {"claims": p.doc, "claims_file": os.path.relpath(args.claims, ROOT),
            "scale": args.scale, "caps": p.caps, "repetitions": args.repetitions,
            "seed": args.seed, "command_args": shlex.join(argv), "runs": runs,
            "twins": p.twins,
            "dataset_stats": ds.stats, "complete": complete,
            "run_seconds": seconds, "duration_s": duration, "generate_s": ds.seconds,
            "runs_s": time.time() - t_runs}
    for k in ("real", "instructions", "instructions_scale"):
        if prev and prev[2].get(k):
            meta[k] = prev[2][k]
    gbench.write_atomic(os.path.join(out_dir, C.RUN_FILE), meta)


# ------------------------------------------------------------------ main

def unit_label(g):
    return group_name(g) + ("" if g[2] == "snapshot" else " (%s)" % g[2])


def real_name(r):
    return "real__%s__%s__%s" % (run_label(r).split("__")[0], realclaims.variant(r), r["impl"])


def units_of(args, p):
    """The plan's shard units (jsonbench.shards): one per run group (a
    claim's before and after, interleaved), the real-OVS groups apart, and
    the plan hash every node computes alike."""
    def cost(runs, builds=1):
        return builds * args.repetitions * sum(
            shards.dataset_bytes(r["dataset"], r["scale"]) for r in runs)
    units = [shards.Unit(("model", g), unit_label(g), [run_label(r) for r in runs],
                         cost(runs)) for g, runs in p.groups]
    units += [shards.Unit(("real", g), "real " + unit_label(g), [real_name(r) for r in runs],
                          cost(runs, 2)) for g, runs in p.real_groups]
    what = {"repetitions": args.repetitions, "seed": args.seed, "caps": p.caps,
            "runs": [C.run_key(r) for _g, runs in p.groups for r in runs],
            "real": [C.run_key(r) for _g, runs in p.real_groups for r in runs]}
    return units, shards.plan_hash(units, what)


def restrict(p, mine, units, n):
    """The plan cut to one shard's units; p.elsewhere: {run key: shard}
    of the model runs other shards have."""
    groups = dict(p.groups)
    p.shard_count = n
    p.elsewhere = {C.run_key(r): k + 1 for k, part in enumerate(shards.assign(units, n))
                   for u in part if u.key not in mine and u.key[0] == "model"
                   for r in groups[u.key[1]]}
    p.groups = [(g, runs) for g, runs in p.groups if ("model", g) in mine]
    p.real_groups = [(g, runs) for g, runs in p.real_groups if ("real", g) in mine]
    keep = {g for g, _runs in p.groups}
    p.steps = [s for s in p.steps if s[0] in keep]
    p.n_claims = len({c for _g, runs in p.groups + p.real_groups for r in runs
                      for c in (p.users.get(C.run_key(r)) or
                                p.real_users.get(C.run_key(r), []))})


def group_seconds(by_key, state):
    """Seconds per run group (all repetitions, before and after)."""
    out = {}
    for j in by_key.values():
        t = state.get("seconds", {}).get(j.name)
        if t is not None:
            out[j.group_label] = round(out.get(j.group_label, 0.0) + t, 1)
    return out


def main(argv):
    argv = resultsdir.resumed_args(list(argv), "reproduce")
    args = parse_args(argv)
    t_start = time.time()
    p = plan(args)
    p.repetitions = args.repetitions
    units, shard_digest = units_of(args, p)
    if args.plan_shards:
        shards.print_split(units, args.shards, shard_digest, "reproduce")
        return 0
    mine = shards.selected(args, units)
    if mine is not None:
        restrict(p, mine, units, args.shards)
        log("reproduce: shard %d of %d: %d of %d groups" % (
            args.shard, args.shards, len(mine), len(units)))
    args.build_dir = build.build_path(args.build_dir)
    if args.dry_run:
        print_plan(args, p)
        return 0
    if not args.no_build:
        build.meson_build(args.build_dir, "reproduce")
    args.study = study = Study("reproduce", argv, "scripts/reproduce.sh", args,
                               name="reproduce-{stamp}-{commit}", started=t_start)
    out_dir = study.out_dir
    resultsdir.make_dirs(out_dir)
    ds = prepare_datasets(args, p)
    by_key, steps = model_jobs(args, p, ds)
    for g, runs in p.groups:
        for r in runs:
            by_key[C.run_key(r)].group_label = group_name(g)
    real_names = ["real__%s__%s__%s" % (run_label(r).split("__")[0], realclaims.variant(r),
                                        r["impl"]) for _g, runs in p.real_groups for r in runs]
    digest = resultsdir.plan_hash(list(by_key.values()), args.repetitions,
                                  "interleaved " + ",".join(real_names))
    entries, failures = [], []
    if study.resume:
        state = study.resumed(digest)
        entries = resultsdir.read_index(out_dir)["entries"]
        log("reproduce: resuming %s: %d of %d runs finished" % (
            build.rel(out_dir), len(set(state["finished"])), len(state["jobs"])))
    else:
        state = study.new_plan(digest, list(by_key.values()), real_names)
        if mine is not None:
            state["shard"] = shards.plan_state(args, units, shard_digest, "reproduce")
    if mine is not None:
        args.shard_env = shards.shard_env(args, units, shard_digest, None, None)
    missing = missing_datasets(p, ds)
    failures += [{"job": by_key[k].name, "error": why[:2000]} for k, why in missing.items()]
    steps = [s for s in steps if s.job.key not in missing]
    warn_timing_hazards(timing_hazards(), log)
    args.setup = measuring.begin(args, args.build_dir, log)
    args.env = study.environment(args.build_dir, "glibc", setup=args.setup)
    args.env["datasets"] = ds.meta      # the claims' datasets, with their statistics
    log("reproduce: %d claims, %d runs x %d repetitions = %d processes, scale %g -> %s"
        % (p.n_claims, p.n_runs(), args.repetitions, len(p.steps), args.scale,
           build.rel(out_dir)))
    exes = {r["impl"]: build.exe_path(args.build_dir, r["impl"])
            for _g, runs in p.groups for r in runs}
    backend = ModelBackend(out_dir, exes, args.repetitions, args.seed, probe=False,
                           hyperfine=False, sha256=False, setup=args.setup)
    t_runs = time.time()
    if mine is not None:
        args.shard_env["measured"] = [t_runs, None]

    def checkpoint(entries_, failures_, complete=False, interrupted=False):
        save(args, argv, p, ds, out_dir, runs_meta(p, by_key, state, failures_, interrupted),
             time.time() - t_start, complete, t_runs, group_seconds(by_key, state))

    res = execute(steps, {"model": backend}, out_dir, state, entries, failures,
                  args.repetitions, t_start, on_checkpoint=checkpoint)
    real_failed = 0
    interrupted = res.interrupted
    if args.budget and not interrupted:
        interrupted = adaptive.adapt(args, p, by_key, out_dir, state, t_start,
                                     lambda: evaluate(args, p, ds, out_dir, runs_meta(
                                         p, by_key, state, [], False), quiet=True),
                                     lambda: checkpoint(res.entries, res.failures))
    if args.instructions_scale and not interrupted and p.groups:
        interrupted = measure_instructions(args, p, out_dir, state, res)
    if p.real_groups and not interrupted:
        real_failed, interrupted = measure_real(args, p, ds, out_dir, state, res)
    failures = resultsdir.read_index(out_dir)["failures"]
    meta_runs = runs_meta(p, by_key, state, res.failures, interrupted)
    if mine is not None:
        args.shard_env["measured"][1] = time.time()
    duration = time.time() - t_start
    save(args, argv, p, ds, out_dir, meta_runs, duration, not interrupted, t_runs,
         group_seconds(by_key, state))

    rows = evaluate(args, p, ds, out_dir, meta_runs)
    n_failed = sum(1 for v in meta_runs.values() if "error" in v and "shard" not in v)
    log("reproduce: %d claims, %s; %d run(s) failed or missing; took %s; results in %s" % (
        len(rows), ", ".join("%s %d" % kv for kv in sorted(C.summary_counts(rows).items())),
        n_failed, fmt_dur(duration), build.rel(out_dir)))
    if interrupted:
        log("reproduce: interrupted; the report marks the claims not measured; to run "
            "the rest: scripts/reproduce.sh --resume %s" % build.rel(out_dir))
    if mine is not None:
        log("reproduce: shard %d of %d (its claims only; the others read not measured); "
            "merge the shards' folders: scripts/jsonbench merge SHARD_DIR... --out DIR"
            % (args.shard, args.shards))
    elif not args.no_report:
        from .report import render_claims  # matplotlib: only when rendering
        render_claims(out_dir, args.ovs_tree)
    if interrupted:
        return 128 + (res.signal or 2)
    return 1 if n_failed or failures or real_failed else 0


def evaluate(args, p, ds, out_dir, meta_runs, quiet=False):
    """Evaluates the plan's claims on the runs in out_dir, prints their
    table (unless quiet) and returns the model claims' rows."""
    runs_loaded = {k: ({"data": gbench.read(os.path.join(out_dir, v["file"]))} if v.get("file")
                       else {"error": v["error"]}) for k, v in meta_runs.items()}
    rows = C.evaluate(p.doc, runs_loaded, ds.stats, args.scale, p.caps)
    if quiet:
        return rows
    meta = C.load_run(out_dir)[2]
    I.annotate(rows, p.doc, out_dir, meta.get("instructions"), meta.get("instructions_scale"))
    real = None
    if p.real_groups:
        meta = C.load_run(out_dir)[2]
        real = realclaims.evaluate(p.doc, p.real_doc, runs_loaded, realclaims.load_runs(
            out_dir, meta.get("real", {}).get("runs", {})), ds.stats, args.scale, p.caps,
            twin_claims=p.twins)
    print_table(rows, real)
    return rows


def measure_instructions(args, p, out_dir, state, res):
    """The valgrind instruction counts beside the plan's timing claims
    (jsonbench.instructions) into out_dir; "instructions" in
    claims-run.json.  Returns True if interrupted."""
    from .backends import DeterministicBackend
    ids = sorted({c for _g, runs in p.groups for r in runs for c in p.users[C.run_key(r)]})
    scale = min(args.instructions_scale, args.scale)
    runs = I.plan(p.doc, ids, scale)
    paths = {}
    for kind, form, scale in sorted({(r["dataset"], r["form"], r["scale"])
                                     for r in runs.values()}):
        spec = p.doc["datasets"][kind]
        try:
            paths[(kind, form, scale)] = build.ensure_dataset(
                args.build_dir, kind, scale, form, args.seed, build.DATASETS_DIR,
                profile=os.path.join(ROOT, spec["profile"]), schema=spec["schema"],
                who="reproduce")
        except build.DatasetError as exc:
            log("reproduce: instructions: %s" % exc)
    by_key, steps = I.jobs(args, runs, paths, lambda r: run_label(r).split("__")[0])
    log("reproduce: valgrind instruction counts of %d runs at scale %g (timing claims)"
        % (len(steps), scale))
    for s in steps:
        if s.job.name not in state["jobs"]:
            state["jobs"].append(s.job.name)
    out = execute(steps, {"det": DeterministicBackend(out_dir)}, out_dir, state, res.entries,
                  res.failures)
    meta = gbench.read(os.path.join(out_dir, C.RUN_FILE))
    meta["instructions"] = I.meta(by_key, set(state.get("finished", [])), out.failures)
    meta["instructions_scale"] = scale
    gbench.write_atomic(os.path.join(out_dir, C.RUN_FILE), meta)
    return out.interrupted


def print_table(rows, real=None):
    """The claims table on the terminal (compact: no explanations); with
    real OVS, its change and the two real verdicts."""
    table = [t[:4] + [I.cell(r)] for t, r in zip(C.table_rows(rows, C.Notes()), rows)]
    heads = C.HEADERS[:4] + ["instructions (verdict)"]
    if real is not None:
        heads += ["real OVS", "real vs claimed", "model vs real"]
        for t, r in zip(table, rows):
            t += realclaims.real_cells(real.get(r["id"]))
    widths = [max([len(h)] + [len(t[i]) for t in table]) for i, h in enumerate(heads)]
    log("")
    log("  ".join(h.ljust(w) for h, w in zip(heads, widths)))
    for t in table:
        log("  ".join(c.ljust(w) for c, w in zip(t, widths)))
    log("")


def _terminate(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    import signal
    signal.signal(signal.SIGTERM, _terminate)
    sys.exit(main(sys.argv[1:]))
