"""matplotlib (Agg) chart helpers: every chart has a title, axis labels with
units, and a legend; files are PNG under <out>/charts/."""

import os
import re

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .metrics import bytes_scale, time_scale  # noqa: E402

# One colour per impl or real target, in the order they first appear in a
# report: a muted qualitative palette, then ten more hues chosen to stay
# apart from it, so that 20 targets never share a colour.  Past 20 the
# colours repeat with a hatch (bars) or another marker (lines).
COLORS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3",
          "#937860", "#da8bc3", "#8c8c8c", "#ccb974", "#64b5cd",
          "#000075", "#800000", "#469990", "#bfef45", "#ffe119",
          "#222222", "#aaffc3", "#f032e6", "#ffd8b1", "#dcbeff"]
HATCHES = ["", "//", "..", "xx"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "*"]
# Font sizes in points; charts are saved at DPI, so 10 pt is 14 pixels.
DPI = 100
FONT = {"title": 12, "label": 11, "tick": 10, "legend": 10}


def slug(text):
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-").lower()


def _nearest_label(pos, ticks, labels):
    if not len(ticks):
        return None
    k = min(range(len(ticks)), key=lambda j: abs(ticks[j] - pos))
    return labels[k] if k < len(labels) else None


def drawn_values(fig):
    """What a figure draws, read back from its artists: {panel | series:
    {"x": x axis label, "y": y axis label, "values": {category: value}}}.
    Bars give their height (vertical) or width (horizontal) under the tick
    label nearest to them; scatter points give [x, y] under their series
    label.  Tests compare these with the tables of the same report."""
    from matplotlib.container import BarContainer
    out = {}
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        title = ax.get_title()
        for c in ax.containers:
            if not isinstance(c, BarContainer) or not c.patches:
                continue
            horizontal = c.orientation == "horizontal" if hasattr(c, "orientation") else False
            if horizontal:
                ticks, labels = ax.get_yticks(), [t.get_text() for t in ax.get_yticklabels()]
            else:
                ticks, labels = ax.get_xticks(), [t.get_text() for t in ax.get_xticklabels()]
            vals = {}
            for patch in c.patches:
                if horizontal:
                    where, value = patch.get_y() + patch.get_height() / 2, patch.get_width()
                else:
                    where, value = patch.get_x() + patch.get_width() / 2, patch.get_height()
                vals[_nearest_label(where, ticks, labels)] = value
            out["%s | %s" % (title, c.get_label())] = {
                "x": ax.get_xlabel(), "y": ax.get_ylabel(), "values": vals}
        for coll in ax.collections:
            label = coll.get_label()
            if not label or label.startswith("_") or not hasattr(coll, "get_offsets"):
                continue
            pts = [list(map(float, p)) for p in coll.get_offsets()]
            if pts:
                out.setdefault("%s | points" % title, {
                    "x": ax.get_xlabel(), "y": ax.get_ylabel(), "values": {}})["values"][
                        label] = pts[0] if len(pts) == 1 else pts
    return out


