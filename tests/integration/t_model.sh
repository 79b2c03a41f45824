#!/bin/sh
# t_model.sh: the model (--model). The known answers of mpiprof-known
# model-compute, model-icompute, model-pcompute (MPICH), model-comm,
# model-sends, model-rma, model-chain, model-sync and model-lock (-m
# lockall too: MPI_Win_lock_all epochs) under a perfect interconnect and
# under lat/bw (model-sync with MPI_Send's rendezvous and MPI_Issend too,
# model-rma with many origins to one target too, in fence, PSCW and
# shared-lock epochs), of model-colls for each
# collective under lat/bw and of three under a measured table (table=),
# per rank within 15 % (floor 10 ms); each of the eight on 2 ranks within
# 5 % (floor 3 ms) of the replay of its own computations; model.txt's
# rows against functions.txt and summary.txt; the speed-up line; every
# point-to-point construct of p2psem.c with the same output under --model;
# nothing added without the option; mpiprof-calibrate's table, and its
# model within 30 % of the real elapsed of PingPong, Allreduce and
# model-comm; ranks that disagree run without it.
. "$top_srcdir/tests/integration/lib.sh"

known="$top_builddir/bench/mpiprof-known"
np=4
[ "$MPI_FLAVOR" = mpich ] && np=2     # MPICH busy-polls: 2 ranks on 2 cores

# (1) the known answers: T(8 B) = 100 us, T(256 KiB) = 2.7 ms, T(1 MiB) =
# 10.6 ms under lat/bw (model-sends: 5 sends of 1 MiB, one after the other
# on rank 0's link; model-rma: a put of 1 MiB in each of 5 fence epochs).
# model-comm on 4 ranks over 2 cores was 8 to 13 ms (15 to 25 %) above
# the program's answer while the model's clock agreement after a
# collective counted as compute; with it inside the collective's time
# (issue 33), 3 to 4 ms (5 %).
# Each collective's cost under lat/bw (mpiprof(1)'s table): 1 MiB blocks,
# 1 ms of computation per rank and call, so that the cost is most of the
# answer.
for c in barrier bcast reduce allreduce scan gather allgather alltoall reduce_scatter; do
    timed_within "model-colls -c $c --model lat=100,bw=100: model_elapsed_s per rank within 15 % (floor 10 ms)" 15 0.010 \
        $np "$work/colls-$c.out" "$work/colls-$c" "$launcher" -q --model lat=100,bw=100 -o "$work/colls-$c" "$known" \
        model-colls -c $c -k 5 -d 1 -s 1048576
done
# A measured table (table=, mpiprof-calibrate's): a message's time read
# off its p2p curve, 100 us + 10 ms a MiB (1 MiB / 10 ms on the link), and
# a collective's off its curve measured on 2 processes, scaled to np by
# the algorithms: Allreduce 30 ms and Alltoall 40 ms a MiB, 3 and 8 times
# what the algorithms give on 2 (mpiprof-known works the answer out with
# the same table).
cat > "$work/table.txt" <<TABLE
# shape processes bytes t_usec
p2p 2 0 100
p2p 2 1048576 10100
allreduce 2 0 0
allreduce 2 1048576 30000
alltoall 2 0 0
alltoall 2 2097152 80000
TABLE
for w in "model-colls -c allreduce" "model-colls -c alltoall" model-sends; do
    out="$work/table-${w##* }"
    # shellcheck disable=SC2086 # the workload and its options are words
    timed_within "$w --model table=: model_elapsed_s per rank within 15 % (floor 10 ms)" 15 0.010 \
        $np "$out.out" "$out" "$launcher" -q --model "table=$work/table.txt" -o "$out" "$known" $w -k 5 -d 1 -s 1048576
done
check "table=: model.txt names the table, its latency and bandwidth" \
    grep -q "^# model: table=$work/table.txt(lat=100us,bw=104.858MB/s),cpu=1," "$work/table-model-sends/model.txt"
