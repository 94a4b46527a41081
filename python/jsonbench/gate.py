"""Regression gate: deterministic figures of this build vs baselines/gate.json.

Measured on tiny generated datasets (seeded, so byte-identical everywhere):
  - allocation calls and bytes per harness phase (counting allocator),
    heap bytes after load (mallinfo2 / jemalloc stats), per impl;
  - allocation calls and bytes of one operation per micro-benchmark;
  - valgrind instruction counts (cachegrind, total Ir) of small workloads,
    and (callgrind, inclusive Ir of one run) of a few micro-benchmarks.
Each metric has a threshold (percent increase allowed); exceeding one fails.
Calibration (jsonbench.gatecal): the model's serialized impl and the
installed real OVS (ovsdb-tool) load and compact the same tiny datasets
under valgrind; the model/real ratios of instructions, malloc calls and
peak heap are gated against the baseline's (a ratio drifting away from 1.0
fails; with different real binaries they are only shown).
Timings are only reported; they are gated with --timings, which also needs
timing samples in the baseline, measured in the same setup (the measuring
setup, or --as-deployed: docs/noise.md), and uses a Mann-Whitney U test.

--series gates an OVS patch series instead (base vs base+patches on the
real server's deterministic figures; scripts/gate.sh --series --help).

Exit status: 0 within thresholds, 1 regression, 2 baseline not comparable
(different datasets: refresh it on purpose), 3 usage or measurement error.

Instruction counts depend on the compiler and build options: the baseline
records them, and when they differ the instruction metrics are reported as
not comparable instead of as regressions.  Produce the baseline with the
release build in build/ that scripts/test.sh makes (what CI runs)."""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from . import ROOT, build, gatecal, gateseries, gatetable, gbench, measuring
from .detjobs import DATASETS, MeasureError, Scratch, det_job, make_datasets  # noqa: F401
from .env import build_options, git_short_commit
from .util import sha256_of

BASELINE = os.path.join(ROOT, "baselines", "gate.json")

# (label, dataset, workload, extra options, measured under valgrind too)
WORKLOADS = [
    ("load", "nb", "load", [], True),
    ("load", "sb", "load", [], True),
    ("dump", "nb", "dump", [], True),
    ("compact", "nb-log", "compact", [], True),
    ("monitor-tree", "nb", "monitor", ["--table", "Logical_Switch_Port", "--clients", "2",
                                       "--batches", "2", "--mode", "tree"], False),
    ("monitor-direct", "nb", "monitor", ["--table", "Logical_Switch_Port", "--clients", "2",
                                         "--batches", "2", "--mode", "direct"], False),
    ("monitor-cache", "sb", "monitor", ["--clients", "2", "--batches", "2", "--mode", "cache"],
     False),
    ("txn", "nb", "txn", ["--clients", "2", "--txns", "50"], False),
    ("raft-tree", "nb", "raft", ["--entries", "20", "--followers", "2", "--mode", "tree"], False),
    ("raft-serialized", "nb", "raft", ["--entries", "20", "--followers", "2",
                                       "--mode", "serialized"], False),
]
# A few micro-benchmarks on small documents: allocations of one operation.
MICRO_FILTER = "^(parse|serialize|clone|deep_clone|destroy)/(nb_rows|sb_flows)/small$"

# Micro-benchmarks whose instructions are counted: with --benchmark_min_time=0
# google-benchmark runs each once (one batch), so the count is deterministic;
# the metric is the inclusive Ir of bench_<op> (callgrind call graph), which
# leaves out process start-up and document generation.
MICRO_IR_OPS = ["parse", "serialize", "deep_clone", "destroy"]
MICRO_IR_DOC = "nb_rows/small"

