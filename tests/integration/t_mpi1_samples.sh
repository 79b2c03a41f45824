#!/bin/sh
# t_mpi1_samples.sh: the guide's Sample 1 (section 6.1: np 2, PingPong and
# Allreduce) and Sample 2 (6.2: pingping allreduce -map 2x3 -msglen Lengths
# -multi 0): the same tables, groups, lengths and #repetitions, typed in
# from the guide. Sample 2's output is that of 4 processes (its caption says
# -np 6); the 6-process run is checked against the guide's -map rule.
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/integration/t_mpi1_lib.sh"

# --- Sample 1 ----------------------------------------------------------------
run 2 "$mpi1" PingPong Allreduce > "$work/s1" || fail "sample 1 runs"
tables "$work/s1" | awk '{ print $1, $2, $5, $6 }' > "$work/s1.got"
{
    for x in 0 1 2 4 8 16 32 64 128 256 512 1024 2048 4096 8192 16384 32768; do echo "PingPong 2 $x 1000"; done
    printf 'PingPong 2 %s\n' "65536 640" "131072 320" "262144 160" "524288 80" "1048576 40" "2097152 20" "4194304 10"
    for x in 0 4 8 16 32 64 128 256 512 1024 2048 4096 8192 16384 32768; do echo "Allreduce 2 $x 1000"; done
    printf 'Allreduce 2 %s\n' "65536 640" "131072 320" "262144 160" "524288 80" "1048576 40" "2097152 20" "4194304 10"
} > "$work/s1.want"
same "sample 1: PingPong and Allreduce on 2 processes, the guide's lengths and #repetitions" "$work/s1.want" "$work/s1.got"
check "sample 1: PingPong columns #bytes #repetitions t[usec] Mbytes/sec" \
    grep -Eq '^ +#bytes +#repetitions +t\[usec\] +Mbytes/sec$' "$work/s1"
check "sample 1: Allreduce columns #bytes #repetitions t_min[usec] t_max[usec] t_avg[usec]" \
    grep -Eq '^ +#bytes +#repetitions +t_min\[usec\] +t_max\[usec\] +t_avg\[usec\]$' "$work/s1"
check "sample 1: list of benchmarks" sh -c "grep -A2 '^# List of Benchmarks to run:' '$work/s1' | tr '\n' ' ' |
    grep -qx '# List of Benchmarks to run: # PingPong # Allreduce '"

# --- Sample 2 ----------------------------------------------------------------
printf '0\n100\n1000\n10000\n100000\n1000000\n' > "$work/Lengths"
# titles: the lines of every table title between its rules, blanks squeezed
titles() {
    awk '/^# Benchmarking/ { on = 1 } on && /^#---/ { on = 0; print "--" } on { $1 = $1; print }' "$1"
}

# The guide's rows on 4 processes; MPICH (busy polling, 2 cores) runs only
# 2 repetitions there, and the rule's 419 and 41 on 2 processes instead.
iter=
reps() { echo "$1"; }
if [ "$MPI_FLAVOR" = mpich ]; then
    iter="-iter 2"
    reps() { echo 2; }
    run 2 "$mpi1" pingping -msglen "$work/Lengths" > "$work/s2np2" || fail "sample 2 lengths on 2 processes run"
    tables "$work/s2np2" | awk '{ print $5, $6 }' | tr '\n' ' ' > "$work/s2np2.got"
    check "sample 2 lengths: #repetitions 1000 1000 1000 1000 419 41" \
        grep -qx '0 1000 100 1000 1000 1000 10000 1000 100000 419 1000000 41 ' "$work/s2np2.got"
fi
# shellcheck disable=SC2086
run 4 "$mpi1" pingping allreduce -map 2x3 -msglen "$work/Lengths" -multi 0 $iter > "$work/s2" ||
    fail "sample 2 runs on 4 processes"
for name in Multi-PingPing Multi-Allreduce Allreduce; do
    q=2 g=2
    [ "$name" = Allreduce ] && q=4 g=1
    for xr in "0 1000" "100 1000" "1000 1000" "10000 1000" "100000 419" "1000000 41"; do
        set -- $xr
        echo "$name $q $g - $1 $(reps "$2")"
    done
done > "$work/s2.want"
tables "$work/s2" | awk '{ print $1, $2, $3, $4, $5, $6 }' > "$work/s2.got"
same "sample 2: Multi-PingPing, Multi-Allreduce (2 groups of 2), Allreduce (4), lengths and #repetitions" \
    "$work/s2.want" "$work/s2.got"
cat > "$work/s2.titles.want" <<'EOF'
# Benchmarking Multi-PingPing
# ( 2 groups of 2 processes each running simultaneous )
# Group 0: 0 2
# Group 1: 1 3
--
# Benchmarking Multi-Allreduce
# ( 2 groups of 2 processes each running simultaneous )
# Group 0: 0 2
# Group 1: 1 3
--
# Benchmarking Allreduce
# #processes = 4; rank order (rowwise):
# 0 2
# 1 3
--
EOF
titles "$work/s2" > "$work/s2.titles.got"
same "sample 2: groups and rank order of the guide" "$work/s2.titles.want" "$work/s2.titles.got"
check "sample 2: Multi-PingPing columns t_min t_max t_avg and Mbytes/sec" \
    grep -Eq '^ +#bytes +#repetitions +t_min\[usec\] +t_max\[usec\] +t_avg\[usec\] +Mbytes/sec$' "$work/s2"
check "sample 2: list of benchmarks with (Multi-)" sh -c "grep -A2 '^# List of Benchmarks to run:' '$work/s2' | tr '\n' ' ' |
    grep -qx '# List of Benchmarks to run: # (Multi-)PingPing # (Multi-)Allreduce '"

# The caption's 6 processes: the -map rule (world ranks fill the 2x3 matrix
# column by column, numbered along its rows: 0 2 4 1 3 5) makes 3 groups.
if [ "$MPI_FLAVOR" = openmpi ]; then
    run 6 "$mpi1" pingping allreduce -map 2x3 -msglen "$work/Lengths" -multi 0 -iter 5 > "$work/s2np6" ||
        fail "sample 2 command runs on 6 processes"
    cat > "$work/np6.want" <<'EOF'
# Benchmarking Multi-PingPing
# ( 3 groups of 2 processes each running simultaneous )
# Group 0: 0 2
# Group 1: 4 1
# Group 2: 3 5
--
# Benchmarking Multi-Allreduce
# ( 3 groups of 2 processes each running simultaneous )
# Group 0: 0 2
# Group 1: 4 1
# Group 2: 3 5
--
# Benchmarking Allreduce
# #processes = 4; rank order (rowwise):
# 0 2 4
# 1
# ( 2 additional processes idle )
--
# Benchmarking Allreduce
# #processes = 6; rank order (rowwise):
# 0 2 4
# 1 3 5
--
EOF
    titles "$work/s2np6" > "$work/np6.got"
    same "sample 2 on 6 processes: 3 groups in -map order, then 4 and 6 processes" "$work/np6.want" "$work/np6.got"
    tables "$work/s2np6" | awk '{ printf "%s ", $6 }' > "$work/np6.reps"
    check "sample 2 on 6 processes: 4 tables of 6 lengths, -iter 5 (41 stays 5)" \
        grep -qx '\(5 \)\{24\}' "$work/np6.reps"
fi
finish
