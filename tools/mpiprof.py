"""mpiprof: read an mpiprof report directory into pandas DataFrames, and
the views of mpiprof-report(1): show, compare and plot.

    import mpiprof
    rep = mpiprof.read_report("mpiprof.app.4p")
    rep["functions"]             # one DataFrame per table of the report
    rep.meta["ranks"]            # fields of the first header line

Every table is read by the names of its column line (the last '#' line
before the rows, see mpiprof-report(5)), never by position, so a column
added later breaks nothing. Used by tools/mpiprof-report; needs pandas, and
matplotlib for plot() only.
"""

import io
import math
import os
import re
import sys

import numpy as np
import pandas as pd

# The tables of a report: file name -> key in Report (the name without .txt).
TABLES = ("summary.txt", "functions.txt", "matrix.time", "matrix.calls", "matrix.bytes",
          "branches.txt", "partners.txt", "threads.txt", "sites.txt", "sizes.txt",
          "slt.txt", "collwait.txt", "waits.txt", "model.txt", "rma.txt", "io.txt", "regions.txt",
          "nodes.txt")

# Summary columns of the analyses: column -> (compare/show name, how ranks combine).
ANALYSES = (("send_late_s", "late sender", "sum"),
            ("coll_wait_s", "collective wait", "sum"),
            ("model_elapsed_s", "modelled elapsed", "max"))
# The job's figures beyond elapsed, MPI and compute: the profiler's own
# time, then the analyses'.
FIGURES = (("profiler_s", "profiler", "sum"),) + ANALYSES


class NotAReport(Exception):
    """DIR is not a report directory mpiprof wrote."""


class CannotWrite(Exception):
    """The plots cannot be written where they were asked for."""


class Report(dict):
    """The tables of one report directory: key -> DataFrame, the key being
    the file name without '.txt' ('summary', 'functions', 'matrix.time',
    ...); files that are not there are not keys. Attributes: path; meta,
    the first header line's fields (version, command, ranks, start,
    clock, options); notes, the '# note:' lines; model, the fields of
    model.txt's '# model:' line (in the summary form, summary.txt's; {}
    without one); complete, whether summary.txt ends with '# complete'.
    In the summary form (summary true, the header's form=summary),
    summary.txt and functions.txt hold figures over the ranks (one row per
    figure or function, min/mean/max and the ranks of the extremes) and no
    file has a row per rank."""

    def __init__(self, path):
        super().__init__()
        self.path = path
        self.meta = {}
        self.notes = []
        self.model = {}
        self.complete = False

    @property
    def summary(self):
        """Whether the report has the summary form (MPIPROF_REPORT_FORM)."""
        return self.meta.get("form") == "summary"

    @property
    def ranks(self):
        """The number of ranks: the header's ranks=, else summary's rows."""
        if "ranks" in self.meta:
            return int(self.meta["ranks"])
        return len(self["summary"])

    def table(self, key):
        """The table, restricted to the whole run's rows (region 'whole')
        when it has a region column; None when the file is absent."""
        df = self.get(key)
        if df is not None and "region" in df.columns:
            df = df[df["region"] == "whole"]
        return df


_FIELD = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S*)')


def _header_fields(line):
    """{name: value} of a header line's name=value fields (quoted values unquoted)."""
    fields = {}
    for name, value in _FIELD.findall(line):
        if value.startswith('"'):
            value = re.sub(r"\\(.)", r"\1", value[1:-1])
        fields[name] = value
    return fields


def _typed(name, col):
    """A column of strings as integers, floats or strings: numeric when every
    value but '-' (not known) is a number; '-' becomes missing (NaN, or
    <NA> in an integer column). A column of '-' only stays text unless its
    name says seconds or percent."""
    missing = col == "-"
    if missing.all():
        return pd.to_numeric(col, errors="coerce") if name.endswith(("_s", "_pct")) else col
    known = col[~missing]
    for kind, with_missing in (("int64", "Int64"), ("float64", "float64")):
        try:
            num = known.astype(kind)
        except (ValueError, OverflowError):
            continue
        return num.reindex(col.index).astype(with_missing) if missing.any() else num
    return col


def read_table(path, typed=True):
    """One report file: (DataFrame with typed columns, its '#' lines before
    the rows). The columns are named by the last of those lines. Not TYPED:
    every column the text of the file."""
    comments, rows = [], []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("#"):
                if not rows:
                    comments.append(line.rstrip("\n"))
            elif line.strip():
                rows.append(line)
    columns = comments[-1][1:].split() if comments else []
    if not rows:
        return pd.DataFrame({name: pd.Series(dtype=str) for name in columns}), comments
    for row in rows:
        if len(row.split()) != len(columns):
            raise NotAReport("%s: a row has %d fields, the column line names %d: %s"
                             % (path, len(row.split()), len(columns), row.strip()))
    df = pd.read_csv(io.StringIO("".join(rows)), delim_whitespace=True, header=None, names=columns,
                     index_col=False, dtype=str, na_filter=False)
    for name in columns if typed else ():
        df[name] = _typed(name, df[name])
    return df, comments


