"""The package's layers: every module of jsonbench belongs to one, and a
module imports only modules of its own layer or of a lower one, at the top
of the file or inside a function alike (tests/python/test_layers.py reads
every import with the ast module and fails on an upward import, on any
import cycle and on a module longer than MAX_LINES).

From the bottom up:

  core          the job model and what runs it: jobs, their order, the
                execute loop, the backends, results folders, datasets,
                the environment, shards, the options every command shares
  ovs           real OVS: git, the build cache and target specs, patches,
                the real server's processes, workloads and backend
  analysis      figures and what they mean: statistics, intervals,
                thresholds, the claims and their verdicts, calibration,
                history figures, bisection
  report        results folder -> report.md / report.html
  distribution  a study cut into shards on other machines, and merged
  studies       one module (or two) per command that measures: suite,
                reproduce, compare, gate, history, find, ovs run, join
  entry         the command lines that reach every study

A module's layer is the first entry of LAYERS whose name or prefix
(ending in ".") matches its dotted name."""

ORDER = ["core", "ovs", "analysis", "report", "distribution", "studies", "entry"]

MAX_LINES = 600

# (module or "package." prefix, layer); the first match wins.
LAYERS = [
    # Entry points.
    ("jsonbench.__main__", "entry"),
    ("jsonbench.cli", "entry"),
    ("jsonbench.realovs.__main__", "entry"),
    # Studies (real OVS's front ends first: they sit in realovs/).
    ("jsonbench.realovs.cli", "studies"),
    ("jsonbench.realovs.runner", "studies"),
    ("jsonbench.realovs.tables", "studies"),
    ("jsonbench.suite", "studies"),
    ("jsonbench.reproduce", "studies"),
    ("jsonbench.reproduce_real", "studies"),
    ("jsonbench.adaptive", "studies"),
    ("jsonbench.compare", "studies"),
    ("jsonbench.gate", "studies"),
    ("jsonbench.gateseries", "studies"),
    ("jsonbench.history", "studies"),
    ("jsonbench.find", "studies"),
    ("jsonbench.historyplan", "studies"),
    ("jsonbench.claimsjoin", "studies"),
    ("jsonbench.allocators", "studies"),
    # Distribution.
    ("jsonbench.engines", "distribution"),
    ("jsonbench.merge", "distribution"),
    # Report (predictions are judged where the report reads results).
    ("jsonbench.report", "report"),
    ("jsonbench.report.", "report"),
    ("jsonbench.predictions", "report"),
    # Analysis.
    ("jsonbench.intervals", "analysis"),
    ("jsonbench.historyfigures", "analysis"),
    ("jsonbench.historymetrics", "analysis"),
    ("jsonbench.mannwhitney", "analysis"),
    ("jsonbench.calibration", "analysis"),
    ("jsonbench.claims", "analysis"),
    ("jsonbench.realclaims", "analysis"),
    ("jsonbench.instructions", "analysis"),
    ("jsonbench.gatetable", "analysis"),
    ("jsonbench.gatecal", "analysis"),
    ("jsonbench.figures", "analysis"),
    ("jsonbench.bisection", "analysis"),
    # Real OVS.
    ("jsonbench.realovs", "ovs"),
    ("jsonbench.realovs.", "ovs"),
    # Core.
    ("jsonbench", "core"),
    ("jsonbench.layers", "core"),
    ("jsonbench.util", "core"),
    ("jsonbench.jobs", "core"),
    ("jsonbench.gbench", "core"),
    ("jsonbench.env", "core"),
    ("jsonbench.options", "core"),
    ("jsonbench.build", "core"),
    ("jsonbench.datasets", "core"),
    ("jsonbench.convertschema", "core"),
    ("jsonbench.measuring", "core"),
    ("jsonbench.suite_order", "core"),
    ("jsonbench.shards", "core"),
    ("jsonbench.resultsdir", "core"),
    ("jsonbench.execute", "core"),
    ("jsonbench.backends", "core"),
    ("jsonbench.cachesim", "core"),
    ("jsonbench.detjobs", "core"),
    ("jsonbench.study", "core"),
]


def layer_of(module):
    """The layer of a dotted module name, None when LAYERS has none."""
    for name, layer in LAYERS:
        if module == name or (name.endswith(".") and module.startswith(name)):
            return layer
    return None


def rank(layer):
    return ORDER.index(layer)
