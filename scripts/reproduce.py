#!/usr/bin/python3
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
import datetime
import glob
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
sys.path.insert(0, os.path.join(ROOT, "reports"))

from jsonbench_scripts import gbench  # noqa: E402
from jsonbench_scripts.env import collect_env, git_short_commit  # noqa: E402
from jsonbench_scripts.runner import fmt_dur, log, meson_build, sha256_of  # noqa: E402
from jsonbench_report import claims as C  # noqa: E402

DEFAULT_CLAIMS = os.path.join(ROOT, "claims", "seeds.json")


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="scripts/reproduce.sh", description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scale", type=float, default=0.01,
                    help="dataset scale, 1 = the seeds' sizes (default 0.01)")
    ap.add_argument("--repetitions", type=int, default=3,
                    help="processes per before/after side (default 3)")
    ap.add_argument("--out", help="results folder (default results/reproduce-<stamp>-<commit>)")
    ap.add_argument("--only", help="comma list of claim ids or id prefixes (e.g. s4-nb,s1)")
    ap.add_argument("--claims", default=DEFAULT_CLAIMS, help="claims file (default claims/seeds.json)")
    ap.add_argument("--seed", type=int, default=1, help="dataset and harness seed (default 1)")
    ap.add_argument("--build-dir", default="build", help="meson build dir (default build)")
    ap.add_argument("--datasets-dir", default=os.path.join(ROOT, "datasets", "out"),
                    help="where generated datasets live (default datasets/out)")
    ap.add_argument("--no-build", action="store_true", help="do not run meson/ninja")
    ap.add_argument("--regenerate", action="store_true",
                    help="generate the datasets even if datasets/out has them (after a "
                         "generator change)")
    ap.add_argument("--no-report", action="store_true", help="skip report.md/report.html")
    ap.add_argument("--no-caps", action="store_true",
                    help="ignore the claims' max_scale (monitor claims cap the scale: their "
                         "tree path costs clients x rows; see claims/README.md)")
    ap.add_argument("--publish", metavar="DIR",
                    help="also copy report.md and its charts (no HTML, no raw results) to DIR, "
                         "e.g. reports/reference")
    ap.add_argument("--from-results", metavar="RESULTS",
                    help="measure nothing: re-render (and --publish) an earlier "
                         "results/reproduce-* folder")
    ap.add_argument("--fill-from", metavar="RESULTS",
                    help="with --from-results and --out: a new folder holding --from-results "
                         "plus, for every run it lacks or that failed there, that run from "
                         "RESULTS (e.g. the scale-capped monitor claims from a smaller-scale "
                         "reproduction); the report names the source")
    ap.add_argument("--dry-run", action="store_true", help="print the plan and stop")
    ap.add_argument("--self-test", action="store_true",
                    help="check the verdict logic on synthetic numbers, then run every claim "
                         "end to end at a tiny scale in a temporary folder (~1 min)")
    args = ap.parse_args(argv)
    if args.repetitions < 1:
        ap.error("--repetitions must be >= 1")
    if args.scale <= 0:
        ap.error("--scale must be > 0")
    return args






# ------------------------------------------------------------------ build

def ensure_build(args):
    bdir = args.build_dir if os.path.isabs(args.build_dir) else os.path.join(ROOT, args.build_dir)
    args.build_dir = bdir
    if not args.no_build:
        meson_build(bdir, "reproduce")


# ------------------------------------------------------------------ datasets

def _generator_inputs(doc, kind):
    """Files whose change makes an existing generated dataset stale.  The
    generator's sources are not among them: they change while it is being
    developed without changing its output; --regenerate after a change
    that does."""
    prof = os.path.join(ROOT, doc["datasets"][kind]["profile"])
    return [prof, doc["datasets"][kind]["schema"]]


def dataset_path(args, kind, form, scale):
    # The same names scripts/suite.sh uses, so both reuse each other's files.
    return os.path.join(args.datasets_dir, "%s-s%g-%s-seed%d.ovsdb" % (kind, scale, form, args.seed))


