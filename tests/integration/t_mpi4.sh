#!/bin/sh
# t_mpi4.sh: the functions beyond MPI 3.1 that <mpi.h> declares are wrapped
# (issue 21 item 6; mpi4.c, 2 ranks). On every MPI: the MPI 3.1 part
# counts exactly, and libmpiprof.so defines MPI_Send_c and MPI_Isendrecv
# exactly when configure found them declared (wrappers/mpi-declared.list).
# With an MPI-4 library (MPICH 4.0): exact calls and bytes in
# functions.txt of MPI_Send_c/MPI_Recv_c, MPI_Gatherv_c, MPI_Isendrecv (its
# receive at its posted size), MPI_Isendrecv_replace, MPI_Bcast_init and
# MPI_Allreduce_init (their volumes counted by each MPI_Start and
# MPI_Startall), a partitioned send
# and receive (MPI_Psend_init, MPI_Precv_init, MPI_Pready*, counted by
# MPI_Start), a session; the same under --slt, --collwait and --model. With
# an older MPI (Open MPI 4.1) that part is not compiled and is skipped,
# saying so.
. "$top_srcdir/tests/integration/lib.sh"

prog="$top_builddir/tests/integration/mpi4"
lib="$top_builddir/.libs/libmpiprof.so"
declared="$top_builddir/wrappers/mpi-declared.list"
run_compare 2 "$prog"
check "the program's own checks pass" sh -c "! grep -q wrong '$work/prof.out'"

if grep -qx MPI_Send_c "$declared" && grep -qx MPI_Isendrecv "$declared"; then
    mpi4=1
else
    mpi4=0
fi
exported=$(nm -D --defined-only "$lib" | awk '$3 == "MPI_Send_c" || $3 == "MPI_Isendrecv"' | wc -l)
check "libmpiprof.so defines MPI_Send_c and MPI_Isendrecv exactly when <mpi.h> declares them ($exported of 2)" \
    test "$exported" -eq $((2 * mpi4))

# rows REPORT: rank function calls bytes_sent bytes_recv of every function
# but the polled ones (MPI_Parrived, MPI_Wait: calls vary or are not ours).
rows() {
    awk '/^#/ { n = split(substr($0, 3), h, " "); for (i = 1; i <= n; i++) col[h[i]] = i; next }
         $2 != "MPI_Parrived" { print $col["rank"], $col["function"], $col["calls"], $col["bytes_sent"], $col["bytes_recv"] }' \
        "$1/functions.txt" | sort
}

if [ $mpi4 -eq 0 ]; then
    echo "SKIP (part): this MPI's <mpi.h> declares no MPI-4.0 functions (MPI_Send_c, MPI_Isendrecv): the MPI-4 part of mpi4.c is not compiled, only the MPI 3.1 part is checked"
    check "the program says its MPI-4 part was not compiled" grep -q "MPI-4 part not compiled: ok" "$work/prof.out"
    printf '%s\n' "0 MPI_Comm_rank 1 0 0" "0 MPI_Comm_size 1 0 0" "0 MPI_Send 1 40 0" \
        "1 MPI_Comm_rank 1 0 0" "1 MPI_Comm_size 1 0 0" "1 MPI_Recv 1 0 40" | sort > "$work/expected"
    rows "$work/rep" > "$work/actual"
    same_rows "functions.txt (MPI 3.1 part)"
    finish
fi

check "the program ran its MPI-4 part" grep -q "MPI-4 part run: ok" "$work/prof.out"
# functions.txt, rank by rank:
#   MPI_Send_c/MPI_Recv_c: 2 x 100 doubles; MPI_Gatherv_c: 3 + 6 ints to 0;
#   MPI_Isendrecv: 50 ints each way, the receive posted for 60 (240 bytes:
#   MPICH 4.0.2 leaves the request's status unset, so the posted size
#   counts); MPI_Isendrecv_replace: 20 doubles each way;
#   MPI_Bcast_init (64 ints from 0), MPI_Allreduce_init (16 ints): no bytes;
#   MPI_Start: 3 broadcast starts + 2 partitioned ones of 4 x 8 ints;
#   MPI_Startall: the broadcast and the allreduce once;
#   MPI_Pready 4, MPI_Pready_range 1, MPI_Pready_list 1 on rank 0.
printf '%s\n' \
    "0 MPI_Comm_rank 1 0 0" "0 MPI_Comm_size 1 0 0" "0 MPI_Send 1 40 0" \
    "0 MPI_Send_c 2 1600 0" "0 MPI_Gatherv_c 1 12 36" "0 MPI_Type_size_c 1 0 0" \
    "0 MPI_Isendrecv 1 200 240" "0 MPI_Isendrecv_replace 1 160 160" \
    "0 MPI_Bcast_init 1 0 0" "0 MPI_Allreduce_init 1 0 0" "0 MPI_Start 5 1024 0" "0 MPI_Startall 1 320 64" \
    "0 MPI_Waitall 1 0 0" "0 MPI_Request_free 3 0 0" "0 MPI_Wait 7 0 0" \
    "0 MPI_Psend_init 1 0 0" "0 MPI_Pready 4 0 0" "0 MPI_Pready_range 1 0 0" "0 MPI_Pready_list 1 0 0" \
    "0 MPI_Session_init 1 0 0" "0 MPI_Session_get_num_psets 1 0 0" "0 MPI_Session_finalize 1 0 0" \
    "1 MPI_Comm_rank 1 0 0" "1 MPI_Comm_size 1 0 0" "1 MPI_Recv 1 0 40" \
    "1 MPI_Recv_c 2 0 1600" "1 MPI_Get_count_c 1 0 0" "1 MPI_Gatherv_c 1 24 0" "1 MPI_Type_size_c 1 0 0" \
    "1 MPI_Isendrecv 1 200 240" "1 MPI_Isendrecv_replace 1 160 160" \
    "1 MPI_Bcast_init 1 0 0" "1 MPI_Allreduce_init 1 0 0" "1 MPI_Start 5 0 1024" "1 MPI_Startall 1 64 320" \
    "1 MPI_Waitall 1 0 0" "1 MPI_Request_free 3 0 0" "1 MPI_Wait 7 0 0" \
    "1 MPI_Precv_init 1 0 0" \
    "1 MPI_Session_init 1 0 0" "1 MPI_Session_get_num_psets 1 0 0" "1 MPI_Session_finalize 1 0 0" |
    sort > "$work/expected"
rows "$work/rep" > "$work/actual"
same_rows "functions.txt"
check "rank 1 polled with MPI_Parrived" awk '$1 == 1 && $2 == "MPI_Parrived" && $3 > 0 { f = 1 } END { exit !f }' \
    "$work/rep/functions.txt"

# The analyses keep the program's results and these figures.
for opt in --slt --collwait "--model perfect"; do
    name=$(echo "$opt" | tr -dc 'a-z')
    # shellcheck disable=SC2086 # $opt is a flag and its value
    run 2 "$launcher" -q $opt -o "$work/$name" "$prog" | sort > "$work/$name.out" || fail "mpi4 under $opt"
    check "program output identical under $opt" cmp "$work/plain.out" "$work/$name.out"
    rows "$work/$name" > "$work/actual"
    same_rows "functions.txt under $opt"
done
finish