# Percent increase allowed, by metric (the part after ':' in a metric name).
THRESHOLDS = {
    "instructions": 1.0,
    "alloc_calls": 0.5,
    "alloc_bytes": 0.5,
    "heap_allocated_bytes": 0.5,
    "cpu_time": 5.0,          # only with --timings
}
THRESHOLDS.update(gatecal.THRESHOLDS)
# Metrics from the harness, per phase.
PHASE_METRICS = ["alloc_calls", "alloc_bytes"]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- measuring

def build_facts(build_dir, ctx):
    """What instruction counts depend on."""
    opts = build_options(build_dir)
    return {
        "compiler": ctx.get("compiler") or opts.get("compiler", ""),
        "cflags": ctx.get("cflags", ""),
        "build_type": ctx.get("build_type") or opts.get("buildtype", ""),
        "b_lto": str(opts.get("b_lto", "")),
        "b_sanitize": str(opts.get("b_sanitize", "none")),
        "allocator": ctx.get("allocator") or opts.get("allocator", ""),
    }


def sanitized(facts):
    return facts.get("b_sanitize", "none") not in ("none", "", "None") or \
        "-fsanitize" in facts.get("cflags", "")


PARTS = ("harness", "micro", "calibration")


def harness_jobs(harness, data, valgrind, timings=0):
    """[(job, runs)] of the harness workloads: natively (allocations,
    heap; 'timings' more runs for CPU time samples) or, valgrind=True,
    the instructions of those measured under valgrind too."""
    out = []
    for impl, exe in harness.items():
        for label, ds, wl, opts, under_vg in WORKLOADS:
            if ds not in data or (valgrind and not under_vg):
                continue
            where = "%s/%s/%s" % (impl, ds, label)
            cmd = build.harness_cmd(exe, wl, data[ds], opts, seed=1,
                                    results=None if valgrind else "__RESULTS__",
                                    output="__OUT__", sha256=False)
            if valgrind:
                out.append((det_job("cachegrind", impl, label, ds, data[ds], cmd,
                                    where + " (valgrind)", wl), 1))
                continue
            out.append((det_job("native", impl, label, ds, data[ds], cmd, where, wl), 1))
            if timings:
                out.append((det_job("cpu", impl, label, ds, data[ds], cmd, where, wl), timings))
    return out


def micro_jobs(micro, valgrind):
    """[(job, 1)] of the micro-benchmarks: allocations of one operation or,
    valgrind=True, the instructions of one invocation of bench_<op>."""
    out = []
    for impl, exe in micro.items():
        if valgrind:
            flt = "^(%s)/%s$" % ("|".join(MICRO_IR_OPS), MICRO_IR_DOC)
            cmd = [exe, "--benchmark_filter=" + flt, "--benchmark_min_time=0"]
            out.append((det_job("callgrind", impl, "micro", "small", "", cmd,
                                "micro %s (valgrind)" % impl), 1))
        else:
            cmd = [exe, "--benchmark_filter=" + MICRO_FILTER, "--benchmark_min_time=0.001",
                   "--benchmark_format=json", "--benchmark_out=__RESULTS__",
                   "--benchmark_out_format=json"]
            out.append((det_job("native", impl, "micro", "small", "", cmd,
                                "micro %s" % impl), 1))
    return out


def harness_metrics(job, doc, metrics):
    """The metrics of one native harness run, into 'metrics'."""
    for b in gbench.iterations(doc):
        phase = b["name"].split("/", 1)[-1]
        if phase == "free":
            continue
        for m in PHASE_METRICS:
            if m in b:
                metrics["%s/%s:%s" % (job.key, phase, m)] = b[m]
        if job.workload == "load" and phase == "load" and "heap_allocated_bytes" in b:
            metrics["%s/%s:heap_allocated_bytes" % (job.key, phase)] = b["heap_allocated_bytes"]


