#!/usr/bin/env python3
"""Which real build calibrates which model impl, on stand-in results (no
real OVS): jsonbench.calibration.pairs() gives a model impl the builds of
its JSON representation, the ones of the server code the model's load
path follows ("current") first as its calibration, older server code
("pre-2024", Debian 12's 3.1.0) after them as a labelled reference;
explicit --pair lists keep their order and get the same roles; a build
of unknown era is "reference (server era unknown)", last.  The
server era of a release follows its version (backports included), a
development snapshot's cannot be told from it.  The report's model-vs-real
section of a results folder with `serialized`, `ovs`, real 9669b50f5^
(current), Debian 3.1 (an older folder: no era recorded, told from its
version) and f5819e699 shows the pairs in that order, labelled, with the
ratios of each."""

import json
import os
import sys
import tempfile

from jsonbench import calibration as C
from jsonbench.realovs import representation as R
from jsonbench.report import Context
from jsonbench.report.document import Paragraph, Section, Table
from jsonbench.report.results import load
from jsonbench.report.sections import model_vs_real as M

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks  # noqa: E402

check = Checks()

# --- server era of a release version
for version, era in (("3.1.0", R.PRE_2024), ("3.1.3", R.PRE_2024),
                     ("3.1.4", R.CURRENT), ("3.0.6", R.CURRENT),
                     ("3.2.1", R.PRE_2024), ("3.2.2", R.CURRENT),
                     ("3.3.0", R.CURRENT), ("3.6.2", R.CURRENT),
                     ("2.17.9", R.PRE_2024), ("3.2.90", None),
                     ("3.5.90", None), ("", None), ("abc", None)):
    got = R.server_era_of_version(version)
    check(got == era, "server_era_of_version(%r) = %r, wanted %r"
          % (version, got, era))

# --- pairs(): roles and order
debian = {"name": "ovs-debian", "representation": "serialized",
          "server_era": R.PRE_2024}
parent = {"name": "ovs-9669b50f5-parent", "representation": "serialized",
          "server_era": R.CURRENT}
arrays = {"name": "ovs-f5819e699", "representation": "ovs",
          "server_era": R.CURRENT}
strings = {"name": "ovs-9669b50f5", "representation": "serialized+strings",
           "server_era": R.CURRENT}
unknown = {"name": "ovs-abc", "representation": "serialized",
           "server_era": None}


def brief(pairs):
    return [(p["impl"], p["target"], p["role"]) for p in pairs]


# Debian ran first (as the suite runs the installed build first): the
# same-era build still comes first for serialized; impls in the order
# their first build ran.
got = brief(C.pairs({"serialized", "ovs"}, [debian, parent, strings, arrays]))
want = [("serialized", "ovs-9669b50f5-parent", "calibration"),
        ("serialized", "ovs-debian", "reference"),
        ("ovs", "ovs-f5819e699", "calibration")]
check(got == want, "pairs: %s, wanted %s" % (got, want))
got = brief(C.pairs({"serialized"}, [debian]))
check(got == [("serialized", "ovs-debian", "reference")],
      "Debian alone is still paired, as a reference: %s" % got)
got = brief(C.pairs({"serialized"}, [unknown, debian]))
check(got == [("serialized", "ovs-debian", "reference"),
              ("serialized", "ovs-abc", C.ROLE_UNKNOWN)],
      "an unknown era is a reference of its own, not the calibration: %s"
      % got)
check(C.pairs({"plain"}, [debian, parent]) == [],
      "no build of the impl's representation, no pair")
got = brief(C.pairs({"serialized"}, [debian, parent],
                    [("serialized", "ovs-debian"), ("ovs", "ovs-9669b50f5-parent")]))
check(got == [("serialized", "ovs-debian", "reference"),
              ("ovs", "ovs-9669b50f5-parent", "calibration")],
      "--pair keeps its order and gets roles: %s" % got)
