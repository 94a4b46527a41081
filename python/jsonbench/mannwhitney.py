"""The Mann-Whitney U test as scripts/compare and the report's
significance marks use it: a two-sided p-value and a verdict that says
when the repetitions are too few for any p below alpha."""

import math


def min_p_two_sided(na, nb):
    return min(1.0, 2.0 / math.comb(na + nb, na))


def test(a, b, alpha):
    """(p or None, verdict)"""
    na, nb = len(a), len(b)
    if na < 2 or nb < 2:
        return None, "too few repetitions (n=%d+%d)" % (na, nb)
    if len(set(a)) == 1 and len(set(b)) == 1:
        return None, "constant: equal" if a[0] == b[0] else "constant: differs"
    pmin = min_p_two_sided(na, nb)
    from scipy.stats import mannwhitneyu  # scipy only when there is a test to make
    p = float(mannwhitneyu(a, b, alternative="two-sided").pvalue)
    if pmin > alpha:
        return p, "too few repetitions (n=%d+%d, p >= %.2g)" % (na, nb, pmin)
    return p, "significant" if p < alpha else "not significant"