def read_report(path):
    """Every table of the report directory PATH (a Report). Raises
    NotAReport when PATH is not a directory holding summary.txt."""
    if not os.path.isdir(path):
        raise NotAReport("'%s' is not a directory" % path)
    if not os.path.isfile(os.path.join(path, "summary.txt")):
        hint = " (a partial report: make its tables with mpiprof-merge)" \
            if os.path.isdir(os.path.join(path, "snapshots")) else ""
        raise NotAReport("'%s' is not an mpiprof report: no summary.txt%s" % (path, hint))
    rep = Report(path)
    for name in TABLES:
        file = os.path.join(path, name)
        if not os.path.isfile(file):
            continue
        df, comments = read_table(file)
        key = name[:-4] if name.endswith(".txt") else name
        rep[key] = df
        if name == "summary.txt":
            if not comments or not comments[0].startswith("# mpiprof "):
                raise NotAReport("'%s' is not an mpiprof report: summary.txt has no '# mpiprof' header" % path)
            rep.meta = _header_fields(comments[0])
            rep.meta["version"] = comments[0].split()[2]
            rep.notes = [c[len("# note: "):] for c in comments if c.startswith("# note: ")]
            with open(file, encoding="utf-8", errors="replace") as f:
                rep.complete = f.read().rstrip().endswith("# complete")
        if name == "model.txt" or (name == "summary.txt" and rep.summary):
            for c in comments:
                if c.startswith("# model: "):
                    rep.model = _header_fields(c)
                    rep.model["model"] = c.split()[2]
        df.attrs.update(rep.meta)
    if "functions" not in rep:
        raise NotAReport("'%s' is not a complete report: no functions.txt" % path)
    need = ((("summary", "figure"), ("summary", "total"), ("summary", "max"), ("functions", "function"),
             ("functions", "time_s"), ("functions", "max_rank")) if rep.summary else
            (("summary", "rank"), ("summary", "elapsed_s"), ("summary", "mpi_s"),
             ("functions", "rank"), ("functions", "function"), ("functions", "time_s")))
    for key, col in need:
        if col not in rep[key].columns:
            raise NotAReport("'%s' is not an mpiprof report: %s.txt has no %s column" % (path, key, col))
    return rep


# --- figures over ranks ------------------------------------------------------

def _bytes(df):
    return df["bytes_sent"] + df["bytes_recv"]


def site_label(function, site, ancestors):
    """A call site as one string: 'MPI_Recv main@mix.c:35', '< callers' after."""
    label = "%s %s" % (function, site)
    return label if ancestors in ("-", "") or pd.isna(ancestors) else label + " < " + ancestors


def _over_ranks(df, keys, nranks):
    """Per key of rows (rank, keys..., time_s, calls, bytes): totals over
    ranks, and the least, mean and most time of one rank over all NRANKS
    ranks (a rank without the key counts 0) with the lowest rank of the
    most (max_rank)."""
    per = df.groupby(keys + ["rank"], sort=False)[["time_s", "calls", "bytes"]].sum().reset_index()
    per = per.sort_values("rank", kind="stable")
    out = per.groupby(keys, sort=False).agg(time_s=("time_s", "sum"), calls=("calls", "sum"),
                                            bytes=("bytes", "sum"), ranks=("rank", "nunique"),
                                            min_s=("time_s", "min"), max_s=("time_s", "max"))
    out["max_rank"] = per.loc[per.groupby(keys, sort=False)["time_s"].idxmax()].set_index(keys)["rank"]
    out.loc[out["ranks"] < nranks, "min_s"] = 0.0
    out["mean_s"] = out["time_s"] / nranks
    return out.reset_index().sort_values("time_s", ascending=False, kind="stable")


class NoRanks(NotAReport):
    """A view per rank of a report in the summary form."""


def no_ranks(rep, what):
    """NoRanks: REP has the summary form, so WHAT cannot be had."""
    return NoRanks("'%s' has the summary form (figures over the ranks, no row per rank): %s; "
                   "MPIPROF_REPORT_FORM=ranks writes them" % (rep.path, what))


def functions_over_ranks(rep, rank=None):
    """Per MPI function: time_s, calls, bytes (sent + received), min_s,
    mean_s, max_s, max_rank over the ranks (whole run; one rank's with RANK).
    In the summary form, functions.txt itself, whose least and mean time
    are over the ranks that called the function."""
    if rep.summary:
        if rank is not None:
            raise no_ranks(rep, "no view of one rank")
        return rep["functions"].assign(bytes=_bytes(rep["functions"]))
    f = rep.table("functions")
    if rank is not None:
        f = f[f["rank"] == rank]
    return _over_ranks(f.assign(bytes=_bytes(f)), ["function"], 1 if rank is not None else rep.ranks)


def sites_over_ranks(rep, rank=None):
    """Per call site (function, site, ancestors): as functions_over_ranks,
    from branches.txt, else from sites.txt (whose least and mean time are
    over the ranks that called there); None without either."""
    b = rep.table("branches")
    if b is not None:
        if rank is not None:
            b = b[b["rank"] == rank]
        return _over_ranks(b.assign(bytes=_bytes(b)), ["function", "site", "ancestors"],
                           1 if rank is not None else rep.ranks)
    s = rep.get("sites")
    if s is None or rank is not None:
        return None
    return s.assign(bytes=_bytes(s))[["function", "site", "ancestors", "time_s", "calls", "bytes",
                                      "ranks", "min_s", "max_s", "max_rank", "mean_s"]]


def stack_depth(rep):
    """The run's call-stack depth: STACK_DEPTH of the header's options
    (MPIPROF_STACK_DEPTH, the launcher's --depth), else 1, the default."""
    m = re.search(r"(?:^|;)STACK_DEPTH=(\d+)(?:;|$)", rep.meta.get("options", "-"))
    return int(m.group(1)) if m else 1


def at_depth(branches, depth):
    """Rows of branches.txt with their call stacks cut to DEPTH frames (the
    site and DEPTH - 1 ancestors), as a run at that depth records them."""
    return branches.assign(ancestors=[";".join(a.split(";")[:depth - 1]) or "-" for a in branches["ancestors"]])


def depth_note(a, b):
    """The line saying that A and B were profiled at different call-stack
    depths, so that compare() matched their call sites by the innermost
    frames of the smaller depth; None at one depth, or when they have
    neither branches.txt nor sites.txt in common (no call sites compared)."""
    da, db = stack_depth(a), stack_depth(b)
    if da == db or not any(a.get(t) is not None and b.get(t) is not None for t in ("branches", "sites")):
        return None
    d = min(da, db)
    frames = "frame (the site alone)" if d == 1 else "%d frames (the site and %d caller%s)" % (
        d, d - 1, "s" if d > 2 else "")
    return ("note: A was profiled at --depth %d and B at --depth %d: call sites are matched by their innermost %s, "
            "%s's deeper callers summed; rerun both at one depth to compare whole call stacks"
            % (da, db, frames, "A" if da > db else "B"))


