#!/bin/sh
# check-reports.sh: the reports of make check-sanitizers (AddressSanitizer,
# LeakSanitizer and UBSan, written to $MPIPROF_SAN_REPORTS/san.PID) or of
# valgrind's memcheck (t_valgrind.sh) must hold none that is libprof's.
# Those that are:
#   * every AddressSanitizer error and UBSan runtime error: libprof is the
#     only instrumented code in the process;
#   * a leak or a memcheck error whose stack, read from the allocation or
#     the faulting call outwards, reaches a frame of libprof (libmpiprof.so,
#     libprof/*/*.c, the generated wrappers) other than a wrapper calling the
#     MPI library: libprof allocated the memory, or created the MPI object,
#     or passed the bytes.
# A wrapper (an MPI_* or mpi_*_ entry point, or its inlined w_MPI_*) that
# calls into the MPI library makes the program's own call: what that call
# leaves is the MPI library's (Open MPI's and MPICH's MPI_Init and
# MPI_Finalize keep memory until exit), and so is a report with no libprof
# frame (the MPI library's threads). These are counted and ignored. A
# report of the MPI library that would count otherwise is suppressed in
# valgrind.supp, with its reason. LeakSanitizer's stacks stop at the first
# MPI frame (its fast unwinder needs frame pointers, which the MPI libraries
# lack), so it finds memory libprof allocates itself; MPI objects libprof
# leaves behind are valgrind's to find (full stacks).
#
#   check-reports.sh FILE...   prints the reports that are libprof's and a
#                              summary line; exits 1 if there is one.
AWK=${AWK:-awk}
if [ $# -eq 0 ]; then
    echo "0 report files"
    exit 0
fi
$AWK '
    FNR == 1 { flush(); file = FILENAME; n_files++ }
    # valgrind: every line starts with ==PID==
    { sub(/^==[0-9]+== ?/, "") }
    /^$/ { flush(); next }
    { block = block $0 "\n" }
    END { flush()
          printf "%d report file(s): %d report(s) of libprof, %d of the MPI library (ignored)\n",
                 n_files, bad, ignored
          exit bad > 0 }
    # The function of a stack line: ASan "#3 0x... in FN file", valgrind
    # "at|by 0x...: FN (file)"; "" for other lines.
    function frame_fn(line, w) {
        if (line ~ /^ *#[0-9]+ 0x[0-9a-f]+ in /) {
            split(line, w, " ")
            return w[4]
        }
        if (line ~ /^ *(at|by) 0x[0-9A-Fa-f]+: /) {
            split(line, w, " ")
            return w[3]
        }
        return ""
    }
    # Whether a block counts against libprof: its first libprof frame from the top is
    # not a wrapper whose callee (the frame above it) is the MPI library.
    function libprofs(b, lines, n, i, fn, callee) {
        n = split(b, lines, "\n")
        for (i = 1; i <= n; i++) {
            fn = frame_fn(lines[i])
            if (fn == "")
                continue
            if (lines[i] ~ /libmpiprof|libprof\/|wrappers\/wrap_[cf]\.c/)
                return !(fn ~ /^(w_)?(MPI|mpi)_/ && callee ~ /libmpi|libmpich|libopen-(pal|rte)|P?MPI_|pmpi_/)
            callee = lines[i]
        }
        return 0
    }
    # One report: a leak or memcheck error is a block of lines; an ASan
    # error runs over several blocks, up to its SUMMARY line.
    function flush() {
        if (block == "")
            return
        if (asan) {
            printf "%s", block
            asan = block !~ /SUMMARY: AddressSanitizer/
        } else if (block ~ /ERROR: AddressSanitizer|runtime error:/ || libprofs(block)) {
            printf "---- libprof report in %s:\n%s", file, block
            asan = block ~ /ERROR: AddressSanitizer/
            bad++
        } else if (block ~ /(at|by|#[0-9]+) 0x/) {
            ignored++
        }
        block = ""
    }' "$@"
