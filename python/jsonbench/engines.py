"""Run a sharded study on machines other than this one, with engines that
exist: Slurm (scripts/jsonbench slurm) and GNU parallel over ssh
(scripts/jsonbench parallel).  Both run `scripts/jsonbench COMMAND ARGS
--shards N --shard K` once per shard into STUDY/shard-K and then
`scripts/jsonbench merge` into STUDY/merged (docs/shards.md).

Slurm: STUDY/slurm/shards.sbatch is a job array (--exclusive: one shard
per task, nothing else on its node), each task preparing its datasets and
build on the node before its timed processes (a build dir per host unless
ARGS name one), writing into node-local storage and copying its folder to
STUDY/shard-K when it ends, also when it fails; STUDY/slurm/merge.sbatch
runs after every task (--dependency=afterany).  sbatch's own environment
variables choose the partition, time limit, account (SBATCH_PARTITION,
SBATCH_TIMELIMIT, ...); SBATCH_WAIT=1 makes the submission wait for the
merge.

GNU parallel: one shard at a time per host (--sshlogin 1/HOST), run in
the repository's path on each host (the same path everywhere), each
shard's folder returned as files (--return); the merge runs here."""

import argparse
import os
import shlex
import subprocess
import sys

from . import ROOT
from .util import log

EXAMPLES_SLURM = """examples:
  scripts/jsonbench slurm --shards 3 --out results/study run --workloads load,dump
  scripts/jsonbench slurm --shards 4 --out results/claims-s1 claims --scale 1
  scripts/jsonbench slurm --shards 4 --out results/h history --ovs-tree ~/ovs --ovs-ref 'v3.*.0'
  SBATCH_PARTITION=bench SBATCH_WAIT=1 scripts/jsonbench slurm --shards 3 --out S run
  scripts/jsonbench slurm --dry-run --shards 3 --out S run    write the scripts only"""

EXAMPLES_PARALLEL = """examples:
  scripts/jsonbench parallel hostA,hostB --shards 4 --out results/study run --scale 0.1
  scripts/jsonbench parallel hostA,hostB,hostC --shards 3 --out results/c claims --scale 1
  scripts/jsonbench parallel : --shards 2 --out results/s run     (':' is this machine)"""


