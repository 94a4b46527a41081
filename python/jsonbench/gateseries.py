"""The regression gate for an OVS patch series (scripts/gate.sh --series).

    scripts/gate.sh --series --ovs-tree DIR --series-base REF --ovs-patch SERIES

builds REF and REF+SERIES of the OVS tree (realovs/build.py, cached), and
measures both real builds on the gate's tiny datasets with deterministic
valgrind figures only (the real side of jsonbench.gatecal):

  load     ovsdb-tool query DB '["<db>"]': ovsdb_file_read(), the path
           ovsdb-server opens a database by, then an empty transaction;
           net of the same command on an empty database of the schema
  dump     ovsdb-tool query DB with a select of every table (what
           ovsdb-client dump asks the server for: every row turned into
           JSON and serialized); net of load on the same database, so it
           is the dump's own work
  compact  ovsdb-tool compact DB OUT; net of the same on an empty database

  instructions     cachegrind's total Ir
  alloc_blocks     malloc calls (DHAT's total blocks)
  peak_heap_bytes  DHAT's peak of live heap (the whole process)

A figure of the patched build above the base's by more than its threshold
(percent; THRESHOLDS, --threshold FIGURE=PCT or DATASET/WORKLOAD:FIGURE=PCT)
fails the gate: exit 1, naming the figures.  Exit 0 within the
thresholds; 3 when a build fails, a patch does not apply or measuring
fails.  No wall-clock figure is involved: the real server's instruction
counts vary by about 0.1% run to run (hash seeds), its malloc calls and
heap not at all.  docs/patches.md has the recipe for a CI job."""

import argparse
import datetime
import os
import shutil
import sys
import tempfile

from . import gatecal, gatetable, gbench, options as O
from .detjobs import MeasureError, Scratch, make_datasets
from .realovs import build as rbuild
from .realovs import specs as rspecs
from .realovs.targets import add_patch_args
from .realovs.toolfigures import (JOBS, build_figures, jobs, measure_tool,  # noqa: F401
                                  select_all)

FIGURES = ["instructions", "alloc_blocks", "peak_heap_bytes"]
# Percent increase allowed (patched against base).
# Keys: a figure, WORKLOAD:FIGURE or DATASET/WORKLOAD:FIGURE (the most
# specific wins).  The dump's reply lists rows in an order that changes
# from run to run (OVS's hash maps), which moves its peak heap by up to
# 0.7% and its instructions by up to 0.5% between two runs of one binary.
THRESHOLDS = {"instructions": 1.0, "alloc_blocks": 0.5,
              "peak_heap_bytes": 0.5, "dump:peak_heap_bytes": 2.0}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class SeriesError(Exception):
    pass


# ---------------------------------------------------------------- measuring

# ---------------------------------------------------------------- checking

def threshold_for(key, thresholds):
    """The full key (nb/dump:instructions), then the workload's
    (dump:instructions), then the figure's (instructions)."""
    where, fig = key.rsplit(":", 1)
    for k in (key, "%s:%s" % (where.split("/")[-1], fig), fig):
        if k in thresholds:
            return thresholds[k]
    return None


def _sort_key(key):
    return gatetable.sort_key(key, ["%s/%s" % j for j in JOBS], FIGURES)


def compare(base, patched, thresholds):
    """-> (status, rows); rows: [figure, base, patched, change, limit,
    verdict]; status 1 when a figure of the patched build exceeds the
    base's by more than its threshold."""
    status, rows = 0, []
    for key in sorted(set(base) | set(patched), key=_sort_key):
        b, p = base.get(key), patched.get(key)
        if b is None or p is None:
            rows.append([key, gatetable.count(b), gatetable.count(p), "", "",
                         "missing in the %s build" % ("base" if b is None
                                                      else "patched")])
            continue
        limit = threshold_for(key, thresholds)
        if b > 0:
            change = (p - b) / b * 100.0
        else:
            change = 0.0 if p == b else float("inf") if p > b \
                else float("-inf")
        verdict, regressed = gatetable.judge(change, limit)
        if regressed:
            status = 1
        rows.append([key, gatetable.count(b), gatetable.count(p)]
                    + gatetable.change_cells(change, limit) + [verdict])
    return status, rows


def print_table(rows, out=sys.stdout):
    headers = ["figure (dataset/workload:figure)", "base", "patched",
               "change", "limit", "verdict"]
    gatetable.write_table(out, headers, rows, (0, 5))


def summary(status, rows):
    bad = [r for r in rows if r[5] == "REGRESSION"]
    if status:
        return "gate --series: FAILED: %s" % "; ".join(
            "%s %s (limit %s)" % (r[0], r[3], r[4]) for r in bad)
    return "gate --series: passed: %d figures within thresholds" % sum(
        1 for r in rows if r[5] in ("ok", "improved"))


# ---------------------------------------------------------------- main

