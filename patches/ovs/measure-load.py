#!/usr/bin/python3
"""Loads OVSDB files into real ovsdb-server builds and measures each load,
optionally a dump of the loaded database and an offline compaction.

usage: measure-load.py --target NAME=BUILDDIR [--target ...]
                       --db LABEL=FILE [--db ...] [--reps N] [--settle S]
                       [--dump [LABELS]] [--compact [LABELS]] [--client PATH]
                       [--monitors N]
                       [--parallel | --jobs N] [--out results.jsonl]

Each BUILDDIR holds ovsdb/ovsdb-server and utilities/ovs-appctl (an OVS
build directory, or a folder of links), and ovsdb/ovsdb-client for --dump
(unless --client names one client for every target) and ovsdb/ovsdb-tool
for --compact.  A FILE may be a standalone database (snapshot or log form)
or a clustered one (`ovsdb-tool create-cluster`).

For every repetition and every dataset, every target runs in turn
(interleaved; the order rotates by one target each repetition, so that no
target is always first after another dataset), or --jobs N of them at once
(--parallel: all; dumps still one at a time).  The database is copied into a fresh temporary
directory, ovsdb-server is started on it with the same options as the
project's real-OVS runner, and, once it answers on its control socket
(which it creates after reading its databases) and --settle seconds more
have passed, the process is measured from /proc:

  wall_s        start until it answered
  cpu_s         user + system CPU of the server at that moment (load CPU)
  rss_bytes     VmRSS (RSS after load)
  peak_rss_bytes VmHWM (peak RSS during load)
  heap_rss_bytes, anon_rss_bytes, anon_maps_256k: from /proc/PID/smaps, the
                resident bytes of the [heap] mapping and of the other
                anonymous mappings, and how many anonymous mappings of at
                least 256 KiB there are (an arena that stayed alive would
                show up here)

--dump then runs `ovsdb-client -f json dump` of the whole database
(output discarded; --dump LABEL,... only for those datasets), or with
--client rpc sends the request ovsdb-client dump sends (a select of every
column but _version of every table, after get_schema) and reads the reply
as bytes up to the answer to an echo sent after it: the server does the
same work while the client costs almost nothing (ovsdb-client parses and
formats the reply, about twice the server's CPU and 1.3x its RSS).  It
adds:

  dump_cpu_s    the server's CPU during the dump (its utime + stime after
                minus before)
  dump_wall_s, dump_client_cpu_s: the client's wall time and CPU
  dump_client_peak_rss_bytes (ovsdb-client) or dump_reply_bytes (rpc)
  dump_peak_rss_bytes: the server's VmHWM after the dump

--monitors N (before the dump) opens N client connections at once, each
sending the monitor_cond request of a client that wants the whole
database (every table, every column but _version, condition [true]) and
then an echo, and reads each initial reply as bytes up to the echo's
answer: the fan-out of clients connecting to a loaded server.  The
monitors stay held until all replies are in.  It adds:

  monitor_cpu_s the server's CPU over the N requests
  monitor_wall_s, monitor_reply_bytes (all N replies)
  monitor_rss_bytes, monitor_peak_rss_bytes: VmRSS with the monitors
                held, and VmHWM after them

The server is then stopped by its pid.  --compact [LABEL,...] runs `ovsdb-tool compact
COPY OUT` on another fresh copy of a standalone file (a clustered database
is compacted by its server, not offline, so it gets no compaction) and
adds compact_cpu_s and compact_peak_rss_bytes (the child's rusage: utime +
stime, ru_maxrss).

One JSON object per line goes to --out (appended) and stdout; the medians
are printed at the end.  Examples:

  measure-load.py --target base=bin-base --target new=bin-new \\
      --db nb-1=nb-1.db --reps 3
  measure-load.py --dump --compact --client bin-base/ovsdb/ovsdb-client \\
      --target base=bin-base --target new=bin-new --db nb-1=nb-1.db \\
      --db nb-1-cluster=nb-1-cluster.db --reps 3 --out r.jsonl
  measure-load.py --dump nb-1 --compact nb-1-log --jobs 2 \\
      --target base=bin-base --target new=bin-new --db nb-1=nb-1.db \\
      --db nb-1-log=nb-1-log.db --reps 3
"""

import argparse
import concurrent.futures
import json
import os
import selectors
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

TICK = os.sysconf("SC_CLK_TCK")
# One dump at a time, even with --jobs: the client holds the whole reply
# (about 1.3x the server's RSS).
DUMP_LOCK = threading.Lock()


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


def is_clustered(db):
    with open(db, "rb") as f:
        return f.read(13) == b"OVSDB CLUSTER"


def run_child(argv, stdout=subprocess.DEVNULL):
    """Runs 'argv' to its end: (wall s, CPU s, peak RSS bytes) of the child,
    from its own rusage.  Raises RuntimeError naming it if it fails."""
    start = time.monotonic()
    p = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode:
        raise RuntimeError("%s exited with %s: %s"
                           % (" ".join(argv), p.returncode,
                              err.decode(errors="replace")[-500:]))
    return (time.monotonic() - start, ru.ru_utime + ru.ru_stime,
            ru.ru_maxrss * 1024)