def _parse(argv, prog, epilog, description, hosts=False):
    """(args, absolute study folder) of an engine's command line."""
    ap = argparse.ArgumentParser(prog=prog, epilog=epilog, description=description,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    if hosts:
        ap.add_argument("hosts", help="comma list of ssh hosts (':' is this machine); the "
                                      "repository must be at the same path on each")
    _args(ap)
    args = ap.parse_args(argv)
    return args, _study(ap, args)


def _args(ap):
    from . import options as O
    ap.add_argument("--shards", type=int, required=True, metavar="N",
                    help="how many shards (machines at once, at most)")
    ap.add_argument("--out", required=True, metavar="DIR",
                    help="the study folder: DIR/shard-K, DIR/merged (relative: to the "
                         "repository)")
    O.dry_run(ap)
    ap.add_argument("command", help="the study: run (the suite), claims, history, or any "
                                    "subcommand that takes --shards/--shard")
    ap.add_argument("args", nargs=argparse.REMAINDER, help="its options")


def _study(ap, args):
    if args.shards < 1:
        ap.error("--shards must be >= 1")
    if any(a in ("--shards", "--shard", "--out", "--resume") or
           a.startswith(("--shards=", "--shard=", "--out=")) for a in args.args):
        ap.error("the study's options must not name --shards, --shard, --out or --resume "
                 "(the engine gives them)")
    study = args.out if os.path.isabs(args.out) else os.path.join(ROOT, args.out)
    if os.path.exists(os.path.join(study, "merged")):
        ap.error("%s already holds a merged study" % study)
    return os.path.abspath(study)


def shard_command(command, argv, n, k, out, build_dir=None):
    """The command line of shard k (a shell word list; k may be a shell
    expression)."""
    words = ["scripts/jsonbench", command] + [shlex.quote(a) for a in argv]
    if build_dir and not any(a in ("--build-dir", "--no-build") or
                             a.startswith("--build-dir=") for a in argv):
        words += ["--build-dir", build_dir]      # a shell word already
    return " ".join(words + ["--shards", str(n), "--shard", k, "--out", out])


def merge_command(study, n):
    return " ".join(["scripts/jsonbench", "merge"] +
                    [shlex.quote(os.path.join(study, "shard-%d" % k)) for k in range(1, n + 1)] +
                    ["--shards", str(n), "--out", shlex.quote(os.path.join(study, "merged"))])


# ------------------------------------------------------------------ Slurm

def shards_sbatch(study, command, argv, n):
    q = shlex.quote
    run = shard_command(command, argv, n, '"$k"', '"$work/out"',
                        build_dir='"build-node-$(hostname -s)"')
    return """#!/bin/bash
#SBATCH --job-name=jsonbench-shards
#SBATCH --array=1-{n}
#SBATCH --exclusive
#SBATCH --output={log}/shard-%a.out
# One shard per array task, alone on its node.  The runner builds and
# generates what the shard needs before its first timed process; the shard
# writes into node-local storage and is copied to {study}/shard-K when it
# ends, also when it fails or is cancelled.
set -u
k=$SLURM_ARRAY_TASK_ID
work=$(mktemp -d "${{TMPDIR:-/tmp}}/jsonbench-shard-$k.XXXXXX")
copy_back() {{
  rc=$?
  dst={study_q}/shard-$k
  rm -rf "$dst.partial"
  mkdir -p "$dst.partial"
  if [ -d "$work/out" ]; then cp -a "$work/out/." "$dst.partial/"; fi
  rm -rf "$dst"
  mv "$dst.partial" "$dst"
  rm -rf "$work"
  echo "shard $k on $(hostname) exited $rc; results in $dst"
  exit $rc
}}
trap copy_back EXIT
trap 'exit 143' TERM
cd {root}
{run}
""".format(n=n, log=os.path.join(study, "slurm"), study=study, study_q=q(study),
           root=q(ROOT), run=run)


def merge_sbatch(study, n):
    return """#!/bin/bash
#SBATCH --job-name=jsonbench-merge
#SBATCH --output={log}/merge.out
# After every shard task (afterany: also when some failed): one results
# folder and report; a missing or failed shard is a failure entry.
cd {root}
exec {merge}
""".format(log=os.path.join(study, "slurm"), root=shlex.quote(ROOT),
           merge=merge_command(study, n))


def _sbatch(argv):
    """Submits; returns (job id or None, exit status, output)."""
    r = subprocess.run(["sbatch", "--parsable"] + argv, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    first = (r.stdout.strip().splitlines() or [""])[0].split(";")[0]
    return (first if first.isdigit() else None), r.returncode, r.stdout


def slurm(argv):
    args, study = _parse(
        argv, "scripts/jsonbench slurm", EXAMPLES_SLURM,
        "Submit a study as a Slurm job array (--exclusive, one shard per task) plus a merge "
        "job after it (docs/shards.md).")
    sdir = os.path.join(study, "slurm")
    os.makedirs(sdir, exist_ok=True)
    paths = {}
    for name, text in (("shards.sbatch", shards_sbatch(study, args.command, args.args,
                                                       args.shards)),
                       ("merge.sbatch", merge_sbatch(study, args.shards))):
        paths[name] = os.path.join(sdir, name)
        with open(paths[name], "w") as f:
            f.write(text)
        os.chmod(paths[name], 0o755)
    if args.dry_run:
        log("slurm: wrote %s and %s; submit with:\n  id=$(sbatch --parsable %s)\n"
            "  sbatch --dependency=afterany:$id %s" % (
                paths["shards.sbatch"], paths["merge.sbatch"], paths["shards.sbatch"],
                paths["merge.sbatch"]))
        return 0
    job, rc, out = _sbatch([paths["shards.sbatch"]])
    if job is None:
        sys.stderr.write(out)
        sys.exit("slurm: sbatch %s failed (exit %d)" % (paths["shards.sbatch"], rc))
    log("slurm: shards: job array %s (%d tasks)%s" % (
        job, args.shards, "" if rc == 0 else ", exit %d (a shard failed)" % rc))
    mjob, mrc, mout = _sbatch(["--dependency=afterany:%s" % job,
                               "--kill-on-invalid-dep=yes", paths["merge.sbatch"]])
    if mjob is None:
        sys.stderr.write(mout)
        sys.exit("slurm: sbatch %s failed (exit %d)" % (paths["merge.sbatch"], mrc))
    log("slurm: merge: job %s after %s -> %s (logs in %s)" % (
        mjob, job, os.path.join(study, "merged"), sdir))
    return mrc or (1 if rc else 0)


# ------------------------------------------------------------------ parallel

def parallel_command(hosts, study, command, argv, n):
    """GNU parallel's command line: one shard per host at a time, run in
    the repository's path there, the shard's folder returned as files."""
    rel = os.path.relpath(study, ROOT)
    out = rel if not rel.startswith("..") else study
    logins = ",".join(h if h == ":" else "1/" + h for h in hosts)
    return ["parallel", "--sshlogin", logins, "--workdir", ROOT, "--halt", "never",
            "--line-buffer", "--tagstring", "shard-{}",
            "--return", os.path.join(out, "shard-{}"),
            shard_command(command, argv, n, "{}", os.path.join(out, "shard-{}"),
                          build_dir="build-node-$(hostname -s)"),
            ":::"] + [str(k) for k in range(1, n + 1)]


def parallel(argv):
    args, study = _parse(
        argv, "scripts/jsonbench parallel", EXAMPLES_PARALLEL,
        "Run a study's shards on ssh-able hosts with GNU parallel (one shard per host at a "
        "time, results returned as files), then merge them here (docs/shards.md).", hosts=True)
    cmd = parallel_command([h for h in args.hosts.split(",") if h], study, args.command,
                           args.args, args.shards)
    if args.dry_run:
        print(shlex.join(cmd))
        print("(then) " + merge_command(study, args.shards))
        return 0
    os.makedirs(study, exist_ok=True)
    log("parallel: %s" % shlex.join(cmd))
    rc = subprocess.run(cmd, cwd=ROOT).returncode
    log("parallel: shards done (exit %d); merging" % rc)
    from . import merge
    return merge.main([os.path.join(study, "shard-%d" % k) for k in range(1, args.shards + 1)]
                      + ["--shards", str(args.shards), "--out", os.path.join(study, "merged")])
