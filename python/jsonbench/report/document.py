"""A report as a list of sections of simple blocks, rendered to markdown
(charts linked as files) and to one self-contained HTML file (charts embedded
as base64 PNG).  Sections never write markdown or HTML themselves."""

import base64
import html
import os


class Paragraph:
    def __init__(self, text):
        self.text = text


class Table:
    def __init__(self, headers, rows, caption=None, align=None):
        self.headers = headers
        self.rows = rows
        self.caption = caption
        # 'l' or 'r' per column; numbers read better right-aligned.
        self.align = align or ["l"] + ["r"] * (len(headers) - 1)


class Figure:
    def __init__(self, path, caption):
        self.path = path            # PNG file written by charts.save()
        self.caption = caption


class Section:
    def __init__(self, title, anchor, blocks=None, level=2):
        self.title = title
        self.anchor = anchor
        self.blocks = blocks or []
        self.level = level

    def add(self, block):
        self.blocks.append(block)
        return block

    def para(self, text):
        return self.add(Paragraph(text))

    def subsection(self, title, anchor):
        return self.add(Section(title, anchor, level=self.level + 1))


def _md_escape(cell):
    return str(cell).replace("|", "\\|").replace("\n", " ")


def render_markdown(title, intro, sections, out_dir):
    lines = ["# " + title, ""]
    if intro:
        lines += [intro, ""]
    lines += ["Contents: " + " · ".join(
        "[%s](#%s)" % (s.title, s.anchor) for s in sections), ""]
    for s in sections:
        _md_section(s, lines, out_dir)
    return "\n".join(lines) + "\n"


def _md_section(s, lines, out_dir):
    lines += ['<a id="%s"></a>' % s.anchor, "", "#" * s.level + " " + s.title, ""]
    for b in s.blocks:
        if isinstance(b, Section):
            _md_section(b, lines, out_dir)
        elif isinstance(b, Paragraph):
            lines += [b.text, ""]
        elif isinstance(b, Table):
            if b.caption:
                lines += ["*" + b.caption + "*", ""]
            lines.append("| " + " | ".join(_md_escape(h) for h in b.headers) + " |")
            lines.append("|" + "|".join("---:" if a == "r" else "---" for a in b.align) + "|")
            for r in b.rows:
                lines.append("| " + " | ".join(_md_escape(c) for c in r) + " |")
            lines.append("")
        elif isinstance(b, Figure):
            rel = os.path.relpath(b.path, out_dir)
            lines += ["![%s](%s)" % (b.caption, rel), "", "*" + b.caption + "*", ""]


_CSS = """
body { font-family: -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif;
       margin: 2em auto; max-width: 1250px; padding: 0 1em; color: #222;
       line-height: 1.45; }
h1 { border-bottom: 2px solid #ccc; padding-bottom: .2em; }
h2 { border-bottom: 1px solid #ddd; margin-top: 2em; }
table { border-collapse: collapse; margin: .6em 0 1.2em; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 3px 8px; }
th { background: #f0f0f0; }
td.r { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr:nth-child(even) td { background: #fafafa; }
figure { margin: 1em 0; }
figure img { max-width: 100%; border: 1px solid #eee; }
figcaption { font-size: 13px; color: #555; }
.caption { font-style: italic; color: #444; margin-bottom: .2em; }
nav { font-size: 14px; }
code { background: #f4f4f4; padding: 0 3px; }
"""


def _inline_md(text):
    """The little markdown the sections use: `code` and **bold**."""
    out = html.escape(text)
    parts = out.split("`")
    out = "".join(("<code>%s</code>" % p) if i % 2 else p for i, p in enumerate(parts))
    parts = out.split("**")
    return "".join(("<b>%s</b>" % p) if i % 2 else p for i, p in enumerate(parts))


def render_html(title, intro, sections):
    out = ["<!DOCTYPE html>", "<html><head><meta charset='utf-8'>",
           "<title>%s</title>" % html.escape(title), "<style>%s</style>" % _CSS,
           "</head><body>", "<h1>%s</h1>" % html.escape(title)]
    if intro:
        out.append("<p>%s</p>" % _inline_md(intro))
    out.append("<nav>Contents: " + " · ".join(
        "<a href='#%s'>%s</a>" % (s.anchor, html.escape(s.title)) for s in sections) + "</nav>")
    for s in sections:
        _html_section(s, out)
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _html_section(s, out):
    out.append("<h%d id='%s'>%s</h%d>" % (s.level, s.anchor, _inline_md(s.title), s.level))
    for b in s.blocks:
        if isinstance(b, Section):
            _html_section(b, out)
        elif isinstance(b, Paragraph):
            out.append("<p>%s</p>" % _inline_md(b.text))
        elif isinstance(b, Table):
            if b.caption:
                out.append("<div class='caption'>%s</div>" % _inline_md(b.caption))
            out.append("<table><tr>" + "".join(
                "<th>%s</th>" % html.escape(str(h)) for h in b.headers) + "</tr>")
            for r in b.rows:
                out.append("<tr>" + "".join(
                    "<td class='%s'>%s</td>" % (a, html.escape(str(c)))
                    for a, c in zip(b.align, r)) + "</tr>")
            out.append("</table>")
        elif isinstance(b, Figure):
            with open(b.path, "rb") as f:
                data = base64.b64encode(f.read()).decode("ascii")
            out.append("<figure><img alt='%s' src='data:image/png;base64,%s'>"
                       "<figcaption>%s</figcaption></figure>"
                       % (html.escape(b.caption, quote=True), data, html.escape(b.caption)))
