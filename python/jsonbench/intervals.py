"""How sure a compared figure is: an interval for the change between two
sides of a comparison, and the rule that turns an interval into a verdict.

The change is after / before - 1, computed on logarithms (a ratio's
interval is symmetric in log space).  Interleaved repetitions are pairs
(before repetition i and after repetition i ran next to each other, so
drift hits both alike): the estimate is the Hodges-Lehmann median of the
pairs' log ratios (the median of their Walsh averages) and the interval is
the exact, distribution-free one of the Wilcoxon signed-rank test.  Sides
that are not pairs (different counts) get the two-sample Hodges-Lehmann
shift of the logs with the Mann-Whitney interval.

Both assume nothing about the noise's distribution, so they need a few
repetitions before they can reach a confidence at all: even the widest
(smallest to largest) holds 75% with 3 pairs, 95% from 6.  Below that the
interval is Student's t on the log ratios (Welch's for unpaired sides),
which assumes normal noise and is wide for few repetitions (t = 4.30 for 3
pairs at 95%).  A figure that does not vary on either side (allocation
counts, instructions) has an interval of zero width and confidence 1.
`method` says which interval a figure got.

Standard library only."""

import collections
import functools
import math
import statistics

CONFIDENCE = 0.95

# A figure's interval.  estimate/low/high are log ratios (after / before);
# confidence is the level it holds; n the pairs (paired) or the smaller
# side; method one of METHODS.
Interval = collections.namedtuple("Interval", "estimate low high confidence n paired method")

METHODS = {
    "constant": "no variation on either side",
    "single": "one value per side of a figure that does not vary, taken as exact",
    "wilcoxon": "Hodges-Lehmann, Wilcoxon signed-rank interval",
    "mann-whitney": "Hodges-Lehmann, Mann-Whitney interval",
    "t": "Student's t on the pairs' log ratios",
    "welch": "Welch's t on the log values",
}


def pct(log_ratio):
    """A log ratio as a change in percent (after / before - 1)."""
    return None if log_ratio is None else (math.exp(log_ratio) - 1.0) * 100.0


def log_ratio(change_pct):
    return math.log1p(change_pct / 100.0)


@functools.lru_cache(maxsize=None)
def _signed_rank_cdf(n):
    """P(T+ <= t) for t = 0..n(n+1)/2: the exact null distribution of the
    Wilcoxon signed-rank statistic for n pairs."""
    counts = [1]
    for k in range(1, n + 1):
        new = counts + [0] * k
        for s, c in enumerate(counts):
            new[s + k] += c
        counts = new
    total, acc, out = 2 ** n, 0, []
    for c in counts:
        acc += c
        out.append(acc / total)
    return tuple(out)


@functools.lru_cache(maxsize=None)
def _rank_sum_cdf(n, m):
    """P(U <= u) for u = 0..n*m: the exact null distribution of the
    Mann-Whitney statistic for samples of n and m."""
    # f[i][u]: arrangements of i x's and j y's with U = u, built j by j.
    f = [[1] for _ in range(n + 1)]                 # j = 0: U = 0
    for j in range(1, m + 1):
        g = [[1]]                                   # i = 0: U = 0
        for i in range(1, n + 1):
            # the largest of the i + j values is an x (adds j to U) or a y
            a, b = f[i], g[i - 1]
            row = [0] * (i * j + 1)
            for u, c in enumerate(a):
                row[u] += c
            for u, c in enumerate(b):
                row[u + j] += c
            g.append(row)
        f = g
    counts = f[n]
    total, acc, out = sum(counts), 0, []
    for c in counts:
        acc += c
        out.append(acc / total)
    return tuple(out)


def _order_index(cdf, confidence):
    """(k, reached): the interval is the k-th smallest to the k-th largest
    (k >= 1) of the sorted averages/differences, the largest k whose tails
    hold at most (1 - confidence) / 2 each; when even k = 1 holds more,
    k = 1 and the confidence it reaches."""
    alpha2 = (1.0 - confidence) / 2.0
    k = 1
    while k < len(cdf) and cdf[k] <= alpha2 + 1e-12:
        k += 1
    # cdf[k - 1] = P(stat <= k - 1): the tail left out on each side.
    return k, 1.0 - 2.0 * cdf[k - 1]


