"""Verdicts of scripts/compare (jsonbench.compare) and of the report's
significance marks (jsonbench.report.significance) on synthetic samples
whose answer is known: lower-is-better and higher-is-better metrics,
significant and not, ties, constant figures, too few repetitions, the
alpha boundary; the p-values against an exact Mann-Whitney distribution
enumerated here; the report's change sign (metrics.change_pct).

usage: test_verdicts.py   (PYTHONPATH=python)"""

import itertools
import math
import sys

# jsonbench.report first: importing jsonbench.compare on its own runs into
# the cycle compare -> report -> significance -> compare.
from jsonbench import report  # noqa: F401
from jsonbench import compare as C
from jsonbench.report import metrics as M
from jsonbench.report import significance as S

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: %s" % what, file=sys.stderr)


def exact_p(a, b):
    """Two-sided exact Mann-Whitney p for samples without ties: the share
    of all splits of the pooled values whose U is at least as far from
    its mean as the observed one."""
    pooled = list(a) + list(b)
    na, nb = len(a), len(b)

    def u_of(xs):
        s = set(xs)
        ys = [pooled[i] for i in range(len(pooled)) if i not in s]
        xv = [pooled[i] for i in xs]
        return sum(1 for x in xv for y in ys if x > y)

    u_obs = sum(1 for x in a for y in b if x > y)
    mean = na * nb / 2
    dev = abs(u_obs - mean)
    total = extreme = 0
    for xs in itertools.combinations(range(na + nb), na):
        total += 1
        if abs(u_of(xs) - mean) >= dev - 1e-9:
            extreme += 1
    return extreme / total


# --- compare.test: the verdict string and p ------------------------------

low = [10.0, 11.0, 12.0, 13.0, 14.0]
high = [20.0, 21.0, 22.0, 23.0, 24.0]
p, v = C.test(low, high, 0.05)
check(v == "significant", "separated 5+5 is significant (got %r)" % v)
check(p is not None and abs(p - 2 / math.comb(10, 5)) < 1e-9,
      "separated 5+5: p = 2/C(10,5) (got %r)" % p)
p2, v2 = C.test(high, low, 0.05)
check(v2 == "significant" and abs(p2 - p) < 1e-12, "two-sided: order does not matter")

# Overlapping samples: not significant, p as the exact distribution says.
for a, b in [([1, 2, 3, 4, 5], [1.5, 2.5, 3.5, 4.5, 5.5]),
             ([1, 4, 6, 9, 12], [2, 3, 7, 8, 11]),
             ([10, 12, 14, 16], [11, 13, 15, 17])]:
    p, v = C.test(a, b, 0.05)
    check(v == "not significant", "%r vs %r not significant (got %r)" % (a, b, v))
    check(p is not None and abs(p - exact_p(a, b)) < 1e-9,
          "%r vs %r: p %r == exact %r" % (a, b, p, exact_p(a, b)))

# Significant but not fully separated (one swap in 6+6).
a = [1, 2, 3, 4, 5, 7]
b = [6, 8, 9, 10, 11, 12]
p, v = C.test(a, b, 0.05)
check(v == "significant", "6+6 with one swap is significant (got %r, p %r)" % (v, p))
check(abs(p - exact_p(a, b)) < 1e-9, "6+6 with one swap: exact p")

# Too few repetitions: fewer than 2 on a side, or a smallest possible p
# (2/C(na+nb, na)) not below alpha, even if the samples are separated.
for a, b in [([1.0], [2.0, 3.0]), ([1.0, 2.0], [5.0]), ([], [1.0, 2.0])]:
    p, v = C.test(a, b, 0.05)
    check(p is None and v == "too few repetitions (n=%d+%d)" % (len(a), len(b)),
          "n=%d+%d: too few (got %r)" % (len(a), len(b), v))