def ensure_dataset(args, doc, kind, form, scale):
    """Path of the dataset, generated if missing or older than its inputs;
    raises RuntimeError when it cannot be made."""
    spec = doc["datasets"][kind]
    prof = os.path.join(ROOT, spec["profile"])
    if not os.path.exists(prof):
        raise RuntimeError("no %s: the %s dataset cannot be generated yet"
                           % (spec["profile"], kind.upper()))
    path = dataset_path(args, kind, form, scale)
    if os.path.exists(path) and not args.regenerate:
        newest = max(os.path.getmtime(p) for p in _generator_inputs(doc, kind) if os.path.exists(p))
        if os.path.getmtime(path) >= newest:
            log("reproduce: reusing %s" % os.path.relpath(path, ROOT))
            return path
        log("reproduce: %s is older than its profile or schema: regenerating"
            % os.path.relpath(path, ROOT))
    gen = os.path.join(args.build_dir, "datasets", "ovsdb-gen")
    if not os.access(gen, os.X_OK):
        raise RuntimeError("%s is missing (build first)" % gen)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    cmd = [gen, "--schema", spec["schema"], "--profile", prof, "--scale", "%g" % scale,
           "--form", form, "--seed", str(args.seed), "-o", path]
    log("reproduce: generating %s" % os.path.relpath(path, ROOT))
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise RuntimeError("dataset generation failed: %s: %s"
                           % (shlex.join(cmd), r.stderr.strip()[-500:]))
    return path


