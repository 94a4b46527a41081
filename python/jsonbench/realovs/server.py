"""A real ovsdb-server run by the harness: start on a copy of a database,
wait until the database is served, read its memory and CPU, stop it."""

import os
import re
import subprocess
import time

from .proc import RunError, snapshot

START_TIMEOUT_S = float(os.environ.get("JSONBENCH_OVS_START_TIMEOUT", 900))


# ERR lines about connections, not the database file, which check_log
# ignores: on a starved machine raft peers miss each other's inactivity
# probes, disconnect and reconnect.
NOT_DATABASE_ERRORS = ("inactivity probe",)

class Server:
    def __init__(self, target, rundir, db_path, name="server", extra=()):
        self.target = target
        self.rundir = rundir
        self.name = name
        self.db = db_path
        self.sock = rundir.file(name + ".sock")
        self.ctl = rundir.file(name + ".ctl")
        self.log = rundir.file(name + ".log")
        self.remote = "unix:" + self.sock
        self.extra = list(extra)
        self.proc = None

    def start(self):
        argv = [self.target.path("ovsdb-server"), self.db,
                "--remote=punix:" + self.sock, "--unixctl=" + self.ctl,
                "--log-file=" + self.log, "-vconsole:off",
                "-vfile:info"] + self.extra
        self.proc = self.rundir.start(argv, self.name)
        return self.proc

    def appctl(self, *cmd, timeout=60):
        p = subprocess.run([self.target.path("ovs-appctl"), "-t", self.ctl,
                            "--timeout=%d" % timeout] + list(cmd),
                           capture_output=True, text=True)
        if p.returncode:
            raise RunError("ovs-appctl %s: %s" % (" ".join(cmd),
                                                  p.stderr.strip()))
        return p.stdout

    def wait_served(self, timeout=START_TIMEOUT_S, db_label=None):
        """Polls until the server answers on its control socket (it creates
        that socket only after opening its databases); returns the
        wall seconds since start.  A server that exits first is an error
        carrying its own message."""
        deadline = time.monotonic() + timeout
        delay = 0.005
        while True:
            if not self.proc.alive():
                msg = self.proc.stderr_tail() or self._log_tail()
                raise RunError("%s: ovsdb-server exited with status %s "
                               "before serving it: %s"
                               % (db_label or self.db,
                                  self.proc.popen.returncode, msg))
            if os.path.exists(self.ctl) and os.path.exists(self.sock):
                try:
                    self.appctl("version", timeout=5)
                except RunError:
                    pass
                else:
                    wall = time.monotonic() - self.proc.start
                    self.check_log(db_label)
                    return wall
            if time.monotonic() > deadline:
                raise RunError("%s: ovsdb-server did not serve it within "
                               "%.0f s" % (db_label or self.db, timeout))
            time.sleep(delay)
            delay = min(delay * 1.5, 0.1)

    def check_log(self, db_label=None):
        """ovsdb-server serves a database whose log has a bad record (it
        keeps the records before it) and says so only in its log: an error
        there makes the run fail, with the server's words (file, offset)."""
        try:
            with open(self.log, errors="replace") as f:
                errs = [l.split("|ERR|", 1)[1].strip() for l in f
                        if "|ERR|" in l and not any(
                            x in l for x in NOT_DATABASE_ERRORS)]
        except OSError:
            return
        if errs:
            raise RunError("%s: ovsdb-server reported: %s"
                           % (db_label or self.db, errs[0]))

    def _log_tail(self, n=5):
        try:
            with open(self.log, errors="replace") as f:
                return "".join(f.readlines()[-n:]).strip()
        except OSError:
            return ""

    def snapshot(self):
        return snapshot(self.proc.pid)

    def memory_show(self):
        """ovs-appctl memory/show as {name: number}, e.g. cells, atoms."""
        out = {}
        for k, v in re.findall(r"([A-Za-z_-]+):(\d+)",
                               self.appctl("memory/show")):
            out[k.replace("-", "_")] = int(v)
        return out

    def coverage(self):
        """coverage/show totals as {counter: total}."""
        out = {}
        for line in self.appctl("coverage/show").splitlines():
            m = re.match(r"\s*(\S+)\s+.*total:\s*(\d+)", line)
            if m:
                out[m.group(1)] = int(m.group(2))
        return out

    def poll_intervals_ms(self):
        """Long poll intervals the server logged ('Unreasonably long Nms
        poll interval'); OVS logs only those >= 1000 ms."""
        try:
            with open(self.log, errors="replace") as f:
                text = f.read()
        except OSError:
            return []
        return [int(x) for x in
                re.findall(r"Unreasonably long (\d+)ms poll interval", text)]

    def stop(self):
        if self.proc:
            self.rundir.stop(self.proc)
