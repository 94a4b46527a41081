"""The seed claims on real OVS (scripts/reproduce.sh --ovs-tree DIR).

claims/real-ovs.json names, for each claim whose change is a pair of OVS
commits, the pair and (where real OVS cannot show the model's metric from
outside its processes) the metric used instead.  A claim on real OVS is the
claim itself with real builds as before/after ("shadow" claims), so
jsonbench.claims plans, measures and judges it unchanged:

  real vs claimed   the real builds' change against the published one
  model vs real     the model's change against the real builds' change
                    (the real change taken as the claim)

Where the real side measures another metric or scale than the claim (raft:
leader RSS at 0.1 where the claim is the model's heap at full size), the
entry's "model" names the model's before/after for a twin of the claim
with the real entry's metric and max_scale: the model runs it too, and
"model vs real" judges the twin, so both halves measure the same thing on
the same data.

Builds go through the real-OVS build cache; a build that fails gives
'not measured' with its log tail for the claims that need it.
"""

import json
import os

from . import ROOT
from . import claims as C
from .realovs.targets import ref_name

DEFAULT_FILE = os.path.join(ROOT, "claims", "real-ovs.json")


def claims_files(paths, seeds):
    """(seeds' claims file, real-OVS pairs file) of --claims FILE...: a
    file with "pairs" is the latter; the defaults ('seeds',
    DEFAULT_FILE) for the one not given."""
    pairs = DEFAULT_FILE
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        if isinstance(doc, dict) and "pairs" in doc:
            pairs = path
        else:
            seeds = path
    return seeds, pairs


def load(path, claims_doc, strict=True):
    """The real-OVS claims file, checked against the claims document; not
    'strict' (planning the model's twins), entries for claims the document
    lacks (another claims file) are left out instead of rejected."""
    with open(path) as f:
        try:
            doc = json.load(f)
        except ValueError as exc:
            raise SystemExit("%s: not valid JSON: %s" % (path, exc))
    ids = {c["id"] for c in claims_doc["claims"]}
    if not strict:
        doc["claims"] = {k: v for k, v in doc.get("claims", {}).items()
                         if k in ids}
    for cid, r in doc.get("claims", {}).items():
        if cid not in ids:
            raise SystemExit("%s: claims.%s: no such claim in the claims "
                             "file" % (path, cid))
        if r.get("pair") not in doc.get("pairs", {}):
            raise SystemExit("%s: claims.%s: unknown pair %r"
                             % (path, cid, r.get("pair")))
        m = r.get("model")
        if m is not None and not (
                isinstance(m, dict) and all(
                    isinstance(m.get(s), dict) and m[s].get("impl")
                    for s in ("before", "after"))):
            raise SystemExit("%s: claims.%s: model needs before and after, "
                             "each with an impl" % (path, cid))
    t = doc.get("effect_target")
    if t is not None:
        bad = [k for k in TARGET_KEYS if k in t and (
               not isinstance(t[k], (int, float)) or isinstance(t[k], bool)
               or t[k] <= 0)]
        if bad:
            raise SystemExit("%s: effect_target: %s must be positive "
                             "numbers" % (path, ", ".join(bad)))
        pairs = t.get("pairs")
        if pairs is not None and (
                not isinstance(pairs, list)
                or any(p not in doc.get("pairs", {}) for p in pairs)):
            raise SystemExit("%s: effect_target.pairs: %r is not a list of "
                             "pairs of this file" % (path, pairs))
    return doc


# The calibration target for effects, when the pairs file names none.
DEFAULT_TARGET = {"relative": 0.30, "points": 3, "small_below_pct": 10}
TARGET_KEYS = ("relative", "points", "small_below_pct")


def effect_target(real_doc):
    """The pairs file's effect_target (the model's change against the real
    one), with the defaults for what it leaves out."""
    t = dict(DEFAULT_TARGET)
    t.update({k: v for k, v in (real_doc or {}).get("effect_target", {})
              .items() if k in TARGET_KEYS + ("pairs",)})
    return t


def target_applies(real_doc, claim_id, target):
    """Whether the target judges this claim: every claim with a real pair,
    or those of the pairs the target names."""
    pairs = target.get("pairs")
    if pairs is None:
        return True
    entry = (real_doc or {}).get("claims", {}).get(claim_id) or {}
    return entry.get("pair") in pairs