def compact(tool, db):
    tmp = tempfile.mkdtemp(prefix="measure-compact-")
    try:
        copy = os.path.join(tmp, os.path.basename(db))
        shutil.copyfile(db, copy)
        _, cpu, peak = run_child([tool, "compact", copy,
                                  os.path.join(tmp, "out.db")])
        return {"compact_cpu_s": round(cpu, 3),
                "compact_peak_rss_bytes": peak}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def get_schema(sock):
    """The database name and schema the server at 'sock' serves."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sock)
    dec, buf = json.JSONDecoder(), b""

    def call(method, params):
        nonlocal buf
        s.sendall(json.dumps({"method": method, "params": params,
                              "id": 0}).encode())
        while True:
            try:
                reply, end = dec.raw_decode(buf.decode())
                buf = buf[end:]
                return reply["result"]
            except ValueError:
                pass
            chunk = s.recv(1 << 16)
            if not chunk:
                raise RuntimeError("%s: closed before %s's reply"
                                   % (sock, method))
            buf += chunk
    try:
        name = [d for d in call("list_dbs", []) if d != "_Server"][0]
        return name, call("get_schema", [name])
    finally:
        s.close()


def rpc_dump(sock, name):
    """Asks the server what `ovsdb-client dump` asks (every column but
    _version of every table), then an echo, and reads the replies as bytes
    up to the echo's: (wall s, CPU s of this process, reply bytes)."""
    start, cpu0 = time.monotonic(), time.process_time()
    marker = ("measure-load-end-%d-%d" % (os.getpid(), time.time_ns())).encode()
    schema = get_schema(sock)[1]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sock)
    ops = [{"op": "select", "table": t, "where": [],
            "columns": ["_uuid"] + sorted(schema["tables"][t]["columns"])}
           for t in sorted(schema["tables"])]
    s.sendall(json.dumps({"method": "transact", "params": [name] + ops,
                          "id": 1}).encode()
              + json.dumps({"method": "echo", "params": [marker.decode()],
                            "id": 2}).encode())
    total, tail = 0, b""
    while True:
        chunk = s.recv(1 << 20)
        if not chunk:
            raise RuntimeError("%s: closed before the dump's end" % sock)
        total += len(chunk)
        tail = tail[-len(marker):] + chunk
        if marker in tail:
            break
    s.close()
    return time.monotonic() - start, time.process_time() - cpu0, total


def monitors(sock, pid, n):
    """N monitor_cond requests of the whole database at once (see the
    module's text)."""
    name, schema = get_schema(sock)
    where = {t: [{"columns": sorted(schema["tables"][t]["columns"]),
                  "where": [True]}] for t in sorted(schema["tables"])}
    socks, pending, total = [], {}, 0
    sel = selectors.DefaultSelector()
    before, start = proc_stat(pid), time.monotonic()
    try:
        for c in range(n):
            marker = ("measure-load-monitor-%d" % c).encode()
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sock)
            s.sendall(json.dumps({"method": "monitor_cond", "id": c,
                                  "params": [name, "m%d" % c, where]}).encode()
                      + json.dumps({"method": "echo", "id": "e",
                                    "params": [marker.decode()]}).encode())
            socks.append(s)
            pending[s] = (marker, b"")
            sel.register(s, selectors.EVENT_READ)
        while pending:
            if time.monotonic() - start > 1200:
                raise RuntimeError("monitors: %d replies missing after "
                                   "1200 s" % len(pending))
            for key, _ in sel.select(1):
                s = key.fileobj
                chunk = s.recv(1 << 20)
                if not chunk:
                    raise RuntimeError("%s: closed before a monitor's "
                                       "reply" % sock)
                total += len(chunk)
                marker, tail = pending[s]
                tail = tail[-len(marker):] + chunk
                if marker in tail:
                    del pending[s]
                    sel.unregister(s)
                else:
                    pending[s] = (marker, tail)
        wall, after = time.monotonic() - start, proc_stat(pid)
        rss, hwm = proc_status(pid)
    finally:
        for s in socks:
            s.close()
    return {"monitor_cpu_s": round(after - before, 3),
            "monitor_wall_s": round(wall, 3),
            "monitor_reply_bytes": total, "monitor_rss_bytes": rss,
            "monitor_peak_rss_bytes": hwm}


def dump(client, tool, db, sock, pid):
    name = subprocess.run([tool, "db-name", db], capture_output=True,
                          text=True, check=True).stdout.strip()
    with DUMP_LOCK:
        before = proc_stat(pid)
        if client == "rpc":
            wall, cpu, size = rpc_dump(sock, name)
            extra = {"dump_reply_bytes": size}
        else:
            wall, cpu, peak = run_child([client, "-f", "json", "dump",
                                         "unix:" + sock, name])
            extra = {"dump_client_peak_rss_bytes": peak}
        after = proc_stat(pid)
    row = {"dump_cpu_s": round(after - before, 3),
           "dump_wall_s": round(wall, 3),
           "dump_client_cpu_s": round(cpu, 3),
           "dump_peak_rss_bytes": proc_status(pid)[1]}
    row.update(extra)
    return row


