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
    }
