"""Is a difference between two impls a result?  The Mann-Whitney U test that
scripts/compare runs (jsonbench.compare.test), as a short mark for a table
cell, with the legend that explains the marks."""

from ..compare import test

ALPHA = 0.05

LEGEND = ("**†** significant: Mann-Whitney U, two-sided, p < %.2g over the "
          "repetitions (or a deterministic figure that differs); **n.s.** not "
          "significant; **n<** too few repetitions for p < %.2g (needs >= 4 per "
          "side); **=** identical deterministic figures." % (ALPHA, ALPHA))


class Verdict:
    def __init__(self, p, verdict):
        self.p = p
        self.verdict = verdict

    @property
    def significant(self):
        return self.verdict in ("significant", "constant: differs")

    @property
    def mark(self):
        v = self.verdict
        if self.significant:
            return "†"
        if v == "not significant":
            return "n.s."
        if v == "constant: equal":
            return "="
        return "n<"

    def describe(self):
        """Mark and p for a summary cell: "† p=0.008"."""
        return self.mark + ("" if self.p is None else " p=%.2g" % self.p)


def compare(a, b, alpha=ALPHA):
    """Verdict on two lists of per-repetition values."""
    a = [v for v in a if v is not None]
    b = [v for v in b if v is not None]
    p, verdict = test(a, b, alpha)
    return Verdict(p, verdict)
