"""Seed claims: read claims/seeds.json, plan the harness runs that measure
them, evaluate measured against claimed, format the claims table.

The claims file is data (see claims/README.md).  jsonbench.reproduce runs
the plan and writes `claims-run.json` into its results folder: a copy of the
claims it used plus, per run key, the google-benchmark results file (or the
failure).  The report's claims section (report/sections/claims.py)
evaluates from that file, so editing an explanation and regenerating the
report needs no new measurement.

Standard library only: planning and the verdicts need no report code."""

import json
import math
import os
import statistics

from . import ROOT
from . import intervals as I

RUN_FILE = "claims-run.json"

_TIME_UNIT_S = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}

VERDICT_WITHIN = "same direction, within tolerance"
VERDICT_OUTSIDE = "same direction, outside tolerance"
VERDICT_OPPOSITE = "opposite direction"
VERDICT_NOISE = "no measurable change"
VERDICT_INCONCLUSIVE = "inconclusive"
VERDICT_SIZE_UNSURE = "same direction, size inconclusive"
VERDICT_DIRECTION = "same direction (no figure claimed)"
VERDICT_INFO = "information only"
VERDICT_OTHER = "different program: shown, not compared"
VERDICT_MISSING = "not measured"


# ------------------------------------------------------------------ claims

def load_claims(path):
    """The claims document, checked enough that a typo fails loudly."""
    with open(path) as f:
        try:
            doc = json.load(f)
        except ValueError as exc:
            raise SystemExit("%s: not valid JSON: %s" % (path, exc))
    ids = set()
    for i, c in enumerate(doc.get("claims", [])):
        where = "%s: claims[%d]" % (path, i)
        for key in ("id", "seed", "experiment", "workload", "before", "after",
                    "metric", "claimed", "source"):
            if key not in c:
                raise SystemExit("%s: missing '%s'" % (where, key))
        if c["id"] in ids:
            raise SystemExit("%s: duplicate id %s" % (where, c["id"]))
        ids.add(c["id"])
        m = c["metric"]
        if not (m.get("field") or m.get("derived") or m.get("sum") or m.get("max")):
            raise SystemExit("%s (%s): metric needs field, derived, sum or max"
                             % (where, c["id"]))
        if c.get("explain") and c["explain"] not in doc.get("explanations", {}):
            raise SystemExit("%s (%s): unknown explanation '%s'" % (where, c["id"], c["explain"]))
        if c.get("dataset") and c["dataset"] not in doc.get("datasets", {}):
            raise SystemExit("%s (%s): unknown dataset '%s'" % (where, c["id"], c["dataset"]))
    return doc


def claim_scale(claim, scale, caps=True):
    """The dataset scale a claim runs at: --scale, or the claim's max_scale
    when that is smaller (workloads whose cost grows with clients x rows)."""
    if caps and claim.get("max_scale") is not None:
        return min(scale, float(claim["max_scale"]))
    return scale


def side_run(claim, side, scale=1.0, caps=True):
    """The harness run that measures one side ('before'/'after') of a claim."""
    s = claim[side]
    mode = s.get("mode")
    args = list(claim.get("args", []))
    if mode:
        args = ["--mode", mode] + args
    return {"impl": s["impl"], "workload": claim["workload"],
            "dataset": claim.get("dataset"), "form": claim.get("form") or "snapshot",
            "scale": claim_scale(claim, scale, caps) if claim.get("dataset") else None,
            "mode": mode, "args": args}


def filled_from(meta):
    """The joins (--fill-from) a results folder's claims-run.json records,
    oldest first; folders of before the list held one join as a dict."""
    f = meta.get("filled_from") or []
    return [f] if isinstance(f, dict) else list(f)


def run_key(run):
    ds = ("%s-s%g-%s" % (run["dataset"], run["scale"], run["form"]) if run["dataset"]
          else "builtin")
    return "|".join([run["impl"], run["workload"], ds, " ".join(run["args"])])


def group_key(run):
    """Runs compared with each other: same workload, dataset and options
    apart from impl and mode; they are interleaved repetition by repetition."""
    args = list(run["args"])
    if args[:1] == ["--mode"]:
        args = args[2:]
    return (run["workload"], run["dataset"] or "", run["form"], " ".join(args), run["scale"])