def regions_over_ranks(rep, rank=None):
    """Per MPI_Pcontrol region of regions.txt ('whole' the whole run), in
    the file's order: ranks (that opened it), entries, elapsed_s (time
    open), mpi_s and calls summed over the ranks (RANK's alone when given),
    mpi_pct (100 mpi_s / elapsed_s); None without regions.txt."""
    r = rep.get("regions")
    if r is None:
        return None
    if rank is not None:
        r = r[r["rank"] == rank]
    out = r.groupby("region", sort=False).agg(ranks=("rank", "nunique"), entries=("entries", "sum"),
                                              elapsed_s=("elapsed_s", "sum"), mpi_s=("mpi_s", "sum"),
                                              calls=("calls", "sum"))
    out["mpi_pct"] = (100 * out["mpi_s"] / out["elapsed_s"].where(out["elapsed_s"] > 0)).fillna(0)
    return out.reset_index()


def job_figures(rep):
    """The job's figures, name -> (value, calls or None): elapsed (the
    slowest rank), mpi and compute (summed over ranks), and each analysis
    total that the run has."""
    if rep.summary:
        s = rep["summary"].set_index("figure")
        out = {"elapsed": (s.at["elapsed_s", "max"], None),
               "mpi": (s.at["mpi_s", "total"], int(s.at["mpi_calls", "total"]) if "mpi_calls" in s.index else None)}
        if "compute_s" in s.index:
            out["compute"] = (s.at["compute_s", "total"], None)
        for col, name, how in FIGURES:
            if col in s.index:
                out[name.replace(" ", "_")] = (s.at[col, "max" if how == "max" else "total"], None)
        return out
    s = rep["summary"]
    out = {"elapsed": (s["elapsed_s"].max(), None),
           "mpi": (s["mpi_s"].sum(), s["mpi_calls"].sum() if "mpi_calls" in s.columns else None)}
    if "compute_s" in s.columns:
        out["compute"] = (s["compute_s"].sum(), None)
    for col, name, how in FIGURES:
        if col in s.columns:
            out[name.replace(" ", "_")] = (s[col].max() if how == "max" else s[col].sum(), None)
    return out


def job_per_rank(rep):
    """The job's figures per rank: DataFrame indexed by rank, one column per
    name of job_figures (elapsed, mpi, compute, analyses); NoRanks in the
    summary form."""
    if rep.summary:
        raise no_ranks(rep, "no figures per rank")
    s = rep["summary"].set_index("rank")
    cols = {"elapsed": "elapsed_s", "mpi": "mpi_s", "compute": "compute_s"}
    cols.update({name.replace(" ", "_"): col for col, name, _ in FIGURES})
    return pd.DataFrame({name: s[col] for name, col in cols.items() if col in s.columns})


# --- text output --------------------------------------------------------------

def _fmt(value, spec):
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return "-"
    if isinstance(value, float) and math.isinf(value):
        return "inf"
    return spec % value


def format_table(headers, rows, left=1, text_last=False):
    """Columns aligned: the first LEFT columns left-aligned, the rest right,
    but with TEXT_LAST the last column left-aligned and not padded."""
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
    lines = []
    for r in [headers] + rows:
        cells = [c.ljust(w) if i < left else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))]
        if text_last:
            cells[-1] = r[-1]
        lines.append("  ".join(cells).rstrip())
    return lines


def top_causes(rep, top=5, rank=None):
    """The code regions that made other ranks wait most (waits.txt), summed
    over the wait classes: DataFrame of caused_s, waits, ranks (the most
    ranks that waited in one class), classes ("class share%,..."), rank,
    from_site, to_site, most first; only the regions of RANK when given.
    None without waits.txt."""
    w = rep.get("waits")
    if w is None:
        return None
    if rank is not None:
        w = w[w["rank"] == rank]
    keys = ["rank", "from_site", "to_site"]
    rows = []
    for key, g in w.groupby(keys, sort=False):
        total = g["caused_s"].sum()
        by_class = g.groupby("class", sort=False)["caused_s"].sum().sort_values(ascending=False)
        classes = ",".join("%s %.0f%%" % (c, 100 * v / total if total else 0) for c, v in by_class.items())
        rows.append(dict(zip(keys, key), caused_s=total, waits=int(g["waits"].sum()), ranks=int(g["ranks"].max()),
                         classes=classes))
    df = pd.DataFrame(rows, columns=["caused_s", "waits", "ranks", "classes"] + keys)
    return df.sort_values(["caused_s", "rank"], ascending=[False, True], kind="stable").head(top)


def region_lines(rep, top=10, rank=None):
    """The regions section of show: the first TOP regions of
    regions_over_ranks, summed over the ranks (as the job's MPI line and
    the tables of show, so that the whole run's row is that line and a
    region's MPI time compares with the functions' times) or RANK's; []
    without regions.txt."""
    regions = regions_over_ranks(rep, rank)
    if regions is None:
        return []
    what = "rank %d" % rank if rank is not None else "summed over ranks"
    first = "the first %d of %d, " % (top, len(regions)) if len(regions) > top else ""
    lines = ["", "MPI_Pcontrol regions (regions.txt), %s, %sin the file's order; a region includes the ones nested in it"
             % (what, first)]
    headers = ["region"] + (["ranks"] if rank is None else []) + ["entries", "open[s]", "MPI[s]", "MPI[%]", "calls"]
    rows = [[r["region"]] + ([_fmt(r["ranks"], "%d")] if rank is None else []) +
            [_fmt(r["entries"], "%d"), _fmt(r["elapsed_s"], "%.6f"), _fmt(r["mpi_s"], "%.6f"),
             _fmt(r["mpi_pct"], "%.2f"), _fmt(r["calls"], "%d")] for _, r in regions.head(top).iterrows()]
    return lines + format_table(headers, rows)


def node_of(rep):
    """{rank: host} from nodes.txt's rank lists ("0-3,8", cut with ",..."),
    {} without the file."""
    nodes = rep.get("nodes")
    hosts = {}
    for _, row in (nodes.iterrows() if nodes is not None else ()):
        for part in str(row["rank_list"]).split(","):
            lo, _, hi = part.partition("-")
            if lo.isdigit():
                hosts.update((r, str(row["host"])) for r in range(int(lo), int(hi or lo) + 1))
    return hosts


