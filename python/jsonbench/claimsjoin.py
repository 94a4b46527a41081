"""scripts/jsonbench join: a claims reproduction's folder plus the runs
another one has (model runs it lacks or that failed there, real OVS runs),
into a new folder.  A study of its own: it reads the claims (jsonbench.claims,
jsonbench.realclaims) and real builds' server era (realovs.representation)."""

import argparse
import json
import os
import shutil
import sys

from . import build, gbench, realclaims
from . import claims as C
from . import options as O
from .realovs import representation
from .report import render_claims
from . import resultsdir
from .resultsdir import _union
from .util import log


def join(primary, other, out_dir, ovs_claims=None):
    """out_dir = primary + the runs primary lacks (or that failed there) taken
    from other; both must be reproduce folders.  ovs_claims: the current
    real-OVS pairs file, whose metrics judge the real runs taken when it
    names the same commits as the file they ran with."""
    a, b = C.load_run(primary), C.load_run(other)
    if not a or not b:
        sys.exit("join: both folders must hold %s (claims reproductions)" % C.RUN_FILE)
    if os.path.exists(out_dir):
        sys.exit("join: %s exists; --out must be a new folder" % out_dir)
    shutil.copytree(primary, out_dir, ignore=shutil.ignore_patterns(
        "report.md", "report.html", "charts", resultsdir.PLAN))
    meta_a, meta_b = a[2], b[2]
    index = gbench.read(os.path.join(out_dir, "index.json"))
    index_b = gbench.read(os.path.join(other, "index.json"))
    env = gbench.read(os.path.join(out_dir, "env.json"))
    env_b = gbench.read(os.path.join(other, "env.json"))
    taken = []
    for key, info in meta_b["runs"].items():
        mine = meta_a["runs"].get(key)
        if not info.get("file") or (mine and mine.get("file")):
            continue
        shutil.copy(os.path.join(other, info["file"]), os.path.join(out_dir, info["file"]))
        meta_a["runs"][key] = dict(info, source=os.path.basename(other))
        index["entries"] += [e for e in index_b["entries"] if e["file"] == info["file"]]
        taken.append(key)
    _take_claims(meta_a, meta_b, taken)
    taken_real = _fill_real(meta_a, meta_b, other, out_dir, index, index_b, env, env_b)
    if taken_real and ovs_claims and os.path.exists(ovs_claims):
        _judge_with_current(meta_a["real"], ovs_claims)
    if taken_real:
        env["run_order"] = "grouped"     # model and real from separate runs
    # Failures name a run key (older folders) or the job's file stem.
    gone = set(taken) | set(taken_real) | {
        os.path.splitext(os.path.basename(info["file"]))[0]
        for runs in (meta_a["runs"], (meta_a.get("real") or {}).get("runs", {}))
        for key, info in runs.items() if key in taken or key in taken_real}
    index["failures"] = [f for f in index.get("failures", []) if f["job"] not in gone]
    env["datasets"] = _union(env.get("datasets"), env_b.get("datasets"), "path")
    env["command"] = "%s  +  runs from %s" % (env.get("command", ""), env_b.get("command", ""))
    # One entry per join, so a folder joined from several keeps them all.
    meta_a["filled_from"] = C.filled_from(meta_a) + [{
        "folder": "results/" + os.path.basename(other),
        "command_args": meta_b.get("command_args", ""),
        "runs": taken, "duration_s": meta_b.get("duration_s"),
        "run_seconds": meta_b.get("run_seconds", {})}]
    # Claims the primary did not plan (--only) are evaluated too now.
    resultsdir.write_index(out_dir, index["entries"], index["failures"])
    resultsdir.write_env(out_dir, env)
    gbench.write_atomic(os.path.join(out_dir, C.RUN_FILE), meta_a)
    log("join: %d runs taken from %s" % (len(taken), build.rel(other)))


def _take_claims(meta_a, meta_b, taken):
    """A claim whose runs all come from the other folder is read with that
    folder's definition of it (and its explanation): its runs were made for
    that definition, whose options (part of each run's key) may have
    changed since the primary ran."""
    used_by_a = {cid for key, info in meta_a["runs"].items()
                 if key not in taken and info.get("file")
                 for cid in info.get("claims", [])}
    from_b = {cid for key in taken
              for cid in meta_b["runs"][key].get("claims", [])} - used_by_a
    doc_a, doc_b = meta_a["claims"], meta_b["claims"]
    theirs = {c["id"]: c for c in doc_b.get("claims", [])}
    for i, c in enumerate(doc_a.get("claims", [])):
        if c["id"] in from_b and c["id"] in theirs and theirs[c["id"]] != c:
            doc_a["claims"][i] = theirs[c["id"]]
            expl = theirs[c["id"]].get("explain")
            if expl in doc_b.get("explanations", {}):
                doc_a.setdefault("explanations", {})[expl] = \
                    doc_b["explanations"][expl]


def _judge_with_current(real, ovs_claims):
    """The real runs were measured with an older copy of the pairs file; how
    a claim reads them (e.g. which metric stands for the model's) belongs to
    today's file, as long as it names the same builds."""
    with open(ovs_claims) as f:
        current = json.load(f)
    if current.get("pairs") != (real.get("claims") or {}).get("pairs"):
        log("join: %s names other builds than the real runs; judging "
            "them with the pairs file they ran with" % build.rel(ovs_claims))
        return
    real["claims"] = current