for na, nb in [(2, 2), (3, 3), (2, 5), (2, 9)]:
    a = [float(i) for i in range(na)]
    b = [100.0 + i for i in range(nb)]
    pmin = 2 / math.comb(na + nb, na)
    p, v = C.test(a, b, 0.05)
    if pmin > 0.05:
        check(v.startswith("too few repetitions (n=%d+%d" % (na, nb)),
              "separated %d+%d (pmin %.3f) is too few (got %r)" % (na, nb, pmin, v))
    else:
        check(v == "significant", "separated %d+%d (pmin %.3f) is significant (got %r)"
              % (na, nb, pmin, v))
# 4+4 separated: p = 2/70 = 0.0286: significant at 0.05, too few at 0.01.
a4, b4 = [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]
check(C.test(a4, b4, 0.05)[1] == "significant", "4+4 separated significant at 0.05")
check(C.test(a4, b4, 0.01)[1].startswith("too few repetitions (n=4+4"),
      "4+4 separated is too few at alpha 0.01")
check(abs(C.min_p_two_sided(4, 4) - 2 / 70) < 1e-12, "min p 4+4 = 2/70")
check(abs(C.min_p_two_sided(3, 3) - 0.1) < 1e-12, "min p 3+3 = 0.1")
check(C.min_p_two_sided(1, 1) == 1.0, "min p 1+1 capped at 1")

# Constant figures (deterministic metrics): equal or differs, no p.
check(C.test([5, 5, 5], [5, 5, 5], 0.05) == (None, "constant: equal"), "constant equal")
check(C.test([5, 5], [6, 6, 6], 0.05) == (None, "constant: differs"), "constant differs")
# Ties that are not constant: the same samples are not significant.
p, v = C.test([1, 1, 2, 2, 3], [1, 1, 2, 2, 3], 0.05)
check(v == "not significant" and p is not None and p > 0.9,
      "identical tied samples: not significant, p ~ 1 (got %r %r)" % (v, p))
p, v = C.test([5, 5, 5, 5, 5], [5, 5, 5, 5, 6], 0.05)
check(v == "not significant", "one differing value among ties: not significant (got %r)" % v)

# --- compare.rows_for: direction, ratio, change, labels -----------------


def rows(metric, a, b, key=("nb-0.01", "load", "load/parse"), alpha=0.05):
    return C.rows_for({key: {metric: a}}, {key: {metric: b}}, [metric], alpha, None)


def verdict_of(metric, a, b):
    r = rows(metric, a, b)
    check(len(r) == 1, "one row for %s" % metric)
    return r[0][8] if r else None


# Lower is better (CPU, RSS, allocations): B lower -> better.
for m in ["cpu_time", "real_time", "rss_bytes", "peak_rss_bytes", "alloc_calls",
          "heap_allocated_bytes", "iter_median_ms"]:
    check(not M.metric(m).higher_is_better, "%s: lower is better" % m)
    check(verdict_of(m, high, low) == "significant, B better", "%s: B lower is better" % m)
    check(verdict_of(m, low, high) == "significant, B worse", "%s: B higher is worse" % m)
# Higher is better (throughput).
for m in ["bytes_per_second", "items_per_second", "mb_per_s"]:
    check(M.metric(m).higher_is_better, "%s: higher is better" % m)
    check(verdict_of(m, low, high) == "significant, B better", "%s: B higher is better" % m)
    check(verdict_of(m, high, low) == "significant, B worse", "%s: B lower is worse" % m)
# Deterministic figures: a constant difference has a direction too.
check(verdict_of("alloc_calls", [100, 100, 100], [90, 90, 90]) == "constant: differs, B better",
      "fewer allocations: constant differs, B better")
check(verdict_of("alloc_calls", [90, 90], [100, 100]) == "constant: differs, B worse",
      "more allocations: constant differs, B worse")
check(verdict_of("alloc_calls", [90, 90], [90, 90]) == "constant: equal", "same allocations")
# No direction on what is not a result.
check(verdict_of("cpu_time", [1, 2, 3, 4, 5], [1.5, 2.5, 3.5, 4.5, 5.5]) == "not significant",
      "overlap: no direction")