def nodes_line(rep, most=4):
    """show's line of the nodes: how many, then each one's host and ranks
    (the first MOST); None without nodes.txt."""
    nodes = rep.get("nodes")
    if nodes is None or nodes.empty:
        return None
    each = ["%s (%s %s)" % (r["host"], "rank" if r["ranks"] == 1 else "ranks", r["rank_list"])
            for _, r in nodes.head(most).iterrows()]
    return "%d: %s%s" % (len(nodes), ", ".join(each), ", ..." if len(nodes) > most else "")


def node_waits_line(rep, most=4):
    """show's line of the waiting each node caused and suffered (nodes.txt's
    caused_s and waited_s, wait states), the nodes that caused most first
    (the first MOST); None without them."""
    nodes = rep.get("nodes")
    if nodes is None or nodes.empty or "caused_s" not in nodes.columns:
        return None
    rows = []
    for _, r in nodes.iterrows():
        try:
            rows.append((float(r["caused_s"]), float(r["waited_s"]), str(r["host"])))
        except (TypeError, ValueError):
            return None     # "-": no wait states
    rows.sort(key=lambda x: (-x[0], x[2]))
    each = ["%s caused %.6f s, waited %.6f s" % (h, c, w) for c, w, h in rows[:most]]
    return "%s%s" % ("; ".join(each), "; ..." if len(rows) > most else "")


def show(rep, top=10, rank=None, by="function", out=sys.stdout):
    """The one-screen summary of mpiprof-report show. Returns the list of
    things skipped for lack of a file."""
    skipped = []
    s = rep["summary"]
    m = rep.meta
    if rank is not None and rep.summary:
        raise no_ranks(rep, "no view of one rank")
    if rank is not None and not (s["rank"] == rank).any():
        raise NotAReport("rank %d is not in the report (ranks 0 to %d)" % (rank, rep.ranks - 1))
    p = lambda line="": print(line, file=out)
    p("report   %s%s" % (rep.path, "" if rep.complete else "  (not complete: no '# complete' line)"))
    p("command  %s" % m.get("command", "?"))
    p("ranks    %d   start %s   clock %s   mpiprof %s" % (rep.ranks, m.get("start", "?"), m.get("clock", "?"),
                                                        m.get("version", "?")))
    p("options  %s" % m.get("options", "-"))
    nodes = nodes_line(rep)
    if nodes:
        p("nodes    %s" % nodes)
    waits = node_waits_line(rep)
    if waits:
        p("waits    %s" % waits)
    if rep.summary:
        p("form     summary: figures over the ranks, no row per rank")
    for note in rep.notes:
        p("note     %s" % note)
    if rank is not None:
        row = s[s["rank"] == rank].iloc[0]
        host = node_of(rep).get(rank)
        p("rank %d%s   elapsed %.6f s   MPI %.6f s = %.2f %% of elapsed   compute %.6f s" % (
            rank, " on " + host if host else "", row["elapsed_s"], row["mpi_s"], 100 * row["mpi_s"] / row["elapsed_s"] if row["elapsed_s"] else 0,
            row["compute_s"] if "compute_s" in s.columns else row["elapsed_s"] - row["mpi_s"]))
        mpi_total = row["mpi_s"]
        extra = [(name, row[col], "") for col, name, _ in FIGURES if col in s.columns]
    else:
        job = job_figures(rep)
        mpi_total = job["mpi"][0]
        if rep.summary:
            f = s.set_index("figure")
            total = f.at["elapsed_s", "total"]
            share = [f.at["mpi_pct", k] for k in ("min", "mean", "max")]
        else:
            total = s["elapsed_s"].sum()
            pct = (100 * s["mpi_s"] / s["elapsed_s"].where(s["elapsed_s"] > 0)).fillna(0)
            share = [pct.min(), pct.mean(), pct.max()]
        p("elapsed  %.6f s (slowest rank)" % job["elapsed"][0])
        p("MPI      %.6f s of %.6f s summed over ranks = %.2f %%; per rank min %.2f %%, mean %.2f %%, max %.2f %%"
          % ((mpi_total, total, 100 * mpi_total / total if total else 0) + tuple(share)))
        extra = [(name, job[name.replace(" ", "_")][0], " (slowest rank)" if how == "max" else " (summed over ranks)")
                 for _, name, how in FIGURES if name.replace(" ", "_") in job]
    for name, value, how in extra:
        p("%-16s %.6f s%s" % (name, value, how))
    if rep.model:
        p("%-16s %s: predicted speed-up %s (slowest real / slowest modelled elapsed)"
          % ("model", rep.model.get("model"), rep.model.get("predicted_speedup", "?")))

    causes = top_causes(rep, min(top, 5), rank)
    if causes is not None:
        p()
        p("What made other ranks wait: the top %d code regions (waits.txt), %s" % (
            len(causes), "of rank %d" % rank if rank is not None else "over all classes"))
        rows = [[_fmt(r["caused_s"], "%.6f"), _fmt(r["waits"], "%d"), _fmt(r["ranks"], "%d"), _fmt(r["rank"], "%d"),
                 r["classes"], "%s .. %s" % (r["from_site"], r["to_site"])] for _, r in causes.iterrows()]
        for line in format_table(["caused[s]", "waits", "ranks", "rank", "classes", "region: from .. to"], rows,
                                 left=0, text_last=True):
            p(line)
        if causes.empty:
            p("(no waiting was measured)")

    for line in region_lines(rep, top, rank):
        p(line)

    funcs = functions_over_ranks(rep, rank).head(top)
    sites = sites_over_ranks(rep, rank)
    if sites is None:
        skipped.append("call sites (no branches.txt or sites.txt)")
    else:
        sites = sites.head(top)
    imbalance = ["min[s]", "mean[s]", "max[s]", "max@rank"]

    def pct(t):
        return _fmt(100 * t / mpi_total if mpi_total else 0.0, "%.2f")

    def volume(r):
        return [_fmt(r["calls"], "%d"), _fmt(r["bytes"], "%d"),
                _fmt(r["bytes"] / r["calls"] if r["calls"] else 0.0, "%.0f")]

    def imb(r):
        return [_fmt(r["min_s"], "%.6f"), _fmt(r["mean_s"], "%.6f"), _fmt(r["max_s"], "%.6f"),
                _fmt(r["max_rank"], "%d")]

    def function_table():
        what = "rank %d" % rank if rank is not None else "over all ranks"
        with_imb = by == "function" and rank is None
        p()
        p("Top %d MPI functions by time, %s (whole run)" % (len(funcs), what))
        headers = ["function", "time[s]", "MPI[%]", "calls", "bytes[B]", "avg[B/call]"]
        rows = [[r["function"], _fmt(r["time_s"], "%.6f"), pct(r["time_s"])] + volume(r) +
                (imb(r) if with_imb else []) for _, r in funcs.iterrows()]
        for line in format_table(headers + (imbalance if with_imb else []), rows):
            p(line)
        if with_imb and rep.summary:
            p("(min and mean over the ranks that called each function: the summary form)")

    def site_table():
        if sites is None:
            return
        what = "rank %d" % rank if rank is not None else "over all ranks"
        with_imb = by == "branch" and rank is None
        p()
        p("Top %d call sites by time, %s" % (len(sites), what))
        headers = ["time[s]", "MPI[%]", "calls", "bytes[B]", "avg[B/call]"] + (imbalance if with_imb else [])
        rows = [[_fmt(r["time_s"], "%.6f"), pct(r["time_s"])] + volume(r) + (imb(r) if with_imb else []) +
                [site_label(r["function"], r["site"], r["ancestors"])] for _, r in sites.iterrows()]
        for line in format_table(headers + ["function site < callers"], rows, left=0, text_last=True):
            p(line)
        if by == "branch" and rank is None and rep.get("branches") is None:
            p("(min and mean over the ranks that called there: from sites.txt, without branches.txt)")

    if by == "branch":
        site_table()
        function_table()
    else:
        function_table()
        site_table()
    return skipped


