#!/bin/sh
# t_regions.sh: MPI_Pcontrol regions (regions.c): exact calls and bytes per
# rank and function in functions.txt (the whole run, one row per key) and
# per rank, function and region in region_functions.txt; the regions'
# entries and calls (nested ones included) in regions.txt; a call site's
# whole row in branches.txt and its rows per region in region_branches.txt; the 1,000 sends and receives made with collecting stopped
# absent; the stray close in one note; MPIPROF_REGIONS=off (--no-regions)
# ignoring every level; collecting stopped on one rank only under --model
# and --collwait (pcontrol.c).
. "$top_srcdir/tests/integration/lib.sh"

np=4
[ "$MPI_FLAVOR" = mpich ] && np=2    # MPICH busy-polls: 2 ranks on 2 cores
prog="$top_builddir/tests/integration/regions"

run $np "$launcher" -q --depth 2 -o "$work/rep" "$prog" > "$work/out" || fail "regions under the profiler"
check "the program ran to its end" grep -q "^regions: done$" "$work/out"

# rank function calls bytes_sent bytes_recv region (see regions.c).
awk -v P=$np 'function row(fn, c, s, r, reg) { printf "%d %s %d %d %d %s\n", rank, fn, c, s, r, reg }
    BEGIN { for (rank = 0; rank < P; rank++) {
        row("MPI_Comm_rank", 1, 0, 0, "whole"); row("MPI_Comm_size", 1, 0, 0, "whole")
        row("MPI_Barrier", 2, 0, 0, "whole"); row("MPI_Pcontrol", 47, 0, 0, "whole")
        row("MPI_Bcast", 3, rank == 0 ? 192 : 0, rank == 0 ? 0 : 192, "whole")
        row("MPI_Allreduce", 20, 1280, 1280, "whole"); row("MPI_Sendrecv", 40, 2560, 2560, "whole")
        row("MPI_Bcast", 3, rank == 0 ? 192 : 0, rank == 0 ? 0 : 192, "init"); row("MPI_Pcontrol", 2, 0, 0, "init")
        row("MPI_Allreduce", 20, 1280, 1280, "step"); row("MPI_Pcontrol", 20, 0, 0, "step")
        row("MPI_Sendrecv", 40, 2560, 2560, "step/halo"); row("MPI_Pcontrol", 20, 0, 0, "step/halo") } }' |
    sort > "$work/expected"
awk '!/^#/ { print $1, $2, $3, $7, $8, NF == 8 ? "whole" : $9 }' "$work/rep/functions.txt" "$work/rep/region_functions.txt" |
    sort > "$work/actual"
same_rows "functions.txt and region_functions.txt: calls and bytes, the whole run and per region"
check "functions.txt: the whole run's columns" grep -qx '# rank function calls time_s min_s max_s bytes_sent bytes_recv' "$work/rep/functions.txt"
check "region_functions.txt: functions.txt's columns and region" grep -qx '# rank function calls time_s min_s max_s bytes_sent bytes_recv region' "$work/rep/region_functions.txt"
check "functions.txt: one row per rank and function" awk '!/^#/ && n[$1, $2]++ { exit 1 }' "$work/rep/functions.txt"
check "region_functions.txt: the rows of every region add up to the whole run's with the calls outside any region (Barrier, Comm_rank, Comm_size, 7 Pcontrol)" awk '
    FNR == 1 { f++ } /^#/ { next } f == 1 { w[$1, $2] = $3; next } { s[$1, $2] += $3 }
    END { for (k in w) { split(k, p, SUBSEP); out = p[2] ~ /^MPI_(Barrier|Comm_rank|Comm_size)$/ ? w[k] : p[2] == "MPI_Pcontrol" ? 5 : 0
                         if (s[k] + out != w[k]) exit 1 } }' "$work/rep/functions.txt" "$work/rep/region_functions.txt"

# regions.txt: entries and calls, a region's nested regions included;
# elapsed >= MPI time >= 0 and the region inside the whole run.
awk -v P=$np 'BEGIN { for (r = 0; r < P; r++) { print r, "whole", 1, 114; print r, "init", 1, 5
    print r, "step", 10, 100; print r, "step/halo", 10, 60 } }' | sort > "$work/expected"
awk '!/^#/ { print $1, $2, $3, $7 }' "$work/rep/regions.txt" | sort > "$work/actual"
same_rows "regions.txt: entries and calls per region"
check "regions.txt: 0 <= mpi_s <= elapsed_s, each region within the whole run" awk '
    !/^#/ { if (!($5 >= 0 && $5 <= $4 + 1e-6)) bad = 1; if ($2 == "whole") w[$1] = $4; else e[$1] += $2 ~ /\// ? 0 : $4 }
    END { for (r in w) if (e[r] > w[r]) bad = 1; exit bad }' "$work/rep/regions.txt"
