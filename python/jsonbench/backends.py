"""The backends that turn jobs (jsonbench.jobs) into processes, one per
side; jsonbench.execute calls them.

  probe(job, tmp)        one warm-up process (raises when it fails)
  run(step, tmp)         step.runs processes of step.job; returns what
                         finish() needs (raises RuntimeError, OSError,
                         ValueError or jobs.RunError on failure)
  finish(job, results, tmp)
                         writes runs/<job>.json from the results of all
                         the job's steps; returns [(job, index entry)]
                         (a real dump also gives the real load it holds)

ModelBackend runs the harness executables, each repetition a process:
timed by hyperfine (its whole-process times become '<workload>/process'
rows, the export goes to hyperfine/) or, hyperfine=False, run directly.
A job that names its allocator (jobs.Job.allocator) runs the executable
of the build linked with it ('allocator_exes': {allocator: {impl: exe}});
its results must say they ran on it (the harness's context "allocator").
RealBackend (jsonbench.realovs.backend) runs real OVS builds.
All start every measured process in the study's measuring setup
(jsonbench.measuring; None: as the caller's environment gives).
DeterministicBackend measures figures that do not depend on timing
(allocation counts, valgrind instruction counts, DHAT's heap figures) of
any command: the regression gate's jobs (jsonbench.gate, gatecal,
gateseries)."""

import glob
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess

from . import build, cachesim, gbench, resultsdir


def run(cmd, cwd=None, setup=None):
    """subprocess.run(cmd) capturing text output, the process and its
    children in a process group of their own: when the caller is
    interrupted (Ctrl-C, SIGTERM: KeyboardInterrupt) the whole group is
    stopped, so no harness process outlives an interrupted hyperfine.
    'setup' (a jsonbench.measuring.Setup) gives the process and what it
    starts their environment and CPU."""
    p = subprocess.Popen(setup.command(cmd) if setup else cmd, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=cwd,
                         env=setup.environment() if setup else None)
    try:
        out, err = p.communicate()
    except BaseException:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(p.pid, sig)
                p.wait(timeout=5)
                break
            except (ProcessLookupError, subprocess.TimeoutExpired):
                continue
        raise
    return subprocess.CompletedProcess(cmd, p.returncode, out, err)


def run_processes(job, cmd, reps_dir, tmp, runs, hf_path, tag="", setup=None):
    """hyperfine --runs 'runs' of the job's harness command line whose results file
    is __RESULTS__ and output __OUTPUT__: each process writes its own
    results file into reps_dir ('tag' in its name: calls of one job stay
    apart even if a pid comes back).  Returns hyperfine's export."""
    shell_cmd = shlex.join(cmd).replace(
        "__RESULTS__", shlex.quote(reps_dir) + "/rep-%s$$.json" % tag).replace(
        "__OUTPUT__", shlex.quote(tmp) + "/out-$$")
    hf = run(["hyperfine", "--runs", str(runs), "--warmup", "0",
              "--style", "none", "--export-json", hf_path, shell_cmd], setup=setup)
    for p in glob.glob(os.path.join(tmp, "out-*")):
        os.unlink(p)
    if hf.returncode != 0:
        raise RuntimeError("hyperfine failed: %s" % (hf.stderr or hf.stdout)[-1500:])
    return gbench.read(hf_path)


def combine_hyperfine(docs):
    """One hyperfine export of the runs of several calls (one run each in
    an interleaved order), so the job's file reads as one call's."""
    res = [d["results"][0] for d in docs]
    if len(res) == 1:
        return {"results": res}
    times = [t for r in res for t in r.get("times", [])]
    out = dict(res[0], times=times,
               exit_codes=[c for r in res for c in r.get("exit_codes", [])],
               mean=statistics.mean(times), median=statistics.median(times),
               stddev=statistics.stdev(times) if len(times) > 1 else None,
               min=min(times), max=max(times),
               user=statistics.mean(r.get("user", 0.0) for r in res),
               system=statistics.mean(r.get("system", 0.0) for r in res))
    return {"results": [out]}


