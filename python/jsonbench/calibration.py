"""Model vs real OVS: the ratio model/real per metric on the same dataset.

The report's model-vs-real section and the model's calibration (docs/model.md)
both read these numbers, so they are computed here, once, with the
standard library only:

  load_medians(folder)         {(dataset, variant, impl): {phase: {metric:
                               median}}} of a suite-layout results folder
  load_repetitions(folder)     the same once per repetition, in run order
  load_samples(folder)         every repetition's values, read once; medians()
                               and repetitions() of them are the two above
  results_for(medians, impl)   one impl's or real build's results, keyed
                               {dataset base: {variant: phases}}, with the
                               model's monitor variants of one mode renamed
                               like the real ones (monitor-c<N>)
  ratios(model, real)          rows {dataset, metric, label, unit, model,
                               real, ratio} for every metric both measured
  pairs(models, targets)       which real build each model impl is compared
                               with, and in which role: "calibration" (same
                               JSON representation, same server code era as
                               the model's load path), "reference" (same
                               representation, older server code) or
                               "reference (server era unknown)"
  run_order(env)               whether model and real ran interleaved or
                               grouped (env.json "run_order"), and what that
                               means for the ratios

Metrics (medians over repetitions; times in seconds):
  RSS after load        load/load rss_after_load_bytes (else the dump
                        run's load phase)
  load CPU              load/load cpu_time (else the dump run's load)
  compact wall, CPU     compact: load + compact + free phases (real OVS
                        measures one `ovsdb-tool compact` process, which
                        reads the file, writes the new one and then frees
                        the database with ovsdb_destroy(): the model's
                        three phases)
  compact peak RSS      compact/compact peak_rss_bytes
  dump CPU (server)     dump/dump cpu_time
  raft leader RSS, raft leader CPU
                        raft/send rss_bytes and cpu_time: the leader after
                        and during the inserts (the model's raft runs of
                        one --mode, 'serialized' by default: every real
                        build paired here has 0de882954)
  monitor initial CPU, updates CPU, CPU after load (N clients)
                        server CPU of monitor/initial (the N clients'
                        initial replies) and monitor/updates (the K
                        transact requests and their update2
                        notifications), and cpu_after_load_s = their sum;
                        the model's and the real runner's monitor run the
                        same requests (docs/model.md, "Monitor")
"""

import json
import os
import re
import statistics

_TIME_UNIT_S = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
# The monitor's clients have a condition, and ovsdb-server composes and
# serializes the update for each such client: its json cache serves only
# monitors without one (ovsdb_monitor_get_update()).  The model's 'tree'
# mode is that; 'cache' would be the counterpart of unconditional clients.
DEFAULT_MONITOR_MODE = "tree"
# Raft keeps its log entries serialized since OVS commit 0de882954 (2.17):
# the model's raft --mode serialized; tree is the counterpart of older ones.
DEFAULT_RAFT_MODE = "serialized"
# The server code the model's load path (harness/server/txn.c) was calibrated
# against: today's ovsdb-server (realovs/representation.py).  A build of
# the same representation but older server code, such as Debian 12's
# 3.1.0, spends 9% more instructions loading NB in its commit code (before
# OVS 6f11d9daa and d51d4f42d); compared with the model it measures that
# difference too, so it is a reference, not the calibration.
MODEL_SERVER_ERA = "current"
ROLE_CALIBRATION = "calibration"
ROLE_REFERENCE = "reference"
# A build whose server code era nobody could tell (results made before it
# was recorded, no OVS tree to look its commit up in): not the model's
# calibration until shown to be.
ROLE_UNKNOWN = "reference (server era unknown)"
ROLES = (ROLE_CALIBRATION, ROLE_REFERENCE, ROLE_UNKNOWN)


def _first(*vals):
    for v in vals:
        if v is not None:
            return v
    return None


def _get(variants, variant, phase, key):
    return variants.get(variant, {}).get(phase, {}).get(key)


def _sum(variants, variant, phases, key):
    vals = [_get(variants, variant, p, key) for p in phases]
    vals = [v for v in vals if v is not None]
    return sum(vals) if vals else None


