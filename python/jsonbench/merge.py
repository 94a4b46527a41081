"""scripts/jsonbench merge: shard folders (--shards N --shard K, any front
end) into one results folder and its report.

Refuses (exit 1, nothing written) shards of another tool, commit, plan
(jsonbench.shards plan hash) or split, two folders of one shard, and
datasets whose sha256 differ between shards.  A shard that is missing (no
folder, or a folder its run never wrote) or did not finish is a failure
entry, and so is every job of it that has no result: the merged index
names every job of the plan once, as an entry or a failure.  env.json
lists the nodes ("shards": host, CPU model, measuring interval, load
average, timing hazards) and warns when their CPU models differ (ratios
stay valid per node, as each group ran on one node; absolute figures
across groups do not) or when a timing hazard was on for some shards
only.

Front ends with files of their own (the claims reproduction's
claims-run.json, a history's study.json) register a merger in TOOLS; the
rest is generic."""

import argparse
import os
import shutil
import sys

from . import gbench, resultsdir
from .env import node_conditions
from .util import log

EXAMPLES = """examples:
  scripts/jsonbench merge study/shard-1 study/shard-2 study/shard-3 --out study/merged
  scripts/jsonbench merge study/shard-* --shards 3 --out study/merged   (3 expected)"""

# Files a merge writes itself; everything else in a shard folder is copied.
OWN = {resultsdir.INDEX, resultsdir.ENV, resultsdir.PLAN, "report.md", "report.html",
       "charts", "slurm"}


class Refused(Exception):
    pass


class Shard:
    """One shard folder as the merge reads it (ok False: unreadable)."""

    def __init__(self, path):
        self.path = path
        self.plan = resultsdir.read_plan(path) if os.path.isdir(path) else None
        self.info = (self.plan or {}).get("shard")
        self.ok = bool(self.info)
        self.env = resultsdir.read_env(path) if self.ok else {}
        self.index = resultsdir.read_index(path) if self.ok else None

    @property
    def k(self):
        return self.info["index"]


def _datasets(shards):
    """{label: sha256} of every shard; raises Refused when two differ."""
    seen = {}
    for s in shards:
        for d in s.env.get("datasets") or []:
            label, digest = d.get("label"), d.get("sha256")
            if not digest:
                continue
            if label in seen and seen[label][0] != digest:
                raise Refused("dataset %s differs: %s has sha256 %s, %s has %s" % (
                    label, seen[label][1], seen[label][0][:12], s.path, digest[:12]))
            seen.setdefault(label, (digest, s.path))
    return seen


def check(shards, n=None):
    """The reference shard; raises Refused unless every readable shard is
    of the same tool, commit, plan and split."""
    good = [s for s in shards if s.ok]
    if not good:
        raise Refused("no shard folder holds a shard's plan.json (%s)"
                      % ", ".join(s.path for s in shards))
    ref = good[0]
    for s in good:
        for what, mine, theirs in (
                ("tool", s.plan.get("tool"), ref.plan.get("tool")),
                ("commit", s.plan.get("commit"), ref.plan.get("commit")),
                ("commit (env.json)", s.env.get("git_commit"), ref.env.get("git_commit")),
                ("plan hash", s.info.get("plan_hash"), ref.info.get("plan_hash")),
                ("shard count", s.info.get("count"), ref.info.get("count"))):
            if mine != theirs:
                raise Refused("%s is of another %s than %s (%s, not %s): shards of one "
                              "study must run one plan at one commit"
                              % (s.path, what, ref.path, mine, theirs))
    if n is not None and n != ref.info["count"]:
        raise Refused("--shards %d, but the shards were cut %d ways" % (n, ref.info["count"]))
    seen = {}
    for s in good:
        if s.k in seen:
            raise Refused("%s and %s are both shard %d" % (seen[s.k], s.path, s.k))
        seen[s.k] = s.path
    _datasets(good)
    return ref


