"""mpiprof_html: the one-page view of mpiprof-report html: a report
directory (or two, compared) as one self-contained HTML file, styles,
script, data and SVG pictures inline, nothing fetched. Called by
tools/mpiprof-report; reads the report with the readers of mpiprof.py.

The page is well-formed XML as well as HTML (every element closed, the
script in a CDATA section, the data as JSON without '<', '>' or '&'), so
that a test parses it with an XML parser. Tables show their first TOP
rows; the rest, the per-rank views and the sorting come from the JSON
data by the page's script (render, below).
"""

import html
import json
import math
import os
import tempfile

import pandas as pd

import mpiprof

TOP = 20            # rows a table shows before "all rows"
RANK_SITES = 50     # call sites kept per rank for the rank filter
MAX_BARS = 128      # per-rank bars drawn one per rank up to this many ranks
MAX_CELLS = 64      # the matrix has at most this many rows and columns


def esc(text):
    return html.escape(str(text), quote=True)


def fmt(value, spec):
    """A figure as the report's files write it: SPEC a printf format."""
    return mpiprof._fmt(value, spec)


# --- tables: a header row, text cells, sorted and filtered by the page -------

class Table:
    """A sortable table: views, each a (columns, rows) pair, the first one
    shown; COLUMNS are (heading, kind) with kind 'n' (number, right-aligned,
    sorted as a number), 't' (text) or 'site' (a cell [label, ancestors],
    the ancestors shown on demand). NOTE is a line under the table."""

    def __init__(self, tid, columns, rows, note=""):
        self.tid = tid
        self.views = {"all": (columns, rows)}
        self.labels = {"all": "all ranks"}
        self.note = note

    def view(self, key, label, columns, rows):
        self.views[key] = (columns, rows)
        self.labels[key] = label

    def data(self):
        return {"views": {k: {"cols": c, "rows": r} for k, (c, r) in self.views.items()},
                "labels": self.labels, "top": TOP}

    def html(self):
        cols, rows = self.views["all"]
        out = ['<div class="table" id="%s">' % esc(self.tid)]
        controls = []
        if len(self.views) > 1:
            opts = "".join('<option value="%s">%s</option>' % (esc(k), esc(v)) for k, v in self.labels.items())
            controls.append('<label>show <select class="view">%s</select></label>' % opts)
        if len(rows) > TOP:
            controls.append('<button type="button" class="more">all %d rows</button>' % len(rows))
        controls.append('<span class="count">%s</span>' % esc(_shown(len(rows))))
        out.append('<div class="controls">%s</div>' % " ".join(controls))
        out.append("<table><thead><tr>%s</tr></thead><tbody>" % "".join(
            '<th class="%s" title="click to sort">%s</th>' % (k, esc(h)) for h, k in cols))
        for row in rows[:TOP]:
            out.append(_row(cols, row))
        out.append("</tbody></table>")
        if self.note:
            out.append('<p class="note">%s</p>' % esc(self.note))
        out.append("</div>")
        return "\n".join(out)


def _shown(n):
    return "%d of %d rows" % (min(n, TOP), n) if n > TOP else "%d rows" % n


def _row(cols, row):
    cells = []
    for (_, kind), v in zip(cols, row):
        if kind == "site":
            label, anc = v
            if anc:
                cells.append('<td class="t"><details><summary>%s</summary>%s</details></td>'
                             % (esc(label), "".join("<div>&lt; %s</div>" % esc(a) for a in anc.split(";"))))
            else:
                cells.append('<td class="t">%s</td>' % esc(label))
        else:
            cells.append('<td class="%s">%s</td>' % (kind, esc(v)))
    return "<tr>%s</tr>" % "".join(cells)


def _site(function, site, ancestors):
    anc = "" if ancestors in ("-", "") or pd.isna(ancestors) else ancestors
    return ["%s %s" % (function, site), anc]


# --- SVG pictures ---------------------------------------------------------------

SVG_NS = "http://www.w3.org/2000/svg"
COLORS = {"compute": "#c8c8c8", "mpi": "#1f77b4", "waiting": "#d62728"}


def _svg(width, height, body, label):
    return ('<svg xmlns="%s" class="pic" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">'
            '<title>%s</title>%s</svg>' % (SVG_NS, width, height, width, height, esc(label), esc(label), body))


def _rect(x, y, w, h, color, tip, cls=""):
    return '<rect%s x="%.1f" y="%.1f" width="%.2f" height="%.2f" fill="%s"><title>%s</title></rect>' % (
        ' class="%s"' % cls if cls else "", x, y, max(w, 0.0), max(h, 0.0), color, esc(tip))


def _text(x, y, s, anchor="start", size=11, extra=""):
    return '<text x="%.1f" y="%.1f" font-size="%d" text-anchor="%s"%s>%s</text>' % (x, y, size, anchor, extra, esc(s))


def _legend(x, y, items):
    out = []
    for k, (name, color) in enumerate(items):
        out.append(_rect(x + 150 * k, y - 9, 10, 10, color, name))
        out.append(_text(x + 150 * k + 14, y, name))
    return "".join(out)


