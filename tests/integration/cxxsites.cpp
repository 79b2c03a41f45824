// cxxsites.cpp: call sites in C++ for t_cxxsites.sh, built with -O0 -g.
// Each rank, on MPI_COMM_WORLD: 3 MPI_Sendrecv to its right neighbour from
// the function template ring::shift<double> (marked "// site: shift"); 2
// MPI_Bcast from a lambda in main ("// site: lambda"); 1 MPI_Allreduce from
// total(), which is always inlined into main ("// site: total", called at
// "// site: total call"); 1 MPI_Barrier through total_count(), a function
// always inlined into count_all(), itself always inlined into main (a chain
// of two). Prints the sum, the same with or without the profiler.
#include <mpi.h>
#include <cstdio>
#include <vector>

namespace ring {
template <typename T>
__attribute__((noinline)) void shift(std::vector<T> &v, MPI_Datatype type, MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    std::vector<T> in(v.size());
    MPI_Sendrecv(v.data(), (int)v.size(), type, (rank + 1) % size, 0, in.data(), (int)in.size(), type, // site: shift
                 (rank + size - 1) % size, 0, comm, MPI_STATUS_IGNORE);
    v.swap(in);
}
} // namespace ring

static inline __attribute__((always_inline)) void total(double *x, MPI_Comm comm)
{
    MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_DOUBLE, MPI_SUM, comm); // site: total
}

static inline __attribute__((always_inline)) void total_count(MPI_Comm comm)
{
    MPI_Barrier(comm); // site: barrier
}

static inline __attribute__((always_inline)) void count_all(MPI_Comm comm)
{
    total_count(comm); // site: barrier call
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    std::vector<double> v(4, rank + 1.0);
    for (int i = 0; i < 3; i++)
        ring::shift(v, MPI_DOUBLE, MPI_COMM_WORLD);
    auto bcast = [](double x) {
        MPI_Bcast(&x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD); // site: lambda
        return x;
    };
    double s = bcast(2.0) + bcast(3.0) + v[0];
    total(&s, MPI_COMM_WORLD); // site: total call
    count_all(MPI_COMM_WORLD); // site: barrier call in main
    if (rank == 0)
        std::printf("cxxsites: sum %.1f\n", s);
    MPI_Finalize();
    return 0;
}
