#!/bin/sh
# t_fortran.sh: Fortran programs under the profiler on 2 ranks: fmix90.f90
# (use mpi), fmix77.f (include 'mpif.h') and fmix08.f90 (use mpi_f08).
# Their output is the same with
# and without the profiler (MPI_IN_PLACE, MPI_BOTTOM, handles, statuses and
# indices converted right); every count and byte total in functions.txt is
# the one the program implies, so no call is counted twice through the MPI
# library's Fortran layer; the marked call sites are the Fortran caller's
# procedure and line, and at depth 2 the caller's caller. MPI_Get_processor_name
# (nofortran) shows what mpiprof(1) says: not counted with Open MPI, counted
# inside libmpichfort with MPICH. Skipped without an MPI Fortran compiler.
. "$top_srcdir/tests/integration/lib.sh"

np=2
bin="$top_builddir/tests/integration"
src="$top_srcdir/tests/integration"
for p in fmix90 fmix77; do
    [ -x "$bin/$p" ] || { echo "SKIP: $bin/$p not built (no MPI Fortran compiler; configure --with-mpifort)"; exit 77; }
done

# The entry points: every mangling, and use mpi_f08's: mpi_send_f08_ with
# Open MPI; with MPICH mpi_send_f08ts_ (a choice buffer) and
# mpi_waitall_f08_ (none).
if command -v nm > /dev/null 2>&1; then
    nm -D --defined-only "$MPIPROF_PRELOAD" | awk '{ print $3 }' > "$work/symbols"
    for s in mpi_send_ mpi_send__ mpi_send MPI_SEND mpi_waitall_ MPI_WAITALL mpi_init_ mpi_finalize__ MPI_INIT_THREAD; do
        check "$s exported" grep -qx "$s" "$work/symbols"
    done
    check "mpi_waitall_f08_ exported" grep -qx mpi_waitall_f08_ "$work/symbols"
    if [ "$MPI_FLAVOR" = openmpi ]; then
        check "mpi_send_f08_ exported (Open MPI)" grep -qx mpi_send_f08_ "$work/symbols"
    else
        check "mpi_send_f08ts_ and no mpi_send_f08_ ($MPI_FLAVOR)" \
            sh -c "grep -qx mpi_send_f08ts_ '$work/symbols' && ! grep -qx mpi_send_f08_ '$work/symbols'"
    fi
fi

# profile PROGRAM REPORT [launcher options]: output identical to the plain run's.
profile() {
    p=$1 r=$2
    shift 2
    run "$np" "$launcher" -q "$@" -o "$work/$r" "$bin/$p" > "$work/$r.out" 2> "$work/$r.err" ||
        { fail "$r: $p runs under the profiler"; cat "$work/$r.err"; }
    check "$r: output identical with and without the profiler" cmp "$work/$p.plain" "$work/$r.out"
}

# exact REPORT EXPECTED-ROWS: functions.txt's rank, function, calls,
# bytes_sent, bytes_recv are exactly these.
exact() {
    sort > "$work/$1.expected"
    grep -v '^#' "$work/$1/functions.txt" | awk '{ print $1, $2, $3, $7, $8 }' | sort > "$work/$1.actual"
    if diff "$work/$1.expected" "$work/$1.actual" > "$work/$1.diff"; then
        ok "$1: functions.txt: every count and byte total exact ($(wc -l < "$work/$1.expected") rows)"
    else
        fail "$1: functions.txt differs from the expected counts (< expected, > actual):"
        cat "$work/$1.diff"
    fi
}

# The nofortran function: the library's binding does the call.
nofortran_row() {   # nofortran_row RANK: MPI_Get_processor_name's row, if counted
    case $MPI_FLAVOR in mpich) printf '%d MPI_Get_processor_name 1 0 0\n' "$1" ;; esac
}