# (metric id, label, unit, read({variant: {phase: {metric: median}}})).
METRICS = [
    ("rss_after_load", "RSS after load", "bytes",
     lambda v: _first(_get(v, "load", "load", "rss_after_load_bytes"),
                      _get(v, "dump", "load", "rss_after_load_bytes"),
                      _get(v, "dump", "load", "rss_bytes"))),
    ("load_cpu", "load CPU", "s",
     lambda v: _first(_get(v, "load", "load", "cpu_time"),
                      _get(v, "dump", "load", "cpu_time"))),
    ("load_peak_rss", "peak RSS (load)", "bytes",
     lambda v: _first(_get(v, "load", "load", "peak_rss_bytes"),
                      _get(v, "dump", "load", "peak_rss_bytes"))),
    ("compact_wall", "compact wall", "s",
     lambda v: _sum(v, "compact", ("load", "compact", "free"), "real_time")),
    ("compact_cpu", "compact CPU", "s",
     lambda v: _sum(v, "compact", ("load", "compact", "free"), "cpu_time")),
    ("compact_peak_rss", "compact peak RSS", "bytes",
     lambda v: _get(v, "compact", "compact", "peak_rss_bytes")),
    ("dump_cpu", "dump CPU (server)", "s",
     lambda v: _get(v, "dump", "dump", "cpu_time")),
    ("raft_leader_rss", "raft leader RSS", "bytes",
     lambda v: _get(v, "raft", "send", "rss_bytes")),
    ("raft_leader_cpu", "raft leader CPU (inserts)", "s",
     lambda v: _get(v, "raft", "send", "cpu_time")),
]
RAFT_VARIANT = re.compile(r"^raft-([a-z]+)$")
MONITOR_VARIANT = re.compile(r"^monitor-(?:([a-z][a-z-]*)-)?c(\d+)$")


def load_samples(folder):
    """{(dataset, variant, impl): {phase: {metric: [value per repetition]}}}
    of a results folder in the suite layout, in the order the repetitions
    ran; times in s."""
    with open(os.path.join(folder, "index.json")) as f:
        index = json.load(f)
    out = {}
    for e in index.get("entries", []):
        if e.get("source", "harness") != "harness":
            continue
        path = os.path.join(folder, e["file"])
        if not os.path.exists(path):
            continue
        with open(path) as f:
            doc = json.load(f)
        samples = {}
        for b in doc.get("benchmarks", []):
            if b.get("run_type", "iteration") != "iteration" or \
                    b.get("error_occurred"):
                continue
            phase = b.get("run_name", b["name"]).split("/", 1)[-1]
            unit = _TIME_UNIT_S.get(b.get("time_unit", "ns"), 1e-9)
            for k, v in b.items():
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    continue
                if k in ("real_time", "cpu_time"):
                    v = v * unit
                samples.setdefault(phase, {}).setdefault(k, []).append(v)
        variant = e.get("variant") or e["workload"]
        if variant == "monitor" and e.get("clients"):
            variant = "monitor-c%d" % e["clients"]     # older real runs
        out[(e["dataset"], variant, e["impl"])] = samples
    return out


def medians(samples):
    """load_samples()'s values as {key: {phase: {metric: median}}}."""
    return {key: {ph: {k: statistics.median(v) for k, v in m.items()}
                  for ph, m in phases.items()}
            for key, phases in samples.items()}


def repetitions(samples):
    """load_samples()'s values as {key: [{phase: {metric: value}} per
    repetition]}, in the order they ran (as many as every metric has)."""
    out = {}
    for key, phases in samples.items():
        n = min((len(v) for m in phases.values() for v in m.values()), default=0)
        out[key] = [{ph: {k: v[i] for k, v in m.items()} for ph, m in phases.items()}
                    for i in range(n)]
    return out


def load_medians(folder):
    """{(dataset, variant, impl): {phase: {metric: median}}} of a results
    folder in the suite layout (index.json + runs/*.json); times in s."""
    return medians(load_samples(folder))


def load_repetitions(folder):
    """load_medians()'s layout once per repetition, in the order they ran,
    for intervals over repetitions."""
    return repetitions(load_samples(folder))


def base_dataset(label):
    """nb-1-log -> nb-1: compaction runs on the log form of a dataset."""
    return label[:-4] if label.endswith("-log") else label


def results_for(medians, impl, monitor_mode=DEFAULT_MONITOR_MODE,
                raft_mode=DEFAULT_RAFT_MODE):
    """{dataset base: {variant: phases}} of one impl or real build.  Model
    monitor variants (monitor-<mode>-c<N>) of 'monitor_mode' become
    monitor-c<N>, and raft variants (raft-<mode>) of 'raft_mode' become
    raft, the real runs' names; other modes are left out."""
    out = {}
    for (ds, variant, who), phases in medians.items():
        if who != impl:
            continue
        m = MONITOR_VARIANT.match(variant)
        if m:
            if m.group(1) and m.group(1) != monitor_mode:
                continue
            variant = "monitor-c%s" % m.group(2)
        m = RAFT_VARIANT.match(variant)
        if m:
            if m.group(1) != raft_mode:
                continue
            variant = "raft"
        out.setdefault(base_dataset(ds), {})[variant] = phases
    return out


def _monitor_cpu(v, variant, phase):
    """Server CPU of one monitor phase: the phase's cpu_time."""
    return _get(v, variant, phase, "cpu_time")


