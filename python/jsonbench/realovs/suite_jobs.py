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

plan() gives real job templates (jsonbench.jobs.Job, side "real"); the
order (jsonbench.suite_order) puts them on each target, jsonbench.execute
runs them through jsonbench.realovs.backend.RealBackend.
"""

import argparse
import os
import shutil

from .. import options as O
from ..jobs import Job
from . import specs
from . import workloads as wl
from .backend import variant_name
from .targets import add_patch_args, patch_specs, ref_name, targets_from_args
from .target import PROGRAMS


def add_args(ap):
    g = ap.add_argument_group(
        "real OVS (docs/real-ovs.md)",
        "Run real ovsdb-server/ovsdb-tool/ovsdb-client builds next to the "
        "model on the same datasets and workloads; the report gains the "
        "model-vs-real and real A/B sections.")
    O.ovs_tree(g)
    O.ovs_refs(g, "comma list of commits of --ovs-tree to build (cached) and "
               "run, oldest first: consecutive refs are the real A/B pairs "
               "(e.g. 9669b50f5^,9669b50f5)")
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
    O.ovs_cache_dir(g)
    O.ovs_retry_failed(g)


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
    """Real job templates (jobs.Job, side "real") for the model's jobs:
    one per dataset x workload, monitor once per client count."""
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
        variant = variant_name(w, opts)
        key = (w, variant, j.ds["path"])
        if key in seen:
            continue
        seen.add(key)
        out.append(Job(None, w, variant, j.ds, opts, clients=opts.get("clients"),
                       side="real"))
    # dump before load on a dataset: load reuses dump's server start.
    rank = {"dump": 0, "load": 1}
    out.sort(key=lambda x: rank.get(x.workload, 2))
    return out


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
            names.append(specs.spec_label(names[-1], args.ovs_patch))
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
        suffix = specs.spec_label("", args.ovs_patch)
        out["ovs_ab_pairs"] += [[t.name[:-len(suffix)], t.name] for t in tgts
                                if t.name.endswith(suffix) and
                                t.name[:-len(suffix)] in names and
                                [t.name[:-len(suffix)], t.name]
                                not in out["ovs_ab_pairs"]]
    return out
