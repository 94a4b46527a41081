"""The build and what it makes, for every runner (suite, reproduce, gate,
scripts/micro.sh): meson setup + ninja, the impls the build defines (asked
of meson, not kept in a list here), generated datasets cached under one
staleness rule, and the harness command line.

Standard library only.  For shell scripts:

    python3 -m jsonbench.build impls [--micro] BUILD_DIR   -> plain,refcount,...
"""

import argparse
import json
import os
import shlex
import subprocess
import sys

from . import ROOT
from .util import log

SCHEMAS = {"nb": "/usr/share/ovn/ovn-nb.ovsschema", "sb": "/usr/share/ovn/ovn-sb.ovsschema"}
PROFILES_DIR = os.path.join(ROOT, "datasets", "profiles")
DATASETS_DIR = os.path.join(ROOT, "datasets", "out")

# Per-impl executables: the build folder they are made in and their name
# prefix.  Tests link extra ones (jsonbench-ovs-regressed) in tests/: not
# impls of the build, and not in these folders.
EXECUTABLES = {"harness": ("harness", "jsonbench-"),
               "micro": ("bench", "jsonbench-micro-")}

# Workloads that write a file (--output).
OUTPUT_WORKLOADS = ("dump", "compact")


class BuildError(Exception):
    """The build dir cannot say what it defines (not set up, no meson)."""


class DatasetError(RuntimeError):
    """A dataset cannot be made: no profile, no generator, or it failed."""


def rel(path):
    """A path as the logs show it: relative to the repository if inside it."""
    r = os.path.relpath(path, ROOT)
    return path if r.startswith(os.pardir) else r


def build_path(path):
    """A build dir given on a command line, as an absolute path (relative
    ones are relative to the repository, where the wrappers run)."""
    return os.path.abspath(path if os.path.isabs(path) else os.path.join(ROOT, path))


# ------------------------------------------------------------------ build

def meson_build(build_dir, who, setup_options=(), targets=()):
    """Sets up 'build_dir' (release) if it has no build.ninja yet, then runs
    ninja there (for 'targets' only, when given: paths in the build dir);
    exits naming 'who' with the build's last output on failure."""
    if not os.path.exists(os.path.join(build_dir, "build.ninja")):
        log("%s: meson setup %s (release %s)" % (who, rel(build_dir), " ".join(setup_options)))
        subprocess.run(["meson", "setup", build_dir, "-Dbuildtype=release", *setup_options],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    log("%s: ninja -C %s%s" % (who, rel(build_dir), "".join(" " + t for t in targets)))
    r = subprocess.run(["ninja", "-C", build_dir, *targets], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-4000:])
        sys.exit("%s: build failed in %s" % (who, rel(build_dir)))


