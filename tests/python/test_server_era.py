#!/usr/bin/env python3
"""The server code era of real builds whose runs did not record it
(results made before it was recorded, e.g. the 2016-2021 seed builds):
told from their commit in an OVS tree, never assumed.

A throw-away git tree stands in for OVS: a 2016 commit, two "era"
commits of January 2024 on top (ERA_COMMITS pointed at them for the
ancestry checks) and a commit after them.  Checks: ancestry decides
(old -> pre-2024, descendant -> current); a tree without the era
commits' history still places a commit dated before their parents as
pre-2024, and says unknown for a later one; a release version decides
without a tree; an unknown era pairs as "reference (server era
unknown)", never as calibration.  Then the report on stand-in results
whose real runs lack the era titles each pair by what the tree says (and
"reference, server era unknown" when the tree is gone), and reproduce's
`jsonbench join` records the derived era with how it was told."""

import json
import os
import subprocess
import sys
import tempfile

from jsonbench import calibration as C
from jsonbench import claimsjoin
from jsonbench.realovs import representation as R
from jsonbench.report import Context
from jsonbench.report.document import Section, Table
from jsonbench.report.results import load
from jsonbench.report.sections import model_vs_real as M

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "pylib"))
from testkit import Checks  # noqa: E402

check = Checks()


