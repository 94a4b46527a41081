"""The workloads on real OVS, measured from outside the processes.

Each function runs one repetition in a fresh RunDir and returns its
google-benchmark iteration rows, named and measured like the model's
phases (harness/wl_*.c) so that report, compare and gate read both:

  load     load/load       ovsdb-server start until it serves the database:
                           wall, CPU, RSS (VmRSS) and peak (VmHWM) after load
  dump     dump/load, dump/dump
                           `ovsdb-client dump` against that server: the
                           server's CPU (cpu_time) and RSS, the client's wall
                           (real_time), reply bytes (bytes_out)
  compact  compact/compact `ovsdb-tool compact` to a new file: wall, CPU,
                           peak RSS from wait4(); the process reads and
                           writes, so this row is the model's load+compact
"""

import os

from . import gbench
from .proc import RunDir, RunError, copy_file, run_to_end
from .server import Server

TOOL_TIMEOUT_S = float(os.environ.get("JSONBENCH_OVS_TOOL_TIMEOUT", 1800))
WORKLOADS = ("load", "dump", "compact")


def _cpu_fields(user, sys_):
    return {"cpu_time": (user + sys_) * 1e3, "user_cpu_s": user,
            "sys_cpu_s": sys_}


def _served(target, rd, ds):
    """A server on a copy of the dataset, served; returns (server, row)."""
    db = copy_file(ds["path"], rd.file("db.ovsdb"))
    srv = Server(target, rd, db)
    srv.start()
    wall = srv.wait_served(db_label=ds["path"])
    snap = srv.snapshot()
    mem = srv.memory_show()
    fields = {"real_time": wall * 1e3}
    fields.update(_cpu_fields(snap["user"], snap["sys"]))
    fields.update({"rss_bytes": snap["rss"], "peak_rss_bytes": snap["hwm"],
                   "bytes_out": 0,
                   "file_bytes": os.path.getsize(ds["path"]),
                   "rss_after_load_bytes": snap["rss"],
                   "ovsdb_cells": mem.get("cells", 0),
                   "ovsdb_atoms": mem.get("atoms", 0)})
    return srv, snap, fields


def load(target, ds, opts):
    with RunDir() as rd:
        srv, _, fields = _served(target, rd, ds)
        srv.stop()
        return [gbench.row("load/load", fields)]


def dump(target, ds, opts):
    with RunDir() as rd:
        srv, before, load_fields = _served(target, rd, ds)
        out = rd.file("dump.out")
        client = run_to_end(rd, [target.path("ovsdb-client"), "-f", "json",
                                 "dump", srv.remote], "client",
                            TOOL_TIMEOUT_S, stdout=out)
        after = srv.snapshot()
        srv.check_log(ds["path"])
        user = after["user"] - before["user"]
        sys_ = after["sys"] - before["sys"]
        fields = {"real_time": client["wall"] * 1e3}
        fields.update(_cpu_fields(user, sys_))
        fields.update({"rss_bytes": after["rss"],
                       "peak_rss_bytes": after["hwm"],
                       "bytes_out": os.path.getsize(out),
                       "client_cpu_s": client["user"] + client["sys"],
                       "client_peak_rss_bytes": client["maxrss"]})
        srv.stop()
        return [gbench.row("dump/load", load_fields),
                gbench.row("dump/dump", fields)]


def compact(target, ds, opts):
    with RunDir() as rd:
        src = copy_file(ds["path"], rd.file("db.ovsdb"))
        dst = rd.file("compacted.ovsdb")
        r = run_to_end(rd, [target.path("ovsdb-tool"), "compact", src, dst],
                       "ovsdb-tool", TOOL_TIMEOUT_S)
        # ovsdb-tool stops at a bad record and writes what came before it;
        # an empty result from a non-empty input is that case.
        if not os.path.exists(dst):
            raise RunError("%s: ovsdb-tool compact wrote nothing"
                           % ds["path"])
        fields = {"real_time": r["wall"] * 1e3}
        fields.update(_cpu_fields(r["user"], r["sys"]))
        fields.update({"rss_bytes": r["maxrss"], "peak_rss_bytes": r["maxrss"],
                       "bytes_out": os.path.getsize(dst),
                       "file_bytes": os.path.getsize(ds["path"])})
        return [gbench.row("compact/compact", fields)]


def get(name):
    if name not in WORKLOADS:
        raise ValueError("unknown workload %r (real OVS has: %s)"
                         % (name, ", ".join(WORKLOADS)))
    return globals()[name]