def collect(jobs, done, metrics, timings, unavailable):
    """Metrics, timing samples and what could not be measured, from the
    outcome of the harness and micro jobs."""
    for j, _runs in jobs:
        doc, err = done[j.name]
        if doc is None:
            if j.mode != "cpu":
                unavailable.append("%s: %s" % (j.key, err.splitlines()[-1] if err else "?"))
            continue
        impl = j.impl
        if j.mode == "cpu":
            timings["%s:cpu_time" % j.key] = doc["samples"]
        elif j.mode == "cachegrind":
            metrics["%s:instructions" % j.key.split(" ")[0]] = doc["figures"]["instructions"]
        elif j.mode == "callgrind":
            incl = doc["figures"]
            for op in MICRO_IR_OPS:
                if "bench_" + op in incl:
                    metrics["%s/micro/%s/%s:instructions" % (impl, op, MICRO_IR_DOC)] = \
                        incl["bench_" + op]
        elif j.variant == "micro":
            for b in gbench.iterations(doc):
                for m in ("alloc_calls", "alloc_bytes"):
                    if m in b:
                        metrics["%s/micro/%s:%s" % (impl, b["name"], m)] = b[m]
        else:
            harness_metrics(j, doc, metrics)


def plan(args):
    """What a run measures: {"harness": {impl: exe}, "micro": {impl: exe},
    "workloads": ["dataset/label", ...], "datasets": [name, ...]}.  Every impl the
    build defines (meson introspection), unless --impls narrows it or
    --harness/--micro-harness name executables; raises MeasureError when one is
    not built, rather than leaving an impl out."""
    build_dir = build.build_path(args.build_dir)
    harness = dict(h.split("=", 1) for h in args.harness or [])
    micro = dict(m.split("=", 1) for m in args.micro or [])
    try:
        if not harness:
            harness = build.impls(build_dir)
        if not micro and "micro" in args.only:
            micro = {k: v for k, v in build.impls(build_dir, "micro").items() if k in harness}
    except build.BuildError as exc:
        raise MeasureError(str(exc))
    if "micro" not in args.only:
        micro = {}
    if args.impls:
        keep = args.impls.split(",")
        unknown = [k for k in keep if k not in harness]
        if unknown:
            raise MeasureError("--impls %s: not defined by the build (it has %s)"
                               % (",".join(unknown), ",".join(harness)))
        harness = {k: v for k, v in harness.items() if k in keep}
        micro = {k: v for k, v in micro.items() if k in keep}
    if not harness:
        raise MeasureError("no harness executables in %s" % build_dir)
    # Calibration needs the serialized model: measured with the impls (or
    # named by --calibration-harness), else left out.
    cal = None
    if "calibration" in args.only:
        cal_exe = args.calibration_harness or harness.get(gatecal.MODEL_IMPL)
        if cal_exe:
            cal = {"impl": gatecal.MODEL_IMPL, "exe": cal_exe,
                   "real": args.real_ovsdb_tool or "ovsdb-tool"}
    return {"build_dir": build_dir, "harness": harness, "micro": micro,
            "workloads": ["%s/%s" % (w[1], w[0]) for w in WORKLOADS],
            "datasets": [d[0] for d in DATASETS], "calibration": cal}


