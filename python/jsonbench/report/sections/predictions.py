"""Predictions vs real patches: what the model predicted for an OVS patch
(claims/predictions/*.json, written and committed before the patch was
measured), what the real patch did once measured (the entry's "real"
figures), the verdict (the calibration target: within 30% of the real
change, or within 3 points where the real change is under 10%), and the
commit and date that recorded the prediction (from git: the commit that
added the file)."""

import os

from .. import document
from ... import predictions as pred

# Where the section reads entries from; tests point it elsewhere.
PREDICTIONS_DIR = pred.PREDICTIONS_DIR


def _num(v, unit):
    if v is None:
        return "-"
    return ("%.0f %s" % (v, unit)) if unit == "MiB" else ("%.2f %s" % (v, unit))


def _impl(side):
    """A model side: an impl name, or {"impl", "mode"} for a workload mode."""
    if isinstance(side, dict):
        return " ".join(str(side[k]) for k in ("impl", "mode") if side.get(k))
    return str(side)


def _metric(p):
    label = pred.METRIC_LABELS.get(p["metric"], p["metric"])
    return "%s, %d clients" % (label, p["clients"]) if p.get("clients") else label


def _side(f):
    if not f:
        return "not measured yet"
    change = f.get("change_pct")
    return "%s -> %s (%s)" % (_num(f.get("before"), f["unit"]), _num(f.get("after"), f["unit"]),
                              "%+.1f%%" % change if change is not None else "-")


def _verdict(v, real):
    if not real:
        return "pending"
    if v is None:
        return "-"
    return ("met (%s)" if v["met"] else "missed (%s)") % v["how"]


def _recorded(path):
    c = pred.commit_of(path)
    if not c:
        return "commit unknown"
    return "commit `%s`, %s" % (c[0][:12], c[1])


def build(ctx, folder=None):
    folder = folder or getattr(ctx, "predictions_dir", None) or PREDICTIONS_DIR
    try:
        entries = pred.load_dir(folder)
    except pred.PredictionError as exc:
        s = document.Section("Predictions vs real patches", "predictions")
        s.para("The predictions could not be read: %s" % exc)
        return s
    if not entries:
        return None
    s = document.Section("Predictions vs real patches", "predictions")
    s.para("Each prediction is the model's change for an OVS patch, measured "
           "and committed before the real patch was measured (its commit and "
           "date below are git's record of the file being added).  Verdict: "
           "the predicted change within %d%% of the real one, or within %g "
           "points where the real change is under %g%% (the calibration "
           "target of `claims/real-ovs.json`).  Memory figures are robust; "
           "CPU figures of a shared machine are noisy (each entry's note "
           "says how it was measured)."
           % (100 * pred.DEFAULT_TARGET["relative"], pred.DEFAULT_TARGET["points"],
              pred.DEFAULT_TARGET["small_below_pct"]))
    summary_rows = []
    for path, doc in entries:
        rows = []
        met = judged = 0
        for p, r, v in pred.verdicts(doc):
            rows.append([p["dataset"].upper(), "%g" % float(p["scale"]), p["form"],
                         _metric(p),
                         _side(p), _side(r), _verdict(v, r)])
            if v is not None:
                judged += 1
                met += bool(v["met"])
        recorded = _recorded(path)
        summary_rows.append([doc["id"], "`%s` -> `%s`" % (_impl(doc["model"]["before"]),
                                                          _impl(doc["model"]["after"])),
                             doc["patch"], recorded,
                             "%d of %d met" % (met, judged) if judged else "not measured yet"])
        sub = s.subsection("%s: %s" % (doc["id"], doc["title"]), "prediction-" + doc["id"])
        # How it was measured is the entry's record (its `command`, and
        # the real patch's): named, not repeated in every report.
        sub.para("Patch `%s`; model `%s` -> `%s`; predicted %s (measured %s).  How the "
                 "prediction%s measured: `command`%s in `claims/predictions/%s`."
                 % (doc["patch"], _impl(doc["model"]["before"]), _impl(doc["model"]["after"]),
                    recorded, doc["measured"],
                    " and the real patch were" if doc.get("real") else " was",
                    " and `real.command`" if doc.get("real") else "",
                    os.path.basename(path)))
        if doc.get("note"):
            sub.para(doc["note"])
        sub.add(document.Table(
            ["dataset", "scale", "form", "metric", "predicted (model)", "real patch",
             "verdict"], rows,
            caption="%s: predicted vs real (medians)" % doc["id"],
            align=["l", "r", "l", "l", "r", "r", "l"]))
    s.blocks.insert(1, document.Table(["prediction", "model", "patch", "recorded", "verdicts"],
                                      summary_rows, caption="Predictions",
                                      align=["l"] * 5))
    return s
