#!/usr/bin/env python3
"""Does a sharded claims reproduction say what the serial one says?

Reads two claims folders (scripts/jsonbench claims, serial; and the merge
of its shards, scripts/jsonbench merge), evaluates both claims tables and
checks, claim by claim: the same verdict, and measured changes that differ
by less than the claim's noise band (percentage points).  Both folders'
report.md must hold the claims table.  Prints one line per claim and the
count of differing claims per metric kind (time figures swing with the
machine's load; memory figures should not); exit 1 on any difference.
Beside each figure: its spread, the range of the change over the run's
repetitions, each repetition's after against its own before; a difference
where the two spreads overlap is marked so, as the repetitions of one run
already disagree that much.
Run it on two serial reproductions too: what differs there is the
machine, not the sharding.  --control SERIAL2 does both at once: a
second serial run's figure is printed beside each claim, and the summary
counts the claims whose sharded figure is further from the serial one
than the second serial run's is (or whose verdict differs where the two
serial runs agree).

usage: PYTHONPATH=python tests/shards/compare_claims.py SERIAL MERGED [--control SERIAL2]
  e.g. after
    scripts/jsonbench claims --scale 0.01 --out S
    for k in 1 2 3; do scripts/jsonbench claims --scale 0.01 --shards 3 --shard $k \\
        --out P/shard-$k; done
    scripts/jsonbench merge P/shard-* --out P/merged"""

import os
import sys

from jsonbench import claims as C
from jsonbench import resultsdir
from jsonbench.env import node_conditions


def rows_of(folder):
    loaded = C.load_run(folder)
    if not loaded:
        sys.exit("compare_claims: %s holds no %s" % (folder, C.RUN_FILE))
    doc, runs, meta = loaded
    kinds = {c["id"]: c["metric"].get("kind", "time") for c in doc["claims"]}
    return {r["id"]: dict(r, kind=kinds.get(r["id"], "time"))
            for r in C.evaluate(doc, runs, meta.get("dataset_stats"), meta["scale"],
                                meta.get("caps", True))}


def conditions(folder):
    """What the machine was doing: load averages and timing hazards, per
    shard for a merged folder (time figures are only as alike as these)."""
    env = resultsdir.read_env(folder)
    nodes = env.get("shards") or [node_conditions(env)]
    return ["%s%s: load average at start / end %s, timing hazards: %s" % (
        folder, " shard %s" % x["shard"] if "shard" in x else "",
        " / ".join(v or "?" for v in x.get("loadavg") or []) or "?",
        "not recorded" if x.get("timing_hazards") is None else
        ", ".join(x["timing_hazards"]) or "none") for x in nodes]


def spread(row):
    """The change's range over the run's repetitions, in percent: each
    repetition's after over its before (the sides run interleaved,
    repetition by repetition).  None without values."""
    changes = [C.change_pct(b, a) for b, a in zip(row.get("before_values") or [],
                                                  row.get("after_values") or []) if b]
    return (min(changes), max(changes)) if changes else None


def overlap(x, y):
    return x is not None and y is not None and x[0] <= y[1] and y[0] <= x[1]


def compare(serial, merged, out=sys.stdout, control=None):
    """([problem, ...], how many claims the serial table has) between the
    two folders' claims tables.  'control',
    a second serial folder, adds its figures and the count of claims the
    shards move further than a repeated serial run does."""
    a, b = rows_of(serial), rows_of(merged)
    c = rows_of(control) if control else {}
    problems, per_kind, beyond = [], {}, []
    for folder in (serial, merged) + ((control,) if control else ()):
        for line in conditions(folder):
            out.write(line + "\n")
    for folder in (serial, merged):
        md = os.path.join(folder, "report.md")
        if not os.path.exists(md) or "Seed claims" not in open(md).read():
            problems.append("%s: report.md has no claims table" % folder)
    if sorted(a) != sorted(b):
        problems.append("other claims: %s vs %s" % (sorted(set(a) ^ set(b)), ""))
    out.write("%-34s %-34s %-34s %8s %8s %8s %6s  %-17s %-17s\n" % (
        "claim", "verdict (serial)", "verdict (shards)", "serial", "shards",
        "control" if control else "", "band", "spread (serial)", "spread (shards)"))
    for cid in a:
        if cid not in b:
            continue
        ra, rb = a[cid], b[cid]
        ma, mb = ra.get("measured_change_pct"), rb.get("measured_change_pct")
        band = ra.get("noise_pct") or 3.0
        same = ra["verdict"] == rb["verdict"]
        close = (ma is None and mb is None) or (
            ma is not None and mb is not None and abs(ma - mb) < band)
        sa, sb = spread(ra), spread(rb)
        # A difference the repetitions of either run already span is the
        # machine's noise; one outside both spreads is worth a look.
        noisy = overlap(sa, sb)
        rc = c.get(cid)
        mc = rc.get("measured_change_pct") if rc else None
        if rc and _further(ma, mb, mc, band, same, rc["verdict"] == ra["verdict"]):
            beyond.append(cid)
        out.write("%-34s %-34s %-34s %8s %8s %8s %5.0f%%  %-17s %-17s%s\n" % (
            cid, ra["verdict"][:34], rb["verdict"][:34], C.fmt_pct(ma), C.fmt_pct(mb),
            C.fmt_pct(mc) if rc else "", band, _span(sa), _span(sb), "" if same and close else
            "  <- differs (spreads overlap)" if noisy else "  <- differs"))
        n = per_kind.setdefault(ra["kind"], [0, 0, 0])
        n[0] += 1
        n[1] += not (same and close)
        n[2] += not (same and close) and not noisy
        if not same:
            problems.append("%s: verdict %r serial, %r in shards" % (cid, ra["verdict"],
                                                                      rb["verdict"]))
        if not close:
            problems.append("%s: measured %s serial, %s in shards: more than the %.0f%% "
                            "noise band apart" % (cid, ma, mb, band))
    for kind, (n, bad, apart) in sorted(per_kind.items()):
        out.write("%s claims: %d of %d differ, %d of them with repetition spreads that "
                  "do not overlap\n" % (kind, bad, n, apart))
    if control:
        out.write("against a second serial run: %d of %d claims differ more between "
                  "serial and shards than between the two serial runs%s\n" % (
                      len(beyond), len([x for x in a if x in b and x in c]),
                      ": " + ", ".join(beyond) if beyond else ""))
    return problems, len(a)


def _further(ma, mb, mc, band, same, control_same):
    """Do the shards move a claim further from the serial run than a
    repeated serial run does?  A verdict counts only where the two serial
    runs agree on it; a figure only beyond the noise band."""
    if not same and control_same:
        return True
    if ma is None or mb is None or mc is None:
        return False
    return abs(mb - ma) >= band and abs(mb - ma) > abs(mc - ma)


def _span(r):
    return "-" if r is None else "%+.1f..%+.1f" % r


def main(argv):
    control = None
    if len(argv) == 4 and argv[2] == "--control":
        control = argv[3]
        argv = argv[:2]
    if len(argv) != 2:
        sys.exit(__doc__)
    problems, compared = compare(*argv, control=control)
    for p in problems:
        print("DIFFERS: " + p)
    print("%d claims compared: %s" % (compared,
                                      "same table" if not problems else
                                      "%d difference(s)" % len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