def measure(args):
    """The gate's study: job lists (harness and micro-benchmark processes,
    natively then under valgrind, and the calibration's) run by the one
    execute loop into a scratch results folder, read back as metrics."""
    p = plan(args)
    build_dir, harness, micro = p["build_dir"], p["harness"], p["micro"]
    if "harness" not in args.only:
        harness = {}
    missing = build.unbuilt(harness) + ["micro " + i for i in build.unbuilt(micro)]
    if missing:
        raise MeasureError("not built in %s: %s (run ninja)" % (build_dir, ", ".join(missing)))
    data = make_datasets(build_dir, args.data_dir or os.path.join(build_dir, "gate-data"))
    if not data:
        raise MeasureError("no gate dataset could be generated")
    metrics, timings, unavailable = {}, {}, []
    use_valgrind = not args.no_valgrind and shutil.which("valgrind")
    say = log if args.verbose else None
    t0 = time.time()
    setup = measuring.Setup.from_args(args)
    if args.timings:
        log("gate: timings in the %s" % setup.summary())
    with tempfile.TemporaryDirectory(prefix="jsonbench-gate-") as tmp:
        native = harness_jobs(harness, data, False, args.repetitions if args.timings else 0) + \
            micro_jobs(micro, False)
        scratch = Scratch(tmp, say, setup)
        done = scratch.run(native)
        collect(native, done, metrics, timings, unavailable)
        ctx = next((done[j.name][0].get("context", {}) for j, _r in native
                    if j.mode == "native" and j.variant != "micro" and done[j.name][0]), {})
        facts = build_facts(build_dir, ctx)
        if use_valgrind and sanitized(facts):
            log("gate: sanitizer build: valgrind instruction counts skipped")
            use_valgrind = False
        cal_jobs, calibration = [], None
        if p["calibration"] is None:
            calibration = {"skipped": "--parts leaves it out" if "calibration" not in args.only
                           else "impl %s not measured (--impls; or --calibration-harness EXE)"
                           % gatecal.MODEL_IMPL}
        elif not use_valgrind:
            calibration = {"skipped": "valgrind off (not installed, --no-valgrind or a "
                                      "sanitizer build)"}
        else:
            heap = facts.get("allocator") in ("glibc", "") and not sanitized(facts)
            cal = gatecal.plan(p["calibration"]["exe"], data, tmp, heap,
                               real_program=args.real_ovsdb_tool, log=log)
            if "skipped" in cal:
                calibration = cal
            else:
                cal_jobs = cal["jobs"]
        vg = (harness_jobs(harness, data, True) + micro_jobs(micro, True)) if use_valgrind \
            else []
        done = scratch.run(vg + [(j, 1) for j in cal_jobs])
        collect(vg, done, metrics, timings, unavailable)
        if cal_jobs:
            calibration = gatecal.result(cal, done, commit=git_short_commit(ROOT))
        if "skipped" in calibration:
            log("gate: calibration skipped: %s" % calibration["skipped"])
    facts["valgrind"] = subprocess.run(["valgrind", "--version"], stdout=subprocess.PIPE,
                                       text=True).stdout.strip() if use_valgrind else ""
    return {
        "meta": dict(facts, datasets={k: sha256_of(v) for k, v in data.items()},
                     instructions_measured=bool(use_valgrind),
                     calibration_only=set(args.only) == {"calibration"},
                     timing_setup=setup.name,
                     seconds=round(time.time() - t0, 1)),
        "calibration": calibration,
        "metrics": metrics,
        "timings": timings,
        "unavailable": unavailable,
    }


# ---------------------------------------------------------------- checking

def metric_kind(name):
    return name.rsplit(":", 1)[-1]


def threshold_for(name, thresholds):
    """Most specific first: full name, then '<impl>/...' prefix, then kind."""
    for key in sorted(thresholds, key=len, reverse=True):
        if key == name or (key.endswith("*") and name.startswith(key[:-1])):
            return thresholds[key]
    return thresholds.get(metric_kind(name))


def comparable(bm, cm):
    """(instructions comparable, heap comparable, build facts that differ)
    of two measurements' meta."""
    keys = ("compiler", "build_type", "b_lto", "allocator", "cflags")
    diff = [k for k in keys if bm.get(k, "") != cm.get(k, "")]
    heap_ok = bm.get("allocator") == cm.get("allocator") and \
        sanitized(bm) == sanitized(cm)
    return not diff, heap_ok, diff


