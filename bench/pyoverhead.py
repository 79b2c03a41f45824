# pyoverhead.py: the time per call of a few mpi4py calls, on 2 ranks, run
# unprofiled and profiled by bench/python-overhead.sh: comm.Get_rank()
# (MPI_Comm_rank), comm.Iprobe() (MPI_Iprobe, nothing pending) and a
# 1-byte comm.Send/comm.Recv round trip divided by 2 (one message each
# way, as mpiprof-overhead does). Each: a warm-up loop of N calls, then R
# loops of N timed with time.perf_counter_ns; the median of the R per-call
# times, printed by rank 0 as "NAME NS". The loops run 8 Python frames
# below the module, so that depth 5 walks a full Python stack.
#   python3 pyoverhead.py [N [R]]
import statistics
import sys
import time

from mpi4py import MPI

comm = MPI.COMM_WORLD
rank = comm.Get_rank()
N = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
R = int(sys.argv[2]) if len(sys.argv) > 2 else 11
buf = bytearray(1)


def comm_rank(n):
    for _ in range(n):
        comm.Get_rank()


def iprobe(n):
    for _ in range(n):
        comm.Iprobe(source=1 - rank, tag=99)


def send_recv(n):
    for _ in range(n):
        if rank == 0:
            comm.Send([buf, MPI.BYTE], dest=1, tag=1)
            comm.Recv([buf, MPI.BYTE], source=1, tag=1)
        else:
            comm.Recv([buf, MPI.BYTE], source=0, tag=1)
            comm.Send([buf, MPI.BYTE], dest=0, tag=1)


def measure(name, loop, per):
    loop(N)
    times = []
    for _ in range(R):
        comm.Barrier()
        t = time.perf_counter_ns()
        loop(N)
        times.append((time.perf_counter_ns() - t) / (N * per))
    if rank == 0:
        sys.stdout.write("%s %.1f\n" % (name, statistics.median(times)))


def nest(level):
    if level:
        return nest(level - 1)
    measure("comm.Get_rank", comm_rank, 1)
    measure("comm.Iprobe", iprobe, 1)
    measure("comm.Send+Recv", send_recv, 2)
    return 0


nest(8)
