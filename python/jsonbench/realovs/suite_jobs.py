"""Real OVS inside scripts/suite.sh: the builds named by --ovs-* run the
model's workloads on the model's datasets, with the same repetitions, into
the same results folder (index.json entries marked "real_ovs"), so one
report shows both.

A target is the installed binaries (Debian: 3.1.0) or a commit of an OVS
tree built through the cache (realovs/build.py).  A failed build is a
failure entry with its log tail; the rest of the suite goes on.  Real OVS
runs what it supports of the model's plan: load, dump, compact, monitor
(one run per client count: it has no composition modes), txn and raft
(once, not per raft mode).

Order: run() is the grouped one (every target's jobs, each job's
repetitions back to back); the interleaved order (jsonbench.suite_order,
the default) calls run_rep() per repetition and document()/write() once a
dataset and workload is done.
"""

import argparse
import os
import shutil

from . import build as build_mod
from . import gbench
from . import runner
from . import workloads as wl
from .cli import add_patch_args, patch_specs, ref_name, targets_from_args
from .proc import RunError
from .target import PROGRAMS


def add_args(ap):
    g = ap.add_argument_group(
        "real OVS (docs/real-ovs.md)",
        "Run real ovsdb-server/ovsdb-tool/ovsdb-client builds next to the "
        "model on the same datasets and workloads; the report gains the "
        "model-vs-real and real A/B sections.")
    g.add_argument("--ovs-tree", help="OVS git work tree or bare git dir")
    g.add_argument("--ovs-ref", help="comma list of commits of --ovs-tree "
                   "to build (cached) and run, oldest first: consecutive "
                   "refs are the real A/B pairs (e.g. 9669b50f5^,9669b50f5)")
    g.add_argument("--ovs-tarball", action="append",
                   help="an OVS release tarball to build and run (repeatable)")
    g.add_argument("--ovs-installed", dest="ovs_installed",
                   action="store_true", default=None,
                   help="run the installed binaries (named ovs-debian); the "
                   "default when --ovs-tree or --ovs-tarball is given and "
                   "ovsdb-server is installed")
    g.add_argument("--no-ovs-installed", dest="ovs_installed",
                   action="store_false", help="do not run the installed "
                   "binaries")
    g.add_argument("--pair", action="append", default=[],
                   metavar="IMPL=TARGET",
                   help="model-vs-real pair, e.g. ovs=f5819e699 or "
                   "serialized=ovs-debian (repeatable; default: every real "
                   "target with the impl of its representation, builds of "
                   "current server code as its calibration, older ones "
                   "(Debian's 3.1) as references, see docs/real-ovs.md)")
    add_patch_args(g, "--ovs-patch", "--ovs-configure")
    g.add_argument("--ovs-cache-dir", help="build cache (default "
                   "$JSONBENCH_OVS_CACHE or ~/.cache/ovsdb-jsonbench/ovs)")
    g.add_argument("--ovs-retry-failed", action="store_true",
                   help="rebuild commits whose cached build failed")


def wanted(args):
    return bool(args.ovs_tree or args.ovs_ref or args.ovs_tarball
                or args.ovs_installed)


def installed_available():
    path = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"
    return all(shutil.which(p, path=path) for p in PROGRAMS)


def targets(args, log):
    """(targets, failures): builds what is asked (cached); a failed build
    is a failure {"target", "error" (with the log tail)}."""
    installed = args.ovs_installed
    if installed is None:
        installed = bool(args.ovs_tree or args.ovs_tarball) and \
            installed_available()
    ns = argparse.Namespace(
        installed=installed, ovs_tree=args.ovs_tree, ovs_ref=args.ovs_ref,
        ovs_tarball=args.ovs_tarball, cache_dir=args.ovs_cache_dir,
        jobs=2, retry_failed=args.ovs_retry_failed,
        ovs_patch=getattr(args, "ovs_patch", None),
        ovs_configure=getattr(args, "ovs_configure", None))
    try:
        return targets_from_args(ns, log=log)
    except FileNotFoundError as e:      # --ovs-installed without OVS
        return [], [{"target": "ovs-debian", "error": str(e)}]


def pair_name(value):
    """--pair's right side: a target name as is, a ref as its target name."""
    if value.startswith("ovs-"):
        return value
    return ref_name(value)


def parse_pairs(values):
    out = []
    for v in values:
        if "=" not in v:
            raise SystemExit("suite: --pair %s: expected IMPL=TARGET" % v)
        impl, real = v.split("=", 1)
        out.append([impl.strip(), pair_name(real.strip())])
    return out


def plan(model_jobs):
    """[(workload, variant, dataset, opts)] of real runs for the model's
    jobs: one per dataset x workload, monitor once per client count."""
    seen, out = set(), []
    for j in model_jobs:
        w, opts = j.workload, {}
        if w not in wl.WORKLOADS:
            continue
        if w == "monitor":
            opts = {"clients": j.clients or 10}
            if "--table" in j.opts:
                opts["table"] = j.opts[j.opts.index("--table") + 1]
                if opts["table"] != "Logical_Flow":
                    opts["condition"] = "[true]"
        elif w == "raft":
            opts = {"entries": 100}
        elif w == "txn":
            opts = {"clients": 5, "txns": 1000}
        variant = runner.variant_name(w, opts)
        key = (w, variant, j.ds["path"])
        if key in seen:
            continue
        seen.add(key)
        out.append((w, variant, j.ds, opts))
    # dump before load on a dataset: load reuses dump's server start.
    rank = {"dump": 0, "load": 1}
    out.sort(key=lambda x: rank.get(x[0], 2))
    return out


