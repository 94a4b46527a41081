"""Helpers shared by the suite runner and the seed reproduction: progress
durations, dataset hashing and the meson/ninja build step."""
import hashlib
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def log(msg):
    print(msg, flush=True)


def fmt_dur(s):
    """Seconds as m:ss, or h:mm:ss from an hour on."""
    s = int(round(s))
    if s >= 3600:
        return "%d:%02d:%02d" % (s // 3600, s % 3600 // 60, s % 60)
    return "%d:%02d" % (s // 60, s % 60)


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def meson_build(build_dir, who, setup_options=()):
    """Sets up 'build_dir' (release) if it has no build.ninja yet, then runs
    ninja there; exits naming 'who' with the build's last output on failure."""
    rel = os.path.relpath(build_dir, ROOT)
    if not os.path.exists(os.path.join(build_dir, "build.ninja")):
        log("%s: meson setup %s (release %s)" % (who, rel, " ".join(setup_options)))
        subprocess.run(["meson", "setup", build_dir, "-Dbuildtype=release", *setup_options],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    log("%s: ninja -C %s" % (who, rel))
    r = subprocess.run(["ninja", "-C", build_dir], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-4000:])
        sys.exit("%s: build failed in %s" % (who, rel))