def plan(doc, only=None, scale=1.0, caps=True):
    """[(group key, [run, ...])] in claims-file order, each run once, plus
    {run key: [claim ids]}."""
    groups, order, users = {}, [], {}
    for c in doc["claims"]:
        if only and c["id"] not in only and not any(c["id"].startswith(o) for o in only):
            continue
        for side in ("before", "after"):
            r = side_run(c, side, scale, caps)
            k = run_key(r)
            users.setdefault(k, [])
            if c["id"] not in users[k]:
                users[k].append(c["id"])
            g = group_key(r)
            if g not in groups:
                groups[g] = []
                order.append(g)
            if all(run_key(x) != k for x in groups[g]):
                groups[g].append(r)
    # Cheapest first (built-in, then small scales, NB before SB, snapshot
    # workloads before compaction), so that an interrupted reproduction has
    # measured as many claims as it could; the claims file order otherwise.
    cost = {"txn": 0, "monitor": 1, "raft": 2, "dump": 3, "compact": 4}
    order.sort(key=lambda g: (g[4] or 0, g[1] != "", g[1], cost.get(g[0], 5)))
    return [(g, groups[g]) for g in order], users


def variant_name(run):
    """A short, suite-like variant label: dump, monitor-tree-c10, txn-c50x1000."""
    a = run["args"]

    def opt(name):
        return a[a.index(name) + 1] if name in a and a.index(name) + 1 < len(a) else None
    wl = run["workload"]
    if wl == "monitor":
        return "monitor-%s-c%s" % (run["mode"] or "tree", opt("--clients") or "10")
    if wl == "raft":
        return "raft-%s" % (run["mode"] or "tree")
    if wl == "txn":
        return "txn-c%sx%s" % (opt("--clients") or "5", opt("--txns") or "1000")
    return wl


# ------------------------------------------------------------------ values

def _phase_rows(data, workload, phase):
    name = "%s/%s" % (workload, phase)
    return {int(b.get("repetition_index", 0)): b for b in data.get("benchmarks", [])
            if b.get("run_type", "iteration") == "iteration"
            and (b.get("run_name") or b.get("name")) == name}


def _field(row, field):
    v = row.get(field)
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        return None
    if field in ("real_time", "cpu_time"):
        v = v * _TIME_UNIT_S.get(row.get("time_unit", "ns"), 1e-9)
    return float(v)


def _one(data, workload, spec):
    """{rep: value} of one metric part."""
    out = {}
    for rep, row in _phase_rows(data, workload, spec["phase"]).items():
        d = spec.get("derived")
        if d == "mean_iteration_ms":
            t = _field(row, "real_time")
            n = row.get("iterations") or 0
            v = t * 1e3 / n if t is not None and n else None
        elif d == "items_per_cpu_s":
            t = _field(row, "cpu_time")
            n = row.get("items")
            v = n / t if t and n else None
        elif d == "closed_loop_latency_ms":
            # Clients with one request in flight each: mean latency is
            # wall x clients / requests (real OVS's txn client).
            t = _field(row, "real_time")
            n, c = row.get("items"), row.get("clients")
            v = t * 1e3 * c / n if t is not None and n and c else None
        elif d:
            raise ValueError("unknown derived metric %s" % d)
        else:
            v = _field(row, spec["field"])
        if v is not None:
            out[rep] = v
    return out


def metric_values(data, workload, metric):
    """Per-repetition values of a claim's metric in one results file: one
    field, or the sum or the max of several (e.g. a process's peak RSS is
    the max of its phases' peaks)."""
    combine = max if metric.get("max") else sum
    parts = metric.get("sum") or metric.get("max") or [metric]
    per = [_one(data, workload, p) for p in parts]
    reps = set(per[0])
    for p in per[1:]:
        reps &= set(p)
    return [combine(p[r] for p in per) for r in sorted(reps)]


# ------------------------------------------------------------------ verdicts

def _tolerance(doc, claim):
    tol = dict(doc.get("defaults", {}).get("tolerance", {}))
    tol.update(claim.get("tolerance", {}))
    return tol


def _noise_pct(tol, kind):
    n = tol.get("noise_pct", 3.0)
    return n.get(kind, 3.0) if isinstance(n, dict) else float(n)


def change_pct(before, after):
    return (after / before - 1.0) * 100.0 if before else None


