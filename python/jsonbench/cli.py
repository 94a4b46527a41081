"""jsonbench: the project's one command line (scripts/jsonbench; the
scripts/*.sh wrappers call the same code).

Every subcommand's --help is short and ends with examples; options shared
between subcommands have one name and one default (jsonbench.options)."""

import os
import sys

EXAMPLES = """subcommands:
  run       the suite: every impl x workload, report   (scripts/suite.sh)
  claims    reproduce the seeds' claims                 (scripts/reproduce.sh)
  gate      the CI regression gate                      (scripts/gate.sh)
  compare   two result sets, Mann-Whitney U             (scripts/compare)
  report    (re)render a results folder's report        (reports/generate.py)
  join      a claims folder plus the runs another has   (was --fill-from)
  merge     shard folders (--shards N --shard K) into one results folder
  slurm     submit a study as a Slurm job array + merge (docs/shards.md)
  parallel  run a study's shards on ssh hosts with GNU parallel + merge
  ovs       real OVS: build, run, tables                (scripts/real-ovs.sh)
  history   real OVS figures over commits, charted      (docs/history.md)
  find      bisect OVS for the commit that moved a figure
  allocators  glibc against jemalloc: model impls and the installed ovsdb-server
  impls     the impls a build defines

examples:
  scripts/jsonbench run --impls plain,ovs --workloads load,dump
  scripts/jsonbench run --resume results/20260101T000000Z-abc1234
  scripts/jsonbench claims --scale 1
  scripts/jsonbench compare results/A results/B
  scripts/jsonbench report results/R
  scripts/jsonbench join results/reproduce-MODEL results/reproduce-REAL --out results/NEW
  scripts/jsonbench ovs run --ovs-installed --scale 0.01
  scripts/jsonbench slurm --shards 3 --out results/study claims --scale 1
  scripts/jsonbench history --ovs-tree ~/ovs --ovs-ref 'v2.17.0,v3.*.0'
  scripts/jsonbench find --ovs-tree ~/ovs --range v3.5.0..v3.6.0 --min-change 5
  scripts/jsonbench allocators --scale 0.1
scripts/jsonbench SUBCOMMAND --help for each one's options."""


def impls(argv):
    from . import build
    return build.main(["impls"] + argv)


def command(name):
    if name == "run":
        from .suite import main
    elif name == "claims":
        from .reproduce import main
    elif name == "gate":
        from .gate import main
    elif name == "compare":
        from .compare import main
    elif name == "report":
        from .report import main
    elif name == "ovs":
        from .realovs.cli import main
    elif name == "history":
        from .history import main_history as main
    elif name == "find":
        from .history import main_find as main
    elif name == "join":
        from .claimsjoin import main
    elif name == "merge":
        from .merge import main
    elif name == "slurm":
        from .engines import slurm as main
    elif name == "parallel":
        from .engines import parallel as main
    elif name == "allocators":
        from .allocators import main
    elif name == "impls":
        main = impls
    else:
        return None
    return main


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: scripts/jsonbench SUBCOMMAND [options]\n\n" + __doc__.split("\n\n")[0]
              + "\n\n" + EXAMPLES)
        return 0 if argv else 2
    fn = command(argv[0])
    # A wrapper (scripts/suite.sh, ...) names itself for the usage lines;
    # taken out of the environment so the commands this one starts do not
    # see it.
    wrapper = os.environ.pop("JSONBENCH_PROG", None)
    if wrapper:
        from . import options
        options.set_caller(argv[0], wrapper)
    if fn is None:
        sys.stderr.write("jsonbench: unknown subcommand %r (scripts/jsonbench --help)\n"
                         % argv[0])
        return 2
    return fn(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
