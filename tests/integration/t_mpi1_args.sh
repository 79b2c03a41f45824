#!/bin/sh
# t_mpi1_args.sh: mpiprof-mpi1's command line: a bad flag, value, file or
# benchmark name gives exactly one line on stderr naming it, exit status 2
# and no output, on 2 processes (a few cases: Open MPI's mpirun takes over a
# second to end a job with a non-zero status) and as a singleton (the
# others); -h prints the usage and runs nothing; names
# match in any case; -input adds the names of a file; -mem leaves out the
# lengths that do not fit, saying so; every flag of the usage is in the man
# page.
. "$top_srcdir/tests/integration/lib.sh"
. "$top_srcdir/tests/integration/t_mpi1_lib.sh"

printf '# no lengths\n\n' > "$work/empty"
printf '0\n12\nlots\n' > "$work/badlen"
printf '# a selection\nbarrier\n\nNoSuchThing\n' > "$work/badsel"
printf '# a selection\n  BARRIER  \n' > "$work/sel"

# bad NP EXPECTED-TEXT ARGS...: start mpiprof-mpi1 ARGS on NP processes (0: a
# singleton, no mpirun; these run in the background, all at once); verdicts
# then checks that each one wrote one line on stderr containing its
# EXPECTED-TEXT, nothing on stdout, and exited with status 2.
cases=0
bad() {
    cases=$((cases + 1))
    c="$work/case$cases"
    np=$1
    printf '%s\n' "$2" > "$c.want"
    shift 2
    echo "np $np $*" > "$c.args"
    if [ "$np" -eq 0 ]; then
        ("$mpi1" "$@" > "$c.out" 2> "$c.err"; echo $? > "$c.rc") &
    else
        # shellcheck disable=SC2086
        with_lock -s "$MPIRUN" $quiet -np "$np" "$mpi1" "$@" > "$c.out" 2> "$c.err"
        echo $? > "$c.rc"
    fi
}

verdicts() {
    wait
    i=1
    while [ "$i" -le "$cases" ]; do
        c="$work/case$i"
        want=$(cat "$c.want") rc=$(cat "$c.rc") lines=$(wc -l < "$c.err")
        if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && [ ! -s "$c.out" ] &&
            grep -q -e "^mpiprof-mpi1: .*$want" "$c.err"; then
            ok "$(cat "$c.args"): $(cat "$c.err")"
        else
            fail "$(cat "$c.args"): status $rc (want 2), $lines stderr lines (want 1 with '$want'), $(wc -l < "$c.out") stdout lines"
            cat "$c.err"
        fi
        i=$((i + 1))
    done
}

bad 0 "'-bogus'" -bogus
bad 0 "-npmin: '0'" -npmin 0
bad 0 "-multi: '2'" -multi 2
bad 0 "-iter: '0'" -iter 0
bad 0 "'-iter' needs a value" -iter
bad 0 "-time: '0'" -time 0
bad 0 "-mem: '-1'" -mem -1
bad 0 "-msglog: '3:2'" -msglog 3:2
bad 0 "-msglog: '31'" -msglog 31
bad 0 "-map: '3x1'" -map 3x1
bad 0 "-msglen: cannot read" -msglen "$work/none"
bad 0 "no length in the file" -msglen "$work/empty"
bad 0 "line 3: 'lots'" -msglen "$work/badlen"
bad 0 "line 4: unknown benchmark 'NoSuchThing'" -input "$work/badsel"
bad 0 "exclude each other" -msglog 2 -msglen "$work/badlen"
wait
bad 2 "unknown benchmark 'Pingpongs'" PingPong Pingpongs
bad 2 "-map: 1x1 has fewer" -map 1x1
verdicts

run 2 "$mpi1" -iter 0 -h > "$work/help" 2> "$work/help.err"
check "-h: status 0, usage, nothing run" sh -c "grep -q '^Usage: mpirun -np P mpiprof-mpi1' '$work/help' &&
    ! grep -q Benchmarking '$work/help'"

run 2 "$mpi1" pInGpOnG -input "$work/sel" -msglog 0:1 -iter 3 > "$work/sel.out" || fail "names in any case and -input run"
tables "$work/sel.out" | awk '{ print $1, $5, $6 }' | tr '\n' ' ' > "$work/sel.got"
check "names in any case, then -input's: PingPong then Barrier" \
    grep -qx 'PingPong 0 3 PingPong 1 3 PingPong 2 3 Barrier - 3 ' "$work/sel.got"

# -mem 0.0015 GiB = 1610612 bytes; on 2 processes Alltoall needs 4x bytes
# of buffers (2 x 2x), Sendrecv 2x.
run 2 "$mpi1" Alltoall Sendrecv -msglog 18:20 -iter 1 -mem 0.0015 > "$work/mem.out" || fail "-mem runs"
tables "$work/mem.out" | awk '{ print $1, $5 }' | tr '\n' ' ' > "$work/mem.got"
check "-mem 0.0015: Alltoall up to 2^18, Sendrecv up to 2^19" \
    grep -qx 'Alltoall 0 Alltoall 262144 Sendrecv 0 Sendrecv 262144 Sendrecv 524288 ' "$work/mem.got"
check "-mem: the lengths left out are named with the bytes they need" awk '
    /^# 524288 bytes: not run, needs 2097152 bytes of buffers per process, more than -mem 0.0015 GiB$/ { a++ }
    /^# 1048576 bytes: not run, needs 4194304 bytes/ { b++ }
    /^# 1048576 bytes: not run, needs 2097152 bytes/ { c++ }
    END { exit !(a == 1 && b == 1 && c == 1) }' "$work/mem.out"

# Every flag of the usage text is in the man page.
sed -n 's/^  \(-[a-z]*\).*/\1/p' "$work/help" > "$work/flags"
check "usage lists 12 flags" test "$(wc -l < "$work/flags")" -eq 12
for f in $(cat "$work/flags"); do
    check "man page documents $f" grep -q "^\.B[IR]* *\\\\$f" "$top_srcdir/man/mpiprof-mpi1.1"
done
finish
