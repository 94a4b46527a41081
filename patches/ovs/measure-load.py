#!/usr/bin/python3
"""Loads OVSDB files into real ovsdb-server builds and measures each load.

usage: measure-load.py --target NAME=BUILDDIR [--target ...]
                       --db LABEL=FILE [--db ...] [--reps N] [--settle S]
                       [--out results.jsonl]

Each BUILDDIR is an OVS build directory (ovsdb/ovsdb-server and
utilities/ovs-appctl in it).  For every repetition, every dataset and every
target in turn (interleaved), the database is copied into a fresh temporary
directory, ovsdb-server is started on it with the same options as the
project's real-OVS runner, and, once it answers on its control socket
(which it creates after reading its databases) and --settle seconds more
have passed, the process is measured from /proc:

  wall_s        start until it answered
  cpu_s         user + system CPU of the server at that moment
  rss_bytes     VmRSS (RSS after load)
  peak_rss_bytes VmHWM (peak RSS during load)
  heap_rss_bytes, anon_rss_bytes, anon_maps_256k: from /proc/PID/smaps, the
                resident bytes of the [heap] mapping and of the other
                anonymous mappings, and how many anonymous mappings of at
                least 256 KiB there are (an arena that stayed alive would
                show up here)

The server is then stopped by its pid.  One JSON object per line goes to
--out (appended) and stdout; the medians are printed at the end.
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

TICK = os.sysconf("SC_CLK_TCK")


def proc_stat(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    # utime and stime are fields 14 and 15 of the whole line.
    return (int(fields[11]) + int(fields[12])) / TICK


def proc_status(pid):
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:")):
                out[line.split(":")[0]] = int(line.split()[1]) * 1024
    return out["VmRSS"], out["VmHWM"]


def smaps(pid):
    heap = anon = big = 0
    name, size = None, 0
    with open("/proc/%d/smaps" % pid) as f:
        for line in f:
            parts = line.split()
            if "-" in parts[0] and len(parts) >= 5 and ":" not in parts[0]:
                lo, hi = (int(x, 16) for x in parts[0].split("-"))
                size = hi - lo
                name = parts[5] if len(parts) > 5 else ""
                if not name and size >= 256 * 1024:
                    big += 1
            elif parts[0] == "Rss:":
                rss = int(parts[1]) * 1024
                if name == "[heap]":
                    heap += rss
                elif name == "":
                    anon += rss
    return heap, anon, big


def run_one(build, db, settle):
    tmp = tempfile.mkdtemp(prefix="measure-load-")
    try:
        copy = os.path.join(tmp, os.path.basename(db))
        shutil.copyfile(db, copy)
        sock, ctl = os.path.join(tmp, "s.sock"), os.path.join(tmp, "s.ctl")
        server = os.path.join(build, "ovsdb", "ovsdb-server")
        appctl = os.path.join(build, "utilities", "ovs-appctl")
        argv = [server, copy, "--remote=punix:" + sock, "--unixctl=" + ctl,
                "--log-file=" + os.path.join(tmp, "s.log"),
                "-vconsole:off", "-vfile:info"]
        err = open(os.path.join(tmp, "stderr"), "w")
        start = time.monotonic()
        p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err,
                             start_new_session=True)
        try:
            delay = 0.005
            while True:
                if p.poll() is not None:
                    raise RuntimeError("%s exited with %s" % (server,
                                                              p.returncode))
                if os.path.exists(ctl) and os.path.exists(sock):
                    r = subprocess.run([appctl, "-t", ctl, "--timeout=5",
                                        "version"], capture_output=True)
                    if r.returncode == 0:
                        break
                if time.monotonic() - start > 600:
                    raise RuntimeError("not served within 600 s")
                time.sleep(delay)
                delay = min(delay * 1.5, 0.1)
            wall = time.monotonic() - start
            cpu = proc_stat(p.pid)
            if settle:
                time.sleep(settle)
            rss, hwm = proc_status(p.pid)
            heap, anon, big = smaps(p.pid)
            return {"wall_s": round(wall, 3), "cpu_s": cpu, "rss_bytes": rss,
                    "peak_rss_bytes": hwm, "heap_rss_bytes": heap,
                    "anon_rss_bytes": anon, "anon_maps_256k": big}
        finally:
            if p.poll() is None:
                os.kill(p.pid, signal.SIGTERM)
                try:
                    p.wait(30)
                except subprocess.TimeoutExpired:
                    os.kill(p.pid, signal.SIGKILL)
                    p.wait()
            err.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", action="append", required=True)
    ap.add_argument("--db", action="append", required=True)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--settle", type=float, default=0.0)
    ap.add_argument("--out")
    ap.add_argument("--parallel", action="store_true",
                    help="load each dataset into all targets at once (the "
                    "same moment for each, on a busy machine)")
    args = ap.parse_args()
    targets = [t.split("=", 1) for t in args.target]
    dbs = [d.split("=", 1) for d in args.db]
    rows = []
    for rep in range(args.reps):
        for label, db in dbs:
            def one(name, build):
                row = {"target": name, "dataset": label, "rep": rep,
                       "parallel": args.parallel,
                       "time": time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                             time.gmtime())}
                row.update(run_one(build, db, args.settle))
                return row
            if args.parallel:
                with concurrent.futures.ThreadPoolExecutor(len(targets)) as ex:
                    done = list(ex.map(lambda t: one(*t), targets))
            else:
                done = [one(name, build) for name, build in targets]
            for row in done:
                rows.append(row)
                line = json.dumps(row)
                print(line, flush=True)
                if args.out:
                    with open(args.out, "a") as f:
                        f.write(line + "\n")
    for label, _ in dbs:
        for name, _ in targets:
            mine = [r for r in rows if r["target"] == name
                    and r["dataset"] == label]
            med = {k: statistics.median(r[k] for r in mine)
                   for k in ("cpu_s", "rss_bytes", "peak_rss_bytes")}
            print("%-6s %-12s cpu %.2f s  rss %.0f MiB  peak %.0f MiB"
                  % (label, name, med["cpu_s"], med["rss_bytes"] / 2**20,
                     med["peak_rss_bytes"] / 2**20), file=sys.stderr)


if __name__ == "__main__":
    main()
