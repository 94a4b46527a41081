"""Reading results: a suite results folder or loose google-benchmark JSON files.

A suite folder (written by scripts/suite.py) holds:
  index.json          what ran: one entry per (impl, workload variant, dataset)
  env.json            machine, compiler, build options, commit, datasets
  runs/*.json         google-benchmark JSON per entry (repetitions merged)
  hyperfine/*.json    hyperfine --export-json of the same processes
  micro/*.json        google-benchmark JSON of the micro-benchmarks

Everything is flattened into Sample objects: one per (entry, benchmark name,
repetition), holding that repetition's numeric fields.  Sections group them
as they need.  Files without an index (plain harness or micro output) still
load: their description comes from the google-benchmark context.
"""

import json
import os
import glob

# Seconds per unit of google-benchmark's time_unit.
_TIME_UNIT_S = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}

# Fields of a benchmark entry that are descriptions, not measurements.
_NON_METRIC_KEYS = {
    "name", "run_name", "run_type", "repetitions", "repetition_index",
    "threads", "family_index", "per_family_instance_index", "aggregate_name",
    "aggregate_unit", "time_unit", "label", "error_occurred", "error_message",
}


class Entry:
    """One results file: a workload variant of one impl on one dataset."""

    def __init__(self, path, meta, data):
        self.path = path
        self.meta = meta            # from index.json (may be partial)
        self.context = data.get("context", {})
        self.raw = data
        ctx = self.context
        self.impl = meta.get("impl") or ctx.get("impl") or "?"
        self.workload = meta.get("workload") or ctx.get("workload") or _first_workload(data) or "?"
        self.variant = meta.get("variant") or self.workload
        self.dataset = meta.get("dataset") or _dataset_label(ctx.get("dataset", ""))
        self.kind = meta.get("kind") or _guess_kind(self.dataset)
        self.scale = _float_or_none(meta.get("scale"))
        self.clients = _int_or_none(meta.get("clients"))
        self.mode = meta.get("mode")
        self.allocator = meta.get("allocator") or ctx.get("allocator") or "?"
        self.source = meta.get("source", "harness")   # harness | micro | hyperfine
        self.hyperfine = meta.get("hyperfine")

    @property
    def key(self):
        """Identity of the measurement, independent of impl and allocator."""
        return (self.dataset, self.variant)

    def label(self):
        return "%s %s" % (self.dataset, self.variant) if self.dataset else self.variant


class Sample:
    """One repetition of one benchmark (phase) of one entry."""
    __slots__ = ("entry", "name", "rep", "metrics")

    def __init__(self, entry, name, rep, metrics):
        self.entry = entry
        self.name = name
        self.rep = rep
        self.metrics = metrics

    @property
    def phase(self):
        return self.name.split("/", 1)[1] if "/" in self.name else self.name


class ResultSet:
    def __init__(self, root, entries, env, index):
        self.root = root
        self.entries = entries
        self.env = env
        self.index = index
        self.samples = [s for e in entries for s in samples_of(e)]

    def impls(self):
        return _ordered(e.impl for e in self.entries)

    def harness_entries(self):
        return [e for e in self.entries if e.source == "harness"]

    def micro_entries(self):
        return [e for e in self.entries if e.source == "micro"]


def _ordered(values):
    """Impls in the order the suite ran them (plain first, as index order)."""
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return seen


def _first_workload(data):
    for b in data.get("benchmarks", []):
        name = b.get("run_name") or b.get("name", "")
        if "/" in name:
            return name.split("/", 1)[0]
    return None


def _dataset_label(path):
    if not path:
        return ""
    base = os.path.basename(path)
    for ext in (".ovsdb", ".db"):
        if base.endswith(ext):
            base = base[: -len(ext)]
    return base


def _guess_kind(label):
    low = (label or "").lower()
    if low.startswith("nb") or "northbound" in low or "-nb" in low:
        return "NB"
    if low.startswith("sb") or "southbound" in low or "-sb" in low:
        return "SB"
    return ""


def _float_or_none(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def _int_or_none(v):
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def read_json(path):
    with open(path) as f:
        return json.load(f)


def _source_of(data):
    """harness or micro: micro-benchmark files say workload 'micro' or none."""
    wl = data.get("context", {}).get("workload")
    return "harness" if wl and wl != "micro" else "micro"


def samples_of(entry):
    """Iteration entries as Samples, times converted to seconds.

    google-benchmark writes aggregates next to iterations; they are recomputed
    from the iterations here, so only iterations are read.  A file that holds
    only aggregates (rare) contributes its median as a single sample."""
    benches = entry.raw.get("benchmarks", [])
    iters = [b for b in benches if b.get("run_type", "iteration") == "iteration"]
    if not iters:
        iters = [b for b in benches if b.get("aggregate_name") == "median"]
    out = []
    for b in iters:
        if b.get("error_occurred"):
            continue
        name = b.get("run_name") or b.get("name")
        unit = _TIME_UNIT_S.get(b.get("time_unit", "ns"), 1e-9)
        metrics = {}
        for k, v in b.items():
            if k in _NON_METRIC_KEYS or isinstance(v, bool) or not isinstance(v, (int, float)):
                continue
            if k in ("real_time", "cpu_time"):
                v = v * unit
            metrics[k] = float(v)
        if entry.source == "micro":
            # Micro-benchmark times are per iteration; keep them so.
            pass
        out.append(Sample(entry, name, int(b.get("repetition_index", 0)), metrics))
    return out


def load(root):
    """A results folder (with or without index.json) or a single JSON file."""
    if os.path.isfile(root):
        data = read_json(root)
        e = Entry(root, {"source": _source_of(data)}, data)
        return ResultSet(os.path.dirname(root) or ".", [e], {}, [])
    index_path = os.path.join(root, "index.json")
    env_path = os.path.join(root, "env.json")
    env = read_json(env_path) if os.path.exists(env_path) else {}
    entries = []
    index = []
    if os.path.exists(index_path):
        index = read_json(index_path).get("entries", [])
        for meta in index:
            path = os.path.join(root, meta["file"])
            if not os.path.exists(path):
                continue
            entries.append(Entry(path, meta, read_json(path)))
    else:
        for path in sorted(glob.glob(os.path.join(root, "**", "*.json"), recursive=True)):
            try:
                data = read_json(path)
            except (OSError, ValueError):
                continue
            if not isinstance(data, dict) or "benchmarks" not in data:
                continue
            entries.append(Entry(path, {"source": _source_of(data)}, data))
    return ResultSet(root, entries, env, index)