def rank_bars(rep):
    """Per rank (or group of ranks, beyond MAX_BARS) a stacked bar: compute,
    MPI less the waiting, waiting (late sender and collective wait); None
    in the summary form."""
    if rep.summary:
        return None
    s = rep["summary"].sort_values("rank")
    ranks = list(s["rank"])
    compute = s["compute_s"] if "compute_s" in s.columns else s["elapsed_s"] - s["mpi_s"]
    wait = sum((s[c] for c in ("send_late_s", "coll_wait_s") if c in s.columns), pd.Series(0.0, index=s.index))
    wait = wait.clip(upper=s["mpi_s"])
    frame = pd.DataFrame({"compute": list(compute), "mpi": list(s["mpi_s"] - wait), "waiting": list(wait)},
                         index=ranks)
    group = max(1, math.ceil(len(ranks) / MAX_BARS))
    by_node = node_of_rank(rep) if group > 1 else None
    if by_node:
        names = {k: "node %d (%s, ranks %s)" % (k, h, rl) for k, h, rl in
                 zip(rep["nodes"]["node"], rep["nodes"]["host"], rep["nodes"]["rank_list"])}
        frame = frame.groupby([by_node[r] for r in ranks]).mean()
        group = 1
    elif group > 1:
        frame = frame.groupby([r // group for r in ranks]).mean()
    n = len(frame)
    width, left, top, plot_h = 900, 60, 30, 200
    bar = (width - left - 10) / n
    vmax = max(frame.sum(axis=1).max(), 1e-12)
    body = [_legend(left, 16, [("compute", COLORS["compute"]), ("MPI", COLORS["mpi"]),
                               ("waiting (late sender, collective)", COLORS["waiting"])])]
    for k, (idx, row) in enumerate(frame.iterrows()):
        who = names[idx] + " (mean)" if by_node else "rank %d" % idx if group == 1 else "ranks %d-%d (mean)" % (idx * group, min(idx * group + group, len(ranks)) - 1)
        y = top + plot_h
        for part in ("compute", "mpi", "waiting"):
            h = plot_h * row[part] / vmax
            y -= h
            body.append(_rect(left + k * bar + 0.1 * bar, y, 0.8 * bar, h, COLORS[part],
                              "%s: %s %.9f s" % (who, "MPI" if part == "mpi" else part, row[part]), "bar"))
    step = max(1, math.ceil(n / 32))
    for k in range(0, n, step):
        body.append(_text(left + (k + 0.5) * bar, top + plot_h + 12, str(frame.index[k] * group), "middle", 9))
    axis = "rank" if group == 1 else "ranks, in groups of %d (the mean of each group)" % group
    body.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>' % (left, top + plot_h, width - 10, top + plot_h))
    body.append(_text(left - 4, top + 8, "%.3g s" % vmax, "end"))
    body.append(_text(left - 4, top + plot_h, "0", "end"))
    body.append(_text((left + width) / 2, top + plot_h + 26, "node (the mean of its ranks)" if by_node else axis,
                      "middle"))
    return _svg(width, top + plot_h + 32, "".join(body), "time per rank: compute, MPI, waiting")


def node_of_rank(rep):
    """rank -> node from nodes.txt's rank lists (ranges such as 0-3,8),
    when there is more than one node and no list was cut; else None."""
    n = rep.get("nodes")
    if n is None or len(n) < 2 or "rank_list" not in n.columns:
        return None
    out = {}
    for node, ranks in zip(n["node"], n["rank_list"].astype(str)):
        if ranks.endswith("..."):
            return None
        for part in ranks.split(","):
            lo, _, hi = part.partition("-")
            for r in range(int(lo), int(hi or lo) + 1):
                out[r] = node
    return out if len(out) == rep.ranks else None


def _viridis(t):
    """A colour of the viridis scale, T from 0 to 1 (5 stops, linear between)."""
    stops = [(68, 1, 84), (59, 82, 139), (33, 145, 140), (94, 201, 98), (253, 231, 37)]
    t = min(max(t, 0.0), 1.0) * (len(stops) - 1)
    i = min(int(t), len(stops) - 2)
    f = t - i
    return "#%02x%02x%02x" % tuple(round(a + (b - a) * f) for a, b in zip(stops[i], stops[i + 1]))


def matrix_svg(m, title):
    """The rank x partner heat map of a comm_matrix: one cell per pair with
    bytes, ranks binned beyond MAX_CELLS (bytes summed)."""
    n = len(m)
    k = max(1, math.ceil(n / MAX_CELLS))
    values = m.values
    if k > 1:
        import numpy as np
        nb = math.ceil(n / k)
        padded = np.zeros((nb * k, nb * k))
        padded[:n, :n] = values
        values = padded.reshape(nb, k, nb, k).sum(axis=(1, 3))
    nb = len(values)
    positive = values[values > 0]
    if not positive.size:
        return None
    lo, hi = positive.min(), positive.max()
    log = hi / lo > 100

    def scale(v):
        return (math.log(v / lo) / math.log(hi / lo) if log else v / hi) if hi > lo else 1.0

    size, left, top = 480, 50, 20
    cell = size / nb
    body = []
    for i in range(nb):
        for j in range(nb):
            v = values[i, j]
            if v > 0:
                who = "rank %d" % i if k == 1 else "ranks %d-%d" % (i * k, min(n, i * k + k) - 1)
                to = "rank %d" % j if k == 1 else "ranks %d-%d" % (j * k, min(n, j * k + k) - 1)
                body.append(_rect(left + j * cell, top + i * cell, cell, cell, _viridis(scale(v)),
                                  "%s with %s: %d bytes" % (who, to, v), "cell"))
    body.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#999"/>' % (left, top, size, size))
    body.append(_text(left + size / 2, top + size + 16, "partner rank" + ("" if k == 1 else " (binned by %d)" % k),
                      "middle"))
    body.append(_text(14, top + size / 2, "rank", "middle", extra=' transform="rotate(-90 14 %d)"' % (top + size / 2)))
    if nb <= 32:
        for i in range(nb):
            body.append(_text(left - 4, top + (i + 0.7) * cell, str(i * k), "end", 9))
            body.append(_text(left + (i + 0.5) * cell, top - 4, str(i * k), "middle", 9))
    # the colour scale
    x0 = left + size + 20
    for s in range(20):
        body.append('<rect x="%d" y="%.1f" width="14" height="%.1f" fill="%s"/>'
                    % (x0, top + size - (s + 1) * size / 20, size / 20, _viridis(s / 19)))
    body.append(_text(x0 + 18, top + 10, "%d B" % hi))
    body.append(_text(x0 + 18, top + size, "%d B%s" % (lo, " (log)" if log else "")))
    return _svg(left + size + 110, top + size + 24, "".join(body), title)


def size_histograms(rep, nfunc=4):
    """Per function with the most bytes (sizes.txt, summed over the ranks),
    a bar per size bin of its calls; None without sizes.txt."""
    z = rep.get("sizes")
    if z is None or z.empty:
        return None
    per = z.groupby(["function", "bin_lo", "bin_hi"], sort=False)[["calls", "bytes"]].sum().reset_index()
    order = per.groupby("function", sort=False)["bytes"].sum().sort_values(ascending=False, kind="stable")
    pics = []
    for fn in order.index[:nfunc]:
        rows = per[per["function"] == fn].sort_values("bin_lo")
        width, left, top, h = 420, 50, 24, 120
        bar = (width - left - 10) / max(len(rows), 1)
        cmax = max(rows["calls"].max(), 1)
        body = [_text(left, 14, fn + ": calls per message size (bytes), summed over ranks", size=11)]
        for k, (_, r) in enumerate(rows.iterrows()):
            bh = h * r["calls"] / cmax
            label = "%d" % r["bin_lo"] if r["bin_lo"] == r["bin_hi"] else "%d-%d" % (r["bin_lo"], r["bin_hi"])
            body.append(_rect(left + k * bar + 1, top + h - bh, bar - 2, bh, COLORS["mpi"],
                              "%s %s B: %d calls, %d bytes" % (fn, label, r["calls"], r["bytes"]), "bar"))
            if len(rows) <= 12:
                body.append(_text(left + (k + 0.5) * bar, top + h + 12, label, "middle", 8))
        body.append(_text(left - 4, top + 8, "%d" % cmax, "end", 9))
        pics.append(_svg(width, top + h + 18, "".join(body), "%s message sizes" % fn))
    return "".join(pics)


# --- the sections of one report ------------------------------------------------

def _sites_by_brid(rep):
    """brid -> (function, site, ancestors), from branches.txt or sites.txt."""
    for key in ("branches", "sites"):
        t = rep.table(key)
        if t is not None and "brid" in t.columns:
            d = t.drop_duplicates("brid")
            return {b: (f, s, a) for b, f, s, a in zip(d["brid"], d["function"], d["site"], d["ancestors"])}
    return {}


def _label(sites, brid, function="?"):
    return _site(*sites.get(brid, (function, "brid=%s" % brid, "-")))


def header(rep, who=""):
    m = rep.meta
    n = rep.get("nodes")
    nodes = "not recorded" if n is None else "%d: %s" % (len(n), "; ".join(
        "%s ranks %s" % (h, rl) for h, rl in zip(n["host"], n["rank_list"])))
    rows = [("report", rep.path), ("command", m.get("command", "?")), ("ranks", str(rep.ranks)),
            ("nodes", nodes), ("form", m.get("form", "ranks")), ("options", m.get("options", "-")),
            ("clock", m.get("clock", "?")), ("start", m.get("start", "?")),
            ("mpiprof", m.get("version", "?")),
            ("state", "complete" if rep.complete else "PARTIAL: made by mpiprof-merge from snapshots" if merged(rep)
             else "PARTIAL: summary.txt does not end with '# complete'")]
    rows += [("note", n) for n in rep.notes]
    out = ['<table class="head">']
    for k, v in rows:
        cls = ' class="partial"' if k == "state" and not rep.complete else ""
        out.append("<tr%s><th>%s%s</th><td>%s</td></tr>" % (cls, esc(who), esc(k), esc(v)))
    out.append("</table>")
    if not rep.complete and merged(rep):
        out.append('<p class="partial">This report is partial: mpiprof-merge made it from the snapshots of a job '
                   'that did not reach MPI_Finalize (the notes above say when, why and which ranks are missing); '
                   'the figures below are what the ranks had then.</p>')
    elif not rep.complete:
        out.append('<p class="partial">This report is partial: its summary.txt has no \'# complete\' line, so '
                   'the run did not finish writing it; the figures below are what the files hold.</p>')
    return "\n".join(out)


def merged(rep):
    """Whether REP is a partial report that mpiprof-merge made (REPORT.partial:
    a PARTIAL file, or the note it writes)."""
    return os.path.isfile(os.path.join(rep.path, "PARTIAL")) or any(
        n.startswith("partial report made by mpiprof-merge") for n in rep.notes)


def glance(rep):
    job = mpiprof.job_figures(rep)
    if rep.summary:
        s = rep["summary"].set_index("figure")
        total = s.at["elapsed_s", "total"]
    else:
        total = rep["summary"]["elapsed_s"].sum()
    mpi = job["mpi"][0]
    cards = [("elapsed", "%.6f s" % job["elapsed"][0], "the slowest rank"),
             ("MPI", "%.2f %%" % (100 * mpi / total if total else 0),
              "%.6f s of %.6f s summed over ranks" % (mpi, total))]
    names = {"profiler": "profiler", "late_sender": "late-sender wait", "collective_wait": "collective wait",
             "modelled_elapsed": "modelled elapsed"}
    for key, name in names.items():
        if key in job:
            cards.append((name, "%.6f s" % job[key][0], "the slowest rank" if key == "modelled_elapsed"
                          else "summed over ranks"))
    if rep.model:
        cards.append(("predicted speed-up", rep.model.get("predicted_speedup", "?"), rep.model.get("model", "")))
    out = ['<div class="cards">']
    for name, value, how in cards:
        out.append('<div class="card"><div class="k">%s</div><div class="v">%s</div><div class="h">%s</div></div>'
                   % (esc(name), esc(value), esc(how)))
    out.append("</div>")
    pic = rank_bars(rep)
    if pic:
        out.append(pic)
    else:
        out.append('<p class="note">The summary form has no figures per rank: the spread over the ranks '
                   'is in the table of figures below.</p>')
    return "\n".join(out)


def fix_first(rep, tables):
    """The "what should I fix" section: wait states, late senders, collective
    wait, the model; a line saying which options give them when none ran."""
    out = []
    sites = _sites_by_brid(rep)
    causes = mpiprof.top_causes(rep, TOP * 5)
    if causes is not None:
        w = rep["waits"]
        at = w.groupby(["rank", "from_site", "to_site", "waited_at"], sort=False)["caused_s"].sum().reset_index()
        rows = []
        for _, r in causes.iterrows():
            mine = at[(at["rank"] == r["rank"]) & (at["from_site"] == r["from_site"]) & (at["to_site"] == r["to_site"])]
            where = mine.sort_values("caused_s", ascending=False, kind="stable")
            brids = list(dict.fromkeys(b for w_ in where["waited_at"] for b in str(w_).split(",")))
            rows.append([fmt(r["caused_s"], "%.9f"), fmt(r["waits"], "%d"), fmt(r["ranks"], "%d"),
                         fmt(r["rank"], "%d"), r["classes"], "%s .. %s" % (r["from_site"], r["to_site"]),
                         ", ".join(_label(sites, int(b) if b.isdigit() else b)[0] for b in brids[:3]) +
                         (", ..." if len(brids) > 3 else "")])
        t = Table("t-waits", [("caused[s]", "n"), ("waits", "n"), ("ranks", "n"), ("rank", "n"), ("classes", "t"),
                              ("region: from .. to", "t"), ("where the others waited", "t")], rows)
        tables.append(t)
        out.append("<h3>Wait states: the code regions that made other ranks wait (waits.txt)</h3>")
        out.append(t.html() if rows else "<p>No waiting was measured.</p>")
    slt = rep.get("slt")
    if slt is not None:
        g = slt.groupby(["brid", "function"], sort=False)[["recv_wait_s", "send_late_s", "transfer_s"]].sum()
        g = g.reset_index().sort_values("send_late_s", ascending=False, kind="stable")
        rows = [[fmt(r["send_late_s"], "%.9f"), fmt(r["recv_wait_s"], "%.9f"), fmt(r["transfer_s"], "%.9f"),
                 _label(sites, r["brid"], r["function"])] for _, r in g.iterrows()]
        t = Table("t-slt", [("send late[s]", "n"), ("receive wait[s]", "n"), ("transfer[s]", "n"),
                            ("receiving site", "site")], rows, "summed over ranks (slt.txt)")
        tables.append(t)
        out.append("<h3>Late senders: receives that waited for their sender</h3>")
        out.append(t.html())
        p = rep.get("partners")
        if p is not None and "send_late_s" in p.columns:
            p = p[(p["send_late_s"] > 0) & (p["partner"].astype(str) != "others")]
            p = p.sort_values("send_late_s", ascending=False, kind="stable")
            rows = [[fmt(r["send_late_s"], "%.9f"), fmt(r["rank"], "%d"), _label(sites, r["brid"], r["function"]),
                     str(r["partner"]), "-" if pd.isna(r["partner_brid"]) or r["partner_brid"] == "-" else
                     _label(sites, r["partner_brid"])[0]] for _, r in p.head(500).iterrows()]
            t = Table("t-late-partners", [("send late[s]", "n"), ("rank", "n"), ("receiving site", "site"),
                                          ("late partner", "n"), ("its sending site", "t")], rows,
                      "per receiving rank and site, the partner that sent late (partners.txt); the first 500")
            tables.append(t)
            out.append("<h3>Late senders and their partners</h3>")
            out.append(t.html())
    cw = rep.get("collwait")
    if cw is not None:
        g = cw.groupby(["brid", "function"], sort=False)[["calls", "time_s", "wait_s", "synced_s"]].sum()
        g = g.reset_index().sort_values("wait_s", ascending=False, kind="stable")
        rows = [[fmt(r["wait_s"], "%.9f"), fmt(r["synced_s"], "%.9f"), fmt(r["time_s"], "%.9f"), fmt(r["calls"], "%d"),
                 _label(sites, r["brid"], r["function"])] for _, r in g.iterrows()]
        t = Table("t-collwait", [("wait[s]", "n"), ("synced[s]", "n"), ("time[s]", "n"), ("calls", "n"),
                                 ("collective site", "site")], rows,
                  "summed over ranks (collwait.txt): wait = waiting for the last rank, synced = the collective itself")
        tables.append(t)
        out.append("<h3>Collective wait: collectives waiting for the last rank</h3>")
        out.append(t.html())
    if rep.model:
        mdl = rep.model
        out.append("<h3>What if: the model (%s)</h3>" % esc(mdl.get("model", "?")))
        out.append("<p>Real elapsed %s s, modelled %s s: predicted speed-up <b>%s</b>.</p>" % (
            esc(mdl.get("real_elapsed_s", "?")), esc(mdl.get("model_elapsed_s", "?")),
            esc(mdl.get("predicted_speedup", "?"))))
        mt = rep.get("model")
        if mt is not None:
            g = mt.groupby("what", sort=False)[["real_s", "model_s"]].agg(["sum", "max"])
            rows = [[w, fmt(r[("real_s", "max")], "%.9f"), fmt(r[("model_s", "max")], "%.9f"),
                     fmt(r[("real_s", "sum")], "%.9f"), fmt(r[("model_s", "sum")], "%.9f")] for w, r in g.iterrows()]
            t = Table("t-model", [("what", "t"), ("real, slowest rank[s]", "n"), ("model, slowest rank[s]", "n"),
                                  ("real, summed[s]", "n"), ("model, summed[s]", "n")], rows, "model.txt")
            tables.append(t)
            out.append(t.html())
    if not out:
        out.append("<p>No analysis ran. <code>mpiprof --waits</code> names the code that made others wait, "
                   "<code>--slt</code> the late senders, <code>--collwait</code> the collective wait, "
                   "<code>--model perfect</code> what a perfect network would give.</p>")
    out.append(biggest(rep))
    return "\n".join(out)


def biggest(rep):
    """A line on the MPI function with the most time and its imbalance."""
    f = mpiprof.functions_over_ranks(rep)
    if f.empty:
        return ""
    r = f.iloc[0]
    mpi = mpiprof.job_figures(rep)["mpi"][0]
    return ("<p>The most MPI time: <b>%s</b>, %.9f s summed over ranks (%.2f %% of the MPI time); one rank spent "
            "%.9f s at the most (rank %s) against %.9f s on average%s.</p>" % (
                esc(r["function"]), r["time_s"], 100 * r["time_s"] / mpi if mpi else 0, r["max_s"],
                fmt(r["max_rank"], "%d"), r["mean_s"],
                ": an imbalance of %.2f" % (r["max_s"] / r["mean_s"]) if r["mean_s"] > 0 else ""))


def function_table(rep, mpi_total):
    if rep.summary:
        f = mpiprof.read_table(os.path.join(rep.path, "functions.txt"), typed=False)[0]
        cols = [(c, "t" if c == "function" else "n") for c in f.columns]
        return Table("t-functions", cols, f.values.tolist(), "functions.txt (the summary form: over the ranks)")
    funcs = mpiprof.functions_over_ranks(rep)
    t = rep.table("functions")
    sent = t.groupby("function", sort=False)[["bytes_sent", "bytes_recv"]].sum()
    cols = [("function", "t"), ("time[s]", "n"), ("MPI[%]", "n"), ("calls", "n"), ("bytes sent", "n"),
            ("bytes received", "n"), ("min[s]", "n"), ("mean[s]", "n"), ("max[s]", "n"), ("max@rank", "n")]
    rows = [[r["function"], fmt(r["time_s"], "%.9f"), fmt(100 * r["time_s"] / mpi_total if mpi_total else 0, "%.2f"),
             fmt(r["calls"], "%d"), fmt(sent.at[r["function"], "bytes_sent"], "%d"),
             fmt(sent.at[r["function"], "bytes_recv"], "%d"), fmt(r["min_s"], "%.9f"), fmt(r["mean_s"], "%.9f"),
             fmt(r["max_s"], "%.9f"), fmt(r["max_rank"], "%d")] for _, r in funcs.iterrows()]
    table = Table("t-functions", cols, rows, "summed over ranks; min, mean and max of one rank (a rank that did not "
                  "call the function counts 0), from functions.txt")
    raw = mpiprof.read_table(os.path.join(rep.path, "functions.txt"), typed=False)[0]
    if "region" in raw.columns:
        raw = raw[raw["region"] == "whole"].drop(columns="region")
    names = [c for c in raw.columns if c != "rank"]
    for rank, g in raw.groupby("rank", sort=False):
        table.view(str(rank), "rank %s" % rank, [(c, "t" if c == "function" else "n") for c in names],
                   g[names].values.tolist())
    return table


def site_table(rep):
    sites = mpiprof.sites_over_ranks(rep)
    if sites is None:
        return None
    cols = [("time[s]", "n"), ("calls", "n"), ("bytes", "n"), ("ranks", "n"), ("min[s]", "n"), ("mean[s]", "n"),
            ("max[s]", "n"), ("max@rank", "n"), ("function site (ancestors on click)", "site")]
    rows = [[fmt(r["time_s"], "%.9f"), fmt(r["calls"], "%d"), fmt(r["bytes"], "%d"), fmt(r["ranks"], "%d"),
             fmt(r["min_s"], "%.9f"), fmt(r["mean_s"], "%.9f"), fmt(r["max_s"], "%.9f"), fmt(r["max_rank"], "%d"),
             _site(r["function"], r["site"], r["ancestors"])] for _, r in sites.iterrows()]
    table = Table("t-sites", cols, rows, "summed over ranks (%s)" % ("branches.txt" if rep.get("branches") is not None
                                                                       else "sites.txt"))
    b = rep.table("branches")
    if b is not None:
        pcols = [("time[s]", "n"), ("calls", "n"), ("bytes sent", "n"), ("bytes received", "n"),
                 ("receive wait[s]", "n"), ("brid", "n"), ("function site (ancestors on click)", "site")]
        for rank, g in b.groupby("rank", sort=True):
            g = g.sort_values("time_s", ascending=False, kind="stable").head(RANK_SITES)
            table.view(str(rank), "rank %d (top %d)" % (rank, RANK_SITES) if len(g) == RANK_SITES else "rank %d" % rank,
                       pcols, [[fmt(r["time_s"], "%.9f"), fmt(r["calls"], "%d"), fmt(r["bytes_sent"], "%d"),
                                fmt(r["bytes_recv"], "%d"), fmt(r["recv_wait_s"], "%.9f"), fmt(r["brid"], "%d"),
                                _site(r["function"], r["site"], r["ancestors"])] for _, r in g.iterrows()])
    return table


def _grouped_table(tid, df, keys, sums, note):
    g = df.groupby(keys, sort=False)[sums].sum().reset_index().sort_values(sums[-1], ascending=False, kind="stable")
    cols = [(k, "t") for k in keys] + [(s, "n") for s in sums]
    rows = [[str(r[k]) for k in keys] + [fmt(r[s], "%.9f" if s.endswith("_s") else "%d") for s in sums]
            for _, r in g.iterrows()]
    return Table(tid, cols, rows, note)


def report_body(rep, tables):
    """The sections of one report's page, in order: (anchor, title, html)."""
    job = mpiprof.job_figures(rep)
    sec = [("fix", "What should I fix", fix_first(rep, tables))]
    ft = function_table(rep, job["mpi"][0])
    tables.append(ft)
    sec.append(("functions", "Top MPI functions", ft.html()))
    st = site_table(rep)
    if st is not None:
        tables.append(st)
        sec.append(("sites", "Top call sites", st.html()))
    if rep.summary:
        raw = mpiprof.read_table(os.path.join(rep.path, "summary.txt"), typed=False)[0]
        t = Table("t-figures", [(c, "t" if c == "figure" else "n") for c in raw.columns], raw.values.tolist(),
                  "summary.txt: each figure over the ranks")
        tables.append(t)
        sec.insert(0, ("figures", "Figures over the ranks", t.html()))
    m = None if rep.summary else mpiprof.comm_matrix(rep)
    pic = matrix_svg(m, "point-to-point bytes by rank and partner") if m is not None else None
    if pic:
        sec.append(("matrix", "Messages: rank x partner (bytes sent + received, partners.txt)", pic))
    hist = size_histograms(rep)
    if hist:
        sec.append(("sizes", "Message sizes (sizes.txt)", hist))
    if rep.get("rma") is not None:
        t = _grouped_table("t-rma", rep["rma"], ["win", "kind", "site"], ["calls", "bytes", "time_s"],
                           "rma.txt, summed over ranks and targets")
        tables.append(t)
        sec.append(("rma", "One-sided (RMA)", t.html()))
    if rep.get("io") is not None:
        io_ = rep["io"]
        io_ = io_[io_["rank"].astype(str) != "all"]
        t = _grouped_table("t-io", io_, ["name", "what"], ["calls", "bytes", "time_s"], "io.txt, summed over ranks")
        tables.append(t)
        sec.append(("io", "MPI-IO", t.html()))
    if rep.get("nodes") is not None:
        raw = mpiprof.read_table(os.path.join(rep.path, "nodes.txt"), typed=False)[0]
        t = Table("t-nodes", [(c, "t" if c in ("host", "rank_list") else "n") for c in raw.columns],
                  raw.values.tolist(), "nodes.txt: the ranks of each node, their MPI time, the node's clock, the waiting its ranks "
                  "suffered and caused")
        tables.append(t)
        sec.append(("nodes", "Nodes", t.html()))
    regions = mpiprof.regions_over_ranks(rep)
    if regions is not None:
        rows = [[r["region"], fmt(r["ranks"], "%d"), fmt(r["entries"], "%d"), fmt(r["elapsed_s"], "%.9f"),
                 fmt(r["mpi_s"], "%.9f"), fmt(r["mpi_pct"], "%.2f"), fmt(r["calls"], "%d")] for _, r in regions.iterrows()]
        t = Table("t-regions", [("region", "t"), ("ranks", "n"), ("entries", "n"), ("open[s]", "n"), ("MPI[s]", "n"),
                                ("MPI[%]", "n"), ("calls", "n")], rows,
                  "regions.txt, summed over ranks, in the file's order; a region includes the ones nested in it")
        tables.append(t)
        sec.append(("regions", "MPI_Pcontrol regions", t.html()))
    return sec


# --- two reports ------------------------------------------------------------------

def compare_body(a, b, tables):
    per_rank = not (a.summary or b.summary) and a.ranks == b.ranks
    df, _ = mpiprof.compare(a, b, per_rank)
    sec = []
    for kind in ("job", "function", "site"):
        rows = df[df["kind"] == kind]
        if rows.empty:
            continue
        cols = [(h, "n") for h in mpiprof.compare_headers(per_rank)]
        cols.append(("site (ancestors on click)", "site") if kind == "site" else ("name", "t"))
        body = []
        for _, r in rows.iterrows():
            cells = mpiprof.compare_cells(r, per_rank, 9)
            if kind == "site":
                label, anc = _site(r["function"], r["site"], r["ancestors"])
                cells.append([label + mpiprof.compare_only(r), anc])
            else:
                cells.append(r["function"] + mpiprof.compare_only(r))
            body.append(cells)
        t = Table("t-cmp-" + kind, cols, body)
        tables.append(t)
        pic = diff_bars(rows.head(15), kind) if kind != "job" else ""
        sec.append(("cmp-" + kind, mpiprof.COMPARE_TITLES[kind], (pic or "") + t.html()))
    note = mpiprof.depth_note(a, b)
    if note:
        sec.append(("depth", "Depth", "<p>%s</p>" % esc(note)))
    return sec


def diff_bars(rows, kind):
    """Horizontal bars of B-A per row, growth red, shrinkage green."""
    if rows.empty:
        return ""
    width, left, bar = 900, 360, 16
    mid = left + (width - left - 10) / 2
    vmax = max(rows["diff_s"].abs().max(), 1e-12)
    body = []
    for k, (_, r) in enumerate(rows.iterrows()):
        name = r["function"] if kind == "function" else "%s %s" % (r["function"], r["site"])
        d = r["diff_s"]
        w = (width - left - 10) / 2 * abs(d) / vmax
        body.append(_text(left - 6, 20 + k * bar + 11, name if len(name) < 60 else name[:57] + "...", "end", 10))
        body.append(_rect(mid if d >= 0 else mid - w, 20 + k * bar + 2, w, bar - 4, "#d62728" if d > 0 else "#2ca02c",
                          "%s: B-A %+.9f s" % (name, d), "bar"))
    body.append('<line x1="%.1f" y1="14" x2="%.1f" y2="%d" stroke="#333"/>' % (mid, mid, 24 + len(rows) * bar))
    body.append(_text(mid, 11, "B - A (s): %.3g s at the ends" % vmax, "middle", 10))
    return _svg(width, 28 + len(rows) * bar, "".join(body), "B - A per %s" % kind)


# --- the page ---------------------------------------------------------------------

STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:0 2em 2em;color:#222;max-width:1300px}
h1{font-size:20px;margin:.8em 0 .3em}h2{font-size:17px;border-bottom:1px solid #ccc;margin-top:1.6em}
h3{font-size:15px;margin:1.2em 0 .3em}nav a{margin-right:1em}
table{border-collapse:collapse;margin:.3em 0}td,th{padding:2px 8px;border-bottom:1px solid #eee;vertical-align:top}
th{background:#f4f4f4;cursor:pointer;text-align:left;white-space:nowrap}td.n{text-align:right;font-family:monospace}
table.head th{background:none;cursor:default}tr.partial td,p.partial{color:#b00;font-weight:bold}
td.t{font-family:monospace;word-break:break-all}details summary{cursor:pointer}details div{color:#555}
.cards{display:flex;flex-wrap:wrap;gap:.8em;margin:.8em 0}.card{border:1px solid #ddd;border-radius:6px;padding:.4em .8em}
.card .k{color:#666;font-size:12px}.card .v{font-size:20px;font-weight:bold}.card .h{color:#888;font-size:11px}
.controls{margin:.3em 0}.controls .count{color:#666;margin-left:1em}.note{color:#666;font-size:12px}
svg.pic{display:block;margin:.5em 0}svg text{font-family:sans-serif;fill:#222}
th.up::after{content:" \\25b2"}th.down::after{content:" \\25bc"}
"""

# The page's script: tables from the JSON data (views, sorting, all rows).
SCRIPT = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("mpiprof-data").textContent);
  function cell(kind, v) {
    var td = document.createElement("td");
    if (kind === "site") {
      td.className = "t";
      if (v[1]) {
        var d = document.createElement("details"), s = document.createElement("summary");
        s.textContent = v[0];
        d.appendChild(s);
        v[1].split(";").forEach(function (a) {
          var e = document.createElement("div");
          e.textContent = "\u003c " + a;
          d.appendChild(e);
        });
        td.appendChild(d);
      } else {
        td.textContent = v[0];
      }
    } else {
      td.className = kind;
      td.textContent = v;
    }
    return td;
  }
  function key(kind, v) {
    if (kind === "site") return v[0];
    if (kind === "n") { var x = parseFloat(v); return isNaN(x) ? -Infinity : x; }
    return v;
  }
  function setup(box) {
    var spec = data.tables[box.id], state = {view: "all", col: -1, dir: 1, all: false};
    var table = box.querySelector("table"), sel = box.querySelector("select.view");
    var more = box.querySelector("button.more"), count = box.querySelector(".count");
    function render() {
      var v = spec.views[state.view], rows = v.rows.slice();
      if (state.col >= 0) {
        var c = state.col, kind = v.cols[c][1], d = state.dir;
        rows.sort(function (a, b) {
          var x = key(kind, a[c]), y = key(kind, b[c]);
          return x === y ? 0 : (x > y ? d : -d);
        });
      }
      var head = document.createElement("tr");
      v.cols.forEach(function (col, i) {
        var th = document.createElement("th");
        th.className = col[1] + (i === state.col ? (state.dir > 0 ? " up" : " down") : "");
        th.title = "click to sort";
        th.textContent = col[0];
        th.addEventListener("click", function () {
          if (state.col === i) state.dir = -state.dir; else { state.col = i; state.dir = col[1] === "n" ? -1 : 1; }
          render();
        });
        head.appendChild(th);
      });
      var thead = document.createElement("thead"), tbody = document.createElement("tbody");
      thead.appendChild(head);
      var n = state.all ? rows.length : Math.min(rows.length, spec.top);
      for (var r = 0; r < n; r++) {
        var tr = document.createElement("tr");
        for (var k = 0; k < v.cols.length; k++) tr.appendChild(cell(v.cols[k][1], rows[r][k]));
        tbody.appendChild(tr);
      }
      table.replaceChildren(thead, tbody);
      count.textContent = n < rows.length ? n + " of " + rows.length + " rows" : rows.length + " rows";
      if (more) more.hidden = n >= rows.length && !state.all;
      if (more) more.textContent = state.all ? "top " + spec.top + " rows" : "all " + rows.length + " rows";
    }
    if (sel) sel.addEventListener("change", function () { state.view = sel.value; state.col = -1; render(); });
    if (more) more.addEventListener("click", function () { state.all = !state.all; render(); });
    box.mpiprofRender = render;
    render();
  }
  Array.prototype.forEach.call(document.querySelectorAll("div.table"), setup);
})();
"""


def _json(obj):
    """JSON safe inside a script element and an XML text node."""
    text = json.dumps(obj, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page(title, intro, sections, tables):
    nav = " ".join('<a href="#%s">%s</a>' % (esc(a), esc(t)) for a, t, _ in sections)
    out = ["<!DOCTYPE html>", '<html xmlns="http://www.w3.org/1999/xhtml" lang="en">', "<head>",
           '<meta charset="utf-8"/>', '<meta name="viewport" content="width=device-width"/>',
           "<title>%s</title>" % esc(title), "<style>%s</style>" % STYLE, "</head>", "<body>",
           "<h1>%s</h1>" % esc(title), intro, "<nav>%s</nav>" % nav]
    for anchor, t, body in sections:
        out += ['<section id="%s">' % esc(anchor), "<h2>%s</h2>" % esc(t), body, "</section>"]
    out.append('<script type="application/json" id="mpiprof-data">%s</script>'
               % _json({"tables": {t.tid: t.data() for t in tables}}))
    out.append("<script>//<![CDATA[\n%s\n//]]></script>" % SCRIPT)
    out += ["</body>", "</html>", ""]
    return "\n".join(out)


def report_page(rep):
    tables = []
    sections = [("glance", "The job at a glance", glance(rep))] + report_body(rep, tables)
    return page("mpiprof: %s" % rep.meta.get("command", rep.path), header(rep), sections, tables)


def compare_page(a, b):
    tables = []
    intro = "<h3>A</h3>%s<h3>B</h3>%s" % (header(a, ""), header(b, ""))
    sections = [("glance-a", "A at a glance", glance(a)), ("glance-b", "B at a glance", glance(b))]
    sections += compare_body(a, b, tables)
    return page("mpiprof: %s against %s" % (b.path, a.path), intro, sections, tables)


def unwritable(path):
    """Why the page cannot be written at PATH, or None."""
    if os.path.isdir(path):
        return "it is a directory (-o names the HTML file)"
    if os.path.lexists(path) and not os.path.isfile(path):
        return "it exists and is not a regular file"
    return mpiprof.dir_problem(os.path.dirname(path) or ".")


def write(text, path):
    """TEXT into the file PATH, whole or not at all: written to a temporary
    file beside it, then renamed. Raises mpiprof.CannotWrite."""
    problem = unwritable(path)
    if problem:
        raise mpiprof.CannotWrite("cannot write the page '%s': %s" % (path, problem))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=".mpiprof-html.", dir=os.path.dirname(path) or ".")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise mpiprof.CannotWrite("cannot write the page '%s': %s" % (path, e.strerror or e))
    finally:
        if tmp:
            os.unlink(tmp)
