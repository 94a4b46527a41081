"""One lifecycle for every study's results folder: where the folder goes,
its plan.json (a new plan, or the one --resume finishes) and env.json's
common part.  suite, claims, ovs run, history and find start and end
their folders here, so that a folder's name, its plan check and its
description of the machine mean the same whichever study wrote it.

    study = Study("suite", argv, "scripts/suite.sh", args)
    state = study.resumed(digest) if study.resume else study.new_plan(digest, jobs)
    env = study.environment(build_dir, datasets=used, setup=setup)
    ...
    study.finish(env)           # duration, load average at the end"""

import os
import shlex
import time

from . import ROOT, resultsdir
from .env import collect_env, git_short_commit, loadavg

# What env.json says of each dataset a study measured.
DATASET_FIELDS = ("label", "path", "kind", "scale", "form", "sha256", "bytes")


def stamp():
    """UTC time as results folders are named."""
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())


class Study:
    """tool: the name plan.json keeps and --resume checks ('suite',
    'reproduce', 'real-ovs', 'history', 'find'); argv: the options as
    given; program: the command typed, for env.json's 'command'; args:
    the parsed options (their out, resume, shard and shards are read);
    name: the default folder under results/, '{stamp}' and '{commit}'
    filled in, '-shardKofN' added for one shard of a study; started:
    when the study began (time.time(); default now), for the duration."""

    def __init__(self, tool, argv, program, args, name="{stamp}-{commit}", started=None):
        self.tool = tool
        self.argv = list(argv)
        self.program = program
        self.commit = git_short_commit(ROOT)
        self.t_start = started or time.time()
        resume = getattr(args, "resume", None)
        self.resume = bool(resume)
        path = resume or getattr(args, "out", None)
        if not path:
            path = os.path.join(ROOT, "results", name.format(stamp=stamp(), commit=self.commit))
            if getattr(args, "shard", None) and getattr(args, "shards", None):
                path += "-shard%dof%d" % (args.shard, args.shards)
        self.out_dir = os.path.abspath(path)
        self.shard_args = args if getattr(args, "shard", None) else None

    def rel(self):
        return os.path.relpath(self.out_dir, ROOT)

    # -------------------------------------------------------- plan.json

    def new_plan(self, digest, jobs, extra_names=()):
        """A new folder's plan state (written by the execute loop)."""
        resultsdir.make_dirs(self.out_dir)
        state = resultsdir.new_plan(self.tool, self.argv, self.commit, digest, jobs)
        state["jobs"] += list(extra_names)
        return state

    def resumed(self, digest):
        """The plan state of the folder --resume names; exits saying why
        when it is another tool's, another commit's, another plan's or
        another shard's."""
        return resultsdir.resume_or_exit(self.out_dir, self.tool, self.commit, digest,
                                         self.shard_args)

    # --------------------------------------------------------- env.json

    def command(self):
        """The command line as typed, without --resume (which only names
        the folder): what a reader runs to make such a folder again."""
        argv, skip = [], False
        for a in self.argv:
            if skip:
                skip = False
                continue
            if a == "--resume":
                skip = True
                continue
            if a.startswith("--resume="):
                continue
            argv.append(a)
        return " ".join([self.program] + ([shlex.join(argv)] if argv else []))

    def environment(self, build_dir, allocator="glibc", datasets=(), setup=None):
        """env.json's common part: the machine and build (env.collect_env),
        the study, its command, commit and datasets, the measuring setup
        and the load average as measuring starts."""
        env = collect_env(ROOT, build_dir, allocator)
        env.update(source=self.tool, command=self.command(), commit=self.commit,
                   datasets=[{k: d.get(k) for k in DATASET_FIELDS if k in d}
                             for d in datasets],
                   loadavg_start=loadavg())
        if setup is not None:
            env.update(setup.env_fields())
        if self.resume:
            env["resumed"] = True
        return env

    def write_env(self, env):
        resultsdir.write_env(self.out_dir, env)

    def finish(self, env):
        """env.json at the end: the whole duration and the load average
        as measuring ended."""
        env.update(duration_s=round(time.time() - self.t_start, 1), loadavg_end=loadavg())
        self.write_env(env)
        return env
