"""Argument parsing for the real-OVS runner (scripts/real-ovs.sh):

  build   build OVS refs (or a tarball) into the cache, print the targets
  run     run workloads on the installed binaries and/or built refs
  tables  model-vs-real and real A/B tables from results folders
"""

import argparse
import re
import signal
import sys

from . import build as build_mod
from . import target as target_mod


def ref_name(ref):
    """A file-name-safe target name for a git ref: 9669b50f5^ -> ovs-9669b50f5-parent."""
    name = ref.replace("^", "-parent").replace("~", "-back")
    return "ovs-" + re.sub(r"[^A-Za-z0-9._-]", "_", name)


def targets_from_args(args, log=sys.stderr):
    """The targets asked for; a failing build is reported and skipped.
    Returns (targets, failures)."""
    targets, failures = [], []
    if args.installed:
        targets.append(target_mod.installed())
    refs = [r for r in (args.ovs_ref or "").split(",") if r]
    if refs and not args.ovs_tree:
        raise SystemExit("--ovs-ref needs --ovs-tree")
    for ref in refs:
        print("real-ovs: building %s (cache %s)" % (
            ref, args.cache_dir or build_mod.default_cache_dir()), file=log)
        try:
            t = build_mod.build_commit(args.ovs_tree, ref,
                                       cache_dir=args.cache_dir,
                                       jobs=args.jobs,
                                       retry_failed=args.retry_failed)
        except build_mod.BuildError as e:
            print("real-ovs: FAILED: %s" % e, file=log)
            failures.append({"target": ref_name(ref), "error": str(e)})
            continue
        t.name = ref_name(ref)
        targets.append(t)
    for tarball in args.ovs_tarball or []:
        try:
            t = build_mod.build_tarball(tarball, cache_dir=args.cache_dir,
                                        jobs=args.jobs,
                                        retry_failed=args.retry_failed)
        except build_mod.BuildError as e:
            print("real-ovs: FAILED: %s" % e, file=log)
            failures.append({"target": tarball, "error": str(e)})
            continue
        t.name = "ovs-" + (t.version or "tarball")
        targets.append(t)
    return targets, failures


EXAMPLES = """examples:
  scripts/real-ovs.sh run --ovs-installed --scale 0.01 --workloads load,dump
  scripts/real-ovs.sh run --ovs-tree ~/ovs --ovs-ref 9669b50f5^,9669b50f5 --dataset nb.db
  scripts/real-ovs.sh build --ovs-tree ~/ovs --ovs-ref v3.6.0
  scripts/real-ovs.sh tables results/A results/B
(docs/real-ovs.md)"""


def _terminate(signum, frame):
    # SIGTERM/SIGHUP unwind like Ctrl-C, so every RunDir stops its servers.
    raise KeyboardInterrupt("signal %d" % signum)


def main(argv):
    signal.signal(signal.SIGTERM, _terminate)
    signal.signal(signal.SIGHUP, _terminate)
    from . import runner, suite_jobs, tables
    p = argparse.ArgumentParser(prog="real-ovs.sh", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=EXAMPLES)
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="build refs into the cache, run nothing",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    suite_jobs.add_args(b)
    r = sub.add_parser("run", help="run workloads on real OVS targets",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    suite_jobs.add_args(r)
    runner.add_run_args(r)
    t = sub.add_parser("tables", help="model-vs-real and real A/B tables "
                       "(markdown) from results folders")
    tables.add_args(t)
    args = p.parse_args(argv)
    if args.cmd == "tables":
        return tables.main(args)
    # Here the installed binaries run only when asked (the suite adds them
    # as a reference by default).
    args.ovs_installed = bool(args.ovs_installed)
    targets, failures = suite_jobs.targets(args, sys.stderr)
    if args.cmd == "build":
        for t in targets:
            print("%s\t%s\t%s\t%s" % (t.name, t.version, t.commit,
                                      t.path("ovsdb-server")))
        return 1 if failures else 0
    return runner.run(args, targets, failures)