check(C.MODEL_SERVER_ERA == R.CURRENT, "the model follows current server code")


# --- the report section on a stand-in results folder
def run_doc(phase, fields):
    row = {"name": phase, "run_name": phase, "run_type": "iteration",
           "time_unit": "ms", "repetition_index": 0}
    row.update(fields)
    return {"context": {}, "benchmarks": [row]}


def entry(impl, file, **meta):
    e = {"file": file, "impl": impl, "workload": "load", "variant": "load",
         "dataset": "nb-0.1", "kind": "NB", "scale": 0.1, "form": "snapshot",
         "source": "harness"}
    e.update(meta)
    return e


with tempfile.TemporaryDirectory() as tmp:
    os.makedirs(os.path.join(tmp, "runs"))
    runs = {  # impl: (load CPU ms, meta)
        "serialized": (1100.0, {}),
        "ovs": (1000.0, {}),
        # An older results folder: no era recorded, version 3.1.0.
        "ovs-debian": (1600.0, {"real_ovs": True, "ovs_version": "3.1.0",
                                "ovs_representation": "serialized"}),
        "ovs-9669b50f5-parent": (1250.0, {
            "real_ovs": True, "ovs_version": "3.5.90",
            "ovs_representation": "serialized", "ovs_server_era": "current"}),
        "ovs-f5819e699": (1150.0, {
            "real_ovs": True, "ovs_version": "3.5.90",
            "ovs_representation": "ovs", "ovs_server_era": "current"}),
    }
    index = []
    for impl, (cpu, meta) in runs.items():
        rel = "runs/nb-0.1__load__%s.json" % impl
        with open(os.path.join(tmp, rel), "w") as f:
            json.dump(run_doc("load/load", {"real_time": cpu,
                                            "cpu_time": cpu}), f)
        index.append(entry(impl, rel, **meta))
    with open(os.path.join(tmp, "index.json"), "w") as f:
        json.dump({"entries": index}, f)
    with open(os.path.join(tmp, "env.json"), "w") as f:
        json.dump({}, f)
    rs = load(tmp)
    got = brief(M.pairs_of(rs))
    want = [("serialized", "ovs-9669b50f5-parent", "calibration"),
            ("serialized", "ovs-debian", "reference"),
            ("ovs", "ovs-f5819e699", "calibration")]
    check(got == want, "report pairs: %s, wanted %s" % (got, want))

    sec = M.build(Context(rs, tmp))
    subs = [b for b in sec.blocks if isinstance(b, Section)]
    titles = [b.title for b in subs]
    check(titles == ["`serialized` vs real `ovs-9669b50f5-parent` (calibration)",
                     "`serialized` vs real `ovs-debian` (reference)",
                     "`ovs` vs real `ovs-f5819e699` (calibration)"],
          "subsection titles: %s" % titles)
    for sub, ratio, role in ((subs[0], "0.88x", "Calibration"),
                             (subs[1], "0.69x", "Reference"),
                             (subs[2], "0.87x", "Calibration")):
        text = " ".join(b.text for b in sub.blocks if isinstance(b, Paragraph))
        check(text.startswith("*" + role), "%s: labelled %s: %r"
              % (sub.title, role, text[:60]))
        rows = [r for b in sub.blocks if isinstance(b, Table) for r in b.rows]
        cpu = [r for r in rows if r[1] == "load CPU"]
        check(cpu and cpu[0][-1] == ratio, "%s: load CPU ratio %s, wanted %s"
              % (sub.title, cpu and cpu[0][-1], ratio))
    targets = [b for b in sec.blocks if isinstance(b, Table)][0]
    eras = {r[0]: r[4] for r in targets.rows}
    check(eras == {"ovs-debian": "pre-2024", "ovs-9669b50f5-parent": "current",
                   "ovs-f5819e699": "current"},
          "targets table shows each build's server code: %s" % eras)

sys.exit(check.finish("ok: calibration pairs by representation and server "
                      "era, labelled in the report"))
