"""The claims reproduction on real OVS (scripts/reproduce.sh --ovs-tree):
the builds of the real pairs (claims/real-ovs.json, read by
jsonbench.realclaims), their datasets, and their runs through the execute
loop into the reproduction's folder, interleaved before/after repetition
by repetition."""

import os
import time

from . import ROOT, build, gbench
from . import claims as C
from . import realclaims as R
from .execute import execute
from .jobs import Job, Step
from .realovs import build as rbuild
from .realovs.backend import RealBackend
from .util import log, sha256_of


def measure_real(args, p, ds, out_dir, state, res):
    """The real-OVS runs of the plan into out_dir: runs/real__*.json, their
    index entries, and "real" in claims-run.json (pairs file, runs, builds).
    Returns (how many real runs failed, interrupted)."""
    t0 = time.time()
    ensure_datasets(args, p.sdoc, p.real_groups, ds.paths, log)
    out = measure(args, p.sdoc, p.real_groups, p.real_users, ds.paths, out_dir,
                  log, state, res.entries, res.failures)
    runs_meta_, targets, failures, interrupted = out
    # The model's runs all ran before these (calibration.run_order()).
    args.env.update(ovs_targets=targets, ovs_build_failures=failures, run_order="grouped",
                    ovs_ab_pairs=[pr for pr in R.ab_pairs(p.sdoc)
                                  if all(n in {t["name"] for t in targets} for n in pr)])
    meta = gbench.read(os.path.join(out_dir, C.RUN_FILE))
    meta["real"] = {"claims": p.real_doc, "claims_file": os.path.relpath(args.ovs_claims, ROOT),
                    "ovs_tree": args.ovs_tree, "runs": runs_meta_, "targets": targets,
                    "build_failures": failures, "duration_s": time.time() - t0}
    gbench.write_atomic(os.path.join(out_dir, C.RUN_FILE), meta)
    return sum(1 for v in runs_meta_.values() if "error" in v), interrupted


def ensure_datasets(args, sdoc, groups, ds_paths, log):
    """Generates what the real runs need and the model's did not (the real
    claims' own scale caps)."""
    for _g, runs in groups:
        for r in runs:
            key = (r["dataset"], r["form"], r["scale"])
            if not r["dataset"] or key in ds_paths:
                continue
            spec = sdoc["datasets"][r["dataset"]]
            try:
                ds_paths[key] = build.ensure_dataset(
                    args.build_dir, r["dataset"], r["scale"], r["form"],
                    args.seed, build.DATASETS_DIR,
                    profile=os.path.join(ROOT, spec["profile"]),
                    schema=spec["schema"], who="reproduce")
            except build.DatasetError as exc:
                log("reproduce: %s" % exc)


def measure(args, sdoc, groups, users, ds_paths, out_dir, log, state, entries, failures):
    """Builds the targets (cached) and runs every real run of 'groups'
    through the execute loop (before and after interleaved repetition by
    repetition, as the model's are: on a shared machine, all repetitions of
    one build and then all of the other would measure the machine's load
    drift as an effect).  Returns (runs meta {run key: {"file", "claims"} |
    {"error"}}, targets info, build failures, interrupted)."""
    refs = R.refs_of(sdoc)
    needed = []
    for _g, runs in groups:
        for r in runs:
            if r["impl"] not in needed:
                needed.append(r["impl"])
    targets, errors, build_failures = {}, {}, []
    for name in needed:
        log("reproduce: real OVS: building %s (cached)" % refs[name])
        try:
            # A pair's side is a target spec: REF[+PATCH...]
            # (docs/patches.md).
            t = rbuild.build_spec(args.ovs_tree, refs[name],
                                  cache_dir=args.ovs_cache_dir)
        except (rbuild.BuildError, FileNotFoundError) as exc:
            log("reproduce: real OVS: %s: %s" % (refs[name],
                                                 str(exc).splitlines()[0]))
            errors[name] = str(exc)
            build_failures.append({"target": name, "ref": refs[name],
                                   "error": str(exc)[-3000:]})
            continue
        t.name = name
        targets[name] = t
    meta, by_key, steps = {}, {}, []
    for g, runs in groups:
        ready = []
        for r in runs:
            key = C.run_key(r)
            name = r["impl"]
            if name in errors:
                tail = [ln.strip() for ln in errors[name].splitlines()
                        if ln.strip()]
                meta[key] = {"error": "build of %s failed: %s" % (
                    refs[name], tail[-1] if tail else "?")}
                continue
            path = None
            if r["dataset"]:
                path = ds_paths.get((r["dataset"], r["form"], r["scale"]))
                if not path:
                    meta[key] = {"error": "dataset %s-%g-%s missing" % (
                        r["dataset"], r["scale"], r["form"])}
                    continue
            ds = R.dataset_of(r, path)
            if path:
                ds["sha256"] = sha256_of(path)
            opts = R.run_opts(r)
            j = Job(name, r["workload"], R.variant(r), ds, opts, opts.get("clients"),
                    side="real", target=targets[name], prefix="real__", key=key)
            j.note = "(claims %s)" % ",".join(users[key])
            j.meta = {"params": " ".join(r["args"])}
            by_key[key] = j
            ready.append(j)
        steps += [Step(j, rep, 1, g) for rep in range(args.repetitions) for j in ready]
    failures = list(failures) + [{"job": k, "error": v["error"][:2000]}
                                 for k, v in meta.items()]
    res = execute(steps, {"real": RealBackend(out_dir, args.build_dir, args.ovs_cache_dir,
                                              setup=getattr(args, "setup", None))},
                  out_dir, state, entries, failures, args.repetitions, say=log)
    finished = set(state.get("finished", []))
    errs = {f["job"]: f["error"] for f in res.failures if "job" in f}
    for key, j in by_key.items():
        if j.name in finished:
            meta[key] = {"file": os.path.join("runs", j.name + ".json"),
                         "claims": users[key], "repetitions": args.repetitions}
        else:
            meta[key] = {"error": errs.get(j.name) or "interrupted before it finished"}
    info = [dict(t.context(), name=n, ref=refs[n]) for n, t in
            targets.items()]
    return meta, info, build_failures, res.interrupted