def impls(build_dir, kind="harness"):
    """{impl: executable path} of every jsonbench-<impl> (kind 'harness') or
    jsonbench-micro-<impl> (kind 'micro') the build defines, in the order of
    impls/meson.build's impl_names; from `meson introspect --targets`, so a
    new impl needs no edit here and a stale file left in the build dir is
    not one.  The executables may not be built yet.  Raises BuildError."""
    subdir, prefix = EXECUTABLES[kind]
    if not os.path.isdir(os.path.join(build_dir, "meson-info")):
        raise BuildError("%s is not a meson build dir (no meson-info/): meson setup it first"
                         % build_dir)
    try:
        r = subprocess.run(["meson", "introspect", "--targets", build_dir],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as exc:
        raise BuildError("meson introspect: %s" % exc)
    if r.returncode != 0:
        raise BuildError("%s is not a configured meson build dir: %s"
                         % (build_dir, r.stderr.strip()[-300:] or "meson introspect failed"))
    try:
        targets = json.loads(r.stdout)
    except ValueError as exc:
        raise BuildError("meson introspect --targets %s: %s" % (build_dir, exc))
    where = os.path.realpath(os.path.join(build_dir, subdir))
    out = {}
    for t in targets:
        name = t.get("name", "")
        if t.get("type") != "executable" or not name.startswith(prefix):
            continue
        for f in t.get("filename", []):
            if os.path.basename(f) == name and os.path.realpath(os.path.dirname(f)) == where:
                out[name[len(prefix):]] = f
    return out


def exe_path(build_dir, impl, kind="harness"):
    """Where the build puts the executable of 'impl' (without asking meson:
    for a plan printed before anything is built)."""
    subdir, prefix = EXECUTABLES[kind]
    return os.path.join(build_dir, subdir, prefix + impl)


def unbuilt(exes):
    """The impls of an impls() dict whose executable is not there (yet)."""
    return [i for i, p in exes.items() if not os.access(p, os.X_OK)]


# ------------------------------------------------------------------ datasets

def dataset_path(kind, scale, form, seed, out_dir=DATASETS_DIR, txns=None,
                 log_shape=None):
    """The cache file of one generated dataset: every generator parameter
    is in the name, so runners reuse each other's files (suite and
    reproduce share datasets/out/).  'form' is ovsdb-gen's (snapshot, log,
    cluster), 'log_shape' its --log-shape (None: the profile's default log
    lines)."""
    return os.path.join(out_dir, "%s-s%g-%s%s-seed%d%s.ovsdb" % (
        kind, scale, form, "-" + log_shape if log_shape else "", seed,
        "-txns%d" % txns if txns else ""))


def is_stale(path, inputs):
    """The one staleness rule: a generated file is reused unless it is
    missing or one of the files it was made from (generator, profile,
    schema) is newer than it."""
    if not os.path.exists(path):
        return True
    made = os.path.getmtime(path)
    return any(os.path.exists(p) and os.path.getmtime(p) > made for p in inputs)


def ensure_dataset(build_dir, kind, scale, form, seed=1, out_dir=DATASETS_DIR, txns=None,
                   profile=None, schema=None, regenerate=False, who="jsonbench", say=log,
                   log_shape=None):
    """Path of the dataset, generated with the build's ovsdb-gen unless an
    up-to-date copy is cached (is_stale).  ovsdb-gen writes through a
    temporary file, so an interrupted run leaves no partial dataset.  The
    cluster form is a one-server cluster whose raft address is ovsdb-gen's
    default (tcp:127.0.0.1:6643).  Raises DatasetError."""
    profile = profile or os.path.join(PROFILES_DIR, kind + ".profile")
    schema = schema or SCHEMAS[kind]
    if not os.path.exists(profile):
        raise DatasetError("no %s: the %s dataset cannot be generated"
                           % (rel(os.path.abspath(profile)), kind.upper()))
    gen = os.path.join(build_dir, "datasets", "ovsdb-gen")
    path = dataset_path(kind, scale, form, seed, out_dir, txns, log_shape)
    if not regenerate and not is_stale(path, [gen, profile, schema]):
        say("%s: reusing %s" % (who, rel(path)))
        return path
    if not os.access(gen, os.X_OK):
        raise DatasetError("%s is missing (build first)" % gen)
    os.makedirs(out_dir, exist_ok=True)
    cmd = [gen, "--schema", schema, "--profile", profile, "--scale", "%g" % scale,
           "--form", form, "--seed", str(seed), "-q"]
    if txns:
        cmd += ["--txns", str(txns)]
    if log_shape:
        cmd += ["--log-shape", log_shape]
    cmd += ["-o", path]
    say("%s: generating %s" % (who, rel(path)))
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise DatasetError("dataset generation failed: %s: %s"
                           % (shlex.join(cmd), r.stderr.strip()[-500:]))
    return path


def dataset_stats(build_dir, path, who="jsonbench"):
    """ovsdb-stats --json of a dataset, cached next to it (same rule: the
    cache is stale when the dataset is newer); None if ovsdb-stats fails."""
    cache = path + ".stats.json"
    if not is_stale(cache, [path]):
        with open(cache) as f:
            return json.load(f)
    exe = os.path.join(build_dir, "datasets", "ovsdb-stats")
    r = subprocess.run([exe, "--json", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 0:
        log("%s: ovsdb-stats failed on %s: %s" % (who, path, r.stderr.strip()[-300:]))
        return None
    st = json.loads(r.stdout)
    st["file"] = rel(path)
    tmp = "%s.%d.tmp" % (cache, os.getpid())
    with open(tmp, "w") as f:
        json.dump(st, f, indent=1)
        f.write("\n")
    os.replace(tmp, cache)
    return st


# ------------------------------------------------------------------ harness

def harness_cmd(exe, workload, dataset=None, options=(), seed=1, results=None, output=None,
                sha256=True):
    """The command line of one harness process (one repetition): every
    runner builds it here.  'results' is the google-benchmark JSON file to
    write (None: none), 'output' the file dump and compact write,
    sha256=False skips hashing the input; 'dataset' None for workloads with
    a built-in database (txn)."""
    cmd = [exe, workload, "--repetitions", "1", "--seed", str(seed)]
    if not sha256:
        cmd.append("--no-sha256")
    if results:
        cmd += ["--results", results]
    cmd += list(options)
    if workload in OUTPUT_WORKLOADS:
        if not output:
            raise ValueError("workload %s needs an output file" % workload)
        cmd += ["--output", output]
    if dataset:
        cmd.append(dataset)
    return cmd


# ------------------------------------------------------------------ main

def main(argv):
    ap = argparse.ArgumentParser(prog="python3 -m jsonbench.build",
                                 description="What a meson build dir defines.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    from . import options as O
    p = sub.add_parser("impls", prog=O.prog("impls"), help="comma list of the impls the build defines",
                       description="The impls a meson build dir defines, as a comma list.",
                       epilog="examples:\n  scripts/jsonbench impls build\n"
                              "  scripts/jsonbench impls --micro build",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--micro", action="store_true",
                   help="impls with a micro-benchmark executable (bench/)")
    p.add_argument("build_dir")
    args = ap.parse_args(argv)
    try:
        found = impls(build_path(args.build_dir), "micro" if args.micro else "harness")
    except BuildError as exc:
        sys.exit("jsonbench.build: %s" % exc)
    print(",".join(found))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