def _monitor_metrics(model_v, real_v):
    """Per client count both ran: monitor initial CPU, updates CPU and CPU
    after load (initial + updates)."""
    counts = sorted({int(MONITOR_VARIANT.match(v).group(2))
                     for v in set(model_v) & set(real_v)
                     if MONITOR_VARIANT.match(v)})
    out = []
    for n in counts:
        var = "monitor-c%d" % n
        out += [
            ("monitor_initial_cpu_c%d" % n,
             "monitor initial CPU (%d clients)" % n, "s",
             lambda v, var=var: _monitor_cpu(v, var, "initial")),
            ("monitor_updates_cpu_c%d" % n,
             "monitor updates CPU (%d clients)" % n, "s",
             lambda v, var=var: _monitor_cpu(v, var, "updates")),
            ("monitor_cpu_c%d" % n,
             "monitor CPU after load (%d clients)" % n, "s",
             lambda v, var=var: _get(v, var, "updates",
                                     "cpu_after_load_s"))]
    return out


def ratios(model_results, real_results):
    """Rows, dataset by dataset in the metric order above, of every metric
    measured on both sides: {"dataset", "metric", "label", "unit",
    "model", "real", "ratio"} with ratio = model / real (None when real is
    zero).  Both arguments are results_for() values."""
    rows = []
    for ds in sorted(set(model_results) & set(real_results)):
        mv, rv = model_results[ds], real_results[ds]
        for mid, label, unit, read in METRICS + _monitor_metrics(mv, rv):
            m, r = read(mv), read(rv)
            if m is None or r is None:
                continue
            rows.append({"dataset": ds, "metric": mid, "label": label,
                         "unit": unit, "model": m, "real": r,
                         "ratio": m / r if r else None})
    return rows


def pair_ratios(medians, model_impl, real_impl,
                monitor_mode=DEFAULT_MONITOR_MODE,
                raft_mode=DEFAULT_RAFT_MODE):
    """ratios() of one model impl and one real build in 'medians'."""
    return ratios(results_for(medians, model_impl, monitor_mode, raft_mode),
                  results_for(medians, real_impl))


def pair_role(target):
    """'calibration' when a real target ({"server_era": ...}) runs the
    server code the model was calibrated against, 'reference' when it runs
    older server code, ROLE_UNKNOWN when its era is unknown."""
    era = target.get("server_era")
    if not era:
        return ROLE_UNKNOWN
    if era != MODEL_SERVER_ERA:
        return ROLE_REFERENCE
    return ROLE_CALIBRATION


def pairs(model_impls, targets, given=None):
    """The model-vs-real pairs of a run: [{"impl", "target", "role",
    "server_era"}].  'targets' are the real builds that ran, [{"name",
    "representation", "server_era"}] in run order; 'given' the explicit
    (impl, target name) pairs (--pair), which are kept as they are and
    only given their role.  Without them each model impl that ran is
    paired with every build of its representation: first the ones of the
    model's server era (the calibration), then the older ones (labelled
    references), then those of unknown era."""
    info = {t["name"]: t for t in targets}
    if given:
        return [{"impl": m, "target": r, "role": pair_role(info.get(r, {})),
                 "server_era": info.get(r, {}).get("server_era")}
                for m, r in given]
    out = []
    for role in ROLES:
        for t in targets:
            impl = t.get("representation")
            if impl not in model_impls or pair_role(t) != role:
                continue
            if any(p["impl"] == impl and p["target"] == t["name"]
                   for p in out):
                continue
            out.append({"impl": impl, "target": t["name"], "role": role,
                        "server_era": t.get("server_era")})
    # Impls in the order their first build ran; within one, calibration
    # first (a stable sort keeps the roles' order).
    first = {}
    for t in targets:
        first.setdefault(t.get("representation"), len(first))
    out.sort(key=lambda p: first[p["impl"]])
    return out


# How model and real runs were ordered in time (env.json "run_order", set
# by scripts/suite.sh --order and by reproduce): a ratio of neighbouring
# processes measures the model; one of processes 10-20 minutes apart also
# measures how the machine's speed drifted in between.
ORDER_TEXT = {
    "interleaved": "interleaved: per dataset and workload, repetition r of "
                   "every model impl and real build ran before repetition "
                   "r+1, so each model/real ratio compares neighbouring "
                   "processes",
    "grouped": "grouped: all model runs first, then all real ones, minutes "
               "apart; the time ratios (CPU, wall) include the machine's "
               "speed drift in between, the memory ratios do not",
    None: "not recorded (results from before the suite's --order, which "
          "ran all model jobs, then all real ones): read as grouped; the "
          "time ratios (CPU, wall) include the machine's speed drift in "
          "between, the memory ratios do not",
}


def run_order(env):
    """(order, sentence) of a results folder's env.json: order is
    'interleaved', 'grouped' or None (not recorded: grouped)."""
    order = (env or {}).get("run_order")
    return order, ORDER_TEXT.get(order, ORDER_TEXT[None])