def _constant(xs):
    return len(set(xs)) == 1


def _logs(values):
    out = []
    for v in values:
        if v is None or v <= 0 or isinstance(v, bool):
            return None
        out.append(math.log(v))
    return out


def paired(before, after, confidence=CONFIDENCE):
    """The interval of the change from pairs (before[i], after[i]); None
    when a value is missing or not positive, or there is no pair."""
    lb, la = _logs(before), _logs(after)
    if not lb or not la or len(lb) != len(la):
        return None
    d = sorted(a - b for a, b in zip(la, lb))
    n = len(d)
    if n > 1 and _constant(d):
        return Interval(d[0], d[0], d[0], 1.0, n, True, "constant")
    if n < min_pairs(confidence, True):
        if n < 2:
            return None
        m, sd = statistics.mean(d), statistics.stdev(d)
        h = t_quantile(0.5 + confidence / 2.0, n - 1) * sd / math.sqrt(n)
        return Interval(m, m - h, m + h, confidence, n, True, "t")
    walsh = sorted((d[i] + d[j]) / 2.0 for i in range(n) for j in range(i, n))
    est = _median(walsh)
    k, reached = _order_index(_signed_rank_cdf(n), confidence)
    return Interval(est, walsh[k - 1], walsh[-k], reached, n, True, "wilcoxon")


def unpaired(before, after, confidence=CONFIDENCE):
    """The interval of the change between two independent samples."""
    lb, la = _logs(before), _logs(after)
    if not lb or not la:
        return None
    n = min(len(lb), len(la))
    if n > 1 and _constant(lb) and _constant(la):
        d = la[0] - lb[0]
        return Interval(d, d, d, 1.0, n, False, "constant")
    if n < min_pairs(confidence, False):
        if len(lb) < 2 or len(la) < 2:
            return None
        va, vb = statistics.variance(la) / len(la), statistics.variance(lb) / len(lb)
        df = (va + vb) ** 2 / (va * va / (len(la) - 1) + vb * vb / (len(lb) - 1))
        m = statistics.mean(la) - statistics.mean(lb)
        h = t_quantile(0.5 + confidence / 2.0, df) * math.sqrt(va + vb)
        return Interval(m, m - h, m + h, confidence, n, False, "welch")
    diffs = sorted(a - b for a in la for b in lb)
    est = _median(diffs)
    k, reached = _order_index(_rank_sum_cdf(len(lb), len(la)), confidence)
    return Interval(est, diffs[k - 1], diffs[-k], reached, n, False, "mann-whitney")


def interval(before, after, confidence=CONFIDENCE, pairs=True, exact_single=False):
    """Paired when both sides have as many values (interleaved
    repetitions) and pairs is true, else unpaired.  exact_single: one
    value per side is taken as exact (a figure known not to vary), method
    "single"."""
    if exact_single and before and after and len(before) == len(after) == 1:
        lb, la = _logs(before), _logs(after)
        if lb and la:
            d = la[0] - lb[0]
            return Interval(d, d, d, 1.0, 1, True, "single")
    if pairs and before is not None and after is not None and len(before) == len(after):
        return paired(before, after, confidence)
    return unpaired(before, after, confidence)


@functools.lru_cache(maxsize=None)
def t_quantile(p, df):
    """The p-quantile (p > 0.5) of Student's t with df degrees of freedom:
    its density integrated (Simpson) and inverted by bisection; from 30
    degrees of freedom on, the normal quantile with its first two
    corrections (error < 1e-4)."""
    if df >= 30:
        z = statistics.NormalDist().inv_cdf(p)
        return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df)
    c = math.exp(math.lgamma((df + 1) / 2.0) - math.lgamma(df / 2.0)) / math.sqrt(df * math.pi)

    def cdf(x, steps=2000):
        h = x / steps
        f = [c * (1.0 + (i * h) ** 2 / df) ** (-(df + 1) / 2.0) for i in range(steps + 1)]
        return 0.5 + h / 3.0 * (f[0] + f[-1] + 4 * sum(f[1:-1:2]) + 2 * sum(f[2:-1:2]))
    lo, hi = 0.0, 1.0
    while cdf(hi) < p:
        hi *= 2.0
    for _ in range(60):
        mid = (lo + hi) / 2.0
        lo, hi = (mid, hi) if cdf(mid) < p else (lo, mid)
    return (lo + hi) / 2.0


