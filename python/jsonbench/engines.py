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
the repository's path on each host (the same path everywhere: nothing is
copied there), each shard's folder returned as files (--return, rsync
over ssh), also when the shard failed; the merge runs here.  Each host is
probed first (ssh without a password, the checkout, rsync); one that
fails is left out with the reason and its shards go to the others."""

import argparse
import os
import shlex
import shutil
import subprocess
import sys

from . import ROOT, options as O
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
        argv, O.prog("slurm"), EXAMPLES_SLURM,
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
    if not args.dry_run and not shutil.which("sbatch"):
        sys.exit("slurm: sbatch not found: run this on a Slurm cluster's login node "
                 "(scripts/deps.sh --engines installs Slurm here, its services disabled; "
                 "docs/shards.md)")
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

# Why a host cannot run a shard, by the exit status of HOST_PROBE.
HOST_PROBE = ("cd {root} || exit 3; test -x scripts/jsonbench || exit 4; "
              "command -v rsync >/dev/null || exit 5")
HOST_WHY = {3: "no folder {root} there (the repository must be at the same path on "
               "every host)",
            4: "{root} there holds no scripts/jsonbench",
            5: "no rsync there (GNU parallel returns the shard folders with it)"}


def ssh_argv(host):
    """How GNU parallel reaches HOST: an sshlogin with a space is its own
    ssh command ('ssh -p 2222 host'); otherwise $PARALLEL_SSH (or ssh) HOST."""
    if " " in host.strip():
        return shlex.split(host)
    argv = shlex.split(os.environ.get("PARALLEL_SSH") or "ssh")
    if os.path.basename(argv[0]) == "ssh":
        argv += ["-o", "BatchMode=yes", "-o", "ConnectTimeout=20"]
    return argv + [host]


def check_hosts(hosts, timeout=60):
    """{host: why it cannot run a shard} for the hosts that cannot: ssh
    fails (no password is asked), no checkout at this path, no rsync.  All
    probed at once; ':' (this machine) is not probed."""
    probe = HOST_PROBE.format(root=shlex.quote(ROOT))
    procs = {}
    for h in hosts:
        if h == ":":
            continue
        try:
            procs[h] = subprocess.Popen(ssh_argv(h) + [probe], stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        text=True)
        except OSError as exc:
            procs[h] = exc
    bad = {}
    for h, p in procs.items():
        if isinstance(p, OSError):
            bad[h] = "cannot run %s: %s" % (ssh_argv(h)[0], p.strerror)
            continue
        try:
            err = p.communicate(timeout=timeout)[1]
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            bad[h] = "no answer in %d s" % timeout
            continue
        if p.returncode in HOST_WHY:
            bad[h] = HOST_WHY[p.returncode].format(root=ROOT)
        elif p.returncode:
            lines = [x for x in err.strip().splitlines() if x.strip()]
            bad[h] = "ssh exited %d: %s" % (p.returncode, lines[-1] if lines else "no message")
    return bad


def parallel_command(hosts, study, command, argv, n):
    """GNU parallel's command line: one shard per host at a time, run in
    the repository's path there, the shard's folder returned as files,
    each shard's host, times and exit status in STUDY/parallel/joblog."""
    rel = os.path.relpath(study, ROOT)
    out = rel if not rel.startswith("..") else study
    logins = ",".join("1/" + h for h in hosts)     # ':' too: one shard at a time
    return ["parallel", "--sshlogin", logins, "--workdir", ROOT, "--halt", "never",
            "--line-buffer", "--tagstring", "shard-{}",
            "--joblog", os.path.join(study, "parallel", "joblog"),
            "--return", os.path.join(out, "shard-{}"),
            shard_command(command, argv, n, "{}", os.path.join(out, "shard-{}"),
                          build_dir="build-node-$(hostname -s)"),
            ":::"] + [str(k) for k in range(1, n + 1)]


def joblog_summary(path):
    """One line per shard from GNU parallel's joblog: its host, run time
    and exit status (255: ssh itself failed, nothing came back)."""
    try:
        with open(path) as f:
            rows = [line.rstrip("\n").split("\t") for line in f][1:]
    except OSError as exc:
        return ["no joblog (%s)" % exc.strerror]
    out = []
    for r in sorted(rows, key=lambda r: int(r[0]) if r[0].isdigit() else 0):
        if len(r) < 8:
            continue
        seq, host, runtime, status, sig = r[0], r[1], float(r[3]), int(r[6]), int(r[7])
        what = ("exit 0" if status == 0 and sig == 0 else
                "killed by signal %d" % sig if sig else
                "exit 255: ssh to %s failed, its folder may not have come back" % host
                if status == 255 else "exit %d" % status)
        out.append("shard %s on %s: %.0f s, %s" % (seq, host, runtime, what))
    return out


def parallel(argv):
    args, study = _parse(
        argv, O.prog("parallel"), EXAMPLES_PARALLEL,
        "Run a study's shards on ssh-able hosts with GNU parallel (one shard per host at a "
        "time, results returned as files), then merge them here (docs/shards.md).", hosts=True)
    hosts = [h for h in args.hosts.split(",") if h]
    if not hosts:
        sys.exit("parallel: no host given")
    if args.dry_run:
        print(shlex.join(parallel_command(hosts, study, args.command, args.args,
                                          args.shards)))
        print("(then) " + merge_command(study, args.shards))
        return 0
    need = ["parallel"] + (["rsync"] if any(h != ":" for h in hosts) else [])
    missing = [p for p in need if not shutil.which(p)]
    if missing:
        sys.exit("parallel: %s not installed here (scripts/deps.sh --engines installs it)"
                 % " and ".join(missing))
    bad = check_hosts(hosts)
    for h in hosts:
        if h in bad:
            log("parallel: host %s left out: %s" % (h, bad[h]))
    hosts = [h for h in hosts if h not in bad]
    if not hosts:
        sys.exit("parallel: no host can run a shard; nothing ran")
    cmd = parallel_command(hosts, study, args.command, args.args, args.shards)
    os.makedirs(os.path.join(study, "parallel"), exist_ok=True)
    log("parallel: %s" % shlex.join(cmd))
    rc = subprocess.run(cmd, cwd=ROOT).returncode
    for line in joblog_summary(os.path.join(study, "parallel", "joblog")):
        log("parallel: " + line)
    log("parallel: shards done (exit %d); merging" % rc)
    from . import merge
    mrc = merge.main([os.path.join(study, "shard-%d" % k) for k in range(1, args.shards + 1)]
                     + ["--shards", str(args.shards), "--out", os.path.join(study, "merged")])
    return mrc or (1 if rc else 0)