def commit(tree, date, name):
    """A commit dated 'date' (ISO); returns its id."""
    env = dict(os.environ, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    with open(os.path.join(tree, "f"), "a") as f:
        f.write(name + "\n")
    for args in (["add", "f"], ["commit", "-q", "-m", name]):
        subprocess.run(["git", "-C", tree, "-c", "user.name=t", "-c",
                        "user.email=t@t"] + args, check=True, env=env,
                       capture_output=True)
    return subprocess.run(["git", "-C", tree, "rev-parse", "HEAD"],
                          check=True, capture_output=True,
                          text=True).stdout.strip()


def make_tree(path):
    os.makedirs(path)
    subprocess.run(["git", "-C", path, "init", "-q"], check=True)
    old = commit(path, "2016-10-04T13:28:08Z", "2016 seed build")
    era = [commit(path, "2024-01-08T21:41:11Z", "era 1"),
           commit(path, "2024-01-08T21:41:15Z", "era 2")]
    new = commit(path, "2025-06-01T10:00:00Z", "after the era")
    return old, era, new


def role_of(era):
    return C.pair_role({"server_era": era})


with tempfile.TemporaryDirectory() as tmp:
    tree = os.path.join(tmp, "ovs")
    old, era, new = make_tree(tree)

    # --- a tree without the era commits' history: the date tells for old
    # commits only (the real ERA_COMMITS are not in this tree).
    got = R.server_era_with_reason(tree, old, "2.6.90")
    check(got[0] == R.PRE_2024 and "commit date" in got[1],
          "2016 commit, no era history: pre-2024 by its date: %s" % (got,))
    got = R.server_era_of_commit(tree, new, "3.5.90")
    check(got is None, "2025 commit, no era history: unknown: %r" % got)
    got = R.server_era_of_commit(tree, "0" * 40, "2.16.90")
    check(got is None, "a commit the tree lacks: unknown: %r" % got)
    got = R.server_era_of_commit(os.path.join(tmp, "gone"), old, "2.6.90")
    check(got is None, "no tree: unknown: %r" % got)
    got = R.server_era_of_commit(os.path.join(tmp, "gone"), old, "3.1.0")
    check(got == R.PRE_2024, "a release version tells without a tree: %r"
          % got)

    # --- the era commits in the tree: ancestry decides.
    real_era = R.ERA_COMMITS
    R.ERA_COMMITS = era
    try:
        for c, version, want in ((old, "2.6.90", R.PRE_2024),
                                 (era[0], "3.2.90", R.PRE_2024),
                                 (era[1], "3.2.90", R.CURRENT),
                                 (new, "3.5.90", R.CURRENT)):
            got = R.server_era_with_reason(tree, c, version)
            check(got[0] == want and "ancestry" in got[1],
                  "%s: %s by ancestry, got %s" % (c[:9], want, got))
    finally:
        R.ERA_COMMITS = real_era

    # --- roles: unknown is a reference of its own, never calibration.
    check(role_of(None) == C.ROLE_UNKNOWN and role_of("") == C.ROLE_UNKNOWN,
          "unknown era -> %r" % role_of(None))
    check(role_of(R.PRE_2024) == C.ROLE_REFERENCE, "pre-2024 -> reference")
    check(role_of(R.CURRENT) == C.ROLE_CALIBRATION, "current -> calibration")
    got = [(p["target"], p["role"]) for p in C.pairs({"serialized"}, [
        {"name": "u", "representation": "serialized", "server_era": None},
        {"name": "o", "representation": "serialized", "server_era": "pre-2024"},
        {"name": "c", "representation": "serialized", "server_era": "current"}])]
    check(got == [("c", C.ROLE_CALIBRATION), ("o", C.ROLE_REFERENCE),
                  ("u", C.ROLE_UNKNOWN)],
          "calibration first, unknown last: %s" % got)

    # --- the report on results whose real runs lack the era
    res = os.path.join(tmp, "res")
    os.makedirs(os.path.join(res, "runs"))
    src = tree + "@%s"
    runs = {  # impl: (load CPU ms, index meta)
        "serialized": (1100.0, {}),
        "ovs-old": (1600.0, {"ovs_version": "2.16.90", "ovs_commit": old}),
        "ovs-new": (1250.0, {"ovs_version": "3.5.90", "ovs_commit": new}),
        "ovs-lost": (1300.0, {"ovs_version": "2.16.90",
                              "ovs_commit": "1" * 40}),
    }
    index, targets = [], []
    for impl, (cpu, meta) in runs.items():
        rel = "runs/nb-0.1__load__%s.json" % impl
        with open(os.path.join(res, rel), "w") as f:
            json.dump({"context": {}, "benchmarks": [{
                "name": "load/load", "run_name": "load/load",
                "run_type": "iteration", "time_unit": "ms",
                "real_time": cpu, "cpu_time": cpu}]}, f)
        e = {"file": rel, "impl": impl, "workload": "load", "variant": "load",
             "dataset": "nb-0.1", "kind": "NB", "scale": 0.1,
             "form": "snapshot", "source": "harness"}
        if meta:
            e.update(meta, real_ovs=True, ovs_representation="serialized")
            targets.append({"name": impl, "ovs_version": meta["ovs_version"],
                            "ovs_commit": meta["ovs_commit"],
                            "ovs_source": src % meta["ovs_commit"]})
        index.append(e)
    with open(os.path.join(res, "index.json"), "w") as f:
        json.dump({"entries": index}, f)
    with open(os.path.join(res, "env.json"), "w") as f:
        json.dump({"ovs_targets": targets}, f)

    # The 2025 commit is current only where the era commits are known:
    # point the derivation at the stand-in ones.
    R.ERA_COMMITS = era
    try:
        rs = load(res)
        sec = M.build(Context(rs, res))
    finally:
        R.ERA_COMMITS = real_era
    titles = [b.title for b in sec.blocks if isinstance(b, Section)]
    want = ["`serialized` vs real `ovs-new` (calibration)",
            "`serialized` vs real `ovs-old` (reference)",
            "`serialized` vs real `ovs-lost` (reference, server era unknown)"]
    check(titles == want, "titles %s, wanted %s" % (titles, want))
    table = [b for b in sec.blocks if isinstance(b, Table)][0]
    eras = {r[0]: r[4] for r in table.rows}
    check(eras == {"ovs-old": "pre-2024", "ovs-new": "current",
                   "ovs-lost": "unknown"}, "targets table: %s" % eras)
    text = " ".join(getattr(b, "text", "") for b in sec.blocks)
    check("`ovs-lost`: unknown" in text and "not in" in text,
          "the report says why an era is unknown: %r" % text[:200])

    # The same folder once its tree is gone: nothing is assumed.
    R._derived.clear()
    os.rename(tree, tree + ".gone")
    rs = load(res)
    got = [(p["target"], p["role"]) for p in M.pairs_of(rs)]
    check(all(role == C.ROLE_UNKNOWN for _t, role in got
              if _t != "ovs-old"), "no tree: the dev snapshots are unknown, "
          "not calibration: %s" % got)
    check(dict(got).get("ovs-old") == C.ROLE_UNKNOWN,
          "no tree, 2.16.90 alone cannot tell: %s" % got)
    os.rename(tree + ".gone", tree)
    R._derived.clear()

    # --- jsonbench join records what it can tell, and how.
    entries = [dict(e) for e in index]
    tgts = [dict(t) for t in targets]
    claimsjoin._record_eras(entries, tgts, None)
    by = {e["impl"]: e for e in entries}
    check(by["ovs-old"].get("ovs_server_era") == R.PRE_2024 and
          "derived when joined" in by["ovs-old"].get("ovs_server_era_source", ""),
          "join records the old build's era: %s" % by["ovs-old"])
    check(not by["ovs-lost"].get("ovs_server_era"),
          "join leaves an unknown era unrecorded: %s" % by["ovs-lost"])
    check("ovs_server_era" not in by["serialized"],
          "join leaves model runs alone")

sys.exit(check.finish("ok: server era of unrecorded builds from their "
                      "commit, unknown never counted as calibration"))