# model-pcompute: the persistent MPI_Allreduce_init (MPI-4.0: MPICH here).
persistent=
[ "$MPI_FLAVOR" = mpich ] && persistent=model-pcompute
for model in perfect lat=100,bw=100; do
    for w in model-compute model-icompute $persistent model-comm model-sends model-rma model-chain model-sync; do
        out="$work/$w-$model"
        size= ranks=$np
        [ $w = model-comm ] && size="-s 262144"
        case $w in model-sends | model-rma) size="-s 1048576" ;; esac
        timed_within "$w --model $model: model_elapsed_s per rank within 15 % (floor 10 ms)" 15 0.010 \
            $ranks "$out.out" "$out" "$launcher" -q --model "$model" -o "$out" "$known" $w -k 5 -d 10 $size
    done
done
# Late receivers: MPI_Ssend (above), and MPI_Send above the eager limit,
# wait for them (a round takes 2 D, where the model said D before the
# receivers' posting clocks came back to their senders, issue 33); an
# eager MPI_Send does not (D).
# Many origins to one target: the target's link takes their bytes one
# after the other, (N - 1) x 256 KiB an epoch (before issue 33's target
# rule the model charged one origin's).
out="$work/incast"
timed_within "model-rma -m incast --model lat=100,bw=100: model_elapsed_s per rank within 15 % (floor 10 ms)" 15 \
    0.010 $np "$out.out" "$out" "$launcher" -q --model lat=100,bw=100 -o "$out" "$known" model-rma -m incast -k 5 \
    -d 10 -s 262144
# The same in PSCW epochs: MPI_Win_wait waits for the bytes through the
# target's link too (before, for the latest origin's alone: -20 % at 4
# ranks).
out="$work/pscw"
timed_within "model-rma -m pscw --model lat=100,bw=100: model_elapsed_s per rank within 15 % (floor 10 ms)" 15 \
    0.010 $np "$out.out" "$out" "$launcher" -q --model lat=100,bw=100 -o "$out" "$known" model-rma -m pscw -k 5 \
    -d 10 -s 262144
# And in shared-lock epochs: each MPI_Win_unlock's bytes after those of
# the unlocks before it (before: each origin's alone, -18 % at 4 ranks).
out="$work/lockin"
timed_within "model-rma -m lock --model lat=100,bw=100: model_elapsed_s per rank within 15 % (floor 10 ms)" 15 \
    0.010 $np "$out.out" "$out" "$launcher" -q --model lat=100,bw=100 -o "$out" "$known" model-rma -m lock -k 5 \
    -d 10 -s 262144
# Lock contention: every rank holds an exclusive lock in turn, so a round
# is P computations (before issue 33 the model saw one).
for model in perfect lat=100,bw=100; do
    out="$work/lock-$model"
    timed_within "model-lock --model $model: model_elapsed_s per rank within 15 % (floor 10 ms)" 15 0.010 \
        $np "$out.out" "$out" "$launcher" -q --model "$model" -o "$out" "$known" model-lock -k 5 -d 10
done
# MPI_Win_lock_all epochs (the odd ranks'): a shared lock on every rank,
# granted after the exclusive holders before it.
out="$work/lockall"
timed_within "model-lock -m lockall --model perfect: model_elapsed_s per rank within 15 % (floor 10 ms)" 15 0.010 \
    $np "$out.out" "$out" "$launcher" -q --model perfect -o "$out" "$known" model-lock -m lockall -k 5 -d 10
# MPI_Issend: the MPI_Wait that completes it waits for the receive (a
# round takes 2 D; D while the model did not wait for it).
out="$work/sync-issend"
timed_within "model-sync -m issend --model perfect: model_elapsed_s per rank within 15 % (floor 10 ms)" 15 0.010 \
    $np "$out.out" "$out" "$launcher" -q --model perfect -o "$out" "$known" model-sync -m issend -k 5 -d 10
for size in 1048576 8; do
    out="$work/sync-send-$size"
    timed_within "model-sync -m send -s $size --model lat=100,bw=100: model_elapsed_s per rank within 15 % (floor 10 ms)" \
        15 0.010 $np "$out.out" "$out" "$launcher" -q --model lat=100,bw=100 -o "$out" "$known" model-sync -m send \
        -s $size -k 5 -d 10
done

