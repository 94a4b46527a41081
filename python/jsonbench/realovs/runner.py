"""Runs workloads x datasets x real OVS targets and writes a results folder
in the suite's layout (index.json, env.json, runs/*.json), so that the
report, compare and gate read it like the model's."""

import json
import os
import platform
import re
import subprocess
import sys
import time

from . import build as build_mod
from . import gbench
from . import workloads as wl
from .proc import RunError
from ..util import sha256_of

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__)))))
SCHEMAS = {"nb": "/usr/share/ovn/ovn-nb.ovsschema",
           "sb": "/usr/share/ovn/ovn-sb.ovsschema"}


GENERATED_NAME = re.compile(r"^(nb|sb)-s([0-9.e+-]+)-(snapshot|log)-seed\d+"
                            r"\.ovsdb$")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def add_run_args(p):
    p.add_argument("--dataset", action="append", default=[],
                   help="an OVSDB standalone file (repeatable)")
    p.add_argument("--scale", help="comma list: generate NB and SB at these "
                   "scales into datasets/out/ (as scripts/suite.sh names them)")
    p.add_argument("--seed", type=int, default=1, help="dataset seed (1)")
    p.add_argument("--build-dir", default=os.path.join(ROOT, "build"),
                   help="meson build dir holding datasets/ovsdb-gen")
    p.add_argument("--workloads", default="load,dump,compact",
                   help="comma list of %s" % ",".join(wl.WORKLOADS))
    p.add_argument("--repetitions", type=int, default=3)
    p.add_argument("--clients", type=int,
                   help="monitor: ovsdb-client monitor-cond clients (10); "
                   "txn: concurrent clients (5)")
    p.add_argument("--batches", type=int, default=5,
                   help="monitor: update transactions (5)")
    p.add_argument("--batch-rows", type=int, default=100,
                   help="monitor: rows modified per transaction (100)")
    p.add_argument("--txns", type=int, default=1000,
                   help="txn: inserts per client (1000; --clients "
                   "defaults to 5 for txn)")
    p.add_argument("--entries", type=int, default=100,
                   help="raft: transactions through the cluster (100)")
    p.add_argument("--txn-client", help="tools/ovsdb-txn-client executable "
                   "(default: BUILD-DIR/tools/, else compiled into the "
                   "build cache)")
    p.add_argument("--out", help="results folder (default "
                   "results/<UTC stamp>-real-ovs)")


def schema_kind(path):
    with open(path, "rb") as f:
        head = f.read(4096).decode("utf-8", "replace")
    for name, kind in (("OVN_Southbound", "sb"), ("OVN_Northbound", "nb")):
        if name in head:
            return kind
    return "db"


def record_count(path, limit=3):
    """Records in an OVSDB file (counting header lines), up to 'limit'."""
    n = 0
    with open(path, "rb") as f:
        for line in f:
            if line.startswith(b"OVSDB "):
                n += 1
                if n >= limit:
                    break
    return n



def generated_path(kind, scale, form, seed):
    return os.path.join(ROOT, "datasets", "out", "%s-s%g-%s-seed%d.ovsdb"
                        % (kind, scale, form, seed))


def ensure_generated(args, kind, scale, form):
    path = generated_path(kind, scale, form, args.seed)
    if os.path.exists(path):
        return path
    gen = os.path.join(args.build_dir, "datasets", "ovsdb-gen")
    if not os.access(gen, os.X_OK):
        raise SystemExit("real-ovs: %s is missing (build the project first)"
                         % gen)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    log("real-ovs: generating %s" % os.path.relpath(path, ROOT))
    subprocess.run([gen, "-q", "--schema", SCHEMAS[kind], "--profile",
                    os.path.join(ROOT, "datasets", "profiles",
                                 kind + ".profile"),
                    "--scale", "%g" % scale, "--form", form,
                    "--seed", str(args.seed), "-o", path], check=True)
    return path


