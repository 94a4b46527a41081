"""The figures history and find can measure: one name per figure, each
naming its workload on real OVS (realovs/workloads.py), the dataset form
it runs on, the row and field it reads, its label, unit, how a point's
value is formed and how the figure is measured.  The standalone load's
figures keep their first names (rss_after_load, ...); a figure of another
workload or form is named after it: cluster_*, log_*, convert_*, storm_*,
cond_* (monitor-cond-change).

  how "value": the point's median and spread (min..max) and its ratio to
               the reference's median in the same group
  how "ratio": the per-repetition ratio to the reference (CPU time is
               only comparable between neighbouring processes)

Workload "load-ir" runs once per commit (valgrind: deterministic); every
other workload is loaded --repetitions times next to the reference."""

import collections

Figure = collections.namedtuple(
    "Figure", "workload form row field label unit how measured")

_LOAD = "ovsdb-server until it serves the database"
_VALGRIND = ("valgrind (cachegrind) of `ovsdb-tool query` on %s, net of an empty "
             "database of the schema; one run, deterministic to ~0.1%%")


def _load(prefix, form, what, ir=True):
    """The figures of ovsdb-server loading the dataset's 'form'."""
    p = prefix + "_" if prefix else ""
    lab = what + " " if what else ""
    out = {
        p + "rss_after_load": Figure("load", form, "load/load", "rss_after_load_bytes",
                                     "%sRSS after load" % lab, "MB", "value",
                                     "VmRSS of %s (%s)" % (_LOAD, form)),
        p + "peak_rss": Figure("load", form, "load/load", "peak_rss_bytes",
                               "%speak RSS" % lab, "MB", "value",
                               "VmHWM of %s (%s)" % (_LOAD, form)),
        p + "load_cpu": Figure("load", form, "load/load", "cpu_time",
                               "%sload CPU / reference" % lab, "ratio", "ratio",
                               "CPU time of %s (%s)" % (_LOAD, form)),
    }
    if ir:
        out[p + "load_instructions"] = Figure(
            "load-ir", form, "load-ir/load", "instructions",
            "%sload instructions (valgrind)" % lab, "M", "value",
            _VALGRIND % ("the %s form at scale 0.01" % form))
        out[p + "load_ll_misses"] = Figure(
            "load-ir", form, "load-ir/load", "ll_misses",
            "%sload last-level cache misses (valgrind)" % lab, "M", "value",
            (_VALGRIND % ("the %s form at scale 0.01" % form))
            + ", cache simulated on a fixed geometry (jsonbench.cachesim)")
    return out


FIGURES = {}
FIGURES.update(_load("", "snapshot", ""))
# ovsdb-tool reads standalone files only: no valgrind figure of a cluster.
FIGURES.update(_load("cluster", "cluster", "clustered", ir=False))
FIGURES.update(_load("log", "log", "log replay"))
_ONLINE = "`ovsdb-client convert` against a served copy (realovs/convert.py)"
_OFFLINE = "`ovsdb-tool convert` of a copy (realovs/convert.py)"
_STORM = "M monitors held, then N more requested at once (realovs/storm.py)"
_COND = ("M conditional monitors held on SB by datapath, then each changes its "
         "condition K times (realovs/condchange.py)")