# The replay: on 2 ranks (one per core) with 10 rounds of 20 ms, every
# workload's modelled elapsed equals the replay of its own measured
# computations by the model's rules within 5 % (floor 3 ms); measured at
# 0.4 to 2.4 % on both MPIs, under lat/bw and perfect (issue 33).
for w in model-compute model-icompute model-comm model-sends model-rma model-chain model-sync model-lock; do
    out="$work/replay-$w"
    timed_within "$w --model lat=100,bw=100 on 2 ranks: model_elapsed_s per rank within 5 % (floor 3 ms)" 5 0.003 \
        2 "$out.out" "$out" "$launcher" -q --model lat=100,bw=100 -o "$out" "$known" $w -k 10 -d 20
done

# A processor twice as fast (MPInside's spelling): half the computation.
timed_within "model-chain --model PERFECT+0.5: model_elapsed_s per rank within 15 % (floor 10 ms)" 15 0.010 \
    $np "$work/half.out" "$work/half" "$launcher" -q --model PERFECT+0.5 -o "$work/half" "$known" model-chain -k 5 -d 10

# (2) model.txt: the model named, per rank elapsed, mpi and compute, and one
# row per function called with the calls and real time of functions.txt.
rep="$work/model-chain-lat=100,bw=100"
check "model.txt names the model and the speed-up" grep -q \
    '^# model: lat=100us,bw=100MB/s,cpu=1,o=0us,g=0us,eager=65536B real_elapsed_s=[0-9.]* model_elapsed_s=[0-9.]* predicted_speedup=[0-9.]*$' \
    "$rep/model.txt"
check "model.txt: speed-up = largest real elapsed / largest modelled elapsed (summary.txt)" awk '
    FNR == NR && /^# model:/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); h[kv[1]] = kv[2] } next }
    FNR == NR { next }
    /^#/ { next }
    { if ($2 > real) real = $2; if ($8 > model) model = $8 }
    END { d = real / model - h["predicted_speedup"]; if (d < 0) d = -d
          exit !(d < 0.001 && real > 0 && h["real_elapsed_s"] + 0 == real + 0) }' "$rep/model.txt" "$rep/summary.txt"
awk '!/^#/ && $2 ~ /^MPI_/ { print $1, $2, $3, $4 }' "$rep/model.txt" | sort > "$work/actual"
awk '!/^#/ { print $1, $2, $3, $4 }' "$rep/functions.txt" | sort > "$work/expected"
same_rows "model.txt: calls and real time per function as in functions.txt"
check "model.txt: elapsed, mpi and compute per rank; modelled mpi + compute = modelled elapsed" awk -v np=$np '
    !/^#/ && $2 == "elapsed" { e[$1] = $5; n++ }
    !/^#/ && $2 == "mpi" { m[$1] = $5 }
    !/^#/ && $2 == "compute" { c[$1] = $5 }
    END { for (r = 0; r < np; r++) { d = e[r] - m[r] - c[r]; if (d < 0) d = -d; if (d > 1e-6) bad = 1 }
          exit bad || n != np }' "$rep/model.txt"

# (3) every point-to-point construct: the same output under the model.
sem="$top_builddir/tests/integration/p2psem"
snp=4
[ "$MPI_FLAVOR" = mpich ] && snp=3
run $snp "$sem" | sort > "$work/sem.plain" || fail "p2psem runs"
for model in perfect lat=1,bw=1000,cpu=0.5; do
    run $snp "$launcher" -q --model "$model" -o "$work/sem-$model" "$sem" | sort > "$work/sem.model" ||
        fail "p2psem under --model $model"
    check "p2psem: same output under --model $model" cmp "$work/sem.plain" "$work/sem.model"
done

# Every collective (blocking and nonblocking), windows and files: the same
# output and file under the model.
prog="$top_builddir/tests/integration/colls"
run 4 "$prog" > "$work/colls.plain" || fail "colls runs"
run 4 "$launcher" -q --model lat=1,bw=100 -o "$work/colls" "$prog" > "$work/colls.model" || fail "colls under --model"
check "colls: same output under --model lat=1,bw=100" cmp "$work/colls.plain" "$work/colls.model"
prog="$top_builddir/tests/integration/rmaio"
run 2 "$prog" "$work/plain.dat" > "$work/rmaio.plain" || fail "rmaio runs"
run 2 "$launcher" -q --model perfect -o "$work/rmaio" "$prog" "$work/model.dat" > "$work/rmaio.model" ||
    fail "rmaio under --model"
