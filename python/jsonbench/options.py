"""The options the commands share, defined once: one name per setting and
the same default everywhere (scripts/jsonbench and the scripts/*.sh
wrappers).  Real OVS targets' options are defined in
jsonbench.realovs.suite_jobs.add_args (the suite and the real runner)."""

import os

from . import ROOT

REPETITIONS = 5

# The command the user typed, for usage lines: "scripts/jsonbench SUB", or
# the wrapper that called SUB (scripts/suite.sh, ... export JSONBENCH_PROG;
# jsonbench.cli reads it, reports/generate.py names itself).
_CALLER = {}


def set_caller(sub, name):
    _CALLER[sub] = name


def prog(sub):
    """The usage line's command for subcommand SUB."""
    return _CALLER.get(sub) or "scripts/jsonbench " + sub      # Mann-Whitney needs >= 4 per side for p < 0.05


def repetitions(ap, what="processes per job"):
    ap.add_argument("--repetitions", type=int, default=REPETITIONS,
                    help="%s, each a process (default %d)" % (what, REPETITIONS))


def seed(ap):
    ap.add_argument("--seed", type=int, default=1, help="dataset and harness seed (default 1)")


BUILD_DIR = os.path.join(ROOT, "build")


def build_dir(ap, what="meson build dir"):
    """--build-dir, one default everywhere: build/ of this tree."""
    ap.add_argument("--build-dir", default=BUILD_DIR, metavar="DIR",
                    help="%s (default build/)" % what)


def no_build(ap):
    ap.add_argument("--no-build", action="store_true", help="do not run meson/ninja")


def out(ap, default):
    ap.add_argument("--out", metavar="DIR", help="results folder (default %s)" % default)


def out_file(ap, what):
    """--out-file: a file (the gate's figures); --out is always a folder."""
    ap.add_argument("--out-file", dest="out", metavar="FILE", help=what)


def resume(ap, what="jobs"):
    ap.add_argument("--resume", metavar="FOLDER",
                    help="finish an interrupted run: only the %s FOLDER lacks run, with the "
                         "options it was started with (another commit's or plan's folder "
                         "is refused)" % what)


def claims(ap, what):
    """--claims FILE (repeatable): claims files (realclaims.claims_files)."""
    ap.add_argument("--claims", action="append", default=[], metavar="FILE", help=what)


def dry_run(ap, what="print the plan and stop"):
    ap.add_argument("--dry-run", action="store_true", help=what)


def no_report(ap):
    ap.add_argument("--no-report", action="store_true", help="skip report.md/report.html")


def workload_params(ap, dest="workload_params"):
    """--workload-params: ovs run's and history/find's (one meaning)."""
    ap.add_argument("--workload-params", dest=dest, default="", metavar="K=V,...",
                    help="monitor: batches (update transactions, 5), batch_rows (rows "
                    "per transaction, 100); txn: txns (inserts per client, 1000); raft: "
                    "entries (transactions, 100); monitor-storm: held (monitors held; "
                    "ovs run 100, history and find 10), clients (requests sent at once; "
                    "history and find 10, ovs run: --concurrency, 100); monitor-cond-change: "
                    "held (conditional monitors; ovs run 100, history and find 10), "
                    "changes (condition changes per client, 1), datapaths (per "
                    "condition, 4)")


def dataset(ap):
    ap.add_argument("--dataset", action="append", default=[], metavar="FILE",
                    help="an OVSDB file to use instead of generated ones (repeatable; "
                         "kind NB/SB from its schema)")


def ovs_tree(ap, help_text="OVS git work tree or bare git dir", required=False):
    ap.add_argument("--ovs-tree", metavar="DIR", help=help_text, required=required)


def ovs_refs(ap, help_text, required=False):
    """--ovs-ref: a comma list of OVS refs (find's range is --range, the
    series gate's base --series-base)."""
    ap.add_argument("--ovs-ref", metavar="REF,...", help=help_text, required=required)


def ovs_retry_failed(ap, what="commits"):
    ap.add_argument("--ovs-retry-failed", action="store_true",
                    help="rebuild %s whose cached build failed" % what)


def ovs_cache_dir(ap):
    ap.add_argument("--ovs-cache-dir", metavar="DIR", help="real OVS build cache (default "
                    "$JSONBENCH_OVS_CACHE or ~/.cache/ovsdb-jsonbench/ovs)")


def rel(path):
    return os.path.relpath(path, ROOT)


def adaptive(ap):
    """Adaptive repetitions: after the first pass, more interleaved pairs
    for the comparisons whose interval cannot decide yet."""
    ap.add_argument("--budget", type=float, default=0, metavar="MINUTES",
                    help="after the first pass, keep adding interleaved pairs to the "
                         "comparisons whose interval is still too wide for a verdict, most "
                         "undecided first, for at most MINUTES (default 0: none)")
    ap.add_argument("--max-repetitions", type=int, default=12, metavar="N",
                    help="with --budget: at most N repetitions per side (default 12)")


def as_deployed(ap):
    ap.add_argument("--as-deployed", action="store_true",
                    help="time processes as OVS is deployed: glibc's heap defaults, no CPU "
                         "pinning (default: the measuring setup, the heap on huge pages and "
                         "each process pinned to one CPU; docs/noise.md)")
