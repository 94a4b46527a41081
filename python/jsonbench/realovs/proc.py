"""Process control and measurement from outside: /proc and wait4().

Every process is started in its own session (so its process group id is its
pid) inside a RunDir, which remembers them; leaving the RunDir stops each
one that is still running by its own pid/process group, never by name, and
then deletes the directory with its sockets, logs and database copies.
"""

import ctypes
import functools
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time

from ..jobs import RunError  # noqa: F401  (raised here, and by its callers)

CLK_TCK = os.sysconf("SC_CLK_TCK")
PR_SET_PDEATHSIG = 1
PAGE = os.sysconf("SC_PAGE_SIZE")


def _die_with_parent(parent):
    """In the child before exec: SIGTERM it if the runner dies, even by
    SIGKILL, when no finally block can run (Linux prctl; best effort).
    A runner killed between fork and prctl sends no signal, so the child
    then sees it has been re-parented and ends itself."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:
        os._exit(1)


def _stat_fields(pid):
    """/proc/<pid>/stat from its third field (state) on."""
    with open("/proc/%d/stat" % pid) as f:
        stat = f.read()
    # The command name may hold spaces: split after its closing paren.
    return stat[stat.rindex(")") + 2:].split()


def _ticks_cpu_s(pid):
    """(user, sys) seconds from /proc/<pid>/stat, in clock ticks (10 ms)."""
    fields = _stat_fields(pid)
    return int(fields[11]) / CLK_TCK, int(fields[12]) / CLK_TCK


def proc_faults(pid):
    """(minor, major) page faults of a live process so far (/proc/<pid>/stat
    minflt, majflt): what its system CPU went on."""
    fields = _stat_fields(pid)
    return int(fields[7]), int(fields[9])


def _schedstat_cpu_s(pid):
    """Seconds on CPU of all of pid's threads, in nanoseconds' resolution
    (/proc/<pid>/task/*/schedstat), or None where the kernel has no
    schedstat.  Threads that already ended are not counted (ticks are)."""
    total_ns = 0
    try:
        tasks = os.listdir("/proc/%d/task" % pid)
        for tid in tasks:
            try:
                with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                    total_ns += int(f.read().split()[0])
            except FileNotFoundError:
                pass                    # the thread ended meanwhile
    except (OSError, ValueError, IndexError):
        return None
    return total_ns / 1e9


def proc_cpu_s(pid):
    """(user, sys) seconds of a live process.

    Ticks are 10 ms, so a small dump's server CPU reads 0.0 on a fast
    machine.  Where schedstat gives more, its exact total is split between
    user and sys in the proportion of the ticks (all user if no tick yet);
    the total, which is what cpu_time reports, is then exact."""
    user, sys_ = _ticks_cpu_s(pid)
    fine = _schedstat_cpu_s(pid)
    ticks = user + sys_
    # The kernel's ticks are the same runtime, user and sys each cut down
    # to a whole tick (so up to two ticks less); any other gap means a
    # thread ended, whose time only the ticks still hold.
    if fine is None or not ticks <= fine < ticks + 2.0 / CLK_TCK:
        return user, sys_
    if ticks == 0:
        return fine, 0.0
    return fine * user / ticks, fine * sys_ / ticks


def settle(read, quiet_s, timeout, key=lambda v: v):
    """read() once key(read()) has not moved for 'quiet_s' (the process
    finished what it was doing), or the last reading after 'timeout'."""
    deadline = time.monotonic() + timeout
    last = read()
    while time.monotonic() < deadline:
        time.sleep(quiet_s)
        now = read()
        if key(now) == key(last):
            return now
        last = now
    return last


def fine_cpu_clock():
    """True if proc_cpu_s has better than tick resolution here."""
    return _schedstat_cpu_s(os.getpid()) not in (None, 0.0)


def proc_mem(pid):
    """{'rss': bytes, 'hwm': bytes} of a live process (VmRSS, VmHWM)."""
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                out["rss"] = int(line.split()[1]) * 1024
            elif line.startswith("VmHWM:"):
                out["hwm"] = int(line.split()[1]) * 1024
    return out


def snapshot(pid):
    user, sys_ = proc_cpu_s(pid)
    m = proc_mem(pid)
    minflt, majflt = proc_faults(pid)
    return {"wall": time.monotonic(), "user": user, "sys": sys_,
            "rss": m.get("rss", 0), "hwm": m.get("hwm", 0),
            "minflt": minflt, "majflt": majflt}


def maps_file(pid, path):
    """True when process 'pid' has 'path' (a shared library) mapped, as
    /proc/PID/maps shows it: a preloaded allocator really in use."""
    want = os.path.realpath(path)
    try:
        with open("/proc/%d/maps" % pid) as f:
            return any(line.rstrip("\n").endswith(want) for line in f)
    except OSError:
        return False


def _alive(pid):
    """True while 'pid' exists and is not a zombie."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def live_pids_mentioning(text):
    """pids of live (not zombie) processes, other than this one, whose
    command line contains 'text': what a run left behind in its folder."""
    pids = []
    for p in os.listdir("/proc"):
        if not p.isdigit() or int(p) == os.getpid():
            continue
        try:
            with open("/proc/%s/cmdline" % p, "rb") as f:
                cmd = f.read()
        except OSError:
            continue
        if text.encode() in cmd and _alive(int(p)):
            pids.append(int(p))
    return pids


class Proc:
    """A started process: Popen plus where its output goes."""

    def __init__(self, popen, name, stderr_path):
        self.popen = popen
        self.name = name
        self.stderr_path = stderr_path
        self.start = time.monotonic()
        self.rusage = None
        self.end = None

    @property
    def pid(self):
        return self.popen.pid

    def reap(self):
        """Collects the exit status and rusage if the process has ended
        (wait4, not Popen.poll, which would lose the rusage)."""
        if self.rusage is not None:
            return True
        try:
            pid, status, ru = os.wait4(self.pid, os.WNOHANG)
        except ChildProcessError:
            # Reaped elsewhere: no rusage to give.
            self.end = time.monotonic()
            self.popen.returncode = -1
            self.rusage = resource.struct_rusage((0,) * 16)
            return True
        if not pid:
            return False
        self.end = time.monotonic()
        self.rusage = ru
        self.popen.returncode = os.waitstatus_to_exitcode(status)
        return True

    def alive(self):
        return not self.reap()

    def stderr_tail(self, n=8):
        try:
            with open(self.stderr_path, errors="replace") as f:
                return "".join(f.readlines()[-n:]).strip()
        except OSError:
            return ""

    def wait(self, timeout):
        """Waits for exit with wait4(); returns (status, wall_s, rusage)."""
        deadline = time.monotonic() + timeout
        delay = 0.002
        while True:
            if self.reap():
                return (self.popen.returncode, self.end - self.start,
                        self.rusage)
            if time.monotonic() > deadline:
                raise RunError("%s did not finish within %.0f s"
                               % (self.name, timeout))
            time.sleep(delay)
            delay = min(delay * 2, 0.05)


class RunDir:
    """A temporary directory for one run's sockets, logs and files, and the
    processes started in it.  Use as a context manager."""

    def __init__(self, prefix="realovs-", base=None, keep=False, setup=None):
        self.path = tempfile.mkdtemp(prefix=prefix, dir=base)
        self.procs = []
        self.adopted = []
        self.keep = keep
        # Every process started here runs in the study's measuring setup
        # (heap pages, CPU): the real server's side of each pair.
        self.setup = setup
        # OVS programs put default sockets, pidfiles and logs here, not in
        # /var/run/openvswitch.
        self.env = dict(setup.environment() if setup else os.environ,
                        OVS_RUNDIR=self.path, OVS_DBDIR=self.path,
                        OVS_LOGDIR=self.path)

    def file(self, name):
        return os.path.join(self.path, name)

    def start(self, argv, name, stdout=None):
        """Starts argv in its own session; stderr goes to <name>.err."""
        err = self.file(name + ".err")
        if self.setup is not None:
            argv = self.setup.command(argv)
        with open(err, "wb") as ef:
            out = subprocess.DEVNULL
            if stdout is not None:
                out = open(stdout, "wb")
            try:
                p = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                     stdout=out, stderr=ef, cwd=self.path,
                                     start_new_session=True, env=self.env,
                                     preexec_fn=functools.partial(
                                         _die_with_parent, os.getpid()))
            finally:
                if stdout is not None:
                    out.close()
        proc = Proc(p, name, err)
        self.procs.append(proc)
        return proc

    def adopt(self, pid, name):
        """A process one of ours left running on its own (a daemon that
        wrote its pid to a pidfile): stopped by that pid when we close."""
        self.adopted.append((pid, name))

    def _stop_adopted(self):
        for pid, name in self.adopted:
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    break
                for _ in range(100):
                    if not _alive(pid):
                        break
                    time.sleep(0.05)
                else:
                    continue
                break
        self.adopted = []

    def stop(self, proc, timeout=10):
        """Stops one of our processes: SIGTERM to its group, then SIGKILL."""
        if proc.reap():
            return
        for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 10)):
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                pass
            try:
                proc.wait(wait)
                return
            except RunError:
                continue

    def close(self):
        self._stop_adopted()
        for proc in reversed(self.procs):
            self.stop(proc)
        if not self.keep:
            shutil.rmtree(self.path, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def run_to_end(rundir, argv, name, timeout, stdout=None):
    """Runs argv to completion; returns {'wall','user','sys','maxrss',
    'minflt','majflt'} (wait4's rusage).  Raises RunError with its stderr
    tail when it fails."""
    p = rundir.start(argv, name, stdout=stdout)
    try:
        status, wall, ru = p.wait(timeout)
    except RunError:
        rundir.stop(p)
        raise
    if status:
        raise RunError("%s exited with status %d: %s"
                       % (name, status, p.stderr_tail()))
    return {"wall": wall, "user": ru.ru_utime, "sys": ru.ru_stime,
            "maxrss": ru.ru_maxrss * 1024, "minflt": ru.ru_minflt,
            "majflt": ru.ru_majflt}


def copy_file(src, dst):
    shutil.copyfile(src, dst)
    return dst