check "rmaio: same output under --model perfect" cmp "$work/rmaio.plain" "$work/rmaio.model"
check "rmaio: same file under --model perfect" cmp "$work/plain.dat" "$work/model.dat"

# One-sided epochs: the same output under the model; with a processor twice
# as fast, every rank's modelled elapsed is half the origins' computation
# (a target's MPI_Win_wait ends when its origin's MPI_Win_complete does).
# Timed on 2 ranks: on 4 over 2 cores it is 18 to 25 % above, before
# issue 31 as after (issue 33, as model-comm above). Window creation and
# freeing keep their measured time (mpiprof(1)): MPICH 4.0.2's first
# MPI_Win_allocate takes 7 ms here, which the other rank's next barrier
# waits for, so the timing run computes 50 ms a round: with 20 ms MPICH is
# 14 % above, with 50 ms 6 to 7 % (Open MPI: 3 to 4 %, 2 %).
prog="$top_builddir/tests/integration/pscw"
run $np "$prog" 6 20 2> /dev/null | sort > "$work/pscw.plain"
run $np "$launcher" -q --model PERFECT+0.5 -o "$work/pscw-np" "$prog" 6 20 2> /dev/null | sort > "$work/pscw.model"
check "pscw: every rank ok" test "$(grep -c ' ok, ' "$work/pscw.plain")" -eq $np
check "pscw: same output under --model PERFECT+0.5" cmp "$work/pscw.plain" "$work/pscw.model"
what="pscw --model PERFECT+0.5 on 2 ranks: model_elapsed_s per rank within 20 % (floor 10 ms) of half the computation"
for try in 1 2; do          # a miss on a busy node is run once more (as timed, lib.sh)
    rm -rf "$work/pscw"
    run_timed 2 "$launcher" -q --model PERFECT+0.5 -o "$work/pscw" "$prog" 6 50 2> "$work/pscw.err" > /dev/null
    half=$(awk -F= '/^compute_s=/ { printf "%.6f", $2 / 2 }' "$work/pscw.err")
    echo "expect=pscw column=model_elapsed_s values=$half,$half" > "$work/pscw.expect"
    if within 20 0.010 "$work/pscw.expect" "$work/pscw"; then
        ok "$what"
        break
    fi
    echo "try $try of 2 missed: $what"
    [ $try -eq 2 ] && fail "$what"
done

# (4) without the option: no model.txt, summary.txt as before.
run 2 "$launcher" -q -o "$work/off" "$known" imbalance -k 1 -d 0 > /dev/null || fail "a run without --model"
check "no model.txt without --model" test ! -e "$work/off/model.txt"
check "no model_elapsed_s column without --model" grep -qx '# rank elapsed_s mpi_s mpi_pct compute_s mpi_calls profiler_s' \
    "$work/off/summary.txt"

