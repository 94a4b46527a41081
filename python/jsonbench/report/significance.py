"""Is a difference between two impls a result?  The Mann-Whitney U test that
scripts/compare runs (jsonbench.compare.test), as a short mark for a table
cell, with the legend that explains the marks; and the interval of the
change (jsonbench.intervals), which every compared figure shows."""

from .. import intervals as I
from ..mannwhitney import test

ALPHA = 0.05

LEGEND = ("**†** significant: Mann-Whitney U, two-sided, p < %.2g over the "
          "repetitions (or a deterministic figure that differs); **n.s.** not "
          "significant; **n<** too few repetitions for p < %.2g (needs >= 4 per "
          "side); **=** identical deterministic figures." % (ALPHA, ALPHA))


class Verdict:
    def __init__(self, p, verdict, interval=None):
        self.p = p
        self.verdict = verdict
        self.interval = interval

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

    def change_cell(self, change, mark=True):
        """"-12.3% [-15.0%, -9.8%] †": the change of the medians, its
        interval, the mark (unless mark is false)."""
        if change is None:
            return "-"
        return "%+.1f%% %s%s" % (change, I.fmt(self.interval),
                                 " " + self.mark if mark else "")


def compare(a, b, alpha=ALPHA, paired=False):
    """Verdict on two lists of per-repetition values (b against a), with
    the interval of the change: from pairs when the repetitions were
    interleaved (paired), else between the two samples."""
    a = [v for v in a if v is not None]
    b = [v for v in b if v is not None]
    p, verdict = test(a, b, alpha)
    return Verdict(p, verdict, I.interval(a, b, pairs=paired) if a and b else None)
