#!/bin/sh
# reports.sh: the last test of make check-sanitizers (tests/Makefile.inc):
# none of the reports the sanitizers wrote during the tests before it is
# libprof's (check-reports.sh). No report at all means the sanitizers were
# not loaded: the MPI libraries' leaks give every process one.
[ -n "${MPIPROF_SAN_REPORTS:-}" ] || { echo "SKIP: only under make check-sanitizers"; exit 77; }
set -- "$MPIPROF_SAN_REPORTS"/san.*
[ -e "$1" ] || { echo "FAIL: no report in $MPIPROF_SAN_REPORTS: were the sanitizers loaded?"; exit 1; }
exec ${SHELL:-/bin/sh} "$top_srcdir/tests/sanitizers/check-reports.sh" "$@"