def entry(target, workload, variant, ds, opts, rel):
    return {"file": rel, "impl": target.name, "workload": workload,
            "variant": variant, "dataset": ds["label"],
            "kind": ds["kind"].upper(), "scale": ds["scale"],
            "form": ds["form"], "clients": opts.get("clients"),
            "mode": None, "params": " ".join(
                "%s=%s" % kv for kv in sorted(opts.items())
                if kv[0] != "txn_client"),
            "allocator": getattr(target, "allocator", "glibc"),
            "source": "harness", "real_ovs": True,
            "ovs_version": target.version, "ovs_commit": target.commit,
            "ovs_representation": target.representation,
            "ovs_server_era": target.server_era}


def job_opts(args, workload, opts, cache):
    """The job's runner options; txn gets the C client, built once
    ('cache' is a dict kept across jobs)."""
    if workload != "txn":
        return opts
    if "txn_client" not in cache:
        cache["txn_client"] = runner.txn_client(argparse.Namespace(
            txn_client=None, build_dir=args.build_dir,
            cache_dir=args.ovs_cache_dir))
    return dict(opts, txn_client=cache["txn_client"])


def job_name(target, variant, ds):
    return "%s__%s__%s" % (ds["label"], variant, target.name)


def failure(target, variant, ds, error):
    return {"job": job_name(target, variant, ds), "impl": target.name,
            "error": str(error)[:2000]}


def write(target, job, doc, out_dir):
    """Writes one real job's document into out_dir/runs/; returns its
    index entry."""
    w, variant, ds, opts = job
    doc["context"]["suite_variant"] = variant
    rel = os.path.join("runs", job_name(target, variant, ds) + ".json")
    gbench.write_atomic(os.path.join(out_dir, rel), doc)
    return entry(target, w, variant, ds, opts, rel)


def document(target, job, reps):
    """The document of one real job from its repetitions' rows."""
    w, _variant, ds, opts = job
    return runner.job_document(target, w, ds, reps, ds.get("sha256", ""),
                               opts)


def run(args, tgts, jobs, out_dir, on_result, log):
    """Runs every (target, job), each job's repetitions back to back (the
    grouped order); on_result(entry or None, failure or None) after each."""
    shared, cache = {}, {}
    total = len(tgts) * len(jobs)
    i = 0
    for t in tgts:
        for w, variant, ds, opts in jobs:
            i += 1
            log("[real %d/%d] %-14s %-20s %s" % (i, total, t.name, variant,
                                                  ds["label"]))
            opts = job_opts(args, w, opts, cache)
            try:
                doc = runner.run_job(t, w, ds, args.repetitions,
                                     ds.get("sha256", ""), shared, opts)
            except (RunError, OSError) as e:
                log("    FAILED: %s" % e)
                on_result(None, failure(t, variant, ds, e))
                continue
            on_result(write(t, (w, variant, ds, opts), doc, out_dir), None)


def run_rep(args, target, job, cache):
    """One repetition of one real job (the interleaved order): its rows.
    Raises RunError or OSError."""
    w, _variant, ds, opts = job
    return runner.run_one(target, w, ds, job_opts(args, w, opts, cache))


def target_names(args):
    """The names the targets of --ovs-* will have, without building them
    (--dry-run)."""
    installed = args.ovs_installed
    if installed is None:
        installed = bool(args.ovs_tree or args.ovs_tarball) and \
            installed_available()
    names = ["ovs-debian"] if installed else []
    names += [ref_name(r) for r in patch_specs(args)]
    for t in args.ovs_tarball or []:
        names.append("ovs-<%s>" % os.path.basename(t))
        if getattr(args, "ovs_patch", None):
            names.append(build_mod.spec_label(names[-1], args.ovs_patch))
    return names


def env_info(tgts, failures, args):
    """What env.json records about the real targets."""
    refs = patch_specs(args)
    names = {t.name for t in tgts}
    out = {
        "ovs_targets": [dict(t.context(), name=t.name, programs=t.programs)
                        for t in tgts],
        "ovs_build_failures": [f for f in failures if "target" in f],
        "ovs_pairs": parse_pairs(args.pair),
        # Consecutive refs, as given (each ref then ref+patches with
        # --ovs-patch): the real A/B chain.
        "ovs_ab": [ref_name(r) for r in refs if ref_name(r) in names],
    }
    if getattr(args, "ovs_patch", None):
        # With patches, the pairs are each ref -> ref+patches.
        out["ovs_ab_pairs"] = [[ref_name(a), ref_name(b)] for a, b in
                               zip(refs[::2], refs[1::2])
                               if ref_name(a) in names and ref_name(b) in names]
        # Tarballs: ovs-<version> -> ovs-<version>+NAME...
        suffix = build_mod.spec_label("", args.ovs_patch)
        out["ovs_ab_pairs"] += [[t.name[:-len(suffix)], t.name] for t in tgts
                                if t.name.endswith(suffix) and
                                t.name[:-len(suffix)] in names and
                                [t.name[:-len(suffix)], t.name]
                                not in out["ovs_ab_pairs"]]
    return out
