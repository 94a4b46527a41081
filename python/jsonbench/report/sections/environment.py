"""Where and how the numbers were made: machine, build, commit, datasets."""

from ..document import Section, Table


def _interval(measured):
    import datetime
    if not measured or measured[0] is None:
        return "?"
    def fmt(t):
        return datetime.datetime.utcfromtimestamp(t).strftime("%H:%M:%S") if t else "?"
    return "%s - %s" % (fmt(measured[0]), fmt(measured[1]))


def measuring_setup_text(env):
    """The measuring setup's row: what the timed processes ran with."""
    m = env.get("measuring_setup")
    if not m:
        return ("not recorded: the run predates the measuring setup, so its processes "
                "ran as deployed (glibc defaults, no pinning)")
    if m.get("setup") == "as-deployed":
        return ("as deployed (--as-deployed): glibc's heap defaults, no CPU pinning; "
                "THP %s" % (m.get("thp_enabled") or "unavailable"))
    return "measuring setup: %s; applied to %s; the as-deployed figures: %s" % (
        "; ".join(m.get("applied") or []) or "nothing applied on this machine",
        m.get("applied_to", "every timed process"), m.get("as_deployed_option", "--as-deployed"))


def noise_floor_text(env):
    """The noise floor's row, or None for a run without one."""
    f = env.get("noise_floor")
    if not f:
        return None
    if "error" in f:
        return "not measured: %s" % f["error"]
    runs = f.get("runs") or []
    warm = len(f.get("warmup_runs") or [])
    text = ("CPU spread %.1f%% ((max - min) / median) over %d fresh processes%s of fixed "
            "memory-bound work (tools/jsonbench-noise-probe, %s MiB), median %.3f s, %s minor "
            "faults each, in the %s setup, load average %s: a CPU difference smaller than "
            "this cannot be told from this machine's noise" % (
                f.get("spread_pct") or 0.0, len(runs),
                " (after %d warm-up not counted)" % warm if warm else "",
                (f.get("probe") or {}).get("mib", "?"),
                f.get("median_s") or 0.0, "{:,.0f}".format(f.get("median_minor_faults") or 0),
                f.get("setup", "?"), f.get("loadavg", "?")))
    d = f.get("drift") or {}
    if "spread_pct" in d:
        text += ("; memory drift %.1f%%: the same work in %d slices of one process, %.2f s "
                 "each, spread (max - min) / median (the speed of memory over time, which "
                 "short processes do not show)" % (d["spread_pct"], d.get("slices", 0),
                                                    d.get("median_slice_s") or 0.0))
    elif "error" in d:
        text += "; memory drift not measured: %s" % d["error"]
    return text


def build(ctx):
    rs = ctx.results
    env = rs.env
    ctx0 = next((e.context for e in rs.harness_entries()), None) or \
        next((e.context for e in rs.entries), {})
    rows = []

    def add(label, *values):
        for v in values:
            if v not in (None, ""):
                rows.append([label, str(v)])
                return

    add("CPU", env.get("cpu_model"), ctx0.get("cpu_model"))
    add("cores", env.get("nproc"), ctx0.get("num_cpus"))
    add("memory", env.get("memory"))
    add("kernel", env.get("kernel"))
    add("OS", env.get("os"))
    add("compiler", ctx0.get("compiler"), env.get("compiler"))
    add("compiler flags", ctx0.get("cflags"), env.get("cflags"))
    add("build type", ctx0.get("build_type"), env.get("build_type"))
    add("LTO", env.get("b_lto"))
    add("allocator", env.get("allocator"), ctx0.get("allocator"))
    add("commit", env.get("git_commit"), ctx0.get("git_commit"))
    add("tree", env.get("git_dirty"))
    add("date (UTC)", env.get("date"), ctx0.get("date"))
    add("hyperfine", env.get("hyperfine"))
    add("order (--order)", env.get("run_order"))
    add("timed processes", measuring_setup_text(env))
    add("noise floor", noise_floor_text(env))
    if env.get("loadavg_start"):
        add("load average (1/5/15 min) at start / end",
            "%s / %s (on %s cores; well above the core count means other work "
            "shared the CPUs and timings are noisy)" % (
                env["loadavg_start"], env.get("loadavg_end", "?"), env.get("nproc", "?")))
    for h in env.get("timing_hazards") or []:
        add("timing hazard", "%s = %s%s: %s; CPU and wall times may swing by more than "
            "the effects (to stop it: %s)" % (
                h.get("setting"), h.get("value"),
                " (shards %s)" % ",".join(map(str, h["shards"])) if h.get("shards") else "",
                h.get("effect"), h.get("fix")))
    add("results folder", rs.root)
    add("shards", env.get("shard_warning"))
    s = Section("Environment", "environment")
    s.add(Table(["", ""], rows, align=["l", "l"]))
    nodes = env.get("shards") or []
    if nodes:
        s.para("Merged from %d shards (scripts/jsonbench merge): each group of jobs ran "
               "whole on one node, so its ratios compare processes of one machine." % len(nodes))
        s.add(Table(["shard", "host", "CPU", "measured (UTC)", "load average at start / end",
                     "timing hazards", "noise floor", "status"],
                    [["shard %s" % x.get("shard"), x.get("host", ""), x.get("cpu_model", ""),
                      _interval(x.get("measured")),
                      " / ".join(v or "?" for v in x.get("loadavg") or []),
                      ", ".join(x.get("timing_hazards") or []) or "none",
                      "-" if x.get("noise_floor_pct") is None
                      else "%.1f%%" % x["noise_floor_pct"],
                      x.get("status", "")] for x in nodes],
                    align=["l"] * 8))
    ds = env.get("datasets") or []
    if not ds:
        seen = {}
        for e in rs.harness_entries():
            p = e.context.get("dataset")
            if p and p not in seen:
                seen[p] = e.context.get("dataset_sha256", "")
        ds = [{"label": p, "path": p, "sha256": h} for p, h in seen.items()]
    if ds:
        s.add(Table(["dataset", "file", "size", "sha256"],
                    [[d.get("label", ""), d.get("path", ""),
                      "%.1f MB" % (d["bytes"] / 1e6) if d.get("bytes") else "",
                      d.get("sha256", "")] for d in ds],
                    align=["l", "l", "r", "l"]))
    return s