def evaluate(doc, runs, stats=None, scale=1.0, caps=True):
    """One row per claim: claimed and measured before/after/change, verdict
    and (when it differs) why.  'runs' maps run key -> {"data": gbench dict}
    or {"error": text}; 'stats' maps dataset -> ovsdb-stats dict."""
    rows = []
    for c in doc["claims"]:
        kb = run_key(side_run(c, "before", scale, caps))
        ka = run_key(side_run(c, "after", scale, caps))
        if kb not in runs and ka not in runs:
            continue                 # not part of this run (--only)
        row = {"id": c["id"], "seed": c["seed"], "experiment": c["experiment"],
               "dataset": (c.get("dataset") or "built-in").upper() if c.get("dataset") else "built-in",
               "before_label": c["before"].get("label", c["before"]["impl"]),
               "after_label": c["after"].get("label", c["after"]["impl"]),
               "metric": c["metric"]["label"], "unit": c["metric"].get("unit", ""),
               "claimed_unit": c["claimed"].get("unit", c["metric"].get("unit", "")),
               "source": c["source"],
               "scale": claim_scale(c, scale, caps) if c.get("dataset") else None,
               "capped": bool(c.get("dataset")) and claim_scale(c, scale, caps) < scale}
        cl = c["claimed"]
        row["claimed_before"], row["claimed_after"] = cl.get("before"), cl.get("after")
        row["claimed_change_pct"] = (change_pct(cl["before"], cl["after"])
                                     if cl.get("before") and cl.get("after") is not None else None)
        claimed_dir = cl.get("direction") or (
            None if row["claimed_change_pct"] is None else
            "up" if row["claimed_change_pct"] > 0 else "down")
        row["claimed_direction"] = claimed_dir

        errors = [runs[k]["error"] for k in (kb, ka) if k in runs and runs[k].get("error")]
        missing = [k for k in (kb, ka) if k not in runs]
        vals = {}
        for side, k in (("before", kb), ("after", ka)):
            if k in runs and runs[k].get("data"):
                vals[side] = metric_values(runs[k]["data"], c["workload"], c["metric"])
        if errors or missing or not vals.get("before") or not vals.get("after"):
            why = errors[0] if errors else ("run not part of this reproduction" if missing
                                            else "the results hold no '%s' value"
                                            % c["metric"]["label"])
            row.update(verdict=VERDICT_MISSING, why=why.strip().splitlines()[0][:300])
            rows.append(row)
            continue
        b, a = statistics.median(vals["before"]), statistics.median(vals["after"])
        row.update(measured_before=b, measured_after=a,
                   repetitions=min(len(vals["before"]), len(vals["after"])),
                   before_values=vals["before"], after_values=vals["after"])
        tol = _tolerance(doc, c)
        noise = _noise_pct(tol, c["metric"].get("kind", "time"))
        row["noise_pct"] = noise
        expl = doc.get("explanations", {}).get(c.get("explain"), "")
        if not b:
            row.update(verdict=VERDICT_MISSING, why="before is zero: no relative change")
        else:
            # A memory figure repeats to 0.1% here: one value per side is
            # taken as exact rather than left without an interval.
            iv = I.interval(vals["before"], vals["after"],
                            exact_single=c["metric"].get("kind") == "memory")
            row["measured_change_pct"] = change_pct(b, a)
            row["interval"] = I.as_dict(iv)
            row.update(_verdict(c, row, iv, noise, tol, expl))
        row["why"] = _with_dataset_fact(row["why"], c, stats)
        rows.append(row)
    return rows


def tolerance_range(claimed_pct, tol):
    """The measured changes (percent) that count as the claimed one's size:
    within 'factor' of it in log ratio, or within 'abs_points' of it."""
    f = float(tol.get("factor", 3.0))
    pts = float(tol.get("abs_points", 5.0))
    lc = math.log1p(claimed_pct / 100.0)
    ends = [math.expm1(lc / f) * 100.0, math.expm1(lc * f) * 100.0,
            claimed_pct - pts, claimed_pct + pts]
    return max(min(ends), -99.999), max(ends)