# (5) calibration: mpiprof-calibrate writes its table and prints a model
# that uses it, and with it the modelled elapsed of PingPong and Allreduce
# (the runs it measured) and of model-comm is within 30 % of their real
# elapsed, per rank: for PingPong and Allreduce the elapsed
# of a run without the model (a run with it is slower by its tokens, about
# 1 us a message, which the model cannot see; model-comm sends 10). The
# real times follow the load of
# this shared 2-core machine from one run to the next (and the calibration
# was made at another moment): up to 3 attempts, each logged, the first
# within 30 % passes.
# real_vs_model REAL MODEL: MODEL's modelled elapsed within 30 % of REAL's
# elapsed, per rank.
real_vs_model() {
    awk 'FNR == NR { if (!/^#/) real[$1] = $2; next }
         !/^#/ { d = $8 - real[$1]; if (d < 0) d = -d
                 printf "rank %d: real %.4f s, modelled %.4f s\n", $1, real[$1], $8
                 if (d > 0.3 * real[$1]) bad = 1; n++ } END { exit bad || n != 2 }' "$1/summary.txt" "$2/summary.txt"
}
# Each attempt holds the run lock (lib.sh) alone from the calibration to
# the last run it predicts, so that no other test's run comes between
# them (the runs are started plainly inside it: lib.sh's run_timed would
# wait for the lock held here).
hold() { command -v flock > /dev/null 2>&1 && { exec 9> "$lock"; flock -x 9; }; }
release() { command -v flock > /dev/null 2>&1 && { flock -u 9; exec 9>&-; }; }
attempt=0 good=
while [ $attempt -lt 3 ] && [ -z "$good" ]; do
    attempt=$((attempt + 1))
    echo "calibration, attempt $attempt:"
    hold
    env MPIPROF_MPI1="$top_builddir/bench/mpiprof-mpi1" "$top_builddir/tools/mpiprof-calibrate" \
        --mpirun "$MPIRUN" -o "$work/cal.txt" > "$work/cal.out" || fail "mpiprof-calibrate"
    tail -3 "$work/cal.out"
    cal=$(tail -1 "$work/cal.out")
    rm -rf "$work/pp-real" "$work/pp-model" "$work/ar-real" "$work/ar-model" "$work/comm-model"
    "$MPIRUN" -np 2 "$launcher" -q -o "$work/pp-real" "$top_builddir/bench/mpiprof-mpi1" PingPong -msglog 0:22 \
        > /dev/null || fail "PingPong under mpiprof"
    "$MPIRUN" -np 2 "$launcher" -q --model "$cal" -o "$work/pp-model" "$top_builddir/bench/mpiprof-mpi1" PingPong \
        -msglog 0:22 > /dev/null || fail "PingPong under --model $cal"
    "$MPIRUN" -np 2 "$launcher" -q -o "$work/ar-real" "$top_builddir/bench/mpiprof-mpi1" Allreduce -msglog 0:22 \
        > /dev/null || fail "Allreduce under mpiprof"
    "$MPIRUN" -np 2 "$launcher" -q --model "$cal" -o "$work/ar-model" "$top_builddir/bench/mpiprof-mpi1" Allreduce \
        -msglog 0:22 > /dev/null || fail "Allreduce under --model $cal"
    "$MPIRUN" -np 2 "$launcher" -q --model "$cal" -o "$work/comm-model" "$known" model-comm -d 2 -s 1048576 \
        > /dev/null || fail "model-comm under --model $cal"
    release
    real_vs_model "$work/pp-real" "$work/pp-model" && real_vs_model "$work/ar-real" "$work/ar-model" &&
        real_vs_model "$work/comm-model" "$work/comm-model" && good=$attempt
done
check "mpiprof-calibrate: the table printed, and table=<its absolute path> last" \
    awk -v t="$work/cal.txt" 'NR == 2 && $0 != "# shape processes bytes t_usec" { exit 1 }
        END { exit !($0 == "table=" t && NR > 100) }' "$work/cal.out"
check "mpiprof-calibrate: the line through PingPong as lat=<us>,bw=<MB/s>" \
    grep -Eqx '# without the table: lat=[0-9.]+,bw=[0-9]+' "$work/cal.out"
check "the table: PingPong's 24 sizes, and each collective's on 2 processes, bytes as the model counts them" \
    awk '!/^#/ { n[$1]++; if ($2 != 2) bad = 1; last[$1] = $3 }
         END { exit bad || n["p2p"] != 24 || n["barrier"] != 1 || n["allreduce"] != 22 || last["bcast"] != 4194304 ||
                    last["allgather"] != 8388608 || last["alltoall"] != 8388608 || !n["reduce"] || !n["reduce_scatter"] }' \
    "$work/cal.txt"
check "PingPong, Allreduce and model-comm under the calibrated model: modelled elapsed within 30 % of the real" \
    test -n "$good"

# (6) ranks that disagree: one message, no model, the job completes.
run 1 "$launcher" -o "$work/mix" --model perfect "$known" imbalance -k 3 -d 1 : \
    -np 1 "$launcher" -q --model lat=1,bw=1 "$known" imbalance -k 3 -d 1 > "$work/mix.out" 2> "$work/mix.err" ||
    fail "a job with two models"
check "disagreement: one message" test "$(grep -c 'MPIPROF_MODEL is not the same on every rank; no model' \
    "$work/mix.err")" -eq 1
check "disagreement: no model.txt" test ! -e "$work/mix/model.txt"
finish
