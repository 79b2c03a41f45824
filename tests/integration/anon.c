/* anon.c: MPI called from code outside every module, for t_anon.sh (2
 * ranks, x86-64). A 19-byte trampoline is copied into two anonymous
 * executable mappings (at different addresses, and not the same on the two
 * ranks): it calls MPI_Barrier with the communicator it was given, so the
 * barrier's return address is in anonymous memory, as for JIT code. Each
 * rank calls the first copy 3 times and the second 2 times: 5 calls that
 * must be one branch "[anon]", with the same id on both ranks; then one
 * MPI_Barrier from main itself, a branch of its own. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <mpi.h>

typedef int (*barrier_fn)(MPI_Comm);

/* sub $8,%rsp; movabs $target,%rax; call *%rax; add $8,%rsp; ret */
static barrier_fn trampoline(void *target, size_t pad)
{
    unsigned char code[] = { 0x48, 0x83, 0xec, 0x08, 0x48, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0,
                             0xff, 0xd0, 0x48, 0x83, 0xc4, 0x08, 0xc3 };
    uint64_t t = (uintptr_t)target;
    memcpy(code + 6, &t, sizeof t);
    unsigned char *p = mmap(NULL, pad + sizeof code, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    memcpy(p + pad, code, sizeof code);
    if (mprotect(p, pad + sizeof code, PROT_READ | PROT_EXEC) != 0)
        return NULL;
    return (barrier_fn)(void *)(p + pad);
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    barrier_fn first = trampoline((void *)MPI_Barrier, 64 * (size_t)rank);
    barrier_fn second = trampoline((void *)MPI_Barrier, 4096 + 128 * (size_t)rank);
    int ok = first && second, all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (all) {
        for (int i = 0; i < 3; i++)
            first(MPI_COMM_WORLD);
        for (int i = 0; i < 2; i++)
            second(MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);   /* the main barrier */
    if (rank == 0)
        printf("%s\n", all ? "5 barriers through anonymous code" : "cannot map executable memory");
    MPI_Finalize();
    return 0;
}
