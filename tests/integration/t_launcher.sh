#!/bin/sh
# t_launcher.sh: mpiprof --help/--version, flags mapped onto MPIPROF_*
# variables and LD_PRELOAD, and bad usage: one line on stderr, exit 2, also
# under mpirun at 32 ranks.
. "$top_srcdir/tests/integration/lib.sh"

check "--help exits 0 and shows the usage" sh -c "'$launcher' --help | grep -q '^Usage: mpirun -np N mpiprof'"
check "--version prints the version" sh -c "'$launcher' --version | grep -qx 'mpiprof [0-9][0-9.]*'"

# Flags become variables; LD_PRELOAD keeps what was there after the library.
LD_PRELOAD_BEFORE=/nonexistent-but-kept.so
LD_PRELOAD="$LD_PRELOAD_BEFORE" "$launcher" -o out --depth=3 --functions 'MPI_Send,MPI_Recv' --slt --collwait \
    --model 'LAT=1,BW=1000' -q -- sh -c 'env' > "$work/env" 2>/dev/null
for want in MPIPROF_OUTPUT=out MPIPROF_STACK_DEPTH=3 MPIPROF_FUNCTIONS=MPI_Send,MPI_Recv MPIPROF_EVAL_SLT=1 \
            MPIPROF_EVAL_COLLECTIVE_WAIT=1 MPIPROF_MODEL=LAT=1,BW=1000 MPIPROF_QUIET=1 \
            "LD_PRELOAD=$MPIPROF_PRELOAD:$LD_PRELOAD_BEFORE"; do
    check "sets $want" grep -qx "$want" "$work/env"
done

# From the build tree it was made in, without MPIPROF_PRELOAD: that tree's
# library, not the installed path's; an installed copy (elsewhere) keeps
# the installed path.
env -u MPIPROF_PRELOAD "$launcher" -q -- sh -c 'echo "$LD_PRELOAD"' > "$work/pre" 2>&1
check "from the build tree: its own library" grep -q "^\(.*:\)\?$(cd "$top_builddir" && pwd -P)/.libs/libmpiprof.so" \
    "$work/pre"
mkdir -p "$work/bin"
cp "$launcher" "$work/bin/mpiprof"
env -u MPIPROF_PRELOAD "$work/bin/mpiprof" -q -- sh -c 'echo "$LD_PRELOAD"' > "$work/inst" 2>&1
check "a copy elsewhere: the installed library's path (or that it cannot read it)" \
    sh -c 'grep -q "/lib/libmpiprof.so" "$1" && ! grep -q "/.libs/" "$1"' sh "$work/inst"

# Bad usage: exactly one line on stderr naming the problem, status 2, nothing run.
bad() {
    what=$1
    pattern=$2
    shift 2
    "$@" > "$work/out" 2> "$work/err"
    status=$?
    if [ "$status" -eq 2 ] && [ "$(wc -l < "$work/err")" -eq 1 ] && grep -q -e "$pattern" "$work/err" &&
       [ ! -s "$work/out" ]; then
        ok "$what: $(cat "$work/err")"
    else
        fail "$what: status $status, stderr: $(cat "$work/err"), stdout: $(cat "$work/out")"
    fi
}
bad "unknown flag" "unknown option '--bogus'" "$launcher" --bogus echo run
bad "depth not a number" "--depth 'banana' is not valid" "$launcher" --depth banana echo run
bad "depth out of range" "--depth '33' is not valid" "$launcher" --depth 33 echo run
bad "depth zero" "--depth '0' is not valid" "$launcher" --depth=0 echo run
bad "flag without its value" "option '-o' needs a value" "$launcher" -o
bad "no program" "no program to run" "$launcher" --slt
bad "library missing" "cannot read the profiling library '/nonexistent/libmpiprof.so'" \
    env MPIPROF_PRELOAD=/nonexistent/libmpiprof.so "$launcher" echo run

# A mistake under mpirun at a size where Open MPI's mpirun (4.1) is still
# starting ranks when rank 0's launcher exits: with the other ranks exiting
# 2 (five seconds later, or at once) it hung until killed, then segfaulted
# in PMIx_Finalize (issue 49). The job ends at once, with status 2, one
# line, nothing written. 32 ranks oversubscribed (MPICH's mpirun busy-polls:
# 4); the bound is generous for a loaded 2-core machine, where it takes 2 to
# 6 s, and a hang is cut at 40 s.
big=32
[ "$MPI_FLAVOR" = mpich ] && big=4
mix="$top_builddir/tests/integration/mix"
for mistake in "--bogus|unknown option '--bogus'" "--model perfekt|--model 'perfekt' is not valid"; do
    flag=${mistake%%|*}
    said=${mistake#*|}
    rm -rf "$work/bigjob" "$work/bigjob".*
    start=$(date +%s)
    with_lock -s timeout -k 5 40 "$MPIRUN" -np $big "$launcher" -o "$work/bigjob" $flag "$mix" \
        < /dev/null > "$work/big.out" 2> "$work/big.err"
    status=$?
    took=$(($(date +%s) - start))
    lines=$(grep -c '^mpiprof: ' "$work/big.err")
    if [ "$status" -eq 2 ] && [ "$lines" -eq 1 ] && grep -q "^mpiprof: $said" "$work/big.err" &&
       [ "$took" -lt 20 ] && [ ! -s "$work/big.out" ] && ! ls -d "$work/bigjob"* > /dev/null 2>&1; then
        ok "$flag on $big ranks: status 2 in $took s, one line, nothing written"
    else
        fail "$flag on $big ranks: status $status in $took s (bound 20), $lines mpiprof lines, written: $(ls -d "$work/bigjob"* 2> /dev/null), stderr:"
        head -20 "$work/big.err"
    fi
done
finish
