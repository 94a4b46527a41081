"""Where each workload's CPU went: user and system time and the page
faults behind the system time, per impl (medians over repetitions of the
headline phases, as the Before / After tables count them).  A CPU
difference that is all system time with as many more faults is the heap's
first touch, not the code's work.  Shown when the results count faults
(older folders do not: then the section is left out, and an entry
without them, e.g. a merged older one, shows '-')."""

from ..document import Section, Table
from ..metrics import fmt_value, median
from .common import by_key, total_values

COLUMNS = [("cpu_time", "CPU", "s"), ("user_cpu_s", "user", "s"),
           ("sys_cpu_s", "system", "s"), ("minor_faults", "minor faults", "count"),
           ("major_faults", "major faults", "count")]


def build(ctx):
    rs = ctx.results
    rows, faults_seen = [], False
    for (dataset, variant), impls in by_key(rs.harness_entries()).items():
        for impl, e in impls.items():
            vals = [median(total_values(rs, e, key)) for key, _l, _u in COLUMNS]
            if vals[1] is None and vals[3] is None:
                continue
            faults = vals[3]
            faults_seen = faults_seen or faults is not None
            per_fault = "-"
            if faults and vals[2] is not None:
                per_fault = fmt_value(vals[2] / faults, "s")
            rows.append([dataset, variant, impl] +
                        [fmt_value(v, unit) for v, (_k, _l, unit) in zip(vals, COLUMNS)] +
                        [per_fault])
    if not faults_seen:
        return None
    s = Section("Where the CPU went", "cpu-split")
    setup = (rs.env.get("measuring_setup") or {}).get("setup")
    s.para("User and system CPU and page faults of each workload's headline phases, "
           "medians over repetitions.  System time follows the minor faults (first "
           "touch of memory): a CPU difference made of system time and faults is the "
           "heap's pages, not the code's work.  %s" % (
               "Timed in the %s setup (see Environment)." % setup if setup else
               "Timed as deployed (no measuring setup recorded)."))
    s.add(Table(["dataset", "workload", "impl"] + [l for _k, l, _u in COLUMNS] +
                ["system / fault"], rows, align=["l", "l", "l"] + ["r"] * (len(COLUMNS) + 1)))
    return s
