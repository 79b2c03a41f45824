"""mpiprof_check: the invariants a report's figures keep (mpiprof-report
check, mpiprof-report(1)): what one file says of a rank never exceeds
what holds it, and the files that count the same thing agree. Each
broken invariant is one line naming the file, the rank (or node, call
site) and the figures. Reads a Report (mpiprof.read_report)."""

# Figures are printed with 6 to 9 decimals: a comparison allows the
# rounding of the figures it adds up (EPS each).
EPS = 1.5e-6


def _fmt(x):
    return "%.6f" % x


def _rows(rep, key):
    return rep[key] if key in rep and len(rep[key]) else None


def _at_most(out, file, who, small, big, sa, sb, n=1):
    """small <= big within the rounding of n figures, else a line in out."""
    if small > big + EPS * n:
        out.append("%s: %s: %s %s > %s %s" % (file, who, sa, _fmt(small), sb, _fmt(big)))


def _sums(rep, key, column):
    """{rank: (sum of column, rows)} of the report's file key."""
    t = _rows(rep, key)
    if t is None or column not in t.columns:
        return {}
    g = t.groupby("rank")[column].agg(["sum", "count"])
    return {r: (g.loc[r, "sum"], g.loc[r, "count"]) for r in g.index}


def _per_rank(rep, out):
    """summary.txt: send_late_s <= the receive wait late sender evaluated
    (slt.txt's recv_wait_s, receives and probes) <= mpi_s <= elapsed_s (of
    a rank whose threads called MPI, times their number: threads.txt),
    send_late_s slt.txt's sum; branches.txt's recv_wait_s (the receives'
    waits) <= mpi_s; mpi_s the sum of the rank's functions' time."""
    s = _rows(rep, "summary")
    if s is None:
        return
    wait, late = _sums(rep, "slt", "recv_wait_s"), _sums(rep, "slt", "send_late_s")
    bwait, ftime = _sums(rep, "branches", "recv_wait_s"), _sums(rep, "functions", "time_s")
    t = _rows(rep, "threads")
    threads = t.groupby("rank")["thread"].nunique().to_dict() if t is not None and "thread" in t.columns else {}
    for _, r in s.iterrows():
        rank, who = r["rank"], "rank %d" % r["rank"]
        if "send_late_s" in s.columns and rank in wait:
            w, n = wait[rank]
            _at_most(out, "summary.txt", who, r["send_late_s"], w, "send_late_s", "receive wait (slt.txt recv_wait_s)",
                     n + 1)
            _at_most(out, "slt.txt", who, w, r["mpi_s"], "recv_wait_s (sum)", "summary.txt mpi_s", n + 1)
            got, n = late[rank]
            if abs(got - r["send_late_s"]) > EPS * (n + 1):
                out.append("slt.txt: %s: send_late_s (sum) %s != summary.txt send_late_s %s"
                           % (who, _fmt(got), _fmt(r["send_late_s"])))
        if rank in bwait:
            w, n = bwait[rank]
            _at_most(out, "branches.txt", who, w, r["mpi_s"], "recv_wait_s (sum)", "summary.txt mpi_s", n + 1)
        k = threads.get(rank, 1)     # threads in MPI at once: their MPI times add up
        _at_most(out, "summary.txt", who, r["mpi_s"], k * r["elapsed_s"],
                 "mpi_s", "elapsed_s" if k == 1 else "elapsed_s x %d threads (threads.txt)" % k, 2)
        if rank in ftime:
            got, n = ftime[rank]
            if abs(got - r["mpi_s"]) > EPS * (n + 1):
                out.append("functions.txt: %s: time_s (sum) %s != summary.txt mpi_s %s" % (who, _fmt(got), _fmt(r["mpi_s"])))


def _functions_branches(rep, out):
    """functions.txt's time per rank and function = its branches' sum."""
    f, b = _rows(rep, "functions"), _rows(rep, "branches")
    if f is None or b is None:
        return
    g = b.groupby(["rank", "function"])["time_s"].agg(["sum", "count"])
    for _, r in f.iterrows():
        key = (r["rank"], r["function"])
        got, n = (g.loc[key, "sum"], g.loc[key, "count"]) if key in g.index else (0.0, 0)
        if abs(got - r["time_s"]) > EPS * (n + 1):
            out.append("functions.txt: rank %d: %s time_s %s != branches.txt's %s (%d branches)"
                       % (r["rank"], r["function"], _fmt(r["time_s"]), _fmt(got), n))


