"""Intervals and verdicts (jsonbench.intervals, jsonbench.claims) on cases
whose answer is known: the exact signed-rank and rank-sum distributions
against brute-force enumeration, Student's t quantiles against published
values, a fixed effect plus noise (the interval covers it at about the
confidence asked for), no effect (a verdict of a direction is rare and
never confident on an interval that straddles the band), and the claims'
verdict rule: no verdict is given on an interval that straddles the noise
band or the claimed size's tolerance.

usage: test_intervals.py   (PYTHONPATH=python)"""

import itertools
import math
import random
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pylib"))
from testkit import Checks  # noqa: E402
from jsonbench import claims as C
from jsonbench import intervals as I

check = Checks()


def brute_signed_rank_cdf(n):
    counts = {}
    for signs in itertools.product((0, 1), repeat=n):
        t = sum(r + 1 for r, s in enumerate(signs) if s)
        counts[t] = counts.get(t, 0) + 1
    acc, out = 0, []
    for t in range(n * (n + 1) // 2 + 1):
        acc += counts.get(t, 0)
        out.append(acc / 2 ** n)
    return out


def brute_rank_sum_cdf(n, m):
    counts = {}
    for xs in itertools.combinations(range(n + m), n):
        ys = [v for v in range(n + m) if v not in xs]
        u = sum(1 for x in xs for y in ys if y < x)
        counts[u] = counts.get(u, 0) + 1
    total = sum(counts.values())
    acc, out = 0, []
    for u in range(n * m + 1):
        acc += counts.get(u, 0)
        out.append(acc / total)
    return out


def distributions():
    for n in range(1, 11):
        got, want = I._signed_rank_cdf(n), brute_signed_rank_cdf(n)
        check(all(abs(a - b) < 1e-12 for a, b in zip(got, want)) and len(got) == len(want),
              "signed-rank distribution n=%d" % n)
    for n, m in ((1, 1), (2, 3), (3, 3), (4, 5), (5, 5), (3, 7)):
        got, want = I._rank_sum_cdf(n, m), brute_rank_sum_cdf(n, m)
        check(all(abs(a - b) < 1e-12 for a, b in zip(got, want)) and len(got) == len(want),
              "rank-sum distribution %dx%d" % (n, m))
    # Published critical values: Wilcoxon n=10, two-sided 5%: T <= 8;
    # Mann-Whitney 5x5: U <= 2.
    check(I._order_index(I._signed_rank_cdf(10), 0.95)[0] == 9, "Wilcoxon n=10 critical value")
    check(I._order_index(I._rank_sum_cdf(5, 5), 0.95)[0] == 3, "Mann-Whitney 5x5 critical value")
    check(I.min_pairs(0.95, True) == 6 and I.min_pairs(0.95, False) == 4, "fewest repetitions")
    for df, want in ((1, 12.706), (2, 4.303), (5, 2.571), (10, 2.228), (30, 2.042)):
        check(abs(I.t_quantile(0.975, df) - want) < 2e-3, "t quantile df=%d" % df)


def covers(effect_pct, noise_sd, n, trials=400, seed=7):
    """How often the paired interval covers a known effect."""
    r = random.Random(seed)
    hit = 0
    for _ in range(trials):
        before = [10.0 * r.lognormvariate(0, 0.1) for _ in range(n)]   # drift between pairs
        after = [b * (1 + effect_pct / 100.0) * r.lognormvariate(0, noise_sd) for b in before]
        iv = I.paired(before, after)
        hit += iv.low <= math.log1p(effect_pct / 100.0) <= iv.high
    return hit / trials


def coverage():
    for n in (3, 5, 6, 10):
        c = covers(-10.0, 0.05, n)
        check(0.90 <= c <= 1.0, "coverage of a -10%% effect with %d pairs: %.3f" % (n, c))
    # Unpaired sides.
    r = random.Random(3)
    hit = 0
    for _ in range(300):
        b = [r.lognormvariate(0, 0.05) for _ in range(7)]
        a = [1.2 * r.lognormvariate(0, 0.05) for _ in range(5)]
        iv = I.interval(b, a)
        hit += iv.low <= math.log(1.2) <= iv.high
    check(hit / 300 >= 0.90 and not iv.paired, "unpaired coverage %.3f" % (hit / 300))


def decisions():
    # A fixed, large effect with small noise: decided, in its direction.
    r = random.Random(11)
    b = [10 * r.lognormvariate(0, 0.02) for _ in range(8)]
    a = [x * 0.8 * r.lognormvariate(0, 0.01) for x in b]
    check(I.decide(I.paired(b, a), 3.0) == I.DOWN, "-20% with 1% noise is down")
    # No effect, small noise: no change beyond the band.
    a = [x * r.lognormvariate(0, 0.002) for x in b]
    check(I.decide(I.paired(b, a), 3.0) == I.NONE, "no effect with 0.2% noise is none")
    # No effect, noise as large as the band: over many trials a confident
    # direction is rare (at most the interval's error rate).
    wrong = 0
    for t in range(300):
        b = [10 * r.lognormvariate(0, 0.1) for _ in range(6)]
        a = [x * r.lognormvariate(0, 0.04) for x in b]
        iv = I.paired(b, a)
        d = I.decide(iv, 3.0)
        wrong += d in (I.UP, I.DOWN)
        if d is not None and iv.low < math.log1p(0.03) < iv.high:
            check(False, "a verdict on an interval that straddles the band: %s" % I.fmt(iv))
    check(wrong / 300 <= 0.05, "directions called on no effect: %d of 300" % wrong)
    # Constant figures: exact.
    iv = I.paired([100, 100, 100], [90, 90, 90])
    check(iv.method == "constant" and abs(I.pct(iv.low) + 10) < 1e-9 and
          I.decide(iv, 3.0) == I.DOWN, "constant figures decide exactly")
    check(I.paired([1.0], [2.0]) is None or I.decide(I.paired([1.0], [2.0]), 3.0) is None,
          "one pair decides nothing")
    # Straddling intervals ask for more repetitions; one on the edge for none.
    iv = I.Interval(math.log(0.96), math.log(0.90), math.log(1.01), 0.95, 6, True, "wilcoxon")
    need = I.pairs_to_decide(iv, [-3.0, 3.0])
    check(need is not None and need > 6, "pairs to decide a straddling interval: %s" % need)


def _rows(values):
    return {"benchmarks": [{"name": "dump/dump", "run_type": "iteration",
                            "repetition_index": i, "time_unit": "ms", "cpu_time": v * 1e3}
                           for i, v in enumerate(values)]}


def claim_verdicts():
    doc = C.load_claims(C.os.path.join(C.ROOT, "claims", "seeds.json"))
    claim = next(c for c in doc["claims"] if c["id"] == "s4-nb-dump-strings")
    one = dict(doc, claims=[claim])
    kb, ka = C.run_key(C.side_run(claim, "before")), C.run_key(C.side_run(claim, "after"))

    def verdict(before, after):
        return C.evaluate(one, {kb: {"data": _rows(before)}, ka: {"data": _rows(after)}})[0]

    # Claimed -10.8%.  A tight -10% is within; a wide one straddling the
    # band is inconclusive and says how many repetitions would decide it.
    row = verdict([10.0, 10.1, 9.9, 10.0, 10.05, 9.95], [9.0, 9.1, 8.9, 9.02, 9.04, 8.96])
    check(row["verdict"] == C.VERDICT_WITHIN and row["confident"], "tight -10%%: %s" % row["verdict"])
    check(row["interval"]["low_pct"] < -9 < row["interval"]["high_pct"] or
          row["interval"]["high_pct"] < -9, "interval in the row: %s" % row["interval"])
    row = verdict([10.0, 11.0, 9.0], [9.5, 11.2, 8.1])
    check(row["verdict"] == C.VERDICT_INCONCLUSIVE and not row["confident"]
          and row["repetitions_to_decide"], "wide -5%%: %s" % row["verdict"])
    lo, hi = row["interval"]["low_pct"], row["interval"]["high_pct"]
    check(lo < -3 < hi or lo < 3 < hi, "the inconclusive interval straddles the band")
    # Opposite, confidently.
    row = verdict([10.0, 10.1, 9.9], [12.0, 12.1, 11.9])
    check(row["verdict"] == C.VERDICT_OPPOSITE, "tight +20%%: %s" % row["verdict"])
    # The size: an interval across the tolerance's edge is not called.
    lo_t, hi_t = C.tolerance_range(claim["claimed"]["after"] / claim["claimed"]["before"] * 100 - 100,
                                   C._tolerance(doc, claim))
    check(lo_t < -10.8 < hi_t, "the claimed change lies in its tolerance range")
    edge = lo_t   # the most negative accepted change
    b = [10.0, 10.0, 10.0, 10.0, 10.0, 10.0]
    a = [10.0 * (1 + (edge + d) / 100.0) for d in (-6, -3, 0, 1, 3, 6)]
    row = verdict(b, a)
    check(row["verdict"] == C.VERDICT_SIZE_UNSURE and not row["confident"],
          "an interval across the tolerance edge %.1f%%: %s" % (edge, row["verdict"]))


def main():
    distributions()
    coverage()
    decisions()
    claim_verdicts()
    return check.finish("intervals: all checks passed")


if __name__ == "__main__":
    sys.exit(main())
