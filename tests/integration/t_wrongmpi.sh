#!/bin/sh
# t_wrongmpi.sh: a program of the other MPI (issue 36, item 2). regions.c
# and fmix77.f built with the other MPI's compilers (OTHER_MPICC,
# OTHER_MPIRUN; default mpicc.X, mpif90.X, mpirun.X for the
# MPI this build is not for) are refused by the library in MPI_Init before
# it calls the MPI, however they were started (by the launcher under either
# MPI's mpirun, which it then names, or alone; by sh -c; a Fortran program
# preloaded by hand): exit status 2, one line per job naming both MPIs and
# what to do, no output of the program. Run in both builds, this checks both ways. A program of this
# build's MPI and a non-MPI program are let through, its output unchanged.
# Skipped (77) when the other MPI is not installed.
. "$top_srcdir/tests/integration/lib.sh"

case $MPI_FLAVOR in
    openmpi) other=mpich ;;
    mpich) other=openmpi ;;
    *) echo "SKIP: MPI_FLAVOR '$MPI_FLAVOR'"; exit 77 ;;
esac
name() { case $1 in openmpi) echo "Open MPI" ;; mpich) echo MPICH ;; esac; }
OTHER_MPICC=${OTHER_MPICC:-mpicc.$other} OTHER_MPIRUN=${OTHER_MPIRUN:-mpirun.$other}
OTHER_MPIFORT=${OTHER_MPIFORT:-mpif90.$other}
command -v "$OTHER_MPICC" > /dev/null && command -v "$OTHER_MPIRUN" > /dev/null ||
    { echo "SKIP: no $OTHER_MPICC or $OTHER_MPIRUN"; exit 77; }

np=2
limit=60
prog=$work/other
"$OTHER_MPICC" -o "$prog" "$top_srcdir/tests/integration/regions.c" 2> "$work/cc.err" ||
    { fail "$OTHER_MPICC regions.c"; cat "$work/cc.err"; }
said="mpiprof: this mpiprof is built for $(name "$MPI_FLAVOR"), but the program runs $(name $other) [0-9][0-9.]*; use an mpiprof built for $(name $other) (configure --with-mpicc=mpicc\.$other)"
said_library="$said; stopped before MPI_Init"

# refused WHAT HOW WANT STATUS command...: the command (status STATUS, or
# "any" but 0) prints nothing on stdout and on stderr exactly one mpiprof
# line, WANT: a fixed string (HOW -F) or a regular expression (HOW -G).
refused() {
    local what=$1 how=$2 want=$3 status=$4 got
    shift 4
    echo "+ $*" >&2
    with_lock -s timeout $limit "$@" < /dev/null > "$work/bad.out" 2> "$work/bad.err"
    got=$?
    if { [ "$status" = any ] && [ $got -ne 0 ] || [ $got = "$status" ]; } && [ ! -s "$work/bad.out" ] &&
        [ "$(grep -c '^mpiprof: ' "$work/bad.err")" -eq 1 ] && grep -qx $how -- "$want" "$work/bad.err"; then
        ok "$what: status $got, $(grep '^mpiprof: ' "$work/bad.err")"
    else
        fail "$what: status $got, stdout $(wc -l < "$work/bad.out") lines, stderr:"
        cat "$work/bad.err"
    fi
}

# Started by the launcher: alone, under the other MPI's mpirun and under
# this one's (which the line names too).
refused "launcher, no mpirun" -G "$said_library" 2 "$launcher" "$prog"
refused "launcher under $OTHER_MPIRUN" -G "$said_library" any "$OTHER_MPIRUN" -np $np "$launcher" "$prog"
refused "launcher under $MPIRUN" -G "$said under $(name $other)'s mpirun; stopped before MPI_Init" any \
    "$MPIRUN" -np $np "$launcher" "$prog"
# Started by sh -c.
refused "library (mpiprof sh -c) under $OTHER_MPIRUN" -G "$said_library" any \
    "$OTHER_MPIRUN" -np $np "$launcher" sh -c 'exec "$0"' "$prog"
# Fortran's MPI_INIT: the program reaches its MPI through its Fortran
# library, loaded after this library's MPI.
if command -v "$OTHER_MPIFORT" > /dev/null; then
    "$OTHER_MPIFORT" -o "$prog-f" "$top_srcdir/tests/integration/fmix77.f" 2> "$work/fc.err" ||
        { fail "$OTHER_MPIFORT fmix77.f"; cat "$work/fc.err"; }
    refused "library, Fortran MPI_INIT, preloaded by hand" -G "$said_library" 2 \
        env LD_PRELOAD="$MPIPROF_PRELOAD" "$prog-f"
else
    echo "no $OTHER_MPIFORT: Fortran not checked"
fi

# Let through: a non-MPI program under the other MPI's mpirun, and a
# program of this build's MPI.
with_lock -s timeout $limit "$OTHER_MPIRUN" -np $np "$launcher" sh -c 'echo ok' > "$work/sh.out" 2> "$work/sh.err"
check "mpiprof sh -c 'echo ok' under $OTHER_MPIRUN: status 0, its output, nothing said" \
    test $? -eq 0 -a "$(grep -cx ok "$work/sh.out")" -eq $np -a ! -s "$work/sh.err"
run_compare $np "$top_builddir/tests/integration/regions"
finish