FIGURES.update({
    "convert_peak_rss": Figure("convert", "snapshot", "convert/convert",
                               "convert_peak_rss_bytes", "online conversion peak RSS",
                               "MB", "value", "server's VmHWM over " + _ONLINE),
    "convert_rss_after": Figure("convert", "snapshot", "convert/convert",
                                "rss_after_convert_bytes", "RSS after online conversion",
                                "MB", "value", "server's VmRSS after " + _ONLINE),
    "convert_cpu": Figure("convert", "snapshot", "convert/convert", "convert_cpu_s",
                          "online conversion CPU / reference", "ratio", "ratio",
                          "server's CPU time over " + _ONLINE),
    "convert_offline_peak_rss": Figure("convert", "snapshot", "convert/offline",
                                       "convert_peak_rss_bytes",
                                       "offline conversion peak RSS", "MB", "value",
                                       "peak RSS (wait4) of " + _OFFLINE),
    "convert_offline_cpu": Figure("convert", "snapshot", "convert/offline",
                                  "convert_cpu_s", "offline conversion CPU / reference",
                                  "ratio", "ratio", "CPU time (wait4) of " + _OFFLINE),
    "storm_held_rss": Figure("monitor-storm", "snapshot", "monitor-storm/held",
                             "rss_bytes", "RSS with the monitors held", "MB", "value",
                             "server's VmRSS once M monitors are held: " + _STORM),
    "storm_rss": Figure("monitor-storm", "snapshot", "monitor-storm/storm", "rss_bytes",
                        "RSS after the monitor storm", "MB", "value",
                        "server's VmRSS after the N requests: " + _STORM),
    "storm_peak_rss": Figure("monitor-storm", "snapshot", "monitor-storm/storm",
                             "peak_rss_bytes", "peak RSS over the monitor storm", "MB",
                             "value", "server's VmHWM after the N requests: " + _STORM),
    "storm_cpu_per_request": Figure("monitor-storm", "snapshot", "monitor-storm/storm",
                                    "cpu_per_request_ms",
                                    "CPU per storm request / reference", "ratio", "ratio",
                                    "server's CPU over the N requests, over N: " + _STORM),
    "cond_held_rss": Figure("monitor-cond-change", "snapshot", "monitor-cond-change/held",
                            "rss_bytes", "RSS with the conditional monitors held", "MB",
                            "value", "server's VmRSS once M monitors are held: " + _COND),
    "cond_rss": Figure("monitor-cond-change", "snapshot", "monitor-cond-change/change",
                       "rss_bytes", "RSS after the condition changes", "MB", "value",
                       "server's VmRSS after the M x K changes: " + _COND),
    "cond_peak_rss": Figure("monitor-cond-change", "snapshot", "monitor-cond-change/change",
                            "peak_rss_bytes", "peak RSS over the condition changes", "MB",
                            "value", "server's VmHWM after the M x K changes: " + _COND),
    "cond_change_cpu": Figure("monitor-cond-change", "snapshot",
                              "monitor-cond-change/change", "cpu_per_change_ms",
                              "CPU per condition change / reference", "ratio", "ratio",
                              "server's CPU over the M x K changes, over M x K: " + _COND),
})
HISTORY_FIGURES = ["rss_after_load", "peak_rss", "load_cpu", "load_instructions",
                   "load_ll_misses"]
SCALE = {"MB": 1e-6, "M": 1e-6, "ratio": 1.0}
# Workloads that need a database of one kind (Datapath_Binding is SB's):
# generated of that kind, and a --dataset FILE of another known kind is
# not theirs.  The others run on NB.
KINDS = {"monitor-cond-change": "sb"}
# Workloads run once per commit: their figures are deterministic.
ONCE = ("load-ir",)
# The sizes of the workloads --workload-params sets in history and find:
# a key sets it in every workload that has it (held: both).
PARAMS = {"monitor-storm": {"held": 10, "clients": 10},
          "monitor-cond-change": {"held": 10, "changes": 2, "datapaths": 4}}


class UnknownFigure(ValueError):
    pass


def figure(name):
    """The Figure of 'name'; raises UnknownFigure naming the known ones."""
    if name not in FIGURES:
        raise UnknownFigure("unknown figure %s: one of %s" % (name, ", ".join(FIGURES)))
    return FIGURES[name]


def parse(spec, default=None):
    """The figures a comma list names, in its order; raises UnknownFigure
    naming every unknown one."""
    names = [x.strip() for x in (spec or "").split(",") if x.strip()] or \
        list(default or HISTORY_FIGURES)
    bad = [x for x in names if x not in FIGURES]
    if bad:
        raise UnknownFigure("unknown figure %s: each one of %s"
                            % (",".join(bad), ", ".join(FIGURES)))
    return list(dict.fromkeys(names))


def deterministic(name):
    """Whether a figure does not depend on the machine's speed (memory,
    valgrind counts): the ones find should search; CPU is a ratio."""
    return FIGURES[name].how != "ratio"


def describe():
    """The figures as --help lists them: name, workload and form, unit."""
    lines = ["figures (--metrics / --metric NAME; docs/history.md):"]
    for name, f in FIGURES.items():
        lines.append("  %-26s %-14s %-9s %-5s %s" % (name, f.workload, f.form, f.unit,
                                                    f.label))
    return "\n".join(lines)