def _verdict(c, row, iv, noise, tol, expl):
    """The verdict of one claim from its interval: a direction, no change
    or a size only when the whole interval says so; otherwise
    inconclusive, with the repetitions that would likely decide it."""
    cp = row["claimed_change_pct"]
    claimed_dir = row["claimed_direction"]
    if c["claimed"].get("comparable") is False:
        # The figure comes from another program (seed 5): shown beside
        # the harness's own measurement, never judged against it.
        return {"verdict": VERDICT_OTHER, "why": expl, "confident": False}
    if claimed_dir is None:
        return {"verdict": VERDICT_INFO, "why": "", "confident": False}
    d = I.decide(iv, noise)
    if d is None:
        return _inconclusive(iv, [-noise, noise], noise, expl)
    if d == I.NONE:
        return {"verdict": VERDICT_NOISE, "confident": True,
                "why": "Measured %+.1f%% %s, inside the %.0f%% noise band.  %s"
                       % (I.pct(iv.estimate), I.fmt(iv), noise, expl)}
    if (d == I.UP) != (claimed_dir == "up"):
        return {"verdict": VERDICT_OPPOSITE, "why": expl, "confident": True}
    if cp is None:
        return {"verdict": VERDICT_DIRECTION, "why": "", "confident": True}
    lc = math.log1p(cp / 100.0)
    out = {"size_ratio": iv.estimate / lc if lc else float("inf")}
    lo, hi = tolerance_range(cp, tol)
    inside = I.within(iv, lo, hi)
    if inside is None:
        out.update(_inconclusive(iv, [lo, hi], noise, expl, size=True))
    elif inside:
        out.update(verdict=VERDICT_WITHIN, confident=True,
                   why=expl if c.get("always_explain") else "")
    else:
        out.update(verdict=VERDICT_OUTSIDE, confident=True,
                   why="The measured effect is %.2gx the claimed one (log ratio).  %s"
                       % (out["size_ratio"], expl))
    return out


def judge(c, row, iv, doc, kind="instructions", band=1.0):
    """A verdict on another figure of the same claim (e.g. its instruction
    count) by the claim's own rules, with that figure's noise band (the
    claims file's noise_pct[kind], else 'band')."""
    tol = _tolerance(doc, c)
    n = tol.get("noise_pct", band)
    noise = float(n.get(kind, band) if isinstance(n, dict) else n)
    expl = doc.get("explanations", {}).get(c.get("explain"), "")
    return _verdict(c, row, iv, noise, tol, expl)


def _inconclusive(iv, edges, noise, expl, size=False):
    """An interval too wide to decide: what it straddles and about how many
    repetitions would likely decide it."""
    if iv is None:
        return {"verdict": VERDICT_INCONCLUSIVE, "confident": False,
                "repetitions_to_decide": I.min_pairs(),
                "why": "One repetition gives no interval; at least 2 (better %d) are needed.  %s"
                       % (I.min_pairs(), expl)}
    need = I.pairs_to_decide(iv, edges)
    if size:
        what = "the interval %s straddles an edge of the claimed size's tolerance " \
               "(%+.1f%% .. %+.1f%%)" % (I.fmt(iv), edges[0], edges[1])
    else:
        what = "the interval %s straddles the %.0f%% noise band" % (I.fmt(iv), noise)
    more = ("; about %d repetitions would likely decide it" % need if need
            else "; the estimate sits on the edge, so more repetitions are unlikely to decide it")
    return {"verdict": VERDICT_SIZE_UNSURE if size else VERDICT_INCONCLUSIVE,
            "confident": False, "repetitions_to_decide": need,
            "why": "%s%s%s.  %s" % (what[0].upper(), what[1:], more, expl)}


def _with_dataset_fact(why, claim, stats):
    """Append what the generated dataset says about inline strings to the
    seed-4 memory/time explanations: a number, not a guess."""
    if not why or claim["seed"] != 4 or not stats:
        return why
    st = stats.get(claim.get("dataset"))
    if not st or not st.get("strings"):
        return why
    return "%s  (Generated %s: %.0f%% of %s string atoms are <= 23 bytes, mean length %.1f B.)" % (
        why, claim["dataset"].upper(), 100.0 * st.get("strings_le_23", 0) / st["strings"],
        "{:,}".format(st["strings"]), st.get("string_bytes", 0) / st["strings"])


# ------------------------------------------------------------------ formatting