def compare(a, b, per_rank=True):
    """Report B against report A: a DataFrame, one row per job figure, MPI
    function and call site (matched by function, site and ancestors, never
    by branch id; the stacks cut to the smaller depth of the two, see
    at_depth and depth_note), with time_a_s, time_b_s, diff_s (B - A),
    ratio (B / A; 1 when both are 0), calls_a, calls_b, and with PER_RANK
    the rank whose time changed most (max_rank) and that change
    (max_rank_diff_s); in says 'both', 'A' or 'B' (the row is in one report
    only). Sorted by kind (job, function, site), then by absolute
    difference, largest first. PER_RANK needs both reports in the per-rank
    form (NoRanks otherwise); the call sites come from branches.txt when
    both have it, else from sites.txt."""
    parts = []

    def one(kind, ta, tb, ca, cb, pa, pb):
        # Times and calls by key in A and B (missing: not in that report),
        # and times by key and rank (pa, pb) for the per-rank columns.
        df = pd.DataFrame({"time_a_s": ta, "time_b_s": tb, "calls_a": ca, "calls_b": cb})
        df["in"] = "both"
        df.loc[df["time_a_s"].isna(), "in"] = "B"
        df.loc[df["time_b_s"].isna(), "in"] = "A"
        df["diff_s"] = df["time_b_s"].fillna(0) - df["time_a_s"].fillna(0)
        both = df["in"] == "both"
        df["ratio"] = float("nan")
        df.loc[both, "ratio"] = [1.0 if x == y else (y / x if x else math.inf)
                                 for x, y in zip(df.loc[both, "time_a_s"], df.loc[both, "time_b_s"])]
        if per_rank and pa is not None and pb is not None:
            d = pb.sub(pa, fill_value=0)
            if not d.empty:
                pick = d.abs().groupby(level=list(range(d.index.nlevels - 1)), sort=False).idxmax()
                df["max_rank"] = pd.Series({k: v[-1] for k, v in pick.items()}, dtype="Int64")
                df["max_rank_diff_s"] = pd.Series({k: d[v] for k, v in pick.items()})
        df = df.reset_index()
        df.insert(0, "kind", kind)
        for col in ("function", "site", "ancestors"):
            if col not in df.columns:
                df[col] = "-"
        parts.append(df.reindex(df["diff_s"].abs().sort_values(ascending=False, kind="stable").index))

    ja, jb = job_figures(a), job_figures(b)
    ra, rb = (job_per_rank(a), job_per_rank(b)) if per_rank else (pd.DataFrame(), pd.DataFrame())
    names = list(ja) + [n for n in jb if n not in ja]
    one("job",
        pd.Series({n: ja[n][0] for n in names if n in ja}, index=names, dtype=float).rename_axis("function"),
        pd.Series({n: jb[n][0] for n in names if n in jb}, index=names, dtype=float).rename_axis("function"),
        pd.Series({n: ja[n][1] for n in names if n in ja}, index=names, dtype="Int64").rename_axis("function"),
        pd.Series({n: jb[n][1] for n in names if n in jb}, index=names, dtype="Int64").rename_axis("function"),
        ra.stack().swaplevel().rename_axis(["function", "rank"]),
        rb.stack().swaplevel().rename_axis(["function", "rank"]))

    def grouped(df, keys):
        per = df.groupby(keys + ["rank"], sort=False)["time_s"].sum() if per_rank and "rank" in df else None
        tot = df.groupby(keys, sort=False)[["time_s", "calls"]].sum()
        return tot["time_s"], tot["calls"], per

    ta, ca, pa = grouped(a.table("functions"), ["function"])
    tb, cb, pb = grouped(b.table("functions"), ["function"])
    idx = ta.index.union(tb.index, sort=False)
    one("function", ta.reindex(idx), tb.reindex(idx), ca.reindex(idx).astype("Int64"),
        cb.reindex(idx).astype("Int64"), pa, pb)

    skipped = []
    table = "branches" if a.get("branches") is not None and b.get("branches") is not None else "sites"
    if a.get(table) is not None and b.get(table) is not None:
        keys = ["function", "site", "ancestors"]
        depth = min(stack_depth(a), stack_depth(b))
        ta, ca, pa = grouped(at_depth(a.table(table), depth), keys)
        tb, cb, pb = grouped(at_depth(b.table(table), depth), keys)
        idx = ta.index.union(tb.index, sort=False)
        one("site", ta.reindex(idx), tb.reindex(idx), ca.reindex(idx).astype("Int64"),
            cb.reindex(idx).astype("Int64"), pa, pb)
    else:
        skipped.append("call sites (no branches.txt or sites.txt in %s)" %
                       " and ".join(r.path for r in (a, b) if r.get(table) is None))
    cols = ["kind", "function", "site", "ancestors", "time_a_s", "time_b_s", "diff_s", "ratio",
            "calls_a", "calls_b"] + (["max_rank", "max_rank_diff_s"] if per_rank else []) + ["in"]
    out = pd.concat(parts, ignore_index=True)
    for col in cols:
        if col not in out.columns:
            out[col] = pd.NA
    return out[cols], skipped