def _late_within_wait(rep, out):
    """slt.txt and partners.txt: per row, send_late_s <= recv_wait_s."""
    for key in ("slt", "partners"):
        t = _rows(rep, key)
        if t is None or "send_late_s" not in t.columns:
            continue
        for _, r in t.iterrows():
            who = "rank %d branch %s %s" % (r["rank"], r["brid"], r["function"])
            if key == "partners":
                who += " partner %s" % r["partner"]
            _at_most(out, key + ".txt", who, r["send_late_s"], r["recv_wait_s"], "send_late_s", "recv_wait_s", 2)


# Calls whose wait branches.txt does not hold as a receive wait (a probe's
# is in slt.txt only).
_NOT_RECEIVES = ("MPI_Probe", "MPI_Iprobe", "MPI_Mprobe", "MPI_Improbe")


def _partners_sites(rep, out):
    """partners.txt with late sender: per branch, its partners' send_late_s
    add up to its slt.txt send_late_s; their recv_wait_s to its slt.txt
    recv_wait_s (to at least that where some receives were not evaluated:
    the partners hold their wait too) and, for a receive, to at most its
    branches.txt recv_wait_s."""
    p, sl = _rows(rep, "partners"), _rows(rep, "slt")
    if p is None or sl is None or "send_late_s" not in p.columns:
        return
    key = ["rank", "brid"]
    m = p.groupby(key).agg(plate=("send_late_s", "sum"), pwait=("recv_wait_s", "sum"), n=("send_late_s", "count"),
                           fn=("function", "first"))
    s = sl.groupby(key).agg(late=("send_late_s", "sum"), wait=("recv_wait_s", "sum"),
                            skipped=("not_evaluated", "sum"), sfn=("function", "first"))
    m = m.join(s, how="outer")
    b = _rows(rep, "branches")
    if b is not None:
        m = m.join(b.groupby(key).agg(bwait=("recv_wait_s", "sum")), how="left")
    else:
        m["bwait"] = float("nan")
    m["fn"] = m["fn"].fillna(m["sfn"])
    m[["plate", "pwait", "n", "late", "wait", "skipped"]] = m[["plate", "pwait", "n", "late", "wait",
                                                               "skipped"]].fillna(0)
    tol = EPS * (m["n"] + 1)
    off_late = (m["plate"] - m["late"]).abs() > tol
    off_wait = ((m["skipped"] > 0) & (m["wait"] > m["pwait"] + tol)) | \
               ((m["skipped"] == 0) & ((m["pwait"] - m["wait"]).abs() > tol))
    off_branch = m["bwait"].notna() & ~m["fn"].isin(_NOT_RECEIVES) & (m["pwait"] > m["bwait"] + tol)
    for (rank, brid), r in m[off_late | off_wait | off_branch].iterrows():
        who = "rank %d branch %s %s" % (rank, brid, r["fn"])
        if off_late[(rank, brid)]:
            out.append("partners.txt: %s: send_late_s (sum) %s != slt.txt send_late_s %s"
                       % (who, _fmt(r["plate"]), _fmt(r["late"])))
        if off_wait[(rank, brid)]:
            out.append("partners.txt: %s: recv_wait_s (sum) %s %s slt.txt recv_wait_s %s"
                       % (who, _fmt(r["pwait"]), "<" if r["skipped"] else "!=", _fmt(r["wait"])))
        if off_branch[(rank, brid)]:
            out.append("partners.txt: %s: recv_wait_s (sum) %s > branches.txt recv_wait_s %s"
                       % (who, _fmt(r["pwait"]), _fmt(r["bwait"])))


def _waits_within_mpi(rep, out):
    """nodes.txt: the waiting a node's ranks suffered (waited_s) <= their
    MPI time; waits.txt: all the waiting caused <= all the MPI time."""
    n = _rows(rep, "nodes")
    if n is not None and "waited_s" in n.columns:
        for _, r in n.iterrows():
            _at_most(out, "nodes.txt", "node %s" % r["node"], r["waited_s"], r["mpi_s"], "waited_s", "mpi_s", 2)
    w, s = _rows(rep, "waits"), _rows(rep, "summary")
    if w is not None and s is not None and "mpi_s" in s.columns:
        _at_most(out, "waits.txt", "all ranks", w["caused_s"].sum(), s["mpi_s"].sum(), "caused_s (sum)",
                 "summary.txt mpi_s (sum)", len(w) + len(s))


def check(rep):
    """The broken invariants of report rep, one line each (none: it holds).
    A report of the summary form has no per-rank rows: only what its
    files tell is checked."""
    out = []
    if rep.summary:
        return out
    _per_rank(rep, out)
    _functions_branches(rep, out)
    _late_within_wait(rep, out)
    _partners_sites(rep, out)
    _waits_within_mpi(rep, out)
    return out
