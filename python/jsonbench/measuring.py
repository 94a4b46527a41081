"""The measuring setup: what every measured process of a study runs with,
on the model's side and the real server's alike (docs/noise.md).

By default a study measures in the measuring setup, which takes two
sources of noise out of CPU figures:

  heap pages  the heap on transparent huge pages: GLIBC_TUNABLES gets
              glibc.malloc.hugetlb=1 (glibc malloc madvises its heap for
              THP; the kernel's THP mode 'madvise' honours it) and
              MALLOC_CONF gets thp:always (the jemalloc builds).  A load
              that faults in gigabytes then takes ~500x fewer page
              faults, and on a VM the faults were half its CPU time and
              most of its variance.
  pinning     each measured process (and what it starts) on one CPU
              (its command line run through taskset -c CPU), so it is
              not moved between CPUs mid-run.

--as-deployed (options.as_deployed) measures as OVS is deployed: glibc's
defaults, no pinning.  Either way env.json records the setup
("measuring_setup") and the machine's noise floor measured in it
("noise_floor", noise_floor()), and the report's environment section
shows both.

Memory figures are the same in both setups but for the heap's rounding:
a huge page is 2 MiB, so RSS can grow by up to that per heap region."""

import json
import os
import shutil
import statistics
import subprocess
import time

THP_ENABLED = "/sys/kernel/mm/transparent_hugepage/enabled"
GLIBC_HEAP = "glibc.malloc.hugetlb=1"
JEMALLOC_HEAP = "thp:always"
PROBE = os.path.join("tools", "jsonbench-noise-probe")
PROBE_RUNS = 5
# The drift probe: one process doing the same random work in slices of
# about 1.5 s for about 30 s.  The speed of memory on a VM can change for
# tens of seconds at a time (where the host runs the vCPU), which the
# short fresh processes above do not see (docs/noise.md).  The environment
# variable JSONBENCH_DRIFT_PROBE replaces these arguments ("off": no drift
# probe); the tests make it short.
DRIFT_ARGS = ("--mib", "1024", "--ops", "600", "--slices", "20")
DRIFT_VARIABLE = "JSONBENCH_DRIFT_PROBE"


def drift_args(environ=None):
    """The drift probe's arguments, or None when JSONBENCH_DRIFT_PROBE is
    "off"."""
    value = (os.environ if environ is None else environ).get(DRIFT_VARIABLE)
    if value is None or not value.strip():
        return DRIFT_ARGS
    return None if value.strip() == "off" else tuple(value.split())