COMPARE_TITLES = {"job": "Job (elapsed and modelled elapsed: slowest rank; the rest summed over ranks)",
                  "function": "MPI functions, summed over ranks, by |B-A|",
                  "site": "Call sites (function site < callers), summed over ranks, by |B-A|"}


def compare_headers(per_rank):
    """The headings of compare_cells."""
    return ["A[s]", "B[s]", "B-A[s]", "B/A", "calls(A)", "calls(B)"] + (["rank(max)", "its B-A[s]"] if per_rank else [])


def compare_cells(r, per_rank, digits=6):
    """The figures of one record R of compare() as text, times with DIGITS
    decimals: A, B, B-A, B/A, the calls, and with PER_RANK the rank that
    changed most and its change."""
    t, d = "%%.%df" % digits, "%%+.%df" % digits
    cells = [_fmt(r["time_a_s"], t), _fmt(r["time_b_s"], t), _fmt(r["diff_s"], d),
             _fmt(r["ratio"], "%.3f"), _fmt(r["calls_a"], "%d"), _fmt(r["calls_b"], "%d")]
    if per_rank:
        cells += [_fmt(r["max_rank"], "%d"), _fmt(r["max_rank_diff_s"], d)]
    return cells


def compare_only(r):
    """'  (only in A)' or B for a record of compare() in one report only, else ''."""
    return "" if r["in"] == "both" else "  (only in %s)" % r["in"]


def compare_text(df, a, b, per_rank, out=sys.stdout):
    """compare()'s rows as aligned text, one section per kind; the call
    sites' after depth_note's line when A and B differ in depth."""
    p = lambda line="": print(line, file=out)
    note = depth_note(a, b)
    p("A  %s  (%s, %d ranks)" % (a.path, a.meta.get("command", "?"), a.ranks))
    p("B  %s  (%s, %d ranks)" % (b.path, b.meta.get("command", "?"), b.ranks))
    for kind in ("job", "function", "site"):
        rows = df[df["kind"] == kind]
        if rows.empty:
            continue
        p()
        if kind == "site" and note:
            p(note)
        p(COMPARE_TITLES[kind])
        headers = compare_headers(per_rank) + ["function" if kind == "function" else "name" if kind == "job" else "site"]
        lines = []
        for _, r in rows.iterrows():
            name = site_label(r["function"], r["site"], r["ancestors"]) if kind == "site" else r["function"]
            lines.append(compare_cells(r, per_rank) + [name + compare_only(r)])
        for line in format_table(headers, lines, left=0, text_last=True):
            p(line)


def compare_tsv(df, out=sys.stdout):
    """compare()'s rows as tab-separated values: a header line naming the
    columns, then one record a line; '-' for what is not known."""
    print("\t".join(df.columns), file=out)
    specs = {"time_a_s": "%.9f", "time_b_s": "%.9f", "diff_s": "%.9f", "ratio": "%.6f",
             "max_rank_diff_s": "%.9f", "calls_a": "%d", "calls_b": "%d", "max_rank": "%d"}
    for row in df.itertuples(index=False):
        print("\t".join(_fmt(v, specs[c]) if c in specs else str(v) for c, v in zip(df.columns, row)), file=out)


# --- plots --------------------------------------------------------------------

_WIDTH_IN = 11.0   # figure width, inches; SVG draws 72 units an inch


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "mpiprof", "font.size": 9})
    import matplotlib.pyplot as plt
    return plt


def _figure(plt, height=4.8):
    fig = plt.figure(figsize=(_WIDTH_IN, height), dpi=72)
    ax = fig.add_axes([0.07, 0.12, 0.70, 0.76])
    return fig, ax


def _bars_fit(ax, n):
    """Whether N bars side by side are each at least a pixel wide."""
    return n <= ax.get_window_extent().width


def _save(fig, path, plt):
    fig.savefig(path, format="svg", metadata={"Date": None})
    plt.close(fig)


def _title(rep, what):
    return "%s — %s, %d ranks" % (what, os.path.basename(rep.meta.get("command", "?").split(" ")[0]), rep.ranks)


def _per_rank_stack(ax, ranks, series, labels, colors):
    """Stacked bars per rank (gid bar-r<rank>-<k>), or stacked areas (gid
    area-<k>) when a bar would be narrower than a pixel; returns the words
    for the title."""
    if _bars_fit(ax, len(ranks)):
        bottom = [0.0] * len(ranks)
        for k, (values, label, color) in enumerate(zip(series, labels, colors)):
            bars = ax.bar(ranks, values, bottom=bottom, width=0.8, label=label, color=color, linewidth=0)
            for r, bar in zip(ranks, bars):
                bar.set_gid("bar-r%d-%d" % (r, k))
            bottom = [x + y for x, y in zip(bottom, values)]
        return ""
    polys = ax.stackplot(ranks, *series, labels=labels, colors=colors, linewidth=0)
    for k, poly in enumerate(polys):
        poly.set_gid("area-%d" % k)
    return "\n(stacked areas: one bar per rank would be narrower than a pixel)"


