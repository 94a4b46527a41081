"""Argument parsing for the real-OVS runner (scripts/real-ovs.sh):

  build   build OVS refs (or a tarball) into the cache, print the targets
  run     run workloads on the installed binaries and/or built refs
  tables  model-vs-real and real A/B tables from results folders
"""

import argparse
import signal
import sys

from .. import options as O
from . import runner, suite_jobs, tables


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
    p = argparse.ArgumentParser(prog=O.prog("ovs"), description=__doc__,
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