check(verdict_of("cpu_time", [1.0, 2.0, 3.0], [7.0, 8.0, 9.0]).startswith("too few"),
      "3+3: too few, no direction")

# Ratio, change and medians.
r = rows("cpu_time", [1.0, 2.0, 3.0, 4.0, 5.0], [2.0, 4.0, 6.0, 8.0, 10.0])[0]
check(r[4] == "2.000", "B/A of medians 3 and 6 is 2.000 (got %r)" % r[4])
check(r[5] == "+100.0%", "change +100.0%% (got %r)" % r[5])
check(r[2] == M.fmt_value(3.0, "s") and r[3] == M.fmt_value(6.0, "s"), "medians 3 and 6")
r = rows("rss_bytes", [400, 400, 400, 400], [300, 300, 300, 300])[0]
check(r[4] == "0.750" and r[5] == "-25.0%", "B/A 0.750, -25.0%% (got %r %r)" % (r[4], r[5]))
check(r[6] == "[-25.0%, -25.0%]", "constant figures: a zero-width interval (got %r)" % r[6])
r = rows("cpu_time", [0.0, 0.0], [1.0, 1.0])[0]
check(r[4] == "-" and r[5] == "-", "zero A median: no ratio")
# Label: the phase repeats the workload.
check(r[0] == "nb-0.01 load/parse", "label drops a repeated workload (got %r)" % r[0])
# Whole-process CPU (hyperfine) has no per-run values: no row.
check(rows("cpu_time", low, high, key=("nb-0.01", "load", "load/process")) == [],
      "no cpu_time row for /process")
# Keys only on one side, and filters.
check(C.rows_for({("x",): {"cpu_time": low}}, {("y",): {"cpu_time": high}},
                 ["cpu_time"], 0.05, None) == [], "unmatched keys give no rows")
check(rows("cpu_time", low, high)[0][7] == "%.3g" % (2 / 252), "p column")

# --- report.significance: the marks --------------------------------------

sig = S.compare(low, high)
check(sig.significant and sig.mark == "†", "separated: †")
check(sig.describe() == "† p=%.2g" % (2 / 252), "describe: %r" % sig.describe())
ns = S.compare([1, 2, 3, 4, 5], [1.5, 2.5, 3.5, 4.5, 5.5])
check(not ns.significant and ns.mark == "n.s.", "overlap: n.s. (got %r)" % ns.mark)
few = S.compare([1.0, 2.0, 3.0], [7.0, 8.0, 9.0])
check(not few.significant and few.mark == "n<", "3+3: n< (got %r)" % few.mark)
check(S.compare([1.0], [2.0, 3.0]).describe() == "n<", "1+2: n< without p")
eq = S.compare([7, 7, 7], [7, 7, 7])
check(not eq.significant and eq.mark == "=" and eq.describe() == "=", "constant equal: =")
df = S.compare([7, 7, 7], [8, 8, 8])
check(df.significant and df.mark == "†" and df.describe() == "†", "constant differs: †")
# Missing repetitions (None) are dropped, not counted.
check(S.compare([1, 2, 3, 4, None], [5, 6, 7, 8, None]).mark == "†",
      "None values dropped: 4+4 separated is †")
check(S.compare([1, 2, None, None], [5, 6, 7, 8]).mark == "n<",
      "None values dropped: 2+4 is n<")
check(S.ALPHA == 0.05 and "p < 0.05" in S.LEGEND, "legend states alpha 0.05")

# --- report.metrics.change_pct: after / before - 1, every report's sign --
check(abs(M.change_pct(100.0, 80.0) + 20.0) < 1e-9, "100 -> 80 is -20")
check(abs(M.change_pct(100.0, 125.0) - 25.0) < 1e-9, "100 -> 125 is +25")
check(M.change_pct(0, 1) is None and M.change_pct(None, 1) is None, "no base: None")

if failures:
    print("%d check(s) failed" % len(failures), file=sys.stderr)
    sys.exit(1)
print("verdicts: all checks passed")