def _copy_files(src, out_dir, taken, own):
    for dirpath, dirnames, filenames in os.walk(src):
        rel_dir = os.path.relpath(dirpath, src)
        if rel_dir == ".":
            dirnames[:] = [d for d in dirnames if d not in own]
            filenames = [f for f in filenames if f not in own]
        for f in filenames:
            rel = os.path.normpath(os.path.join(rel_dir, f))
            if rel in taken:
                raise Refused("%s and %s both hold %s" % (taken[rel], src, rel))
            taken[rel] = src
            dst = os.path.join(out_dir, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(os.path.join(dirpath, f), dst)


def _node(s):
    sh = s.env.get("shard") or {}
    measured = sh.get("measured") or [None, None]
    return {"shard": s.k, "folder": s.path, "host": sh.get("host", "?"),
            "cpu_model": sh.get("cpu_model") or s.env.get("cpu_model", "?"),
            "measured": measured,
            **node_conditions(s.env),
            "status": "interrupted" if s.plan.get("interrupted") or measured[1] is None
            else "finished"}


def merge(paths, out_dir, n=None):
    """Writes out_dir from the shard folders; returns (tool, failures).
    Raises Refused before writing anything."""
    if os.path.exists(out_dir):
        raise Refused("%s exists; --out must be a new folder" % out_dir)
    shards = [Shard(os.path.abspath(p)) for p in paths]
    ref = check(shards, n)
    n = ref.info["count"]
    split = ref.info["split"]
    tool = ref.plan.get("tool")
    good = sorted((s for s in shards if s.ok), key=lambda s: s.k)
    by_k = {s.k: s for s in good}
    hook = TOOLS.get(tool, {})
    own = OWN | set(hook.get("files", ()))

    os.makedirs(out_dir)
    try:
        taken = {}
        entries, failures = [], []
        for s in good:
            _copy_files(s.path, out_dir, taken, own)
            entries += s.index["entries"]
            failures += s.index["failures"]
        failures += _not_measured(split, by_k, shards, entries, failures, n)
        nodes = [_node(s) for s in good]
        env = _merged_env(ref, good, nodes, n)
        resultsdir.write_index(out_dir, entries, failures)
        resultsdir.write_env(out_dir, env)
        state = dict(ref.plan, argv=_shards().strip_args(ref.plan.get("argv", []), ["--out"]),
                     jobs=[j for part in split["assignment"] for j in part["jobs"]],
                     finished=[j for s in good for j in s.plan.get("finished", [])],
                     interrupted=any(s.plan.get("interrupted") for s in good) or len(good) < n,
                     plan_hash=ref.info["plan_hash"],
                     merged_from=[s.path for s in good])
        state.pop("shard", None)
        state["shards"] = split
        resultsdir.write_plan(out_dir, state)
        if hook.get("merge"):
            hook["merge"](good, out_dir, n)
    except Refused:
        shutil.rmtree(out_dir)
        raise
    return tool, failures, nodes, env.get("shard_warning")


def _not_measured(split, by_k, shards, entries, failures, n):
    """Failures for the jobs of the split that no shard's entries or
    failures account for, and one per shard missing or short, saying
    why."""
    accounted = {os.path.splitext(os.path.basename(e["file"]))[0] for e in entries} | \
        {f.get("job") for f in failures}
    out = []
    for part in split["assignment"]:
        k = part["shard"]
        s = by_k.get(k)
        if s is None:
            why = "shard %d of %d missing (no folder of it was given or readable: %s)" % (
                k, n, ", ".join(x.path for x in shards if not x.ok) or "none given")
        elif s.plan.get("interrupted"):
            why = "shard %d of %d did not finish (interrupted, %s)" % (k, n, s.path)
        else:
            why = "shard %d of %d finished without it (%s)" % (k, n, s.path)
        lost = [j for j in part["jobs"] if j not in accounted]
        if s is None or lost:
            out.append({"job": "shard-%d-of-%d" % (k, n), "shard": k,
                        "error": "%s: %d job(s) not measured" % (why, len(lost))})
        out += [{"job": j, "shard": k, "error": why} for j in lost]
    return out


def _merged_env(ref, good, nodes, n):
    """The merged folder's env: the reference shard's, with every shard's
    node and datasets, and a warning when their CPU models differ."""
    env = dict(ref.env)
    env.pop("shard", None)
    env["shards"] = nodes
    env["shard_plan_hash"] = ref.info["plan_hash"]
    env["datasets"] = []
    for s in good:
        env["datasets"] = resultsdir._union(env["datasets"], s.env.get("datasets"), "label")
    warnings = []
    models = sorted({x["cpu_model"] for x in nodes})
    if len(models) > 1:
        env["cpu_model"] = "; ".join("%s (shard %s)" % (m, ",".join(
            str(x["shard"]) for x in nodes if x["cpu_model"] == m)) for m in models)
        warnings.append("the shards ran on different CPU models: ratios within a group stay "
                        "valid, absolute figures across groups do not")
    env["timing_hazards"] = _hazards_of(good, warnings)
    _floor_of(env, good, warnings)
    if warnings:
        env["shard_warning"] = "; ".join(warnings)
    env["command"] = " ".join(_strip_cmd(env.get("command", ""))) + \
        "  (merged from %d of %d shards)" % (len(good), n)
    return env


def _floor_of(env, good, warnings):
    """The merged noise floor: the widest shard's (a difference must clear
    every node's noise), and a warning when the shards timed in different
    measuring setups (jsonbench.measuring)."""
    floors = [s.env["noise_floor"] for s in good
              if isinstance((s.env.get("noise_floor") or {}).get("spread_pct"), (int, float))]
    if floors:
        widest = max(floors, key=lambda f: f["spread_pct"])
        env["noise_floor"] = dict(widest, shards=[s.k for s in good
                                                  if s.env.get("noise_floor") is widest])
    setups = {(s.env.get("measuring_setup") or {}).get("setup", "not recorded") for s in good}
    if len(setups) > 1:
        warnings.append("the shards timed their processes in different setups (%s): CPU "
                        "figures across groups are not comparable" % ", ".join(sorted(setups)))


def _hazards_of(good, warnings):
    """Every shard's timing hazards (env.timing_hazards), each naming the
    shards it was seen on.  The reference shard's alone would hide a
    hazard that only another node had; when the shards differ in them, a
    warning: those nodes' time figures may swing by more than the others'."""
    seen = {}
    for s in good:
        for h in s.env.get("timing_hazards") or []:
            seen.setdefault(h.get("setting"), dict(h, shards=[]))["shards"].append(s.k)
    out = list(seen.values())
    for h in out:
        if len(h["shards"]) < len(good):
            warnings.append("shard(s) %s ran with the timing hazard %s (the others did "
                            "not): their CPU and wall times may swing more" % (
                                ",".join(map(str, h["shards"])), h.get("setting")))
    return out


def _strip_cmd(command):
    import shlex
    try:
        return [shlex.quote(a) for a in _shards().strip_args(shlex.split(command), ["--out"])]
    except ValueError:
        return [command]


def _shards():
    from . import shards
    return shards


# ------------------------------------------------------------------ tools

def _rank(info):
    """Which record of one run wins: its results, else its own shard's
    error, else another shard's "run by shard K" note."""
    return 2 if info.get("file") else 0 if "shard" in info else 1


def merge_claims(good, out_dir, n):
    """claims-run.json of a sharded claims reproduction: each shard's runs
    (a run of a missing shard: not measured, naming it), dataset stats,
    run seconds; the real-OVS runs and builds likewise."""
    from . import claims as C
    metas = [(s, C.load_run(s.path)) for s in good]
    metas = [(s, m[2]) for s, m in metas if m]
    if not metas:
        return
    meta = dict(metas[0][1])
    runs, stats, seconds, real, instr = {}, {}, {}, None, {}
    for s, m in metas:
        # Each shard counts the instructions of its own timing claims.
        for key, info in (m.get("instructions") or {}).items():
            if info.get("file") or key not in instr:
                instr[key] = info
        for key, info in m.get("runs", {}).items():
            if key not in runs or _rank(info) > _rank(runs[key]):
                runs[key] = info
        stats.update(m.get("dataset_stats") or {})
        seconds.update(m.get("run_seconds") or {})
        r = m.get("real")
        if r and r.get("runs"):
            if real is None:
                real = dict(r, runs={})
            real["targets"] = resultsdir._union(real.get("targets"), r.get("targets"), "name")
            for key, info in r["runs"].items():
                if info.get("file") or key not in real["runs"]:
                    real["runs"][key] = info
    have = {s.k for s in good}
    for key, info in runs.items():
        if "shard" in info and info["shard"] not in have:
            runs[key] = {"error": "shard %d of %d missing: not measured" % (info["shard"], n)}
    meta.update(runs=runs, dataset_stats=stats, run_seconds=seconds,
                command_args=" ".join(_strip_cmd(meta.get("command_args", ""))),
                complete=len(good) == n and all(m.get("complete") for _s, m in metas),
                duration_s=max(m.get("duration_s") or 0 for _s, m in metas),
                shards_duration_s=sum(m.get("duration_s") or 0 for _s, m in metas))
    if real is not None:
        meta["real"] = real
    if instr:
        meta["instructions"] = instr
    gbench.write_atomic(os.path.join(out_dir, C.RUN_FILE), meta)


def render_claims(out_dir):
    from .report import render_claims as render
    render(out_dir)


def render_suite(out_dir):
    from .report import generate
    log("merge: report %s" % generate(out_dir))


def merge_history(good, out_dir, n):
    from . import historyfigures
    historyfigures.merge_study(good, out_dir, n)


def render_history(out_dir):
    from .report import history
    history.render(out_dir)
    log("merge: report %s" % os.path.join(out_dir, "report.md"))


# tool (plan.json "tool") -> "files": its own files in a results folder
# (not copied), "merge"(shards, out_dir, n): writes them, "render"(out_dir)
TOOLS = {"suite": {"render": render_suite},
         "reproduce": {"files": ["claims-run.json"], "merge": merge_claims,
                       "render": render_claims},
         "history": {"files": ["study.json", "history.png", "history.svg"],
                     "merge": merge_history, "render": render_history}}


def main(argv):
    from . import options as O
    ap = argparse.ArgumentParser(
        prog=O.prog("merge"), description="Merge shard folders (--shards N "
        "--shard K) into one results folder and report; refuses shards of another commit, "
        "plan or dataset.", epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", metavar="SHARD_DIR")
    ap.add_argument("--out", required=True, metavar="DIR", help="the new folder (must not exist)")
    ap.add_argument("--shards", type=int, metavar="N",
                    help="how many shards the study has (default: as the shards say)")
    O.no_report(ap)
    args = ap.parse_args(argv)
    out = os.path.abspath(args.out)
    try:
        tool, failures, nodes, warning = merge(args.folders, out, args.shards)
    except Refused as exc:
        sys.stderr.write("merge: refused: %s\n" % exc)
        return 1
    for x in nodes:
        log("merge: shard %d on %s (%s), %s" % (x["shard"], x["host"], x["cpu_model"],
                                                 x["status"]))
    if warning:
        log("merge: WARNING: %s" % warning)
    log("merge: %d failure(s); results in %s" % (len(failures), out))
    if not args.no_report and TOOLS.get(tool, {}).get("render"):
        TOOLS[tool]["render"](out)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