check "one note counts the stray close on every rank" grep -q "^# note: MPI_Pcontrol regions, summed over the ranks: $np closes of a region that was not open (ignored), 0 closes of an outer region" "$work/rep/regions.txt"

# The MPI_Sendrecv site's whole row (branches.txt) and its step/halo row
# (region_branches.txt), with the same branch id.
awk -v P=$np 'BEGIN { for (r = 0; r < P; r++) { print r, "MPI_Sendrecv", 40, "whole"; print r, "MPI_Sendrecv", 40, "step/halo" } }' |
    sort > "$work/expected"
awk '!/^#/ && $3 == "MPI_Sendrecv" { print $1, $3, $4, NF == 16 ? "whole" : $17 }' "$work/rep/branches.txt" "$work/rep/region_branches.txt" |
    sort > "$work/actual"
same_rows "branches.txt and region_branches.txt: the MPI_Sendrecv call site, the whole run and per region"
check "region_branches.txt: the region rows carry their branch's id" awk '
    FNR == 1 { f++ } /^#/ { next } f == 1 { id[$1, $2] = $3; next } !(($1, $2) in id) || id[$1, $2] != $3 { exit 1 }' \
    "$work/rep/branches.txt" "$work/rep/region_branches.txt"

# MPIPROF_REGIONS=off: no regions, and the stopped sends are counted.
run $np "$launcher" -q --no-regions -o "$work/off" "$prog" > /dev/null || fail "regions with --no-regions"
check "--no-regions: no regions.txt, region_functions.txt or region_branches.txt" \
    test ! -e "$work/off/regions.txt" -a ! -e "$work/off/region_functions.txt" -a ! -e "$work/off/region_branches.txt"
awk -v P=$np 'BEGIN { for (r = 0; r < P; r++) print r, (r % 2 ? "MPI_Recv" : "MPI_Send"), 1000 }' | sort > "$work/expected"
awk '!/^#/ && ($2 == "MPI_Send" || $2 == "MPI_Recv") { print $1, $2, $3 }' "$work/off/functions.txt" | sort > "$work/actual"
same_rows "--no-regions: MPI_Pcontrol(0) ignored, the 1,000 messages counted"

# Fortran (include 'mpif.h'): the names arrive, trailing blanks dropped.
fprog="$top_builddir/tests/integration/fregions"
if [ -x "$fprog" ]; then
    run 2 "$launcher" -q -o "$work/f" "$fprog" > /dev/null || fail "fregions under the profiler"
    awk 'BEGIN { for (r = 0; r < 2; r++) { print r, "MPI_Barrier", 1, "whole"; print r, "MPI_Allreduce", 10, "whole"
        print r, "MPI_Pcontrol", 14, "whole"; print r, "MPI_Barrier", 1, "setup"; print r, "MPI_Pcontrol", 2, "setup"
        print r, "MPI_Allreduce", 10, "work"; print r, "MPI_Pcontrol", 10, "work" } }' | sort > "$work/expected"
    awk '!/^#/ { print $1, $2, $3, NF == 8 ? "whole" : $9 }' "$work/f/functions.txt" "$work/f/region_functions.txt" |
        sort > "$work/actual"
    same_rows "Fortran: calls per region, the stopped barriers absent"
else
    echo "SKIP: $fprog not built (no MPI Fortran compiler)"
fi

# Collecting stopped on rank 0 only (pcontrol.c): under --model and
# --collwait the analyses' own collective calls (the clock agreements,
# the barriers) still match, so the output is the plain run's; the
# collectives stay counted while stopped (mpiprof(1)), the rest is not.
pprog="$top_builddir/tests/integration/pcontrol"
run $np "$pprog" | sort > "$work/pc.plain" || fail "pcontrol runs"
for opts in "--model perfect" --collwait "--model lat=1,bw=100 --collwait"; do
    rm -rf "$work/pc"
    # shellcheck disable=SC2086 # the options are words
    if run $np "$launcher" -q $opts -o "$work/pc" "$pprog" | sort > "$work/pc.out" && cmp -s "$work/pc.plain" "$work/pc.out"; then
        ok "pcontrol (rank 0 stops collecting) under mpiprof $opts: the plain run's output"
    else
        fail "pcontrol (rank 0 stops collecting) under mpiprof $opts: the plain run's output"
        diff "$work/pc.plain" "$work/pc.out"
    fi
    check "pcontrol under mpiprof $opts: rank 0 counts its MPI_Allreduce, not its MPI_Put" awk '
        !/^#/ && $1 == 0 && $2 == "MPI_Allreduce" && $3 == 3 { a = 1 } !/^#/ && $1 == 0 && $2 == "MPI_Put" { p = 1 }
        !/^#/ && $1 == 1 && $2 == "MPI_Put" && $3 == 1 { q = 1 } END { exit !(a && !p && q) }' "$work/pc/functions.txt"
done

finish