def _fill_real(meta_a, meta_b, other, out_dir, index, index_b, env, env_b):
    """The real-OVS half of fill(): every real run the other folder has (a
    --real-only run) and the primary lacks comes along, with the build
    targets it ran on, so several real-only runs can be joined one after the
    other (the first one's runs win).  Returns the run keys taken."""
    real_b = meta_b.get("real")
    if not real_b or not real_b.get("runs"):
        return []
    real_a = meta_a.get("real") or {}
    runs_a = dict(real_a.get("runs", {}))
    # A run of another key can have the same file name (a claim whose
    # model-only options changed since): the primary's file stays.
    files_a = {i.get("file") for i in runs_a.values() if i.get("file")}
    taken = []
    for key, info in real_b["runs"].items():
        if not info.get("file") or (runs_a.get(key) or {}).get("file"):
            continue
        if info["file"] in files_a:
            log("join: %s: not taken, %s already holds %s"
                % (key, build.rel(out_dir), info["file"]))
            continue
        files_a.add(info["file"])
        dst = os.path.join(out_dir, info["file"])
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(os.path.join(other, info["file"]), dst)
        index["entries"] = [e for e in index["entries"] if e["file"] != info["file"]]
        index["entries"] += [e for e in index_b["entries"] if e["file"] == info["file"]]
        runs_a[key] = dict(info, source=os.path.basename(other))
        taken.append(key)
    if not taken:
        return []
    index["failures"] = index.get("failures", []) + [
        f for f in index_b.get("failures", []) if f["job"] in real_b["runs"]
        and "error" in real_b["runs"][f["job"]] and f["job"] not in runs_a]
    env["ovs_targets"] = _union(env.get("ovs_targets"), env_b.get("ovs_targets"), "name")
    _record_eras(index["entries"], env["ovs_targets"], real_b.get("ovs_tree"))
    for k in ("ovs_build_failures", "ovs_ab_pairs"):
        env[k] = env.get(k) or env_b.get(k, [])
    if real_a.get("runs"):
        real_a["runs"] = runs_a
        # The builds the taken runs ran on, for the report's list of them.
        real_a["targets"] = _union(real_a.get("targets"), real_b.get("targets"), "name")
        real_a["sources"] = realclaims.real_sources(real_a) + [os.path.basename(other)]
        real_a.pop("source", None)
        real_a["duration_s"] = (real_a.get("duration_s") or 0) + (real_b.get("duration_s") or 0)
    else:
        meta_a["real"] = dict(real_b, runs=runs_a, sources=[os.path.basename(other)])
        meta_a["real"].pop("source", None)     # The older, single-folder key.
    log("join: %d real-OVS runs taken from %s" % (len(taken), build.rel(other)))
    return taken


def _record_eras(entries, targets, ovs_tree):
    """Real runs made before the server code era was recorded get it here,
    derived from their version and commit (representation.
    derive_server_era(): the tree each build came from, else the run's
    --ovs-tree), with how it was told in "ovs_server_era_source"; an era
    nobody can tell stays unrecorded (unknown)."""

    source = {t["name"]: t.get("ovs_source") or "" for t in targets}
    for item in list(targets) + [e for e in entries if e.get("real_ovs")]:
        if item.get("ovs_server_era"):
            continue
        name = item.get("name") or item.get("impl")
        src = item.get("ovs_source") or source.get(name, "")
        trees = [representation.source_tree(src), ovs_tree]
        era, how = representation.derive_server_era(
            item.get("ovs_commit") or "", item.get("ovs_version") or "",
            [t for t in trees if t])
        if era:
            item["ovs_server_era"] = era
            item["ovs_server_era_source"] = "derived when joined: " + how


def main(argv):
    ap = argparse.ArgumentParser(
        prog=O.prog("join"),
        description="A new claims results folder: PRIMARY plus every run it lacks (or that "
                    "failed there) taken from OTHER, e.g. an --only real reproduction's real "
                    "OVS runs or the scale-capped monitor claims of a smaller-scale one; the "
                    "report names the source.  Join again to add a third folder.",
        epilog="example:\n  scripts/jsonbench join results/reproduce-A results/reproduce-B "
               "--out results/reproduce-AB", formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("primary")
    ap.add_argument("other")
    ap.add_argument("--out", required=True, metavar="DIR", help="the new folder (must not exist)")
    O.claims(ap, "a real-OVS pairs file (a file with \"pairs\") that judges the real runs "
                 "when it names the same builds (default claims/real-ovs.json)")
    O.ovs_tree(ap, "an OVS git tree holding the real builds' commits (their server code era)")
    O.no_report(ap)
    args = ap.parse_args(argv)
    try:
        pairs = realclaims.claims_files(args.claims, None)[1]
    except (OSError, ValueError) as exc:
        ap.error("--claims: %s" % exc)
    out = os.path.abspath(args.out)
    join(os.path.abspath(args.primary), os.path.abspath(args.other), out, pairs)
    if not args.no_report:
        render_claims(out, args.ovs_tree)
    return 0