def _rank_axis(ax, ranks):
    ax.set_xlabel("rank")
    ax.set_xlim(min(ranks) - 0.6, max(ranks) + 0.6)
    if len(ranks) <= 32:
        ax.set_xticks(ranks)


def plot_ranks(rep, path, plt, nfunc=8):
    """ranks.svg: per rank, compute time and the time of the NFUNC MPI
    functions with the most time over all ranks, the rest as 'other MPI'."""
    f = rep.table("functions")
    per = f.pivot_table(index="rank", columns="function", values="time_s", aggfunc="sum", fill_value=0.0)
    s = rep["summary"].set_index("rank").sort_index()
    per = per.reindex(s.index, fill_value=0.0)
    order = per.sum().sort_values(ascending=False, kind="stable").index
    top, rest = list(order[:nfunc]), list(order[nfunc:])
    ranks = list(s.index)
    compute = s["compute_s"] if "compute_s" in s.columns else s["elapsed_s"] - s["mpi_s"]
    series = [list(compute)] + [list(per[fn]) for fn in top]
    labels = ["compute"] + top
    cmap = plt.get_cmap("tab10")
    colors = ["#d9d9d9"] + [cmap(i) for i in (0, 1, 2, 3, 4, 5, 6, 8, 9)[:len(top)]]   # 7: grey, for "other"
    if rest:
        series.append(list(per[rest].sum(axis=1)))
        labels.append("other MPI (%d functions)" % len(rest))
        colors.append("#7f7f7f")
    if "profiler_s" in s.columns and s["profiler_s"].sum() > 0:
        series.append(list(s["profiler_s"]))
        labels.append("profiler")
        colors.append("#000000")
    fig, ax = _figure(plt)
    how = _per_rank_stack(ax, ranks, series, labels, colors)
    _rank_axis(ax, ranks)
    ax.set_ylabel("time (s)")
    ax.set_title(_title(rep, "Time per rank: compute and MPI functions") + how)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    _save(fig, path, plt)
    return True


def plot_sites(rep, path, plt, top=15):
    """sites.svg: the TOP call sites by time over all ranks, horizontal bars
    (gid site-<k>); False without branches.txt or sites.txt."""
    sites = sites_over_ranks(rep)
    if sites is None:
        return False
    sites = sites.head(top).iloc[::-1]
    labels = [site_label(r["function"], r["site"], r["ancestors"]) for _, r in sites.iterrows()]
    labels = [x if len(x) <= 60 else x[:57] + "..." for x in labels]
    fig = plt.figure(figsize=(_WIDTH_IN, 1.2 + 0.3 * max(len(labels), 3)), dpi=72)
    ax = fig.add_axes([0.42, 0.8 / fig.get_figheight(), 0.53, 1 - 1.3 / fig.get_figheight()])
    bars = ax.barh(range(len(labels)), list(sites["time_s"]), color="#1f77b4", label="time summed over ranks")
    for k, bar in enumerate(bars):
        bar.set_gid("site-%d" % (len(labels) - 1 - k))
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_xlabel("time summed over ranks (s)")
    ax.set_ylabel("call site (function site < callers)")
    ax.set_title(_title(rep, "Top %d call sites by time" % len(labels)))
    ax.legend(loc="lower right", fontsize=8)
    _save(fig, path, plt)
    return True


def comm_matrix(rep):
    """The ranks x ranks matrix of point-to-point bytes: row i, column j =
    the bytes rank i's call sites exchanged with partner j (partners.txt;
    the Wait and Test rows are left out, since their requests' bytes are on
    the posting call sites); None without partner rows."""
    p = rep.get("partners")
    if p is None or p.empty:
        return None
    p = p[(p["partner"].astype(str) != "others") & ~p["function"].str.match(r"MPI_(Wait|Test)")]
    n = rep.ranks
    m = pd.DataFrame(0.0, index=range(n), columns=range(n))
    if not p.empty:
        sums = p.assign(partner=p["partner"].astype(int)).groupby(["rank", "partner"])["bytes"].sum()
        for (i, j), v in sums.items():
            m.iat[i, j] = v
    return m


def plot_matrix(rep, path, plt):
    """comm-matrix.svg: the heat map of comm_matrix() with its colour scale;
    one rectangle per cell (gid cell-<i>-<j>) up to 64 ranks, an image
    beyond. False without partner rows."""
    from matplotlib import colors as mcolors
    m = comm_matrix(rep)
    if m is None:
        return False
    n = len(m)
    values = m.values
    positive = values[values > 0]
    vmax = positive.max() if positive.size else 1.0
    vmin = positive.min() if positive.size else 1.0
    norm = mcolors.LogNorm(vmin, vmax) if vmax / vmin > 100 else mcolors.Normalize(0, vmax)
    cmap = plt.get_cmap("viridis").copy()
    cmap.set_bad("#f2f2f2")
    fig = plt.figure(figsize=(8.5, 7.2), dpi=72)
    ax = fig.add_axes([0.10, 0.09, 0.70, 0.80])
    how = ""
    if n <= 64:
        from matplotlib.patches import Rectangle
        for i in range(n):
            for j in range(n):
                v = values[i, j]
                cell = Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor=cmap(norm(v)) if v > 0 else "#f2f2f2",
                                 edgecolor="white", linewidth=0.5)
                cell.set_gid("cell-%d-%d" % (i, j))
                ax.add_patch(cell)
                if n <= 12:
                    ax.text(j, i, "%.3g" % v, ha="center", va="center", fontsize=8,
                            color="white" if v > 0 and norm(v) < 0.6 else "black")
        ax.set_xlim(-0.5, n - 0.5)
        ax.set_ylim(n - 0.5, -0.5)
        if n <= 32:
            ax.set_xticks(range(n))
            ax.set_yticks(range(n))
    else:
        k = math.ceil(n / 256)
        nb = math.ceil(n / k)
        padded = np.zeros((nb * k, nb * k))
        padded[:n, :n] = values
        binned = padded.reshape(nb, k, nb, k).sum(axis=(1, 3))
        masked = np.where(binned > 0, binned, np.nan)
        if k > 1:
            positive = masked[masked > 0]
            norm = mcolors.LogNorm(positive.min(), positive.max()) if positive.max() / positive.min() > 100 \
                else mcolors.Normalize(0, positive.max())
        ax.imshow(masked, cmap=cmap, norm=norm, interpolation="nearest", aspect="auto",
                  extent=(-0.5, nb * k - 0.5, nb * k - 0.5, -0.5))
        how = "\n(%d x %d cells drawn as an image%s)" % (n, n, ", ranks binned by %d, bytes summed" % k if k > 1 else "")
    sm = plt.cm.ScalarMappable(norm=norm, cmap=cmap)
    bar = fig.colorbar(sm, cax=fig.add_axes([0.84, 0.09, 0.03, 0.80]))
    bar.set_label("bytes (sent + received by the row's rank)")
    ax.set_xlabel("partner rank")
    ax.set_ylabel("rank")
    ax.set_title(_title(rep, "Point-to-point bytes by rank and partner") + how)
    from matplotlib.patches import Patch
    ax.legend(handles=[Patch(facecolor="#f2f2f2", edgecolor="#999999", label="no traffic")],
              loc="upper left", bbox_to_anchor=(0.0, -0.06), fontsize=8, frameon=False)
    _save(fig, path, plt)
    return True