def target_verdict(model_pct, real_pct, target):
    """{"met": bool, "how": text} for the model's relative change against
    the real one (percent): within target["relative"] of it, or within
    target["points"] points where |real| < target["small_below_pct"];
    None when either is missing."""
    if model_pct is None or real_pct is None:
        return None
    gap = abs(model_pct - real_pct)
    if abs(real_pct) < target["small_below_pct"]:
        return {"met": gap <= target["points"] + 1e-9,
                "how": "%.1f points" % gap}
    return {"met": gap <= target["relative"] * abs(real_pct) + 1e-9,
            "how": "%.2fx" % (model_pct / real_pct)}


def target_label(target):
    return "+-%g%% / %g points" % (100 * target["relative"], target["points"])


def twins(claims_doc, real_doc):
    """{claim id: the claim as the model measures it for "model vs real"}
    for the entries with a "model": its before/after sides, the real
    entry's metric (or the model's own spelling of it, "model"."metric")
    and max_scale (same metric, same dataset and scale on both halves).  Other claims are their own twin (not listed)."""
    out = {}
    if not real_doc:
        return out
    for c in claims_doc["claims"]:
        r = real_doc.get("claims", {}).get(c["id"])
        if not r or not r.get("model"):
            continue
        t = dict(c, twin=True)
        for side in ("before", "after"):
            t[side] = dict(c[side], **r["model"][side])
        # The same quantity, named by the model's phases where they differ
        # (the model resets its peak RSS per phase; a real process's peak
        # is its whole life's).
        t["metric"] = r["model"].get("metric") or r.get("metric") or c["metric"]
        if "max_scale" in r:
            t["max_scale"] = r["max_scale"]
        out[c["id"]] = t
    return out


def with_twins(claims_doc, real_doc):
    """The claims document plus the twins, for planning the model's runs."""
    tw = twins(claims_doc, real_doc)
    return dict(claims_doc, claims=claims_doc["claims"] + [
        tw[c["id"]] for c in claims_doc["claims"] if c["id"] in tw])


def real_sources(real):
    """The --only real folders a joined reproduction's real runs came from
    (results written before joins could chain kept one, as "source")."""
    if real.get("sources"):
        return list(real["sources"])
    return [real["source"]] if real.get("source") else []


def target_name(ref):
    return ref_name(ref)


def shadow(claims_doc, real_doc):
    """The claims that have a real pair, with the real builds as before and
    after (impl = target name, e.g. ovs-9669b50f5-parent)."""
    out = dict(claims_doc, claims=[])
    for c in claims_doc["claims"]:
        r = real_doc.get("claims", {}).get(c["id"])
        if not r:
            continue
        pair = real_doc["pairs"][r["pair"]]
        sc = dict(c, real_pair=r["pair"])
        for side in ("before", "after"):
            sc[side] = {"impl": target_name(pair[side]), "label": pair[side],
                        "ref": pair[side]}
        if r.get("metric"):
            sc["metric"] = r["metric"]
        if "max_scale" in r:
            sc["max_scale"] = r["max_scale"]
        out["claims"].append(sc)
    return out


def refs_of(sdoc):
    """{target name: git ref} of the shadow claims."""
    out = {}
    for c in sdoc["claims"]:
        for side in ("before", "after"):
            out[c[side]["impl"]] = c[side]["ref"]
    return out


def ab_pairs(sdoc):
    """[[before, after]] target names, one per pair, in file order."""
    out = []
    for c in sdoc["claims"]:
        p = [c["before"]["impl"], c["after"]["impl"]]
        if p not in out:
            out.append(p)
    return out


def run_opts(run):
    """Real-OVS workload options from the claim's harness arguments."""
    a = run["args"]
    names = {"--clients": ("clients", int), "--batches": ("batches", int),
             "--batch-rows": ("batch_rows", int), "--txns": ("txns", int),
             "--entries": ("entries", int), "--table": ("table", str),
             "--condition": ("condition", str)}
    opts = {}
    for i, x in enumerate(a[:-1]):
        if x in names:
            key, conv = names[x]
            opts[key] = conv(a[i + 1])
    if run["workload"] == "txn":
        opts.setdefault("clients", 5)
        opts.setdefault("txns", 1000)
    return opts


def variant(run):
    """Real runs have no composition mode: monitor-c<N>, raft, else the
    claims' variant name."""
    if run["workload"] == "monitor":
        return "monitor-c%d" % run_opts(run).get("clients", 10)
    if run["workload"] == "raft":
        return "raft"
    return C.variant_name(run)


def dataset_of(run, path):
    if not run["dataset"]:
        return {"label": "builtin", "path": "", "kind": "db", "scale": None,
                "form": "snapshot"}
    return {"label": "%s-%g%s" % (run["dataset"], run["scale"], "-log"
                                  if run["form"] == "log" else ""),
            "path": path, "kind": run["dataset"], "scale": run["scale"],
            "form": run["form"]}