def fmt(v, unit):
    if v is None:
        return "-"
    if unit == "bytes":
        for div, suf in ((1e9, "GB"), (1e6, "MB"), (1e3, "kB")):
            if abs(v) >= div:
                return "%.3g %s" % (v / div, suf)
        return "%d B" % v
    if unit == "s":
        return "%.3g s" % v if abs(v) >= 1 or v == 0 else "%.3g ms" % (v * 1e3)
    if unit == "ms":
        return "%.3g ms" % v
    if unit == "min":
        return "%.4g min" % v
    if unit == "/s":
        return "%.4g/s" % v
    return "%.4g %s" % (v, unit)


def fmt_pct(p):
    return "-" if p is None else "%+.1f%%" % p


def claimed_cell(r):
    if r.get("claimed_change_pct") is not None:
        return fmt_pct(r["claimed_change_pct"])
    if r.get("claimed_direction"):
        return "rose" if r["claimed_direction"] == "up" else "fell"
    return "(no figure)"


def measured_cell(r):
    """The measured change (of the medians) and its interval."""
    if r.get("measured_change_pct") is None:
        return "-"
    return "%s %s" % (fmt_pct(r["measured_change_pct"]),
                      I.fmt(I.from_dict(r.get("interval"))) if r.get("interval") else "")


class Notes:
    """Numbered notes below a table: each distinct text once."""

    def __init__(self):
        self.texts = []

    def ref(self, text):
        text = (text or "").strip()
        if not text:
            return ""
        if text not in self.texts:
            self.texts.append(text)
        return "[%d]" % (self.texts.index(text) + 1)

    def lines(self):
        return ["[%d] %s" % (i + 1, t) for i, t in enumerate(self.texts)]


def table_rows(rows, notes):
    """The claims table, answer first: one short line per claim (the
    reasons go to 'notes')."""
    return [[r["id"], claimed_cell(r), measured_cell(r), r["verdict"], notes.ref(r.get("why"))]
            for r in rows]


HEADERS = ["claim", "claimed", "measured change [%.0f%% interval]" % (100 * I.CONFIDENCE),
           "verdict", "note"]


def detail_rows(rows):
    """What each claim compares, with the medians behind the changes."""
    out = []
    for r in rows:
        cu = r["claimed_unit"]
        claimed = ("%s -> %s" % (fmt(r["claimed_before"], cu), fmt(r["claimed_after"], cu))
                   if r.get("claimed_before") is not None else "-")
        measured = ("%s -> %s" % (fmt(r["measured_before"], r["unit"]),
                                  fmt(r["measured_after"], r["unit"]))
                    if r.get("measured_before") is not None else "-")
        where = r["dataset"] + (" at scale %g" % r["scale"] if r.get("capped") else "")
        out.append([str(r["seed"]), r["id"], "%s [%s: %s -> %s; %s]" % (
            r["experiment"], where, r["before_label"], r["after_label"], r["metric"]),
            claimed, measured, str(r.get("repetitions") or "-")])
    return out


DETAIL_HEADERS = ["seed", "claim", "experiment", "claimed before -> after",
                  "measured before -> after (medians)", "repetitions"]

def summary_counts(rows):
    counts = {}
    for r in rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    return counts


def load_run(results_dir):
    """(claims doc, runs {key: {"data"|"error"}}, meta) from a reproduce
    results folder, or None when it is not one."""
    path = os.path.join(results_dir, RUN_FILE)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        meta = json.load(f)
    # Explanations are prose: take the current claims file's, so that
    # improving one and re-rendering needs no new measurement.  Claims,
    # figures and tolerances stay those the run used.
    current = os.path.join(ROOT, meta.get("claims_file", "claims/seeds.json"))
    try:
        with open(current) as f:
            meta["claims"].setdefault("explanations", {}).update(
                json.load(f).get("explanations", {}))
    except (OSError, ValueError):
        pass
    runs = {}
    for k, info in meta.get("runs", {}).items():
        if info.get("file"):
            p = os.path.join(results_dir, info["file"])
            try:
                with open(p) as f:
                    runs[k] = {"data": json.load(f)}
            except (OSError, ValueError) as exc:
                runs[k] = {"error": "cannot read %s: %s" % (info["file"], exc)}
        else:
            runs[k] = {"error": info.get("error", "failed")}
    return meta["claims"], runs, meta