def _median(xs):
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2.0


def min_pairs(confidence=CONFIDENCE, paired_=True):
    """The fewest repetitions whose widest interval reaches 'confidence'
    (paired: 6 for 95%; unpaired, per side: 4)."""
    for n in range(2, 64):
        cdf = _signed_rank_cdf(n) if paired_ else _rank_sum_cdf(n, n)
        if 1.0 - 2.0 * cdf[0] >= confidence - 1e-12:
            return n
    return 64


# ------------------------------------------------------------------ verdicts

UP, DOWN, NONE = "up", "down", "none"


def decide(iv, band_pct, confidence=CONFIDENCE):
    """UP or DOWN when the whole interval lies beyond the band on that
    side, NONE when it lies inside the band (no change larger than the
    band), None when it straddles an edge of the band or does not reach
    the confidence asked for: no verdict."""
    if iv is None or iv.confidence < confidence - 1e-9:
        return None
    hi_edge, lo_edge = log_ratio(abs(band_pct)), log_ratio(-abs(band_pct))
    if iv.low > hi_edge:
        return UP
    if iv.high < lo_edge:
        return DOWN
    if lo_edge <= iv.low and iv.high <= hi_edge:
        return NONE
    return None


def within(iv, low_pct, high_pct):
    """True when the whole interval lies in [low_pct, high_pct], False when
    none of it does, None when it straddles an edge."""
    lo, hi = log_ratio(low_pct), log_ratio(high_pct)
    if lo <= iv.low and iv.high <= hi:
        return True
    if iv.high < lo or iv.low > hi:
        return False
    return None


def pairs_to_decide(iv, edges_pct, confidence=CONFIDENCE, most=500):
    """About how many repetitions (pairs) would likely decide an interval
    that straddles one of the edges (percent changes): the noise behind
    its half-width taken as it is, the interval must fit between the
    estimate and the nearest edge it crosses (Student's t for the width
    at each count).  None when the estimate sits on an edge,
    or more than 'most' would be needed: more repetitions are unlikely to
    decide it."""
    if iv is None:
        return None
    n = max(iv.n, 2)
    q = 0.5 + confidence / 2.0
    noise = 0.0
    room = None
    for e in edges_pct:
        edge = log_ratio(e)
        if not iv.low < edge < iv.high:
            continue
        dist = abs(iv.estimate - edge)
        half = (iv.estimate - iv.low) if edge < iv.estimate else (iv.high - iv.estimate)
        if dist <= 1e-12 * max(1.0, abs(edge)):
            return None
        # Standard deviation of one pair's log ratio behind that half-width.
        noise = max(noise, half * math.sqrt(n) / t_quantile(q, n - 1))
        room = dist if room is None else min(room, dist)
    if room is None:
        return n + 1
    for k in range(n + 1, most + 1):
        if t_quantile(q, k - 1) * noise / math.sqrt(k) < room:
            return k
    return None


def fmt(iv, digits=1):
    """"[-12.3%, -4.1%]", with the confidence when it is below the one
    asked for: "[-12.3%, -4.1%] 75%"."""
    if iv is None:
        return "-"
    f = "%+." + str(digits) + "f%%"
    s = "[" + f % pct(iv.low) + ", " + f % pct(iv.high) + "]"
    if iv.confidence < CONFIDENCE - 1e-9:
        s += " (%.0f%% conf.)" % (100.0 * iv.confidence)
    return s


def as_dict(iv):
    """The interval for results JSON: percent changes and its confidence."""
    if iv is None:
        return None
    return {"estimate_pct": round(pct(iv.estimate), 4), "low_pct": round(pct(iv.low), 4),
            "high_pct": round(pct(iv.high), 4), "confidence": round(iv.confidence, 4),
            "n": iv.n, "paired": iv.paired, "method": iv.method}


def from_dict(d):
    if not d:
        return None
    return Interval(log_ratio(d["estimate_pct"]), log_ratio(d["low_pct"]),
                    log_ratio(d["high_pct"]), d["confidence"], d["n"], d["paired"],
                    d.get("method", "wilcoxon"))
