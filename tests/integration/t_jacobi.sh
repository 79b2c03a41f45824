#!/bin/sh
# t_jacobi.sh: the known-answer workload (bench/mpiprof-jacobi, formulas at
# the top of bench/jacobi.c) on 4 ranks, 50 iterations: exact counts and
# bytes per rank in functions.txt and per call site in branches.txt, the
# partners of the halo exchange, and the same answer with and without the
# profiler (also at depth 3).
. "$top_srcdir/tests/integration/lib.sh"

np=4 it=50
prog="$top_builddir/bench/mpiprof-jacobi"
run "$np" "$prog" -n 4000 -i "$it" > "$work/plain.out" || fail "jacobi runs"
run "$np" "$launcher" -q --depth 3 -o "$work/rep" "$prog" -n 4000 -i "$it" > "$work/prof.out" || fail "jacobi under the profiler"
check "same output with the profiler" cmp "$work/plain.out" "$work/prof.out"
# The known answer (bench/jacobi.c): the checksum is E[M], M the maximum of
# a 50-step simple random walk from 0: sum over m >= 1 of P(S >= m) + P(S > m),
# S = 2B - 50, B binomial(50, 1/2); each point rounded to 2^-26 (< 1e-6 in all).
check "known answer: checksum = E[max of a $it-step random walk]" awk -v it="$it" '
    BEGIN { p[0] = 1; for (k = 1; k <= it; k++) p[k] = p[k - 1] * (it - k + 1) / k
            for (k = 0; k <= it; k++) { s = 2 * k - it; prob = p[k] / 2 ^ it
                for (m = 1; m <= it; m++) e += prob * ((s >= m) + (s > m)) } }
    $1 == "checksum" { got = $2 }
    END { d = got - e; if (d < 0) d = -d; printf "E[M] = %.8f, printed %s\n", e, got; exit !(got != "" && d < 1e-6) }' "$work/plain.out"

check "functions.txt: exact counts and bytes per rank" awk -v np="$np" -v it="$it" '
    /^#/ { next }
    { got[$1, $2] = $3 " " $7 " " $8; n[$1]++ }
    END {
        for (r = 0; r < np; r++) {
            nb = (r > 0) + (r < np - 1)
            want["MPI_Sendrecv"] = (2 * it) " " (8 * nb * it) " " (8 * nb * it)
            want["MPI_Allreduce"] = int(it / 10) " " (8 * int(it / 10)) " " (8 * int(it / 10))
            want["MPI_Reduce"] = "1 8 " (r == 0 ? 8 : 0)
            want["MPI_Comm_rank"] = "1 0 0"
            want["MPI_Comm_size"] = "1 0 0"
            for (f in want) if (got[r, f] != want[f]) { print "rank " r " " f ": " got[r, f] " != " want[f]; bad = 1 }
            if (n[r] != 5) { print "rank " r ": " n[r] " functions"; bad = 1 }
        }
        exit bad }' "$work/rep/functions.txt"

check "branches.txt: two MPI_Sendrecv sites in halo_exchange, $it calls each, same ids on all ranks" awk -v np="$np" -v it="$it" '
    !/^#/ && $3 == "MPI_Sendrecv" { n[$1]++; ids[$2]++; if ($4 != it || $15 !~ /^halo_exchange@jacobi[.]c:[0-9]+$/ || $16 !~ /^relax@/) bad = 1 }
    END { k = 0; for (i in ids) { k++; if (ids[i] != np) bad = 1 }
          for (r = 0; r < np; r++) if (n[r] != 2) bad = 1
          exit bad || k != 2 }' "$work/rep/branches.txt"

check "partners.txt: each Sendrecv site exchanges with the real neighbours only, $it messages each way" awk -v np="$np" -v it="$it" '
    /^#/ || $3 != "MPI_Sendrecv" { next }
    { if ($4 != $1 - 1 && $4 != $1 + 1) bad = 1; cnt[$1, $4] += $6; bytes[$1, $4] += $7 }
    END { for (r = 0; r < np; r++) for (p = r - 1; p <= r + 1; p += 2) {
              if (p < 0 || p >= np) continue
              if (cnt[r, p] != 2 * it || bytes[r, p] != 16 * it) { print r " " p ": " cnt[r, p] " " bytes[r, p]; bad = 1 } }
          exit bad }' "$work/rep/partners.txt"
finish
