"""Real OVS builds as a backend of the one execute loop (side "real" of
jsonbench.jobs, see jsonbench.backends for the interface): each repetition
runs one workload of realovs/workloads.py on one target, and a job's
repetitions become one google-benchmark document in runs/ (a dump's server
starts also give the load's rows).  Front ends pass RealBackend to
jsonbench.execute: the suite, the claims reproduction, the real runner,
history and find.

A job whose allocator (jobs.Job.allocator) is not the one its build links
runs with that allocator preloaded (LD_PRELOAD, measuring.Preloaded), and
its load rows must show the library mapped in the server, or the job
fails; its index entry says how the allocator came in."""

import argparse
import os
import subprocess

from .. import ROOT, gbench as core_gbench, measuring, resultsdir
from ..jobs import RunError
from ..util import sha256_of
from . import build as build_mod
from . import gbench
from . import workloads as wl


def txn_client(args):
    """The C client: built by meson, or compiled into the cache."""
    built = os.path.join(args.build_dir, "tools", "ovsdb-txn-client")
    if os.access(built, os.X_OK):
        return built
    src = os.path.join(ROOT, "tools", "ovsdb-txn-client.c")
    cache = args.ovs_cache_dir or build_mod.default_cache_dir()
    exe = os.path.join(cache, "tools", "ovsdb-txn-client-" +
                       sha256_of(src)[:12])
    if not os.access(exe, os.X_OK):
        os.makedirs(os.path.dirname(exe), exist_ok=True)
        cc = os.environ.get("CC", "cc")
        subprocess.run([cc, "-std=c11", "-D_GNU_SOURCE", "-O2", "-o",
                        exe + ".tmp", src], check=True)
        os.replace(exe + ".tmp", exe)
    return exe


def variant_name(workload, opts):
    """The suite's variant names; real monitor runs have no mode:
    monitor-c<clients> (jsonbench.calibration pairs them with the model's
    monitor-tree-c<clients>: the clients have a condition, which the
    server's json cache does not serve)."""
    if workload == "monitor":
        return "monitor-c%d" % opts.get("clients", 10)
    return workload


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



class RealBackend:
    def __init__(self, out_dir, build_dir=None, cache_dir=None, txn_client=None, setup=None):
        self.out_dir = out_dir
        self.setup = setup
        self.build_dir = build_dir
        self.cache_dir = cache_dir
        self.txn_client = txn_client

    def probe(self, job, tmp):
        pass

    def preload(self, job):
        """The library to preload for the job's allocator, None when its
        build links that allocator already (or the job names none)."""
        linked = getattr(job.target, "allocator", "glibc")
        if not job.allocator or job.allocator == linked:
            return None
        if linked != "glibc":
            raise RunError("%s links %s: it cannot run on %s" % (job.impl, linked,
                                                               job.allocator))
        lib = measuring.allocator_lib(job.allocator)
        if not lib:
            raise RunError("no %s library to preload for %s (apt-get install libjemalloc2)"
                           % (job.allocator, job.name))
        return lib

    def opts(self, job):
        """The job's runner options and the measuring setup (with the job's
        allocator preloaded); txn gets the C client, built once."""
        lib = self.preload(job)
        opts = dict(job.opts, setup=measuring.Preloaded(self.setup, lib) if lib else self.setup)
        if job.workload != "txn":
            return opts
        if not self.txn_client:
            self.txn_client = txn_client(argparse.Namespace(
                build_dir=self.build_dir, ovs_cache_dir=self.cache_dir))
        return dict(opts, txn_client=self.txn_client)

    def run(self, step, tmp):
        job = step.job
        return [run_one(job.target, job.workload, job.ds, self.opts(job))
                for _ in range(step.runs)]

    def finish(self, job, results, tmp):
        reps = [rows for r in results for rows in r]
        lib = self.preload(job)
        if lib:
            seen = [r.get("preload_mapped") for rows in reps for r in rows
                    if "preload_mapped" in r]
            if not seen or not all(seen):
                raise RunError("%s: LD_PRELOAD=%s, but /proc/PID/maps of the server shows "
                               "it in %d of its %d starts" % (job.name, lib, sum(x or 0 for x in seen),
                                                               len(reps)))
            job.meta["allocator_via"] = "LD_PRELOAD=%s (mapped in every server: /proc/PID/maps)" \
                % lib
        out = [(job, self._write(job, reps))]
        for d in job.derived:
            out.append((d, self._write(d, load_from_dump(reps))))
        return out

    def _write(self, job, reps):
        doc = job_document(job.target, job.workload, job.ds, reps,
                                  job.ds.get("sha256", ""), job.opts)
        doc["context"]["suite_variant"] = job.variant
        rel = os.path.join("runs", job.name + ".json")
        core_gbench.write_atomic(os.path.join(self.out_dir, rel), doc)
        return resultsdir.entry(job, rel)