def compare(base, cur, thresholds, gate_timings=False, alpha=0.05):
    """-> (status, rows, notes); rows: [name, base, cur, change%, limit%, verdict]."""
    notes, rows = [], []
    bm, cm = base.get("meta", {}), cur.get("meta", {})
    common_ds = set(bm.get("datasets", {})) & set(cm.get("datasets", {}))
    stale = [d for d in common_ds if bm["datasets"][d] != cm["datasets"][d]]
    if stale:
        notes.append("datasets differ from the baseline's (%s): the generator or its "
                     "profiles changed.  Nothing is comparable; refresh the baseline on "
                     "purpose: scripts/gate.sh --update-baseline" % ", ".join(sorted(stale)))
        return 2, rows, notes
    ir_ok, heap_ok, diff = comparable(bm, cm)
    if diff:
        notes.append("instruction counts NOT compared: the build differs from the "
                     "baseline's (%s).  Instruction counts depend on compiler and "
                     "options; build as scripts/test.sh does (release, build/) or "
                     "refresh the baseline." % "; ".join(
                         "%s: baseline %r, now %r" % (k, bm.get(k, ""), cm.get(k, "")) for k in diff))
    if not heap_ok:
        notes.append("heap bytes NOT compared: allocator or sanitizer differs from the baseline.")
    if not cm.get("instructions_measured"):
        notes.append("instruction counts not measured in this run (no valgrind, "
                     "--no-valgrind, or a sanitizer build).")
    status = 0
    b_metrics, c_metrics = base.get("metrics", {}), cur.get("metrics", {})
    for name in sorted(set(b_metrics) | set(c_metrics)):
        kind = metric_kind(name)
        if kind == "instructions" and (not ir_ok or not cm.get("instructions_measured")):
            continue
        if kind == "heap_allocated_bytes" and not heap_ok:
            continue
        b, c = b_metrics.get(name), c_metrics.get(name)
        if b is None:
            rows.append([name, "-", fmt(c), "", "", "new (not in baseline)"])
            continue
        if c is None:
            rows.append([name, fmt(b), "-", "", "", "missing in this run"])
            continue
        limit = threshold_for(name, thresholds)
        change = (c - b) / b * 100.0 if b else (0.0 if c == b else float("inf"))
        verdict, regressed = gatetable.judge(
            change, limit, "improved (refresh the baseline to keep it)")
        if regressed:
            status = 1
        rows.append([name, fmt(b), fmt(c)] + gatetable.change_cells(change, limit)
                    + [verdict])
    bt, ct = base.get("timings", {}), cur.get("timings", {})
    # A baseline from before the setup was recorded timed as deployed.
    b_setup, c_setup = (m.get("timing_setup", "as-deployed") for m in (bm, cm))
    if bt and ct and b_setup != c_setup:
        notes.append("timings NOT gated: measured in the %s setup, the baseline's in the %s "
                     "setup (--as-deployed picks one; docs/noise.md)" % (c_setup, b_setup))
    for name in sorted(set(bt) & set(ct)):
        a, c = bt[name], ct[name]
        if not a or not c:
            continue
        ma, mc = statistics.median(a), statistics.median(c)
        change = (mc - ma) / ma * 100.0 if ma else 0.0
        limit = threshold_for(name, thresholds)
        verdict = "reported only (gate it with --timings)"
        if b_setup != c_setup:
            verdict = "not gated: another setup than the baseline's"
        elif gate_timings:
            try:
                from scipy.stats import mannwhitneyu
                p = float(mannwhitneyu(a, c, alternative="less").pvalue)
            except ImportError:
                p = None
                verdict = "not gated: scipy missing (use /usr/bin/python3)"
            if p is not None:
                if p < alpha and limit is not None and change > limit:
                    verdict, status = "REGRESSION (p=%.3g)" % p, 1
                else:
                    verdict = "ok (p=%.3g)" % p
        rows.append([name, "%.3g ms" % ma, "%.3g ms" % mc]
                    + gatetable.change_cells(change, limit) + [verdict])
    return status, rows, notes


def fmt(v):
    if v is None:
        return "-"
    return "{:,}".format(int(v)) if float(v).is_integer() else "%.6g" % v


