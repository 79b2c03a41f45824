# pysites.py: an mpi4py program on 2 ranks for t_python.sh (issue 35).
# Each MPI call the test checks is on a line marked "# py: NAME", so that
# the test finds its line number: the same MPI function on different
# lines (two Irecv, Send in two functions), a call in a loop, calls from
# two threads at one line, and, with a library's path given as the first
# argument, MPI called through that library (libviatest, vialib.c) by
# ctypes. Prints what the ranks received: the same with and without the
# profiler.
import array
import ctypes
import sys
import threading

from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
peer = 1 - rank


def exchange(n):
    buf = array.array("d", [rank] * 4)
    for _ in range(n):
        if rank == 0:
            comm.Send([buf, MPI.DOUBLE], dest=1, tag=1)  # py: send
        else:
            comm.Recv([buf, MPI.DOUBLE], source=0, tag=1)  # py: recv
    return buf[0]


def two_irecvs():
    a, b = array.array("i", [0]), array.array("i", [0])
    r1 = comm.Irecv([a, MPI.INT], source=MPI.ANY_SOURCE, tag=7)  # py: irecv one
    r2 = comm.Irecv([b, MPI.INT], source=MPI.ANY_SOURCE, tag=8)  # py: irecv two
    comm.Send([array.array("i", [10 + rank]), MPI.INT], dest=peer, tag=8)  # py: send two
    comm.Send([array.array("i", [20 + rank]), MPI.INT], dest=peer, tag=7)  # py: send two more
    MPI.Request.Waitall([r1, r2])
    return a[0] + b[0]


def worker(t, got):
    x = array.array("i", [0])
    for _ in range(t + 1):
        comm.Sendrecv([array.array("i", [t]), MPI.INT], dest=peer, sendtag=30 + t,  # py: thread
                      recvbuf=[x, MPI.INT], source=peer, recvtag=30 + t)
    got[t] = x[0]


def threads():
    got = [None, None]
    ts = [threading.Thread(target=worker, args=(t, got)) for t in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return got


def through_library(path):
    lib = ctypes.CDLL(path)
    handle = ctypes.c_int if MPI._sizeof(MPI.Comm) == ctypes.sizeof(ctypes.c_int) else ctypes.c_void_p
    lib.lib_store.argtypes = [ctypes.c_int, handle]
    return lib.lib_store(rank + 1, MPI._handleof(comm))  # py: library


def main():
    first = exchange(3)  # py: main exchange
    comm.Barrier()  # py: barrier
    out = [first, two_irecvs(), threads()]
    if len(sys.argv) > 1:
        out.append(through_library(sys.argv[1]))
    sys.stdout.write(" ".join(map(str, [rank] + out)) + "\n")  # one write: the ranks' lines stay whole


main()