class ModelBackend:
    def __init__(self, out_dir, exes, repetitions, seed=1, allocator="glibc",
                 probe=True, hyperfine=True, sha256=True, setup=None, allocator_exes=None):
        self.out_dir = out_dir
        self.setup = setup
        self.exes = exes                # impl -> executable
        self.allocator_exes = dict(allocator_exes or {})
        self.allocator_exes.setdefault(allocator, exes)
        self.repetitions = repetitions
        self.seed = seed
        self.allocator = allocator
        self.probing = probe
        self.hyperfine = hyperfine
        self.sha256 = sha256

    def exe(self, job):
        """The job's executable: its allocator's build, else the backend's."""
        alloc = job.allocator or self.allocator
        if alloc not in self.allocator_exes:
            raise RuntimeError("no %s build for %s (allocators built: %s)" % (
                alloc, job.name, ", ".join(sorted(self.allocator_exes))))
        return self.allocator_exes[alloc][job.impl]

    def cmd(self, job, results, output):
        return build.harness_cmd(self.exe(job), job.workload, job.ds.get("path") or None,
                                 job.opts, self.seed, results, output, sha256=self.sha256)

    def _reps_dir(self, job, tmp):
        path = os.path.join(tmp, job.name)
        os.makedirs(path, exist_ok=True)
        return path

    def probe(self, job, tmp):
        if not self.probing:
            return
        cmd = self.cmd(job, os.path.join(tmp, "probe.json"), os.path.join(tmp, "probe.out"))
        r = run(cmd, setup=self.setup)
        if r.returncode != 0:
            raise RuntimeError("exit %d: %s\n%s" % (r.returncode, shlex.join(cmd),
                                                     (r.stderr or r.stdout)[-1500:]))

    def run(self, step, tmp):
        job = step.job
        reps_dir = self._reps_dir(job, tmp)
        if not self.hyperfine:
            res = os.path.join(reps_dir, "rep-%d.json" % (step.rep or 0))
            out = os.path.join(tmp, "output")
            cmd = self.cmd(job, res, out)
            r = run(cmd, setup=self.setup)
            if os.path.exists(out):
                os.unlink(out)
            if r.returncode != 0:
                raise RuntimeError("exit %d: %s: %s" % (r.returncode, shlex.join(cmd),
                                                         (r.stderr or r.stdout).strip()[-800:]))
            return gbench.read(res)
        if step.rep is None:
            hf_path = os.path.join(self.out_dir, "hyperfine", job.name + ".json")
        else:
            hf_path = os.path.join(tmp, "hf-%s-%d.json" % (job.name, step.rep))
        return run_processes(job, self.cmd(job, "__RESULTS__", "__OUTPUT__"), reps_dir, tmp,
                             step.runs, hf_path, tag="" if step.rep is None else "%d-" % step.rep,
                             setup=self.setup)

    def finish(self, job, results, tmp):
        reps_dir = self._reps_dir(job, tmp)
        if self.hyperfine:
            rep_files = sorted(glob.glob(os.path.join(reps_dir, "rep-*.json")),
                               key=os.path.getmtime)
            if len(rep_files) != self.repetitions:
                raise RuntimeError("expected %d harness results files, found %d"
                                   % (self.repetitions, len(rep_files)))
            hf_doc = combine_hyperfine(results)
            gbench.write_atomic(os.path.join(self.out_dir, "hyperfine", job.name + ".json"),
                                hf_doc)
            merged = gbench.merge_repetitions([gbench.read(p) for p in rep_files],
                                              hyperfine=hf_doc, workload=job.workload)
        else:
            merged = gbench.merge_repetitions(results, workload=job.workload)
            if job.ds.get("sha256"):
                merged["context"]["dataset_sha256"] = job.ds["sha256"]
        merged["context"]["suite_variant"] = job.variant
        ran_on = merged["context"].get("allocator")
        if job.allocator and ran_on and ran_on != job.allocator:
            raise RuntimeError("%s ran on %s, not %s (%s)" % (job.name, ran_on, job.allocator,
                                                               self.exe(job)))
        rel = os.path.join("runs", job.name + ".json")
        gbench.write_atomic(os.path.join(self.out_dir, rel), merged)
        shutil.rmtree(reps_dir, ignore_errors=True)
        e = resultsdir.entry(job, rel, self.allocator)
        if not self.hyperfine:
            e.pop("hyperfine", None)
        return [(job, e)]


_DHAT_TOTAL = re.compile(r"Total:\s+([\d,]+) bytes in ([\d,]+) blocks")
_DHAT_PEAK = re.compile(r"At t-gmax:\s+([\d,]+) bytes in ([\d,]+) blocks")
VALGRIND = {
    "cachegrind": ["--tool=cachegrind", "--cache-sim=no", "--branch-sim=no",
                   "--cachegrind-out-file=%s", "-q"],
    "cachesim": cachesim.valgrind_args(),
    "dhat": ["--tool=dhat", "--dhat-out-file=%s"],
    "callgrind": ["--tool=callgrind", "--compress-strings=no", "--compress-pos=no",
                  "--callgrind-out-file=%s", "-q"],
}


def callgrind_inclusive(path, prefix):
    """Inclusive Ir per function whose name starts with 'prefix', from a
    callgrind file written with --compress-strings=no --compress-pos=no."""
    out = {}
    fn = None
    with open(path) as f:
        for line in f:
            if line.startswith("fn="):
                fn = line[3:].strip()
                continue
            if line.startswith("calls="):
                continue  # the next cost line is the call's inclusive cost
            if not line[:1].isdigit() and not line[:1] in "+-*":
                continue
            parts = line.split()
            if len(parts) < 2 or fn is None:
                continue
            name = fn.split(".")[0]       # bench_parse.lto_priv.0 -> bench_parse
            if name.startswith(prefix):
                out[name] = out.get(name, 0) + int(parts[1])
    return out