# sites FILE REPORT: each "! site SUB MPI_X" line of FILE is a branch at
# SUB@FILE:LINE (on the ranks that call it); every other site is in FILE
# too, but MPICH's call of the nofortran function from libmpichfort.
sites() {
    f=$1 r=$2
    grep -n -i 'call .*! site ' "$src/$f" | sed 's/^\([0-9]*\):.*! site \([A-Za-z0-9_]*\) \(MPI_[A-Za-z_]*\).*/\1 \2 \3/' > "$work/$r.sites"
    [ -s "$work/$r.sites" ] || fail "$r: no site markers in $f"
    while read -r line sub fn; do
        check "$r: $fn at $sub@$f:$line" awk -v fn="$fn" -v site="$sub@$f:$line" \
            '!/^#/ && $3 == fn && $15 == site { found = 1 } END { exit !found }' "$work/$r/branches.txt"
    done < "$work/$r.sites"
    check "$r: every call site is in $f (the nofortran one as documented)" awk -v f="$f" -v flavor="$MPI_FLAVOR" '
        /^#/ { next }
        $3 == "MPI_Get_processor_name" && flavor == "mpich" && $15 ~ /@libmpichfort[.]so/ { next }
        index($15, "@" f ":") == 0 { print "unexpected site: " $0; bad = 1 }
        END { exit bad }' "$work/$r/branches.txt"
}

# --- fmix90: use mpi -----------------------------------------------------------
run "$np" "$bin/fmix90" > "$work/fmix90.plain" || fail "fmix90 runs without the profiler"
profile fmix90 f90
awk -v P="$np" '
    function row(fn, c, s, r) { if (c > 0) printf "%d %s %d %d %d\n", rank, fn, c, s, r }
    BEGIN {
        tri = P * (P + 1) / 2
        for (rank = 0; rank < P; rank++) {
            row("MPI_Comm_rank", 2, 0, 0)
            row("MPI_Comm_size", 2, 0, 0)
            row("MPI_Send", 1 + (rank == 1), 40 + (rank == 1) * 20, 0)
            row("MPI_Recv", 1 + (rank == 0), 0, 40 + (rank == 0) * 20)
            row("MPI_Get_count", 1 + (rank == 0), 0, 0)
            row("MPI_Probe", rank == 0, 0, 0)
            row("MPI_Isend", 25, 380, 0)
            row("MPI_Irecv", 25, 0, 380)
            row("MPI_Waitall", 5, 0, 0)
            row("MPI_Waitany", 4, 0, 0)
            row("MPI_Wait", 1, 0, 0)
            row("MPI_Waitsome", 2, 0, 0)
            row("MPI_Test", 1, 0, 0)
            row("MPI_Recv_init", 1, 0, 0)
            row("MPI_Send_init", 1, 0, 0)
            row("MPI_Startall", 3, 72, 72)
            row("MPI_Request_free", 2, 0, 0)
            row("MPI_Bcast", 1, (rank == 0) * 400, (rank != 0) * 400)
            row("MPI_Reduce", 1, 80, (rank == 1) * 80)
            row("MPI_Allreduce", 2, 24, 24)
            row("MPI_Allgatherv", 1, 4 * (rank + 1), 4 * tri)
            row("MPI_Alltoallv", 1, 4 * tri, 4 * P * (rank + 1))
            row("MPI_Gather", 2, 16, (rank == 0) * 16 * P)
            row("MPI_Barrier", 1, 0, 0)
            row("MPI_Comm_split", 1, 0, 0)
            row("MPI_Comm_dup", 1, 0, 0)
            row("MPI_Comm_free", 2, 0, 0)
            row("MPI_Sendrecv", 3, 192, 192)
            row("MPI_Type_contiguous", 1, 0, 0)
            row("MPI_Type_commit", 2, 0, 0)
            row("MPI_Type_free", 2, 0, 0)
            row("MPI_Get_address", 1, 0, 0)
            row("MPI_Type_create_struct", 1, 0, 0)
        }
    }' > "$work/f90.rows"
for rank in 0 1; do nofortran_row "$rank"; done >> "$work/f90.rows"
exact f90 < "$work/f90.rows"
sites fmix90.f90 f90

# Depth 2: the caller's caller is the Fortran main program's call line.
profile fmix90 f90d2 --depth 2
caller=$(grep -n -i 'call .*! caller ' "$src/fmix90.f90" | sed 's/^\([0-9]*\):.*! caller \([A-Za-z0-9_]*\) \([A-Za-z0-9_]*\).*/\1 \2 \3/')
set -- $caller
check "f90d2: ring_'s MPI_Send called from $2@fmix90.f90:$1" awk -v anc="$2@fmix90.f90:$1" -v callee="$3@" \
    '!/^#/ && $3 == "MPI_Send" && index($15, callee) == 1 { n++; if ($16 != anc) { print "ancestors: " $16; bad = 1 } }
     END { exit bad || n < 2 }' "$work/f90d2/branches.txt"