def datasets_from_args(args, workloads):
    """Dataset dicts as the suite makes them: label, path, kind, scale, form."""
    out = []
    for p in args.dataset:
        if not os.path.exists(p):
            raise SystemExit("real-ovs: dataset %s not found" % p)
        m = GENERATED_NAME.match(os.path.basename(p))
        if m:
            # A file the suite generated gets the suite's label, so that
            # model and real results on it line up.
            kind, scale, form = m.group(1), float(m.group(2)), m.group(3)
            out.append({"label": "%s-%g%s" % (kind, scale, "-log"
                                              if form == "log" else ""),
                        "path": os.path.abspath(p), "kind": kind,
                        "scale": scale, "form": form})
            continue
        label = os.path.basename(p).rsplit(".", 1)[0]
        form = "log" if record_count(p) > 2 else "snapshot"
        out.append({"label": label, "path": os.path.abspath(p),
                    "kind": schema_kind(p), "scale": None, "form": "any"
                    if len(args.dataset) == 1 else form})
    for s in (args.scale or "").split(","):
        if not s:
            continue
        scale = float(s)
        for kind in ("nb", "sb"):
            forms = ["snapshot"] + (["log"] if "compact" in workloads else [])
            for form in forms:
                out.append({"label": "%s-%g%s" % (kind, scale, "-log"
                                                  if form == "log" else ""),
                            "path": ensure_generated(args, kind, scale, form),
                            "kind": kind, "scale": scale, "form": form})
    if not out:
        raise SystemExit("real-ovs: give --dataset FILE or --scale S")
    return out


def plan(workloads, datasets):
    """(workload, dataset) pairs: compact on log forms, the rest on
    snapshots; a dataset of form 'any' takes every workload.  txn has its
    own schema: it runs once, filed under the first NB dataset, as the
    suite files the model's txn."""
    jobs = []
    for w in workloads:
        want = "log" if w == "compact" else "snapshot"
        mine = [ds for ds in datasets if ds["form"] in (want, "any")]
        if w in ("txn", "raft"):
            mine = ([ds for ds in mine if ds["kind"] == "nb"] or mine)[:1]
        jobs += [(w, ds) for ds in mine]
    return jobs


def txn_client(args):
    """The C client: given, built by meson, or compiled into the cache."""
    if args.txn_client:
        return args.txn_client
    built = os.path.join(args.build_dir, "tools", "ovsdb-txn-client")
    if os.access(built, os.X_OK):
        return built
    src = os.path.join(ROOT, "tools", "ovsdb-txn-client.c")
    cache = args.cache_dir or build_mod.default_cache_dir()
    exe = os.path.join(cache, "tools", "ovsdb-txn-client-" +
                       sha256_of(src)[:12])
    if not os.access(exe, os.X_OK):
        os.makedirs(os.path.dirname(exe), exist_ok=True)
        cc = os.environ.get("CC", "cc")
        subprocess.run([cc, "-std=c11", "-D_GNU_SOURCE", "-O2", "-o",
                        exe + ".tmp", src], check=True)
        os.replace(exe + ".tmp", exe)
    return exe


