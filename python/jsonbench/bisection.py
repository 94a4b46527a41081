"""k-way bisection of a line of commits for the steps where a figure
moved by more than a threshold (jsonbench.find measures; this only
chooses what to measure next and what the measurements say)."""

from .util import StudyError


def _probes(split, ways):
    """The indices to measure next, sorted: in each interval (lo, hi,
    measurable inner indices) of 'split', max(1, ways // intervals) points
    as evenly spaced as the measurable ones allow."""
    per = max(1, ways // len(split))
    probes = []
    for lo, hi, inner in split:
        k = min(per, len(inner))
        for j in range(1, k + 1):
            ideal = lo + (hi - lo) * j / (k + 1)
            pick = min(inner, key=lambda i: (abs(i - ideal), i))
            if pick not in probes:
                probes.append(pick)
    return sorted(probes)


def step_moved(values, bounds, lo, hi, threshold):
    """Whether the figure moved by more than 'threshold' percent from
    index lo to hi: True or False, or None when the points' intervals
    (bounds {index: (low, high)}, ratios to the good end) allow both.
    The step's interval is taken conservatively, from the far ends of
    the two points' intervals; points without one count as exact."""
    a, b = values[lo], values[hi]
    if lo not in bounds and hi not in bounds:
        return abs((b / a - 1.0) * 100.0) > threshold
    la, ha = bounds.get(lo, (a, a))
    lb, hb = bounds.get(hi, (b, b))
    low, high = (lb / ha - 1.0) * 100.0, (hb / la - 1.0) * 100.0
    if low > threshold or high < -threshold:
        return True
    if -threshold <= low and high <= threshold:
        return False
    return None


def bisect(n, measure, threshold, ways=1, progress=None, more=None, max_more=2):
    """The commits (indices 1..n-1 of a line of n, index 0 the good end)
    where the figure moved by more than 'threshold' percent.

    measure(indices) -> {index: value, (value, low, high) with the
    value's interval, or None (not measurable: a failed build)}, values
    relative to index 0's (1.0).  Each round splits every interval whose
    ends differ by more than the threshold (step_moved(): with the
    points' intervals, only when they say so) at max(1, ways //
    intervals) interior points, measured in one call.  A step the
    intervals cannot decide gets more repetitions of its two ends,
    more(indices) -> the same as measure, at most 'max_more' times; then
    it is inconclusive.  Returns {"found": [index], "unresolved": [[lo,
    hi]], "inconclusive": [[lo, hi]], "rounds": [{"measured": {index:
    value}, "intervals": [[lo, hi, v_lo, v_hi, change %, moved (None:
    undecided)]]}], "values": {index: value}, "bounds": {index: [low,
    high]}}.  progress(the same with "open": the intervals still to
    search) is called after each measurement, so an interrupted search
    shows how far it got."""
    values, bounds = {0: 1.0}, {}

    def take(got):
        plain = {}
        for i, v in got.items():
            if isinstance(v, (tuple, list)):
                v, low, high = v
                if v is not None:
                    bounds[i] = (low, high)
            plain[i] = v
            if v is not None:
                values[i] = v
        return plain
    rounds = []
    first = take(measure([n - 1]))
    rounds.append({"measured": dict(first), "intervals": []})
    if values.get(n - 1) is None:
        raise StudyError("the bad end cannot be measured")
    bad = set()
    found, unresolved, inconclusive = [], [], []
    tries = {}
    todo = [(0, n - 1)]

    def state(open_):
        return {"found": sorted(found), "unresolved": unresolved,
                "inconclusive": inconclusive, "rounds": rounds, "values": values,
                "bounds": {i: list(b) for i, b in bounds.items()},
                "open": [list(x) for x in open_]}
    while todo:
        if progress:
            progress(state(todo))
        split, again = [], []
        log_ = rounds[-1]["intervals"]
        for lo, hi in todo:
            change = (values[hi] / values[lo] - 1.0) * 100.0
            moved = step_moved(values, bounds, lo, hi, threshold)
            log_.append([lo, hi, values[lo], values[hi], round(change, 3), moved])
            if moved is None:
                if more is not None and tries.get((lo, hi), 0) < max_more:
                    tries[(lo, hi)] = tries.get((lo, hi), 0) + 1
                    again.append((lo, hi))
                else:
                    inconclusive.append([lo, hi])
                continue
            if not moved:
                continue
            inner = [i for i in range(lo + 1, hi) if i not in bad]
            if not inner:
                (found.append(hi) if hi == lo + 1 else unresolved.append([lo, hi]))
                continue
            split.append((lo, hi, inner))
        if not split and not again:
            break
        got = {}
        if again:
            got.update(take(more(sorted({i for pair in again for i in pair if i}))))
        if split:
            got.update(take(measure(_probes(split, ways))))
        rounds.append({"measured": dict(got), "intervals": []})
        todo = list(again)
        for i, v in got.items():
            if v is None:
                bad.add(i)
        for lo, hi, inner in split:
            cuts = [lo] + sorted(i for i in got if lo < i < hi and got[i] is not None) + [hi]
            if len(cuts) == 2:      # every probe failed: try others
                todo.append((lo, hi))
                continue
            todo += list(zip(cuts, cuts[1:]))
    return state([])