TIMED_MODES = ("micro", "cpu")


class DeterministicBackend:
    """One process per run of a job, measured by what job.mode names:

      native      the process as it is: its google-benchmark results
                  (allocation calls and bytes per phase, heap after load)
      micro       the same, a micro-benchmark executable of the suite's:
                  written as micro/<impl>.json (context.impl set), the
                  index entry's source "micro" (the report's section)
      cpu         the same, each run's summed cpu_time (timing samples)
      cachegrind  valgrind: total instructions (Ir)
      cachesim    valgrind: instructions and simulated cache misses on a
                  fixed geometry (jsonbench.cachesim), about 2.7x slower
      dhat        valgrind: malloc calls and peak heap bytes
      callgrind   valgrind: inclusive Ir of every bench_* function

    job.opts is the command line; in it __DB__ is a fresh copy of the
    job's dataset (programs that lock or write next to their database),
    __OUT__ an output file and __RESULTS__ the results file.  Every run
    happens in the same scratch folder, so paths have the same length for
    every job (a path's length moves the heap's layout).  runs/<job>.json
    is the results document (native) or {"figures": {...}} /
    {"samples": [...]}; a process that fails raises RuntimeError.  The
    timed modes (micro, cpu) start their process in the measuring setup
    ('setup', jsonbench.measuring); the others count what does not depend
    on it."""

    def __init__(self, out_dir, setup=None):
        self.out_dir = out_dir
        self.setup = setup

    def probe(self, job, tmp):
        pass

    def run(self, step, tmp):
        return [self._one(step.job, tmp) for _ in range(step.runs)]

    def _one(self, job, tmp):
        work = os.path.join(tmp, "work")
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        res, vg_out = os.path.join(work, "r.json"), os.path.join(work, "vg.out")
        db = os.path.join(work, "db.ovsdb")
        cmd = [a.replace("__DB__", db).replace("__OUT__", os.path.join(work, "out"))
               .replace("__RESULTS__", res) for a in job.opts]
        if "__DB__" in " ".join(job.opts):
            shutil.copyfile(job.ds["path"], db)
        if job.mode in VALGRIND:
            cmd = ["valgrind"] + [a.replace("%s", vg_out) for a in VALGRIND[job.mode]] + cmd
        r = run(cmd, cwd=work, setup=self.setup if job.mode in TIMED_MODES else None)
        if r.returncode != 0:
            tail = [ln for ln in (r.stderr or r.stdout).splitlines() if ln.strip()]
            raise RuntimeError("%s exited %d: %s" % (os.path.basename(job.opts[0]),
                                                     r.returncode, tail[-1] if tail else "?"))
        if job.mode in ("native", "micro"):
            return gbench.read(res)
        if job.mode == "cpu":
            return sum(b["cpu_time"] for b in gbench.iterations(gbench.read(res))
                       if not b["name"].endswith("/free"))
        if job.mode == "callgrind":
            return callgrind_inclusive(vg_out, "bench_")
        if job.mode in ("cachegrind", "cachesim"):
            with open(vg_out) as f:
                for line in f:
                    if line.startswith("summary:"):
                        if job.mode == "cachegrind":
                            return {"instructions": int(line.split()[1])}
                        return cachesim.figures(line[len("summary:"):])
            raise RuntimeError("no summary in the cachegrind output of %s" % job.opts[0])
        total, peak = _DHAT_TOTAL.search(r.stderr), _DHAT_PEAK.search(r.stderr)
        if not total or not peak:
            raise RuntimeError("no DHAT summary for %s" % job.opts[0])
        return {"alloc_blocks": int(total.group(2).replace(",", "")),
                "peak_heap_bytes": int(peak.group(1).replace(",", ""))}

    def finish(self, job, results, tmp):
        runs = [x for r in results for x in r]
        if job.mode == "micro":
            doc = runs[0]
            doc.setdefault("context", {})["impl"] = job.impl
            rel = os.path.join("micro", job.impl + ".json")
            os.makedirs(os.path.join(self.out_dir, "micro"), exist_ok=True)
            gbench.write_atomic(os.path.join(self.out_dir, rel), doc)
            e = {"file": rel, "impl": job.impl, "workload": job.workload,
                 "variant": job.variant, "dataset": job.ds["label"], "source": "micro"}
            e.update(job.meta)
            return [(job, e)]
        doc = runs[0] if job.mode == "native" else {"samples": runs} if job.mode == "cpu" \
            else {"figures": runs[0]}
        rel = os.path.join("runs", job.name + ".json")
        gbench.write_atomic(os.path.join(self.out_dir, rel), doc)
        e = resultsdir.entry(job, rel)
        e.pop("hyperfine", None)
        return [(job, e)]
