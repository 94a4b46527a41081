"""matplotlib (Agg) chart helpers: every chart has a title, axis labels with
units, and a legend; files are PNG under <out>/charts/."""

import os
import re

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .metrics import bytes_scale, time_scale  # noqa: E402

COLORS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3",
          "#937860", "#da8bc3", "#8c8c8c", "#ccb974", "#64b5cd"]


def slug(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-").lower()


class Charts:
    def __init__(self, out_dir):
        self.dir = os.path.join(out_dir, "charts")
        os.makedirs(self.dir, exist_ok=True)
        self.impl_colors = {}

    def color(self, impl):
        if impl not in self.impl_colors:
            self.impl_colors[impl] = COLORS[len(self.impl_colors) % len(COLORS)]
        return self.impl_colors[impl]

    def save(self, fig, name):
        path = os.path.join(self.dir, slug(name) + ".png")
        # A figure-level legend sits above the axes: keep room for it.
        top = 1 - 0.45 / fig.get_figheight() if fig.legends or fig._suptitle else 1
        fig.tight_layout(rect=(0, 0, 1, top))
        fig.savefig(path, dpi=90)
        plt.close(fig)
        return path


def unit_scale(unit, values):
    """(divisor, axis unit) for raw values in 'unit'."""
    if unit == "bytes":
        return bytes_scale(values)
    if unit == "s":
        return time_scale(values)
    return 1, unit if unit not in ("count",) else ""


def grouped_bars(ax, groups, series, unit, title, ylabel, colors):
    """groups: x labels; series: [(name, [(lo, mid, hi) or None per group])].
    Bars are medians; whiskers span min..max over repetitions."""
    allv = [t[2] for _n, vals in series for t in vals if t]
    div, ulabel = unit_scale(unit, allv)
    n = max(len(series), 1)
    width = 0.8 / n
    for i, (name, vals) in enumerate(series):
        xs, mids, errs_lo, errs_hi = [], [], [], []
        for g, t in enumerate(vals):
            if not t:
                continue
            lo, mid, hi = t
            xs.append(g - 0.4 + width * (i + 0.5))
            mids.append(mid / div)
            errs_lo.append(max(mid - lo, 0) / div)
            errs_hi.append(max(hi - mid, 0) / div)
        ax.bar(xs, mids, width * 0.92, label=name, color=colors(name),
               yerr=[errs_lo, errs_hi], capsize=3, error_kw={"elinewidth": 1})
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=20 if max(map(len, groups or [""])) > 12 else 0,
                       ha="right" if max(map(len, groups or [""])) > 12 else "center")
    ax.set_title(title, fontsize=11)
    ax.set_ylabel("%s (%s)" % (ylabel, ulabel) if ulabel else ylabel)
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)


def lines(ax, series, unit, title, xlabel, ylabel, colors, xlog=False):
    """series: [(name, [(x, lo, mid, hi)])], drawn with min..max bands."""
    allv = [p[3] for _n, pts in series for p in pts]
    div, ulabel = unit_scale(unit, allv)
    for name, pts in series:
        pts = sorted(pts)
        if not pts:
            continue
        xs = [p[0] for p in pts]
        ax.plot(xs, [p[2] / div for p in pts], marker="o", label=name, color=colors(name))
        ax.fill_between(xs, [p[1] / div for p in pts], [p[3] / div for p in pts],
                        alpha=0.15, color=colors(name))
    if xlog:
        ax.set_xscale("log")
    ax.set_title(title, fontsize=11)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("%s (%s)" % (ylabel, ulabel) if ulabel else ylabel)
    ax.grid(alpha=0.3)


def figure(ncols=1, nrows=1, width=None, height=3.6):
    width = width or (6.5 * ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(width, height * nrows), squeeze=False)
    return fig, [a for row in axes for a in row]


def shared_legend(fig, axes):
    handles, labels = axes[0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="upper right", ncol=min(len(labels), 8),
                   bbox_to_anchor=(0.995, 1.0), frameon=False)
