"""Real OVS targets from the options that name them (--ovs-installed,
--ovs-tree/--ovs-ref, --ovs-patch, --ovs-configure, --ovs-tarball): their
names, the target specs they expand to, and the builds (through the build
cache, realovs/build.py), for every front end that measures real OVS."""

import sys

from . import build as build_mod
from . import specs
from . import target as target_mod


def ref_name(ref):
    """A file-name-safe target name for a git ref or target spec:
    9669b50f5^ -> ovs-9669b50f5-parent, v3.7.1+patches/ovs/copy-trim ->
    ovs-v3.7.1+copy-trim (build.spec_name)."""
    return specs.spec_name(ref)


def patch_specs(args):
    """The specs of --ovs-ref and --ovs-patch: each ref, then each ref
    with all the patches (build.expand_specs)."""
    refs = [r for r in (getattr(args, "ovs_ref", None) or "").split(",")
            if r]
    return specs.expand_specs(refs, getattr(args, "ovs_patch", None)
                                  or [])


def _say(log):
    return lambda msg: print("real-ovs: " + msg, file=log, flush=True)


def targets_from_args(args, log=sys.stderr):
    """The targets asked for; a failing build is reported and skipped.
    Returns (targets, failures)."""
    targets, failures = [], []
    if args.installed:
        targets.append(target_mod.installed())
    refs = patch_specs(args)
    patches = getattr(args, "ovs_patch", None) or []
    try:
        variants = specs.parse_variants(getattr(args, "ovs_configure",
                                                    None))
        for ref in refs:
            specs.parse_spec(ref)
    except specs.SpecError as e:
        raise SystemExit("real-ovs: %s" % e)
    if refs and not args.ovs_tree:
        raise SystemExit("--ovs-ref needs --ovs-tree")
    if patches and not refs and not args.ovs_tarball:
        raise SystemExit("--ovs-patch needs --ovs-ref (and --ovs-tree) or "
                         "--ovs-tarball")
    for ref in refs:
        print("real-ovs: building %s (cache %s)" % (
            ref, args.cache_dir or build_mod.default_cache_dir()), file=log)
        try:
            t = build_mod.build_spec(args.ovs_tree, ref, variants=variants,
                                     cache_dir=args.cache_dir,
                                     jobs=args.jobs,
                                     retry_failed=args.retry_failed,
                                     say=_say(log))
        except build_mod.BuildError as e:
            print("real-ovs: FAILED: %s" % e, file=log)
            failures.append({"target": ref_name(ref), "error": str(e)})
            continue
        targets.append(t)
    for tarball in args.ovs_tarball or []:
        for pp in ([], patches) if patches else ([],):
            try:
                t = build_mod.build_tarball_spec(
                    tarball, pp, variants=variants, cache_dir=args.cache_dir,
                    jobs=args.jobs, retry_failed=args.retry_failed,
                    say=_say(log))
            except build_mod.BuildError as e:
                print("real-ovs: FAILED: %s" % e, file=log)
                failures.append({"target": specs.spec_label(
                    tarball, pp), "error": str(e)})
                continue
            t.name = specs.spec_label(
                "ovs-" + (t.version or "tarball"), pp)
            targets.append(t)
    return targets, failures


def add_patch_args(p, patch_opt, configure_opt):
    """--ovs-patch and --ovs-configure (docs/patches.md), for the runner,
    the suite and the series gate."""
    p.add_argument(patch_opt, dest="ovs_patch", action="append", default=[],
                   metavar="PATCH",
                   help="a patch file, an mbox as posted to the OVS mailing "
                   "list, or a directory holding a git format-patch series "
                   "(applied in name order); repeatable, applied in order "
                   "with git am -3 on top of each ref R (--ovs-ref; the series "
                   "gate's --series-base), and both R and "
                   "R+PATCH... are built and run, side by side "
                   "(docs/patches.md)")
    p.add_argument(configure_opt, dest="ovs_configure", action="append",
                   default=[], metavar="NAME=ARGS",
                   help="a configure variant, e.g. jemalloc='LIBS=-ljemalloc'"
                   ": a ref written REF@NAME (in --ovs-ref or --series-base) is "
                   "built with "
                   "ARGS added to configure (repeatable)")