def load_runs(results_dir, runs_meta):
    out = {}
    for k, info in runs_meta.items():
        if info.get("file"):
            try:
                with open(os.path.join(results_dir, info["file"])) as f:
                    out[k] = {"data": json.load(f)}
            except (OSError, ValueError) as exc:
                out[k] = {"error": "cannot read %s: %s" % (info["file"], exc)}
        else:
            out[k] = {"error": info.get("error", "failed")}
    return out


def evaluate(claims_doc, real_doc, model_runs, real_runs, stats=None,
             scale=1.0, caps=True, twin_claims=None):
    """{claim id: {"real": row of real vs claimed, "model_vs_real": row of
    the model's change against the real one (or None)}}; rows as
    claims.evaluate() makes them.  'twin_claims': the twins the model's
    runs were planned with (claims-run.json "twins"), else those of
    'real_doc'."""
    sdoc = shadow(claims_doc, real_doc)
    out = {}
    for row in C.evaluate(sdoc, real_runs, stats, scale, caps):
        out[row["id"]] = {"real": row, "model_vs_real": None}
    # The real change taken as the claim, for the model's runs (its twin
    # where the real side measures another metric or scale).
    tw = twin_claims if twin_claims is not None else twins(claims_doc, real_doc)
    as_claims = []
    for c in claims_doc["claims"]:
        r = out.get(c["id"], {}).get("real")
        if not r or r.get("measured_before") is None:
            continue
        as_claims.append(dict(tw.get(c["id"], c), claimed={
            "before": r["measured_before"], "after": r["measured_after"],
            "unit": r["unit"]}))
    if as_claims:
        mdoc = dict(claims_doc, claims=as_claims)
        for row in C.evaluate(mdoc, model_runs, stats, scale, caps):
            row["twin"] = row["id"] in tw
            out[row["id"]]["model_vs_real"] = row
    target = effect_target(real_doc)
    for cid, entry in out.items():
        m = entry["model_vs_real"]
        v = target_verdict(m.get("measured_change_pct"),
                           entry["real"].get("measured_change_pct"), target) \
            if m and target_applies(real_doc, cid, target) else None
        entry["target"] = v and dict(v, label=target_label(target))
    return out


REAL_HEADERS = ["real OVS before -> after (change)", "real vs claimed",
                "model vs real"]


REAL_SUMMARY_HEADERS = ["real OVS change", "real vs claimed", "model vs real"]


def real_summary_cells(entry, notes):
    """The real columns of the report's answer table, short: the real
    change with its interval, its verdict, the model's verdict against it
    (the calibration target); the figures behind them go to 'notes'."""
    if not entry:
        return ["-", "no real pair", "-"]
    r = entry["real"]
    if r.get("measured_before") is None:
        return ["-", r["verdict"], notes.ref(r.get("why"))]
    m = entry.get("model_vs_real")
    mv = m["verdict"] if m else "-"
    t = entry.get("target")
    if t:
        mv += "; target %s (%s)" % ("met" if t["met"] else "missed", t["how"])
    detail = real_cells(entry)
    return [C.measured_cell(r), r["verdict"],
            mv + " " + notes.ref("%s: real %s; model vs real: %s" % (r["id"], detail[0],
                                                                   detail[2]))]


def real_cells(entry):
    """The three real columns of one claim's row."""
    if not entry:
        return ["-", "no real pair", "-"]
    r = entry["real"]
    if r.get("measured_before") is not None:
        u = r["unit"]
        measured = "%s -> %s (%s) [%s -> %s]" % (
            C.fmt(r["measured_before"], u), C.fmt(r["measured_after"], u),
            C.fmt_pct(r["measured_change_pct"]), r["before_label"],
            r["after_label"])
        verdict = r["verdict"]
    else:
        measured = "-"
        verdict = "%s: %s" % (r["verdict"], (r.get("why") or "")[:200])
    m = entry.get("model_vs_real")
    mv = m["verdict"] if m else "-"
    if m and m.get("twin") and m.get("measured_before") is not None:
        # The model measured as real OVS is (its twin): show those figures.
        mv += " (model, same metric and scale: %s -> %s (%s))" % (
            C.fmt(m["measured_before"], m["unit"]),
            C.fmt(m["measured_after"], m["unit"]),
            C.fmt_pct(m["measured_change_pct"]))
    t = entry.get("target")
    if t:
        mv += "; calibration target %s: %s (%s)" % (
            t["label"], "met" if t["met"] else "missed", t["how"])
    return [measured, verdict, mv]