def plot_waits(rep, path, plt):
    """waits.svg: per rank, late-sender wait and collective wait (stacked);
    False when neither analysis ran."""
    s = rep["summary"].sort_values("rank")
    cols = [(c, n) for c, n, _ in ANALYSES[:2] if c in s.columns]
    if not cols:
        return False
    fig, ax = _figure(plt)
    how = _per_rank_stack(ax, list(s["rank"]), [list(s[c]) for c, _ in cols],
                          ["%s (%s)" % (n, c) for c, n in cols], ["#d62728", "#9467bd"][:len(cols)])
    _rank_axis(ax, list(s["rank"]))
    ax.set_ylabel("wait (s)")
    ax.set_title(_title(rep, "Waiting per rank: late senders and collectives") + how)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    _save(fig, path, plt)
    return True


def plot_model(rep, path, plt):
    """model.svg: per rank, real and modelled elapsed time, side by side
    (gid bar-r<rank>-real, bar-r<rank>-model), lines when a bar would be
    narrower than a pixel; False without a model."""
    s = rep["summary"].sort_values("rank")
    if "model_elapsed_s" not in s.columns:
        return False
    ranks = list(s["rank"])
    fig, ax = _figure(plt)
    name = rep.model.get("model", "model")
    if _bars_fit(ax, 2 * len(ranks)):
        for shift, col, label, color, tag in ((-0.2, "elapsed_s", "real elapsed", "#1f77b4", "real"),
                                              (0.2, "model_elapsed_s", "modelled elapsed (%s)" % name,
                                               "#ff7f0e", "model")):
            bars = ax.bar([r + shift for r in ranks], list(s[col]), width=0.4, label=label, color=color)
            for r, bar in zip(ranks, bars):
                bar.set_gid("bar-r%d-%s" % (r, tag))
        how = ""
    else:
        ax.plot(ranks, list(s["elapsed_s"]), label="real elapsed", color="#1f77b4", gid="line-real")
        ax.plot(ranks, list(s["model_elapsed_s"]), label="modelled elapsed (%s)" % name, color="#ff7f0e",
                gid="line-model")
        how = "\n(lines: one bar per rank would be narrower than a pixel)"
    _rank_axis(ax, ranks)
    ax.set_ylabel("elapsed (s)")
    speedup = rep.model.get("predicted_speedup")
    ax.set_title(_title(rep, "Real and modelled elapsed per rank" +
                        (", predicted speed-up %s" % speedup if speedup else "")) + how)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    _save(fig, path, plt)
    return True


def _existing(path):
    """PATH, or the nearest directory above it that exists."""
    while not os.path.lexists(path):
        path = os.path.dirname(path.rstrip("/")) or "."
    return path


def _unwritable(outdir):
    """Why OUTDIR cannot take the plots, or None: it exists and is not a
    directory (never overwritten), or the nearest path above it that
    exists is not a directory, or gives no permission to write there."""
    if os.path.lexists(outdir) and not os.path.isdir(outdir):
        return "it exists and is not a directory (-o names the directory for the SVG files)"
    return dir_problem(_existing(outdir))


def dir_problem(base):
    """Why no file can be made in the directory BASE, or None."""
    if not os.path.lexists(base):
        return "'%s' does not exist" % base
    if not os.path.isdir(base):
        return "'%s' is not a directory" % base
    if not os.access(base, os.W_OK | os.X_OK):
        return "no permission to write in '%s'" % base
    return None


def plot(rep, outdir):
    """Every plot that the report has the data for, as SVG files in OUTDIR:
    (list of files written, list of those skipped with why). Raises
    CannotWrite, before writing anything, when OUTDIR cannot take them
    (_unwritable), and when making it or writing a file fails."""
    problem = _unwritable(outdir)
    if problem:
        raise CannotWrite("cannot write the plots in '%s': %s" % (outdir, problem))
    plt = _pyplot()
    written, skipped = [], []
    try:
        os.makedirs(outdir, exist_ok=True)
        # name, its plot, why it may be skipped, whether it is drawn per rank
        for name, fn, why, per_rank in (("ranks.svg", plot_ranks, "", True),
                                        ("sites.svg", plot_sites, "no branches.txt or sites.txt", False),
                                        ("comm-matrix.svg", plot_matrix, "no partner rows in partners.txt", True),
                                        ("waits.svg", plot_waits, "no late-sender or collective-wait run", True),
                                        ("model.svg", plot_model, "no model run", True)):
            if per_rank and rep.summary:
                skipped.append("%s (the summary form: no figures per rank)" % name)
            elif fn(rep, os.path.join(outdir, name), plt):
                written.append(name)
            else:
                skipped.append("%s (%s)" % (name, why))
    except OSError as e:
        raise CannotWrite("cannot write the plots in '%s': %s%s" % (
            outdir, e.strerror or e, " ('%s')" % e.filename if e.filename not in (None, outdir) else ""))
    return written, skipped