def thp_mode(path=THP_ENABLED):
    """The kernel's THP mode ('always', 'madvise', 'never'), the bracketed
    word of /sys/kernel/mm/transparent_hugepage/enabled; None without."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return None
    start, end = text.find("["), text.find("]")
    return text[start + 1:end] if 0 <= start < end else None


def _add_setting(value, setting, sep):
    """'value' (a GLIBC_TUNABLES or MALLOC_CONF string, or None) with
    'setting' (name=value or name:value) in it, replacing the same name."""
    name = setting.split("=" if sep == ":" else ":", 1)[0]
    kept = [x for x in (value or "").split(sep)
            if x and x.split("=" if sep == ":" else ":", 1)[0] != name]
    return sep.join(kept + [setting])


def pin_cpu():
    """The CPU a measured process is pinned to: the last one this process
    may run on (the first one takes more of the machine's interrupts)."""
    try:
        return max(os.sched_getaffinity(0))
    except (AttributeError, OSError, ValueError):
        return None


class Setup:
    """How measured processes start: command() for their command line,
    environment() for their environment, describe() for env.json.

    Pinning goes through taskset rather than a preexec_fn: no Python code
    runs in a forked child (a signal there would raise in the child), and
    the process keeps its pid (taskset execs the command)."""

    def __init__(self, as_deployed=False, cpu=None, thp=None, taskset=None):
        self.as_deployed = as_deployed
        self.thp = thp_mode() if thp is None else thp
        self.taskset = shutil.which("taskset") if taskset is None else taskset
        self.cpu = None if as_deployed or not self.taskset else (
            pin_cpu() if cpu is None else cpu)
        self.floor = None

    @classmethod
    def from_args(cls, args):
        return cls(as_deployed=bool(getattr(args, "as_deployed", False)))

    @property
    def name(self):
        return "as-deployed" if self.as_deployed else "measuring"

    @property
    def heap_pages(self):
        """True when the heap goes on huge pages here."""
        return not self.as_deployed and self.thp in ("always", "madvise")

    def environment(self, base=None):
        """The environment of a measured process: 'base' (os.environ by
        default) with the heap settings added."""
        env = dict(os.environ if base is None else base)
        if self.heap_pages:
            env["GLIBC_TUNABLES"] = _add_setting(env.get("GLIBC_TUNABLES"), GLIBC_HEAP, ":")
            env["MALLOC_CONF"] = _add_setting(env.get("MALLOC_CONF"), JEMALLOC_HEAP, ",")
        return env

    def command(self, argv):
        """The command line of a measured process: 'argv', pinned."""
        if self.cpu is None:
            return list(argv)
        return [self.taskset, "-c", str(self.cpu)] + list(argv)

    def describe(self):
        """env.json's "measuring_setup"."""
        env = self.environment()
        applied = []
        if self.heap_pages:
            applied.append("heap on transparent huge pages (GLIBC_TUNABLES=%s, "
                           "MALLOC_CONF=%s)" % (env["GLIBC_TUNABLES"], env["MALLOC_CONF"]))
        if self.cpu is not None:
            applied.append("each measured process pinned to CPU %d (taskset)" % self.cpu)
        return {
            "setup": self.name,
            "heap_pages": ("transparent huge pages" if self.heap_pages
                           else "glibc/jemalloc defaults"),
            "thp_enabled": self.thp,
            "pinned_cpu": self.cpu,
            "glibc_tunables": env.get("GLIBC_TUNABLES", ""),
            "malloc_conf": env.get("MALLOC_CONF", ""),
            "applied": applied,
            "applied_to": "every timed process: harness runs (model) and ovsdb-server, "
                          "ovsdb-tool, ovsdb-client (real OVS)",
            "as_deployed_option": "--as-deployed",
        }

    def summary(self):
        """One line for the log and the report."""
        if self.as_deployed:
            return "as deployed (--as-deployed): glibc defaults, no pinning"
        d = self.describe()
        return "measuring setup: %s (--as-deployed for glibc defaults, no pinning)" % (
            "; ".join(d["applied"]) or "nothing applies on this machine")

    def warnings(self):
        out = []
        if not self.as_deployed and not self.heap_pages:
            out.append("transparent huge pages are %s here (%s): the heap stays on 4 KiB "
                       "pages and load CPU keeps its page-fault noise" % (
                           self.thp or "unavailable", THP_ENABLED))
        if not self.as_deployed and not self.taskset:
            out.append("no taskset (util-linux) here: measured processes are not pinned")
        return out

    def env_fields(self):
        """What a front end adds to env.json."""
        out = {"measuring_setup": self.describe()}
        if self.floor is not None:
            out["noise_floor"] = self.floor
        return out


# Where Debian and other distributions put an allocator to preload.
ALLOCATOR_LIBS = {"jemalloc": "libjemalloc.so.2", "tcmalloc": "libtcmalloc_minimal.so.4"}
LIB_DIRS = ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64",
            "/usr/lib", "/usr/local/lib")


def allocator_lib(allocator, dirs=LIB_DIRS):
    """The shared library to LD_PRELOAD for 'allocator' (libjemalloc.so.2
    of Debian's libjemalloc2), None when it is not installed."""
    name = ALLOCATOR_LIBS.get(allocator)
    for d in dirs if name else ():
        path = os.path.join(d, name)
        if os.path.exists(path):
            return path
    return None


class Preloaded:
    """A setup ('base', a Setup or None) whose processes also get
    LD_PRELOAD='lib': a real OVS build that does not link an allocator
    runs on it.  'lib' is the library the run's processes must map
    (realovs.workloads checks /proc/PID/maps)."""

    def __init__(self, base, lib):
        self.base = base
        self.lib = lib

    def environment(self, base=None):
        env = self.base.environment(base) if self.base is not None else \
            dict(os.environ if base is None else base)
        env["LD_PRELOAD"] = " ".join(x for x in (self.lib, env.get("LD_PRELOAD")) if x)
        return env

    def command(self, argv):
        return self.base.command(argv) if self.base is not None else list(argv)


def spread_pct(values):
    """(max - min) / median in percent; None for fewer than 2 values."""
    if len(values) < 2:
        return None
    med = statistics.median(values)
    return (max(values) - min(values)) / med * 100.0 if med else None


def _probe_exe(build_dir, exe):
    if exe is None:
        from .build import build_path
        exe = os.path.join(build_path(build_dir), PROBE)
    return exe