class Charts:
    def __init__(self, out_dir, drawn=None):
        self.dir = os.path.join(out_dir, "charts")
        os.makedirs(self.dir, exist_ok=True)
        self.impl_colors = {}
        # Filled with drawn_values() of every chart saved, when given.
        self.drawn = drawn

    def _index(self, impl):
        if impl not in self.impl_colors:
            self.impl_colors[impl] = len(self.impl_colors)
        return self.impl_colors[impl]

    def color(self, impl):
        return COLORS[self._index(impl) % len(COLORS)]

    def hatch(self, impl):
        return HATCHES[self._index(impl) // len(COLORS) % len(HATCHES)]

    def marker(self, impl):
        i = self._index(impl)
        return MARKERS[(i + i // len(COLORS)) % len(MARKERS)]

    def save(self, fig, name):
        path = os.path.join(self.dir, slug(name) + ".png")
        # A title and a figure-level legend sit above the panels: the
        # figure grows by their height (the legend's as drawn), so the
        # panels keep theirs.
        h = fig.get_figheight()
        title = 0.4 if fig._suptitle else 0
        legend = 0
        if fig.legends:
            renderer = fig.canvas.get_renderer()
            legend = max(leg.get_window_extent(renderer).height
                         for leg in fig.legends) / fig.dpi + 0.05
        room = title + legend
        fig.set_figheight(h + room)
        for leg in fig.legends if title else []:
            leg.set_bbox_to_anchor((0.995, 1 - title / (h + room)), transform=fig.transFigure)
        top = 1 - room / (h + room)
        fig.tight_layout(rect=(0, 0, 1, top))
        fig.savefig(path, dpi=DPI)
        if self.drawn is not None:
            self.drawn[slug(name)] = drawn_values(fig)
        plt.close(fig)
        return path


def unit_scale(unit, values):
    """(divisor, axis unit) for raw values in 'unit'."""
    if unit == "bytes":
        return bytes_scale(values)
    if unit == "s":
        return time_scale(values)
    return 1, unit if unit not in ("count",) else ""


def grouped_bars(ax, groups, series, unit, title, ylabel, colors, hatches=None):
    """groups: x labels; series: [(name, [(lo, mid, hi) or None per group])].
    Bars are medians; whiskers span min..max over repetitions.  colors
    (and hatches, optional) map a series name to its style."""
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
               hatch=hatches(name) if hatches else None, edgecolor="#333333", linewidth=0.3,
               yerr=[errs_lo, errs_hi], capsize=3, error_kw={"elinewidth": 1})
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=20 if max(map(len, groups or [""])) > 12 else 0,
                       ha="right" if max(map(len, groups or [""])) > 12 else "center")
    _style(ax, title, None, "%s (%s)" % (ylabel, ulabel) if ulabel else ylabel)


def lines(ax, series, unit, title, xlabel, ylabel, colors, xlog=False, markers=None):
    """series: [(name, [(x, lo, mid, hi)])], drawn with min..max bands.
    colors (and markers, optional) map a series name to its style."""
    allv = [p[3] for _n, pts in series for p in pts]
    div, ulabel = unit_scale(unit, allv)
    for name, pts in series:
        pts = sorted(pts)
        if not pts:
            continue
        xs = [p[0] for p in pts]
        ax.plot(xs, [p[2] / div for p in pts], marker=markers(name) if markers else "o",
                label=name, color=colors(name))
        ax.fill_between(xs, [p[1] / div for p in pts], [p[3] / div for p in pts],
                        alpha=0.15, color=colors(name))
    if xlog:
        ax.set_xscale("log")
    _style(ax, title, xlabel, "%s (%s)" % (ylabel, ulabel) if ulabel else ylabel)
    ax.grid(axis="x", alpha=0.3)


def _style(ax, title, xlabel, ylabel):
    ax.set_title(title, fontsize=FONT["title"])
    if xlabel:
        ax.set_xlabel(xlabel, fontsize=FONT["label"])
    ax.set_ylabel(ylabel, fontsize=FONT["label"])
    ax.tick_params(labelsize=FONT["tick"])
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)


def figure(ncols=1, nrows=1, width=None, height=3.6):
    width = width or (6.5 * ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(width, height * nrows), squeeze=False)
    return fig, [a for row in axes for a in row]


def legend_entries(axes):
    """(handles, labels) of every series on any of axes, each name once, in
    the order they first appear: a series missing from the first panel is
    still in the legend."""
    handles, labels = [], []
    for ax in axes:
        if not ax.get_visible():
            continue
        for h, label in zip(*ax.get_legend_handles_labels()):
            if label not in labels:
                handles.append(h)
                labels.append(label)
    return handles, labels


def shared_legend(fig, axes):
    """One legend above the panels, as many columns as fit the figure's
    width; save() makes room for it."""
    handles, labels = legend_entries(axes)
    if not handles:
        return
    # About 0.45 in for the marker and gaps plus 0.085 in per character at 10 pt.
    entry = 0.45 + 0.085 * max(len(label) for label in labels)
    ncol = max(1, min(len(labels), int(fig.get_figwidth() / entry)))
    fig.legend(handles, labels, loc="upper right", ncol=ncol, fontsize=FONT["legend"],
               bbox_to_anchor=(0.995, 1.0), frameon=False)
