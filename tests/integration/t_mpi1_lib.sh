# t_mpi1_lib.sh: helpers of the mpiprof-mpi1 tests (sourced after lib.sh):
# the program, a table parser and the expected tables computed from the
# guide's rules, independently of the program.

mpi1="$top_builddir/bench/mpiprof-mpi1"
[ -x "$mpi1" ] || { echo "FAIL: $mpi1 not built"; exit 1; }

# Open MPI's mpirun reports a non-zero exit status on stderr; -q leaves it out.
quiet=
[ "$MPI_FLAVOR" = openmpi ] && quiet=-q

# tables FILE: one line per table row of mpiprof-mpi1's output:
#   name q groups group bytes reps t_min t_max t_avg mbytes_per_s defects
# name with its Multi- prefix; q processes per group, groups their number;
# group "-" without -multi 1; bytes "-" for Barrier; t[usec] fills t_min,
# t_max and t_avg; "-" for a column the table does not have.
tables() {
    awk '
    /^# Benchmarking / { name = $3; q = 0; g = 1; split("", col); next }
    /^# #processes = / { q = $4 + 0; next }
    /^# \( [0-9]+ groups of [0-9]+ processes/ { g = $3; q = $6; next }
    /^#/ { next }
    $1 == "group" || $1 == "#bytes" || $1 == "#repetitions" {
        split("", col)
        for (i = 1; i <= NF; i++) col[$i] = i
        if ("t[usec]" in col) col["t_min[usec]"] = col["t_max[usec]"] = col["t_avg[usec]"] = col["t[usec]"]
        next
    }
    $1 ~ /^[0-9]+$/ {
        n = split("group #bytes #repetitions t_min[usec] t_max[usec] t_avg[usec] Mbytes/sec defects", want, " ")
        line = name " " q " " g
        for (i = 1; i <= n; i++) line = line " " ((want[i] in col) ? $(col[want[i]]) : "-")
        print line
    }' "$1"
}

# expected_rows NP ITER LENGTHS NAMES...: "name q groups group bytes reps" of
# the primary benchmarks NAMES on NP processes (default process counts), with
# the lengths LENGTHS (blank-separated), -iter ITER (0: none): the guide's
# rules (3.3, 5.1.2.2, 5.2.8), not the program's code.
expected_rows() {
    np=$1 iter=$2 lens=$3
    shift 3
    for name in "$@"; do echo "$name"; done | awk -v np="$np" -v iter="$iter" -v lens="$lens" '
    function reps(x,   n) {
        n = (x == 0) ? 1000 : int(41943040 / x)
        if (n > 1000) n = 1000
        if (n < 1) n = 1
        if (iter > 0 && iter < n) n = iter
        return n
    }
    BEGIN { nl = split(lens, len, " ") }
    {
        name = $1; nq = 0
        if (name == "PingPong" || name == "PingPing") qs[++nq] = 2
        else { for (q = 2; q < np; q *= 2) qs[++nq] = q; qs[++nq] = np }
        red = (name == "Reduce" || name == "Reduce_scatter" || name == "Allreduce")
        for (k = 1; k <= nq; k++) {
            if (name == "Barrier") { print name, qs[k], 1, "-", "-", reps(0); continue }
            for (i = 1; i <= nl; i++)
                if (!(red && len[i] > 0 && len[i] < 4)) print name, qs[k], 1, "-", len[i], reps(len[i])
        }
    }'
}

# same WHAT EXPECTED ACTUAL: check that two files are equal, showing the diff.
same() {
    if diff "$2" "$3" > "$work/diff"; then
        ok "$1"
    else
        fail "$1 (< expected, > actual):"
        head -40 "$work/diff"
    fi
}