def _run_probe(exe, setup, probe_args, timeout):
    """One jsonbench-noise-probe process in 'setup': (its JSON object,
    None) or (None, why not)."""
    try:
        p = subprocess.run(setup.command([exe] + list(probe_args)),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=timeout, env=setup.environment())
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, "%s: %s" % (exe, exc)
    if p.returncode != 0:
        return None, "%s exited %d: %s" % (exe, p.returncode, p.stderr.strip()[-300:])
    try:
        r = json.loads(p.stdout)
    except ValueError:
        r = None
    if not isinstance(r, dict):
        return None, "%s printed no result: %r" % (exe, p.stdout[:200])
    return r, None


def noise_floor(build_dir, setup, runs=PROBE_RUNS, probe_args=(), exe=None, warmup=1):
    """This machine's process-to-process spread: 'runs' fresh processes of
    jsonbench-noise-probe (fixed memory-bound work) in 'setup', after
    'warmup' more that are recorded but not counted (the first process
    after a pause pays for memory the kernel handed back: free page
    reporting, docs/suite.md).  Returns env.json's "noise_floor":
    spread_pct and median_s of their CPU seconds, the runs, the warm-up
    runs, the setup's name, the load average; or {"error": why}."""
    exe = _probe_exe(build_dir, exe)
    if not os.access(exe, os.X_OK):
        return {"error": "%s is not built (ninja -C %s)" % (exe, build_dir),
                "setup": setup.name}
    out = []
    load = " ".join("%.2f" % x for x in os.getloadavg())
    t0 = time.time()
    for _ in range(warmup + runs):
        r, error = _run_probe(exe, setup, probe_args, 300)
        if error:
            return {"error": error, "setup": setup.name}
        try:
            out.append({k: r[k] for k in ("cpu_s", "user_s", "sys_s", "wall_s",
                                          "minor_faults", "major_faults")})
        except KeyError:
            return {"error": "%s printed no result: %r" % (exe, r), "setup": setup.name}
    warm, out = out[:warmup], out[warmup:]
    cpu = [r["cpu_s"] for r in out]
    return {"spread_pct": round(spread_pct(cpu), 2) if len(cpu) > 1 else None,
            "median_s": round(statistics.median(cpu), 4),
            "median_minor_faults": statistics.median(r["minor_faults"] for r in out),
            "runs": out, "warmup_runs": warm, "setup": setup.name,
            "probe": {"mib": r.get("mib"), "mops": r.get("mops")},
            "loadavg": load, "seconds": round(time.time() - t0, 2)}


def memory_drift(build_dir, setup, probe_args=DRIFT_ARGS, exe=None):
    """How much the speed of memory-bound work drifts within one process:
    jsonbench-noise-probe with --slices, in 'setup'.  Returns the noise
    floor's "drift": spread_pct ((max - min) / median of the slices' CPU
    seconds), median_slice_s, the slices, their number and the whole
    process's seconds; or {"error": why}."""
    exe = _probe_exe(build_dir, exe)
    t0 = time.time()
    r, error = _run_probe(exe, setup, probe_args, 600)
    if error:
        return {"error": error}
    try:
        slices = [float(x) for x in r["slice_cpu_s"]]
    except (ValueError, KeyError, TypeError):
        return {"error": "%s printed no slices: %r" % (exe, r)}
    if len(slices) < 2:
        return {"error": "%s: %d slice(s), need 2 or more" % (exe, len(slices))}
    return {"spread_pct": round(spread_pct(slices), 2),
            "median_slice_s": round(statistics.median(slices), 4),
            "slice_cpu_s": [round(x, 4) for x in slices], "slices": len(slices),
            "args": list(probe_args), "seconds": round(time.time() - t0, 2)}


def begin(args, build_dir, log, probe=True):
    """A study's start: the setup its options ask for, said in the log
    (never silent), and the noise floor measured in it (unless 'probe' is
    False: a dry run).  Returns the Setup; setup.env_fields() is for
    env.json."""
    setup = Setup.from_args(args)
    for w in setup.warnings():
        log("warning: %s" % w)
    log(setup.summary())
    if probe:
        setup.floor = noise_floor(build_dir, setup)
        f = setup.floor
        if "error" in f:
            log("warning: noise floor not measured: %s" % f["error"])
        else:
            log("noise floor: %s fresh processes of fixed memory-bound work: CPU %.3f s "
                "median, spread %.1f%% (load average %s)" % (
                    len(f["runs"]), f["median_s"], f["spread_pct"] or 0.0,
                    f.get("loadavg", "?")))
            args = drift_args()
            if args is None:
                return setup
            f["drift"] = d = memory_drift(build_dir, setup, args)
            if "error" in d:
                log("warning: memory drift not measured: %s" % d["error"])
            else:
                log("memory drift: the same work in %d slices of one process, %.2f s each: "
                    "spread %.1f%%" % (d["slices"], d["median_slice_s"], d["spread_pct"]))
    return setup