def dataset_stats(args, path):
    """ovsdb-stats --json of a dataset, cached next to it."""
    cache = path + ".stats.json"
    if os.path.exists(cache) and os.path.getmtime(cache) >= os.path.getmtime(path):
        with open(cache) as f:
            return json.load(f)
    exe = os.path.join(args.build_dir, "datasets", "ovsdb-stats")
    r = subprocess.run([exe, "--json", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        log("reproduce: ovsdb-stats failed on %s: %s" % (path, r.stderr.strip()[-300:]))
        return None
    st = json.loads(r.stdout)
    st["file"] = os.path.relpath(path, ROOT)
    gbench.write_atomic(cache, st)
    return st




# ------------------------------------------------------------------ running

def run_label(run):
    ds = ("%s-%g%s" % (run["dataset"], run["scale"], "-log" if run["form"] == "log" else "")
          if run["dataset"] else "builtin")
    return "%s__%s__%s" % (ds, C.variant_name(run), run["impl"])


def harness_cmd(args, run, dataset, results, output):
    exe = os.path.join(args.build_dir, "harness", "jsonbench-" + run["impl"])
    cmd = [exe, run["workload"], "--repetitions", "1", "--seed", str(args.seed),
           "--results", results, "--no-sha256"] + run["args"]
    if run["workload"] in ("dump", "compact"):
        cmd += ["--output", output]
    if dataset:
        cmd.append(dataset)
    return cmd


def estimate(rest, seconds):
    """Seconds left: each run's last duration; a run not timed yet takes
    what another run of its group (same workload, dataset, options) took,
    else what runs of its workload took per dataset-scale unit; None while
    nothing of that kind has run."""
    by_group, by_workload = {}, {}
    for key, (run, dt) in seconds.items():
        by_group.setdefault(C.group_key(run), []).append(dt)
        by_workload.setdefault(run["workload"], []).append(dt / (run["scale"] or 1.0))
    total = 0.0
    for _, run, _ in rest:
        known = seconds.get(C.run_key(run))
        if not run["dataset"] and not known:
            total += 5.0     # built-in txn runs take seconds at any scale
        elif known:
            total += known[1]
        elif C.group_key(run) in by_group:
            g = by_group[C.group_key(run)]
            total += sum(g) / len(g)
        elif run["workload"] in by_workload:
            w = by_workload[run["workload"]]
            total += sum(w) / len(w) * (run["scale"] or 1.0)
        elif by_workload:
            # Nothing of this workload yet: any workload's cost per scale
            # unit (rough; monitor runs cost more than that).
            w = [x for v in by_workload.values() for x in v]
            total += sum(w) / len(w) * (run["scale"] or 1.0)
        else:
            return None
    return total


def run_once(args, run, dataset, tmp, rep):
    res = os.path.join(tmp, "rep-%d.json" % rep)
    out = os.path.join(tmp, "output")
    cmd = harness_cmd(args, run, dataset, res, out)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if os.path.exists(out):
        os.unlink(out)
    if r.returncode != 0:
        raise RuntimeError("exit %d: %s: %s" % (r.returncode, shlex.join(cmd),
                                                 (r.stderr or r.stdout).strip()[-800:]))
    data = gbench.read(res)
    os.unlink(res)
    return data


def main(argv):
    args = parse_args(argv)
    if args.self_test:
        return self_test(args)
    if args.from_results and args.fill_from:
        if not args.out:
            sys.exit("reproduce: --fill-from needs --out (a new results folder)")
        fill(os.path.abspath(args.from_results), os.path.abspath(args.fill_from),
             os.path.abspath(args.out))
        render(args, os.path.abspath(args.out))
        return 0
    if args.from_results:
        render(args, os.path.abspath(args.from_results))
        return 0
    t_start = time.time()
    doc = C.load_claims(args.claims)
    only = [x.strip() for x in args.only.split(",")] if args.only else None
    caps = not args.no_caps
    groups, users = C.plan(doc, only, args.scale, caps)
    if not groups:
        sys.exit("reproduce: no claim matches --only %s" % args.only)
    n_claims = len({c for ids in users.values() for c in ids})
    steps = [(g, run, rep) for g, runs in groups for rep in range(args.repetitions) for run in runs]
    if args.dry_run:
        for g, runs in groups:
            for run in runs:
                log("%-40s claims %s\n    %s" % (run_label(run),
                                                ",".join(users[C.run_key(run)]),
                                                shlex.join(harness_cmd(args, run, run["dataset"] and
                                                                       dataset_path(args, run["dataset"], run["form"], run["scale"]),
                                                                       "R.json", "OUT"))))
        log("%d claims, %d runs x %d repetitions = %d processes"
            % (n_claims, sum(len(r) for _, r in groups), args.repetitions, len(steps)))
        return 0

    ensure_build(args)
    stamp = datetime.datetime.utcnow().strftime("%Y%m%dT%H%M%SZ")
    out_dir = os.path.abspath(args.out or os.path.join(
        ROOT, "results", "reproduce-%s-%s" % (stamp, git_short_commit(ROOT))))
    os.makedirs(os.path.join(out_dir, "runs"), exist_ok=True)

    # Datasets: generate what is missing, remember what cannot be made.
    t_gen = time.time()
    datasets, ds_errors, stats, ds_meta = {}, {}, {}, []
    for kind, form, scale in sorted({(r["dataset"], r["form"], r["scale"]) for _, runs in groups
                                     for r in runs if r["dataset"]}):
        try:
            datasets[(kind, form, scale)] = ensure_dataset(args, doc, kind, form, scale)
        except RuntimeError as exc:
            ds_errors[(kind, form, scale)] = str(exc)
            log("reproduce: %s" % exc)
    generate_s = time.time() - t_gen
    for (kind, form, scale), path in sorted(datasets.items()):
        if form == "snapshot" and scale == args.scale:
            st = dataset_stats(args, path)
            if st:
                stats[kind] = st
        ds_meta.append({"label": "%s-%g%s" % (kind, scale, "-log" if form == "log" else ""),
                        "path": os.path.relpath(path, ROOT), "kind": kind, "scale": scale,
                        "form": form, "sha256": sha256_of(path), "bytes": os.path.getsize(path)})

    log("reproduce: %d claims, %d runs x %d repetitions = %d processes, scale %g -> %s"
        % (n_claims, sum(len(r) for _, r in groups), args.repetitions, len(steps), args.scale,
           os.path.relpath(out_dir, ROOT)))

    results = {}                 # run key -> [gbench data per rep] or error
    errors = {}
    seconds = {}                 # run key -> (run, seconds per process, last)
    group_seconds = {}
    t_runs = time.time()

    def save(finished):
        """Merge what has run so far into suite-shaped results (index.json +
        runs/) and claims-run.json: called after every run group, so an
        interrupted reproduction can still be rendered (--from-results)."""
        index, runs_meta = [], {}
        for g, runs in groups:
            for run in runs:
                key = C.run_key(run)
                done = len(results.get(key, []))
                if key in errors or done < args.repetitions:
                    runs_meta[key] = {"error": errors.get(key) or (
                        "interrupted: %d of %d repetitions ran" % (done, args.repetitions)
                        if finished else "not run yet")}
                    if key in errors or not done:
                        continue
                merged = gbench.merge_repetitions(results[key], workload=run["workload"])
                ctx = merged["context"]
                ctx["suite_variant"] = C.variant_name(run)
                ds_path = datasets.get((run["dataset"], run["form"], run["scale"]))
                if ds_path:
                    ctx["dataset_sha256"] = next(d["sha256"] for d in ds_meta
                                                 if d["path"] == os.path.relpath(ds_path, ROOT))
                label = run_label(run)
                rel = os.path.join("runs", label + ".json")
                gbench.write_atomic(os.path.join(out_dir, rel), merged)
                runs_meta[key] = {"file": rel, "claims": users[key], "repetitions": done}
                a = run["args"]
                index.append({"file": rel, "impl": run["impl"], "workload": run["workload"],
                              "variant": C.variant_name(run),
                              "dataset": label.split("__")[0],
                              "kind": (run["dataset"] or "").upper(),
                              "scale": run["scale"], "form": run["form"],
                              "clients": int(a[a.index("--clients") + 1]) if "--clients" in a else None,
                              "mode": run["mode"], "params": " ".join(a),
                              "allocator": ctx.get("allocator", "glibc"), "source": "harness"})
        duration = time.time() - t_start
        env = collect_env(ROOT, args.build_dir, "glibc")
        env["command"] = "scripts/reproduce.sh " + shlex.join(argv)
        env["datasets"] = ds_meta
        env["duration_s"] = duration
        env["load_average"] = " ".join("%.2f" % x for x in os.getloadavg())
        gbench.write_atomic(os.path.join(out_dir, "index.json"),
                            {"entries": index,
                             "failures": [{"job": k, "error": v["error"][:2000]}
                                          for k, v in runs_meta.items() if "error" in v]})
        gbench.write_atomic(os.path.join(out_dir, "env.json"), env)
        meta = {"claims": doc, "claims_file": os.path.relpath(args.claims, ROOT),
                "scale": args.scale, "caps": caps, "repetitions": args.repetitions,
                "seed": args.seed, "command_args": shlex.join(argv), "runs": runs_meta,
                "dataset_stats": stats, "complete": finished and not interrupted,
                "run_seconds": {k: round(v, 1) for k, v in group_seconds.items()},
                "duration_s": duration, "generate_s": generate_s,
                "runs_s": time.time() - t_runs}
        gbench.write_atomic(os.path.join(out_dir, C.RUN_FILE), meta)
        return runs_meta, duration

    interrupted = False
    try:
        with tempfile.TemporaryDirectory(prefix="jsonbench-reproduce-") as tmp:
            for i, (g, run, rep) in enumerate(steps):
                key = C.run_key(run)
                gname = "%s %s%s%s" % (g[0], g[1] or "", ("@%g" % g[4]) if g[1] else "",
                                       (" " + g[3]) if g[3] else "")
                if i and steps[i - 1][0] != g:
                    save(False)
                if key in errors:
                    continue
                ds_key = (run["dataset"], run["form"], run["scale"])
                if run["dataset"] and ds_key not in datasets:
                    errors[key] = ds_errors.get(ds_key, "dataset missing")
                    continue
                left = estimate(steps[i:], seconds)
                log("[%*d/%d] %s elapsed, %s left: %s rep %d/%d (claims %s)" % (
                    len(str(len(steps))), i + 1, len(steps), fmt_dur(time.time() - t_start),
                    "~" + fmt_dur(left) if left is not None else "?", run_label(run),
                    rep + 1, args.repetitions, ",".join(users[key])))
                t0 = time.time()
                try:
                    data = run_once(args, run, datasets.get(ds_key), tmp, rep)
                except (RuntimeError, OSError, ValueError) as exc:
                    log("    FAILED: %s" % exc)
                    errors[key] = str(exc)
                    continue
                dt = time.time() - t0
                seconds[key] = (run, dt)
                group_seconds[gname] = group_seconds.get(gname, 0.0) + dt
                results.setdefault(key, []).append(data)
    except KeyboardInterrupt:
        interrupted = True
        log("reproduce: interrupted; keeping the runs that completed")
    runs_meta, duration = save(True)

    runs_loaded = {k: ({"data": gbench.read(os.path.join(out_dir, v["file"]))} if v.get("file")
                       else {"error": v["error"]}) for k, v in runs_meta.items()}
    rows = C.evaluate(doc, runs_loaded, stats, args.scale, caps)
    print_table(rows)
    log("reproduce: %d claims, %s; %d run(s) failed; took %s; results in %s" % (
        len(rows), ", ".join("%s %d" % kv for kv in sorted(C.summary_counts(rows).items())),
        len(errors), fmt_dur(duration), os.path.relpath(out_dir, ROOT)))
    if not args.no_report:
        render(args, out_dir)
    return 1 if errors or interrupted else 0


def fill(primary, other, out_dir):
    """out_dir = primary + the runs primary lacks (or that failed there) taken
    from other; both must be reproduce folders."""
    a, b = C.load_run(primary), C.load_run(other)
    if not a or not b:
        sys.exit("reproduce: both --from-results and --fill-from must hold %s" % C.RUN_FILE)
    if os.path.exists(out_dir):
        sys.exit("reproduce: %s exists; --out must be a new folder" % out_dir)
    shutil.copytree(primary, out_dir, ignore=shutil.ignore_patterns(
        "report.md", "report.html", "charts"))
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
    index["failures"] = [f for f in index.get("failures", []) if f["job"] not in taken]
    have = {d["path"] for d in env.get("datasets", [])}
    env["datasets"] = env.get("datasets", []) + [d for d in env_b.get("datasets", [])
                                                 if d["path"] not in have]
    env["command"] = "%s  +  runs from %s" % (env.get("command", ""), env_b.get("command", ""))
    meta_a["filled_from"] = {"folder": "results/" + os.path.basename(other),
                             "command_args": meta_b.get("command_args", ""),
                             "runs": taken, "duration_s": meta_b.get("duration_s"),
                             "run_seconds": meta_b.get("run_seconds", {})}
    # Claims the primary did not plan (--only) are evaluated too now.
    gbench.write_atomic(os.path.join(out_dir, "index.json"), index)
    gbench.write_atomic(os.path.join(out_dir, "env.json"), env)
    gbench.write_atomic(os.path.join(out_dir, C.RUN_FILE), meta_a)
    log("reproduce: %d runs taken from %s" % (len(taken), os.path.relpath(other, ROOT)))


def _note_export(env):
    """A build dir made from `git archive <commit>` (to measure committed
    code while the shared tree has work in progress) has EXPORTED_COMMIT
    next to it: the binaries' commit is that one, not the tree's HEAD."""
    bdir = env.get("build_dir", "")
    marker = os.path.join(ROOT, bdir, "..", "EXPORTED_COMMIT")
    if bdir and os.path.exists(marker) and "binaries" not in env.get("git_dirty", ""):
        with open(marker) as f:
            commit = f.read().strip()
        env["git_commit"] = commit
        env["git_dirty"] = "binaries built from `git archive %s` (committed code only)" % commit
    return env


def render(args, out_dir):
    """report.md + report.html in out_dir; with --publish, report.md and the
    charts it links copied to that folder (old charts there removed)."""
    from jsonbench_report import generate
    loaded = C.load_run(out_dir)
    if not loaded:
        sys.exit("reproduce: %s has no %s" % (out_dir, C.RUN_FILE))
    env_path = os.path.join(out_dir, "env.json")
    if os.path.exists(env_path):
        gbench.write_atomic(env_path, _note_export(gbench.read(env_path)))
    scale = loaded[2].get("scale")
    html = generate(out_dir, title="ovsdb-jsonbench: seed claims reproduced at scale %g" % scale)
    md = os.path.join(out_dir, "report.md")
    log("reproduce: report %s" % os.path.relpath(html, ROOT))
    log("reproduce: report %s" % os.path.relpath(md, ROOT))
    if not args.publish:
        return
    dest = os.path.abspath(args.publish)
    os.makedirs(os.path.join(dest, "charts"), exist_ok=True)
    for old in glob.glob(os.path.join(dest, "charts", "*.png")):
        os.unlink(old)
    with open(md) as f:
        text = f.read()
    for png in sorted(glob.glob(os.path.join(out_dir, "charts", "*.png"))):
        if "charts/" + os.path.basename(png) in text:
            shutil.copy(png, os.path.join(dest, "charts"))
    # The results folder is not published: say where the numbers came from.
    text = text.replace(out_dir, "results/" + os.path.basename(out_dir) + " (not in git)")
    tmp = os.path.join(dest, "report.md.tmp")
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, os.path.join(dest, "report.md"))
    log("reproduce: published %s" % os.path.relpath(os.path.join(dest, "report.md"), ROOT))


def print_table(rows):
    """The claims table on the terminal (compact: no explanations)."""
    table = [[r[0], r[1], r[3], r[4], r[5]] for r in C.table_rows(rows)]
    heads = ["seed", "claim", "claimed", "measured", "verdict"]
    widths = [max(len(h), *(len(t[i]) for t in table)) for i, h in enumerate(heads)]
    log("")
    log("  ".join(h.ljust(w) for h, w in zip(heads, widths)))
    for t in table:
        log("  ".join(c.ljust(w) for c, w in zip(t, widths)))
    log("")


# ------------------------------------------------------------------ self-test

def _synthetic(before, after, workload="dump", phase="dump", field="cpu_time"):
    def rows(v):
        return {"benchmarks": [{"name": "%s/%s" % (workload, phase), "run_type": "iteration",
                                "repetition_index": i, "time_unit": "ms", field: v * 1e3}
                               for i in range(3)]}
    return {"data": rows(before)}, {"data": rows(after)}


def self_test(args):
    """Verdict logic on made-up numbers, then a tiny end-to-end run."""
    doc = C.load_claims(args.claims)
    claim = next(c for c in doc["claims"] if c["id"] == "s4-nb-dump-strings")
    one = dict(doc, claims=[claim])
    kb, ka = C.run_key(C.side_run(claim, "before")), C.run_key(C.side_run(claim, "after"))
    # (evaluate() defaults to scale 1 with caps, as side_run() here.)
    cases = [((10.0, 9.0), C.VERDICT_WITHIN),      # -10% vs claimed -10.8%
             ((10.0, 9.8), C.VERDICT_NOISE),       # -2%: inside the 3% band
             ((10.0, 5.0), C.VERDICT_OUTSIDE),     # -50%: ~6x the claimed log ratio
             ((10.0, 11.0), C.VERDICT_OPPOSITE)]
    failed = 0
    for (b, a), want in cases:
        rb, ra = _synthetic(b, a)
        got = C.evaluate(one, {kb: rb, ka: ra})[0]["verdict"]
        ok = got == want
        failed += not ok
        log("self-test: %s -> %s: %s%s" % (b, a, got, "" if ok else "  (expected %s)" % want))
    got = C.evaluate(one, {kb: {"error": "boom"}, ka: {"error": "boom"}})[0]
    if got["verdict"] != C.VERDICT_MISSING or "boom" not in got["why"]:
        failed += 1
        log("self-test: a failed run must give 'not measured' with its message")
    if failed:
        log("self-test: %d verdict check(s) failed" % failed)
        return 1

    # End to end at a tiny scale, datasets and results in a temporary folder.
    with tempfile.TemporaryDirectory(prefix="jsonbench-reproduce-selftest-") as tmp:
        argv = ["--scale", "0.002", "--repetitions", "1", "--out", os.path.join(tmp, "out"),
                "--datasets-dir", os.path.join(tmp, "datasets"), "--build-dir", args.build_dir]
        if args.no_build:
            argv.append("--no-build")
        rc = main(argv)
        out = os.path.join(tmp, "out")
        loaded = C.load_run(out)
        if not loaded:
            log("self-test: no %s written" % C.RUN_FILE)
            return 1
        d, runs, meta = loaded
        rows = C.evaluate(d, runs, meta.get("dataset_stats"), meta["scale"], meta["caps"])
        ids = {r["id"] for r in rows}
        missing = [c["id"] for c in d["claims"] if c["id"] not in ids]
        report_ok = os.path.exists(os.path.join(out, "report.md")) and \
            "Seed claims" in open(os.path.join(out, "report.md")).read()
        unmeasured = [r["id"] for r in rows if r["verdict"] == C.VERDICT_MISSING]
        log("self-test: %d claims, %d rows, missing rows %s, not measured %s, report %s, exit %d"
            % (len(d["claims"]), len(rows), missing or "none", unmeasured or "none",
               "ok" if report_ok else "MISSING the claims section", rc))
        if missing or not report_ok:
            return 1
        # Not measured is allowed only where a dataset profile does not exist.
        bad = [r["id"] for r in rows if r["verdict"] == C.VERDICT_MISSING
               and "profile" not in r.get("why", "")]
        if bad:
            log("self-test: runs failed for %s" % ", ".join(bad))
            return 1
    log("self-test: ok")
    return 0


def _terminate(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    import signal
    signal.signal(signal.SIGTERM, _terminate)
    sys.exit(main(sys.argv[1:]))