def run_one(build, db, settle, client=None, n_monitors=0):
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
                if time.monotonic() - start > 1200:
                    raise RuntimeError("not served within 1200 s")
                time.sleep(delay)
                delay = min(delay * 1.5, 0.1)
            wall = time.monotonic() - start
            cpu = proc_stat(p.pid)
            if settle:
                time.sleep(settle)
            rss, hwm = proc_status(p.pid)
            heap, anon, big = smaps(p.pid)
            row = {"wall_s": round(wall, 3), "cpu_s": cpu, "rss_bytes": rss,
                   "peak_rss_bytes": hwm, "heap_rss_bytes": heap,
                   "anon_rss_bytes": anon, "anon_maps_256k": big}
            if n_monitors:
                with DUMP_LOCK:
                    row.update(monitors(sock, p.pid, n_monitors))
            if client:
                tool = os.path.join(build, "ovsdb", "ovsdb-tool")
                row.update(dump(client, tool, copy, sock, p.pid))
            return row
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
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog=__doc__[__doc__.index("Examples:"):],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", action="append", required=True,
                    help="NAME=BUILDDIR")
    ap.add_argument("--db", action="append", required=True,
                    help="LABEL=FILE")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--settle", type=float, default=0.0)
    ap.add_argument("--dump", nargs="?", const="all", metavar="LABELS",
                    help="also measure a dump of the loaded database (of "
                    "every dataset, or of the LABELS, comma-separated)")
    ap.add_argument("--compact", nargs="?", const="all", metavar="LABELS",
                    help="also measure `ovsdb-tool compact` of the file "
                    "(every standalone dataset, or the LABELS)")
    ap.add_argument("--client", help="the ovsdb-client for every target "
                    "(default: each target's), or 'rpc': send the same "
                    "request from this script and read the reply as bytes")
    ap.add_argument("--monitors", type=int, default=0, metavar="N",
                    help="also measure N clients asking at once to monitor "
                    "the whole loaded database (before the dump)")
    ap.add_argument("--out")
    ap.add_argument("--parallel", action="store_true",
                    help="run each dataset in all targets at once (the "
                    "same moment for each, on a busy machine)")
    ap.add_argument("--jobs", type=int, default=1,
                    help="targets run at once (default 1; clustered "
                    "databases always 1: their raft port is in the file)")
    args = ap.parse_args()
    targets = [t.split("=", 1) for t in args.target]
    dbs = [d.split("=", 1) for d in args.db]
    jobs = len(targets) if args.parallel else max(1, args.jobs)

    def wanted(option, label):
        return option == "all" or (option and label in option.split(","))
    rows = []
    for rep in range(args.reps):
        order = targets[rep % len(targets):] + targets[:rep % len(targets)]
        for label, db in dbs:
            clustered = is_clustered(db)

            def one(name, build):
                row = {"target": name, "dataset": label, "rep": rep,
                       "clustered": clustered,
                       "time": time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                             time.gmtime())}
                client = None
                if wanted(args.dump, label):
                    client = args.client or os.path.join(
                        build, "ovsdb", "ovsdb-client")
                try:
                    row.update(run_one(build, db, args.settle, client,
                                       args.monitors))
                    if wanted(args.compact, label) and not clustered:
                        row.update(compact(os.path.join(build, "ovsdb",
                                                        "ovsdb-tool"), db))
                except (OSError, RuntimeError,
                        subprocess.CalledProcessError) as exc:
                    row["error"] = str(exc)
                return row
            n = 1 if clustered else min(jobs, len(order))
            with concurrent.futures.ThreadPoolExecutor(n) as ex:
                futures = [ex.submit(one, *t) for t in order]
                for fut in futures:
                    row = fut.result()
                    row["parallel"] = n > 1
                    rows.append(row)
                    line = json.dumps(row)
                    print(line, flush=True)
                    if args.out:
                        with open(args.out, "a") as f:
                            f.write(line + "\n")
    for label, _ in dbs:
        for name, _ in targets:
            mine = [r for r in rows if r["target"] == name
                    and r["dataset"] == label and "error" not in r]
            med = {k: statistics.median(r[k] for r in mine)
                   for k in ("cpu_s", "rss_bytes", "peak_rss_bytes",
                             "monitor_cpu_s", "dump_cpu_s",
                             "compact_cpu_s")
                   if mine and all(k in r for r in mine)}
            print("%-14s %-14s %s" % (label, name, "  ".join(
                "%s %.0f MiB" % (k, v / 2**20) if k.endswith("bytes")
                else "%s %.2f" % (k, v) for k, v in med.items())),
                file=sys.stderr)


if __name__ == "__main__":
    main()