def env_json(args, targets, datasets, duration):
    return {
        "source": "real-ovs",
        "command": " ".join(sys.argv),
        "kernel": platform.release(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "targets": [dict(t.context(), name=t.name,
                         programs=t.programs) for t in targets],
        "datasets": [{k: d.get(k) for k in ("label", "path", "kind",
                                             "scale", "form")}
                     for d in datasets],
        "duration_s": round(duration, 1),
    }


def variant_name(workload, opts):
    """The suite's variant names; real monitor runs have no mode:
    monitor-c<clients> (jsonbench.calibration pairs them with the model's
    monitor-tree-c<clients>: the clients have a condition, which the
    server's json cache does not serve)."""
    if workload == "monitor":
        return "monitor-c%d" % opts.get("clients", 10)
    return workload


def run_job(target, workload, ds, repetitions, sha, shared, opts):
    """One job's document.  'dump' starts the server exactly as 'load'
    does and measures that start as dump/load, so when both run on one
    dataset, load reuses those rows (kept in 'shared') instead of loading
    the database again."""
    key = (target.name, ds["path"])
    if workload == "load" and key in shared:
        reps = load_from_dump(shared.pop(key))
    else:
        fn = wl.get(workload)
        reps = [fn(target, ds, opts) for _ in range(repetitions)]
        if workload == "dump":
            shared[key] = reps
    return job_document(target, workload, ds, reps, sha, opts)


def load_from_dump(dump_reps):
    """The load rows of each dump repetition (its server start), renamed
    as a load run's."""
    return [[gbench.renamed(r, "load/load") for r in rows
             if r["name"] == "dump/load"] for rows in dump_reps]


def run_one(target, workload, ds, opts):
    """One repetition's rows (callers that interleave targets)."""
    return wl.get(workload)(target, ds, opts)


def job_document(target, workload, ds, reps, sha, opts):
    """The results document of one job from its repetitions' rows."""
    repetitions = len(reps)
    params = "repetitions=%d" % repetitions
    if workload in ("monitor", "txn", "raft"):
        params += " " + " ".join("%s=%s" % kv for kv in sorted(opts.items())
                                 if kv[0] != "txn_client")
    ctx = gbench.context(target, workload, params,
                         dataset=ds["path"], dataset_sha256=sha)
    return gbench.document(ctx, reps)


def run(args, targets, failures):
    workloads = [w for w in args.workloads.split(",") if w]
    for w in workloads:
        wl.get(w)
    datasets = datasets_from_args(args, workloads)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    out_dir = args.out or os.path.join(ROOT, "results", stamp + "-real-ovs")
    os.makedirs(os.path.join(out_dir, "runs"), exist_ok=True)
    shas = {d["path"]: sha256_of(d["path"]) for d in datasets}
    start = time.time()
    index = []
    # An existing folder is added to (one target per invocation, one report).
    old = os.path.join(out_dir, "index.json")
    if os.path.exists(old):
        with open(old) as f:
            prev = json.load(f)
        index = prev.get("entries", [])
        failures[:0] = prev.get("failures", [])
    if not targets:
        log("real-ovs: no target to run")
        gbench.write_atomic(os.path.join(out_dir, "index.json"),
                            {"entries": index, "failures": failures})
        return 1
    # dump before load on the same dataset: load reuses dump's start.
    order = sorted(workloads, key=lambda w: (w != "dump", w != "load"))
    jobs = [(t, w, d) for t in targets for (w, d) in plan(order, datasets)]
    shared = {}
    mon_opts = {"clients": args.clients or 10, "batches": args.batches,
                "batch_rows": args.batch_rows}
    txn_opts = {"clients": args.clients or 5, "txns": args.txns}
    if "txn" in workloads:
        txn_opts["txn_client"] = txn_client(args)
    for i, (t, w, ds) in enumerate(jobs, 1):
        log("[%d/%d] %s %s %s" % (i, len(jobs), t.name, w, ds["label"]))
        opts = {"monitor": mon_opts, "txn": txn_opts,
                "raft": {"entries": args.entries}}.get(w, {})
        name = "%s__%s__%s" % (ds["label"], variant_name(w, opts), t.name)
        try:
            doc = run_job(t, w, ds, args.repetitions, shas[ds["path"]],
                          shared, opts)
        except (RunError, OSError) as e:
            log("    FAILED: %s" % e)
            failures.append({"impl": t.name, "workload": w,
                             "dataset": ds["label"], "error": str(e)})
        else:
            path = os.path.join(out_dir, "runs", name + ".json")
            gbench.write_atomic(path, doc)
            rel = os.path.relpath(path, out_dir)
            index = [e for e in index if e["file"] != rel]   # a re-run
            index.append({"file": rel,
                          "impl": t.name, "workload": w,
                          "variant": variant_name(w, opts),
                          "dataset": ds["label"], "kind": ds["kind"].upper(),
                          "scale": ds["scale"], "form": ds["form"],
                          "clients": opts.get("clients"),
                          "mode": None, "params": "",
                          "allocator": getattr(t, "allocator", "glibc"),
                          "source": "harness",
                          "real_ovs": True, "ovs_version": t.version,
                          "ovs_commit": t.commit,
                          "ovs_representation": t.representation,
                          "ovs_server_era": t.server_era})
        gbench.write_atomic(os.path.join(out_dir, "index.json"),
                            {"entries": index, "failures": failures})
    gbench.write_atomic(os.path.join(out_dir, "env.json"),
                        env_json(args, targets, datasets, time.time() - start))
    log("real-ovs: %d results, %d failures in %s"
        % (len(index), len(failures), out_dir))
    return 1 if failures else 0
