"""What the gate's three checks (gate.py, gatecal.py, gateseries.py) share
in their result tables: a figure's verdict against its threshold, how
counts are shown, the order of jobs' figures, and the table itself."""


def judge(change, limit, improved="improved"):
    """(verdict, regressed) of a figure that changed by 'change' percent
    and may rise by 'limit' percent (None: no limit)."""
    if limit is not None and change > limit:
        return "REGRESSION", True
    if limit is not None and change < -limit:
        return improved, False
    return "ok", False


def change_cells(change, limit):
    """The change and limit columns of a row judged by judge()."""
    return ["%+.3f%%" % change, "+%g%%" % limit if limit is not None else "-"]


def count(v):
    """A count with thousands separators; '-' for none."""
    return "-" if v is None else "{:,}".format(int(v))


def sort_key(key, jobs, figures):
    """Of 'WHERE:FIGURE': WHERE in 'jobs' order, then FIGURE in 'figures'
    order; unknown ones last."""
    where, fig = key.rsplit(":", 1)
    return (jobs.index(where) if where in jobs else len(jobs), where,
            figures.index(fig) if fig in figures else len(figures))


def write_table(out, headers, rows, left):
    """'rows' under 'headers', each column as wide as its widest cell: the
    columns numbered in 'left' aligned left, the others right."""
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows)]
    line = "  ".join("%%-%ds" % w if i in left else "%%%ds" % w
                     for i, w in enumerate(widths))
    out.write((line % tuple(headers)).rstrip() + "\n")
    out.write("  ".join("-" * w for w in widths) + "\n")
    for r in rows:
        out.write((line % tuple(r)).rstrip() + "\n")