def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog=O.prog("gate") + " --series",
        description=__doc__.split("\n\n")[0],
        epilog="examples:\n"
               "  scripts/gate.sh --series --ovs-tree ~/ovs --series-base v3.7.1 "
               "--ovs-patch patches/ovs/copy-trim\n"
               "  scripts/gate.sh --series ... --cases nb/dump --threshold instructions=2\n\n"
               + __doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    O.ovs_tree(ap, required=True)
    ap.add_argument("--series-base", dest="ovs_ref", metavar="REF", required=True,
                    help="the base: a commit of --ovs-tree (a target spec "
                    "REF[+PATCH...][@VARIANT], docs/patches.md)")
    add_patch_args(ap, "--ovs-patch", "--ovs-configure")
    O.build_dir(ap, "meson build dir holding datasets/ovsdb-gen")
    O.ovs_cache_dir(ap)
    O.ovs_retry_failed(ap, "targets")
    ap.add_argument("--data-dir", help="where the tiny datasets go "
                    "(default <build>/gate-data)")
    ap.add_argument("--threshold", action="append", default=[],
                    metavar="METRIC=PCT",
                    help="percent increase allowed, e.g. instructions=2, "
                    "dump:instructions=2 or nb/dump:alloc_blocks=1 "
                    "(repeatable; defaults: %s)"
                    % ", ".join("%s %g" % kv for kv in THRESHOLDS.items()))
    ap.add_argument("--cases", dest="only", metavar="DATASET/WORKLOAD,...",
                    help="measure only these of %s" % ",".join(
                        "%s/%s" % j for j in JOBS))
    O.out_file(ap, "also write both builds' figures and verdicts to FILE")
    args = ap.parse_args(argv)
    if not args.ovs_patch:
        ap.error("--ovs-patch is required (the series to gate)")
    args.only = [j for j in (args.only or "").split(",") if j]
    known = ["%s/%s" % j for j in JOBS]
    if any(j not in known for j in args.only):
        ap.error("--cases: expected some of %s" % ",".join(known))
    return args


def build_pair(args):
    """(base, patched) Targets; raises SeriesError naming what failed."""
    try:
        variants = rspecs.parse_variants(args.ovs_configure)
        base_spec = args.ovs_ref
        patched_spec = rspecs.expand_specs([base_spec], args.ovs_patch)[1]
    except rbuild.BuildError as exc:
        raise SeriesError(str(exc))
    out = []
    for spec in (base_spec, patched_spec):
        log("gate --series: building %s" % spec)
        try:
            out.append(rbuild.build_spec(
                args.ovs_tree, spec, variants=variants,
                cache_dir=args.ovs_cache_dir, jobs=2,
                retry_failed=args.ovs_retry_failed,
                say=lambda m: log("gate --series: " + m)))
        except (rbuild.BuildError, FileNotFoundError) as exc:
            raise SeriesError("%s: %s" % (spec, exc))
    return out


def main(argv):
    args = parse_args(argv)
    thresholds = dict(THRESHOLDS)
    for t in args.threshold:
        k, sep, v = t.partition("=")
        try:
            thresholds[k] = float(v)
        except ValueError:
            sep = ""
        if not sep:
            log("gate --series: --threshold %s: expected FIGURE=PCT" % t)
            return 3
    if not shutil.which("valgrind"):
        log("gate --series: valgrind is not installed (scripts/deps.sh)")
        return 3
    data = make_datasets(args.build_dir, args.data_dir or os.path.join(
        args.build_dir, "gate-data"))
    if not data:
        log("gate --series: no gate dataset could be generated (is %s "
            "built?)" % args.build_dir)
        return 3
    try:
        base, patched = build_pair(args)
    except SeriesError as exc:
        log("gate --series: %s" % exc)
        return 3
    figures = {}
    with tempfile.TemporaryDirectory(prefix="jsonbench-gate-series-") as tmp:
        log("gate --series: measuring %s and %s (valgrind, tiny datasets)"
            % (base.name, patched.name))
        try:
            todo = jobs("base", base.path("ovsdb-tool"), data, tmp, args.only) + \
                jobs("patched", patched.path("ovsdb-tool"), data, tmp, args.only)
            done = Scratch(tmp).run([(j, 1) for j in todo])
            for side, t in (("base", base), ("patched", patched)):
                try:
                    figures[side] = build_figures(todo, done, side)
                except gatecal.CalError as exc:
                    log("gate --series: measuring %s failed: %s" % (t.name, exc))
                    return 3
        except (gatecal.CalError, MeasureError, OSError) as exc:
            log("gate --series: measuring failed: %s" % exc)
            return 3
    status, rows = compare(figures["base"], figures["patched"], thresholds)
    print("gate --series: %s -> %s, tiny datasets, valgrind" % (
        base.name, patched.name))
    for p in patched.patches:
        print("  patch %s sha256:%s (%s)" % (
            os.path.basename(p["file"]), p["sha256"][:16],
            "; ".join(p.get("subjects", []))))
    print_table(rows)
    print(summary(status, rows))
    if args.out:
        gbench.write_atomic(args.out, {
            "base": dict(base.context(), name=base.name,
                         figures=figures["base"]),
            "patched": dict(patched.context(), name=patched.name,
                            patches=patched.patches,
                            figures=figures["patched"]),
            "thresholds": thresholds,
            "rows": [dict(zip(["figure", "base", "patched", "change",
                               "limit", "verdict"], r)) for r in rows],
            "status": status,
            "measured_at": datetime.datetime.utcnow().strftime(
                "%Y-%m-%d %H:%M UTC")})
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