def print_table(rows, only_interesting):
    show = [r for r in rows if not (only_interesting and r[5] == "ok")]
    if not show:
        return
    headers = ["metric (impl/dataset/workload/phase:metric)", "baseline", "now",
               "change", "limit", "verdict"]
    gatetable.write_table(sys.stdout, headers, show, (0, 5))


# ---------------------------------------------------------------- main

EXAMPLES = """examples:
  scripts/gate.sh                              check build/ against the baseline
  scripts/gate.sh --update-baseline            refresh baselines/gate.json on purpose
  scripts/gate.sh --parts calibration          only the model-vs-real calibration
  scripts/gate.sh --impls ovs --out-file now.json   measure, write now.json, no check
  scripts/gate.sh --current now.json           check a measurement file
  scripts/gate.sh --series --help              gate an OVS patch series"""


def parse_args(argv):
    from . import options as O
    ap = argparse.ArgumentParser(prog=O.prog("gate"), description=__doc__.split("\n\n")[0],
                                 epilog=EXAMPLES + "\n\n" + [
                                     x for x in __doc__.split("\n\n")
                                     if x.startswith("Exit status")][0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    O.build_dir(ap, "meson build dir to measure")
    ap.add_argument("--baseline", default=BASELINE, help="default baselines/gate.json")
    ap.add_argument("--update-baseline", action="store_true",
                    help="measure and write the baseline instead of checking (with "
                         "--parts calibration: refresh only the baseline's calibration)")
    O.out_file(ap, "measure, write the figures to FILE, no check")
    ap.add_argument("--current", metavar="FILE",
                    help="check this measurement file instead of measuring")
    ap.add_argument("--threshold", action="append", default=[], metavar="METRIC=PCT",
                    help="override a threshold, e.g. instructions=2 or "
                         "'ovs/nb/load*=3' (repeatable)")
    ap.add_argument("--timings", action="store_true",
                    help="also gate CPU time (Mann-Whitney U, needs scipy and timing "
                         "samples in the baseline)")
    O.repetitions(ap, "CPU time samples per workload with --timings")
    O.as_deployed(ap)
    ap.add_argument("--parts", dest="only", default=",".join(PARTS), metavar="PART,...",
                    help="measure and check only these of %s (default all; calibration "
                         "alone takes about 20 s of CPU)" % ",".join(PARTS))
    ap.add_argument("--impls", help="comma list (default: every impl the build defines)")
    ap.add_argument("--harness", action="append", metavar="IMPL=EXE",
                    help="measure this executable as IMPL (repeatable; tests use it)")
    ap.add_argument("--micro-harness", dest="micro", action="append", metavar="IMPL=EXE",
                    help="the same for a micro-benchmark executable")
    ap.add_argument("--no-valgrind", action="store_true", help="no instruction counts")
    ap.add_argument("--calibration-harness", metavar="EXE",
                    help="the model executable calibrated against real OVS "
                         "(default: the build's jsonbench-serialized when it is measured)")
    ap.add_argument("--real-ovsdb-tool", metavar="PATH",
                    help="the real ovsdb-tool (default: ovsdb-tool on PATH, Debian's 3.1)")
    ap.add_argument("--data-dir", help="where the tiny datasets go (default <build>/gate-data)")
    ap.add_argument("--verbose", "-v", action="store_true",
                    help="print every metric and every process")
    O.dry_run(ap, "print the plan (impls and their executables, workloads, datasets) as "
                  "JSON and stop")
    args = ap.parse_args(argv)
    args.only = [x for x in args.only.split(",") if x]
    if not args.only or any(x not in PARTS for x in args.only):
        ap.error("--parts: expected some of %s" % ",".join(PARTS))
    if args.repetitions < 1:
        ap.error("--repetitions must be >= 1")
    return args


def main(argv):
    if "--series" in argv:
        # The gate for an OVS patch series: base vs base+patches on the
        # real server's figures (jsonbench.gateseries, docs/patches.md).
        return gateseries.main([a for a in argv if a != "--series"])
    args = parse_args(argv)
    try:
        if args.dry_run:
            json.dump(plan(args), sys.stdout, indent=1)
            sys.stdout.write("\n")
            return 0
        if args.current:
            cur = gbench.read(args.current)
        else:
            log("gate: measuring %s (tiny datasets; valgrind %s)" % (
                os.path.relpath(os.path.abspath(args.build_dir), ROOT),
                "off" if args.no_valgrind else "on"))
            if args.update_baseline:
                args.timings = True   # keep timing samples for a later --timings gate
            cur = measure(args)
            log("gate: %d metrics, %d calibration ratios in %.0f s" % (
                len(cur["metrics"]), len((cur.get("calibration") or {}).get("ratios", {})),
                cur["meta"]["seconds"]))
    except MeasureError as exc:
        log("gate: %s" % exc)
        return 3
    for u in cur.get("unavailable", []):
        log("gate: not measured: %s" % u)
    if args.out:
        gbench.write_atomic(args.out, cur)
        return 0
    if args.update_baseline:
        old = gbench.read(args.baseline) if os.path.exists(args.baseline) else {}
        if cur["meta"].get("calibration_only"):
            # Only the calibration part: the other metrics stay as they are.
            if not old.get("metrics"):
                log("gate: --parts calibration refreshes the calibration of an existing "
                    "baseline; %s has none: run --update-baseline alone" % args.baseline)
                return 3
            old["calibration"] = cur["calibration"]
            cur = old
        cur["thresholds"] = dict(THRESHOLDS, **old.get("thresholds", {}))
        os.makedirs(os.path.dirname(args.baseline), exist_ok=True)
        gbench.write_atomic(args.baseline, cur)
        log("gate: baseline written to %s (%d metrics); commit it with the change "
            "that explains it" % (os.path.relpath(args.baseline, ROOT), len(cur["metrics"])))
        return 0
    if not os.path.exists(args.baseline):
        log("gate: no baseline %s; create one with scripts/gate.sh --update-baseline" % args.baseline)
        return 2
    base = gbench.read(args.baseline)
    thresholds = dict(THRESHOLDS)
    thresholds.update(base.get("thresholds", {}))
    for t in args.threshold:
        k, _, v = t.partition("=")
        thresholds[k] = float(v)
    if cur.get("meta", {}).get("calibration_only"):
        status, rows, notes = 0, [], []
    else:
        status, rows, notes = compare(base, cur, thresholds, args.timings)
    for n in notes:
        print("note: " + n)
    print_table(rows, only_interesting=not args.verbose)
    ir_ok, heap_ok, _diff = comparable(base.get("meta", {}), cur.get("meta", {}))
    cal_status, cal_rows, cal_notes = gatecal.compare(
        base.get("calibration"), cur.get("calibration"), thresholds, ir_ok, heap_ok)
    if status != 2:
        gatecal.print_table(cur.get("calibration"), cal_rows, cal_notes, sys.stdout)
        status = max(status, cal_status)
    n_drift = sum(1 for r in cal_rows if r[7].startswith("DRIFT") and
                  not r[7].endswith("(not gated)"))
    n_reg = sum(1 for r in rows if r[5].startswith("REGRESSION"))
    n_ok = sum(1 for r in rows if r[5] == "ok")
    if status == 1:
        print("gate: FAILED: %d regression(s) and %d calibration drift(s) beyond thresholds "
              "(%d metrics within)" % (n_reg, n_drift, n_ok))
    elif status == 2:
        print("gate: baseline not comparable")
    else:
        print("gate: passed: %d metrics and %d calibration ratios within thresholds"
              % (n_ok, sum(1 for r in cal_rows if r[7] == "ok")))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
