"""The environment a run was made in: machine, build, commit."""

import datetime
import json
import os
import platform
import subprocess


def _run(cmd, cwd=None):
    try:
        r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True, timeout=30)
        return r.stdout.strip() if r.returncode == 0 else ""
    except (OSError, subprocess.TimeoutExpired):
        return ""


def git_short_commit(root):
    return _run(["git", "rev-parse", "--short=7", "HEAD"], cwd=root) or "nogit"


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def memory():
    try:
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
        return "%.1f GiB" % (kb / (1 << 20))
    except (OSError, ValueError, IndexError):
        return ""


def os_name():
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return ""


def build_options(build_dir):
    """meson's view of the build: build type, LTO, allocator, compiler."""
    out = {}
    opts = _run(["meson", "introspect", "--buildoptions", build_dir])
    try:
        for o in json.loads(opts or "[]"):
            if o["name"] in ("buildtype", "b_lto", "allocator", "c_args", "optimization",
                             "b_sanitize", "debug"):
                out[o["name"]] = o["value"]
    except (ValueError, KeyError):
        pass
    comp = _run(["meson", "introspect", "--compilers", build_dir])
    try:
        c = json.loads(comp or "{}").get("host", {}).get("c", {})
        if c:
            out["compiler"] = "%s %s" % (c.get("id", ""), c.get("version", ""))
    except ValueError:
        pass
    return out


def collect_env(root, build_dir, allocator):
    b = build_options(build_dir)
    dirty = _run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root)
    return {
        "cpu_model": cpu_model(),
        "nproc": os.cpu_count(),
        "memory": memory(),
        "kernel": platform.release(),
        "os": os_name(),
        "compiler": b.get("compiler", ""),
        "cflags": " ".join(b.get("c_args", []) or []),
        "build_type": b.get("buildtype", ""),
        "b_lto": str(b.get("b_lto", "")),
        "b_sanitize": str(b.get("b_sanitize", "")),
        "allocator": b.get("allocator", allocator),
        "build_dir": os.path.relpath(build_dir, root),
        "git_commit": _run(["git", "rev-parse", "HEAD"], cwd=root),
        "git_dirty": "modified files" if dirty else "clean",
        "date": datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M:%S"),
        "hyperfine": _run(["hyperfine", "--version"]),
        "timing_hazards": timing_hazards(),
    }


def _read(sysroot, path):
    try:
        with open(os.path.join(sysroot, path.lstrip("/"))) as f:
            return f.read().strip()
    except OSError:
        return None


def _largest_buddy_order(sysroot):
    """The largest free-block order the page allocator keeps (10 on x86_64):
    /proc/buddyinfo has one column per order after 'Node N, zone NAME'."""
    text = _read(sysroot, "/proc/buddyinfo")
    if not text:
        return None
    widths = [len(line.split()) - 4 for line in text.splitlines() if line.startswith("Node")]
    return max(widths) - 1 if widths and max(widths) > 0 else None


def _balloon_bound(sysroot):
    drv = os.path.join(sysroot, "sys/bus/virtio/drivers/virtio_balloon")
    try:
        return any(n.startswith("virtio") for n in os.listdir(drv))
    except OSError:
        return False


def loadavg():
    """The 1, 5 and 15 minute load averages as env.json keeps them."""
    return " ".join("%.2f" % x for x in os.getloadavg())


def node_conditions(env):
    """A run's load average at start and end, the names of its timing
    hazards, its measuring setup and noise floor, from its env.json: what a
    merge lists per node."""
    return {"timing_hazards": [h.get("setting", "?") for h in env.get("timing_hazards") or []],
            "loadavg": [env.get("loadavg_start"), env.get("loadavg_end")],
            "measuring_setup": measuring_setup(env),
            "noise_floor_pct": noise_floor_pct(env)}


def timing_hazards(sysroot="/"):
    """Kernel settings that were seen to swing one process's CPU seconds by
    more than the effects the suite measures (docs/suite.md, 'Machine
    settings that swamp the effects').  Each is a dict: setting, value,
    effect, fix.  sysroot lets tests point it at a made-up tree."""
    out = []
    if _read(sysroot, "/proc/sys/kernel/sched_autogroup_enabled") == "1":
        out.append({
            "setting": "kernel.sched_autogroup_enabled", "value": "1",
            "effect": "the scheduler shares CPU between sessions, not processes: a timed "
                      "process competes with a whole other session's threads as one peer",
            "fix": "echo 0 > /proc/sys/kernel/sched_autogroup_enabled"})
    order = _read(sysroot, "/sys/module/page_reporting/parameters/page_reporting_order")
    largest = _largest_buddy_order(sysroot)
    if order is not None and _balloon_bound(sysroot):
        try:
            active = largest is None or int(order) <= largest
        except ValueError:
            active = False
        if active:
            out.append({
                "setting": "free page reporting (virtio_balloon)",
                "value": "page_reporting_order=%s" % order,
                "effect": "freed memory is handed back to the host; faulting it in again "
                          "costs the next run ~20x more system time per page, and how much "
                          "was handed back depends on what ran before",
                "fix": "echo %d > /sys/module/page_reporting/parameters/page_reporting_order, "
                       "then touch all free memory once" % ((largest or 10) + 1)})
    return out


def warn_timing_hazards(hazards, log):
    for h in hazards:
        log("warning: timing hazard: %s = %s: %s (to stop it: %s)"
            % (h["setting"], h["value"], h["effect"], h["fix"]))


def noise_floor_pct(env):
    """The machine's process-to-process CPU spread in percent, measured at
    the start of the run (env.json "noise_floor", jsonbench.measuring), or
    None for a run without one (older folders, a probe that failed): a
    timing difference below it cannot be told from noise."""
    floor = (env or {}).get("noise_floor") or {}
    v = floor.get("spread_pct")
    return float(v) if isinstance(v, (int, float)) else None


def memory_drift_pct(env):
    """How much the speed of fixed memory-bound work drifted within one
    process at the start of the run, in percent (env.json
    "noise_floor"."drift", jsonbench.measuring), or None without it: a
    timed phase of some seconds can run in a faster or slower stretch than
    its pair, whatever the process-to-process floor says."""
    drift = ((env or {}).get("noise_floor") or {}).get("drift") or {}
    v = drift.get("spread_pct")
    return float(v) if isinstance(v, (int, float)) else None


def measuring_setup(env):
    """The setup a run's timed processes ran in (env.json
    "measuring_setup": "measuring" or "as-deployed"), or None for a run
    from before it was recorded (those ran as deployed)."""
    return ((env or {}).get("measuring_setup") or {}).get("setup")