# --- fmix77: include 'mpif.h' ----------------------------------------------------
run "$np" "$bin/fmix77" > "$work/fmix77.plain" || fail "fmix77 runs without the profiler"
profile fmix77 f77
awk -v P="$np" '
    function row(fn, c, s, r) { if (c > 0) printf "%d %s %d %d %d\n", rank, fn, c, s, r }
    BEGIN {
        for (rank = 0; rank < P; rank++) {
            row("MPI_Comm_rank", 2, 0, 0)
            row("MPI_Comm_size", 1, 0, 0)
            row("MPI_Send", 1, 56, 0)
            row("MPI_Recv", 1, 0, 56)
            row("MPI_Get_count", 1, 0, 0)
            row("MPI_Sendrecv_replace", 1, 32, 32)
            row("MPI_Irecv", 2, 0, 44)
            row("MPI_Isend", 2, 44, 0)
            row("MPI_Wait", 2, 0, 0)
            row("MPI_Waitall", 1, 0, 0)
            row("MPI_Testall", 1, 0, 0)
            row("MPI_Bcast", 1, (rank == 0) * 400, (rank != 0) * 400)
            row("MPI_Reduce", 1, 12, (rank == 0) * 12)
            row("MPI_Allreduce", 1, 16, 16)
            row("MPI_Scatter", 1, (rank == 0) * 12 * P, 12)
            row("MPI_Alltoall", 1, 4 * P, 4 * P)
            row("MPI_Barrier", 1, 0, 0)
            row("MPI_Comm_split", 1, 0, 0)
            row("MPI_Comm_free", 1, 0, 0)
            row("MPI_Gather", 1, 8, (rank == 0) * 8 * P)
        }
    }' | exact f77
sites fmix77.f f77

# --- fmix08: use mpi_f08 ---------------------------------------------------------
if [ ! -x "$bin/fmix08" ]; then
    echo "skip: fmix08 not built (no mpi_f08 module)"
else
    run "$np" "$bin/fmix08" > "$work/fmix08.plain" || fail "fmix08 runs without the profiler"
    profile fmix08 f08
    # MPI_Pcontrol(0) and (1) around an MPI_Barrier: MPICH's mpi_f08
    # MPI_Pcontrol is profiled, so the barrier is not counted; Open MPI's
    # is not (mpiprof(1)), so it is.
    awk -v P="$np" -v mpich="$([ "$MPI_FLAVOR" = mpich ] && echo 1 || echo 0)" '
        function row(fn, c, s, r) { if (c > 0) printf "%d %s %d %d %d\n", rank, fn, c, s, r }
        BEGIN {
            for (rank = 0; rank < P; rank++) {
                row("MPI_Pcontrol", 2 * mpich, 0, 0)
                row("MPI_Barrier", 1 - mpich, 0, 0)
                row("MPI_Comm_rank", 1, 0, 0)
                row("MPI_Comm_size", 1, 0, 0)
                row("MPI_Send", 2 * (rank == 0), 36, 0)
                row("MPI_Recv", 2 * (rank == 1), 0, 36)
                row("MPI_Irecv", 1, 0, 16)
                row("MPI_Isend", 1, 16, 0)
                row("MPI_Waitall", 1, 0, 0)
                row("MPI_Allreduce", 1, 12, 12)
                row("MPI_Gather", 1, 8, (rank == 0) * 8 * P)
            }
        }' | exact f08
    sites fmix08.f90 f08
    # MPICH: the procedures with a choice buffer reach the C entry through
    # the library's helper; at depth 3 the site and its callers are still
    # the program's.
    profile fmix08 f08d3 --depth 3
    check "f08 at depth 3: every branch's site in fmix08.f90, called from main" awk '
        !/^#/ && ($15 !~ /^MAIN__@fmix08[.]f90:/ || $16 !~ /^main@fmix08[.]f90:/) { print "unexpected: " $0; bad = 1 }
        END { exit bad }' "$work/f08d3/branches.txt"
fi
finish
