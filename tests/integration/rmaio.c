/* rmaio.c: one-sided and MPI-IO calls with known sizes for t_rmaio.sh (2
 * ranks, MPI_INT = 4 bytes). Each rank, towards the other one in one fence
 * epoch: MPI_Put 5 ints, MPI_Get 3, MPI_Accumulate 4, MPI_Get_accumulate 2
 * (origin) and 2 (result), MPI_Fetch_and_op 1, MPI_Compare_and_swap 1,
 * MPI_Rput 2. Then on the file FILE (argument): MPI_File_write_at 10 ints,
 * MPI_File_read_at 10, MPI_File_write_at_all 6, MPI_File_read_at_all 6,
 * MPI_File_iwrite_at 2 (completed by MPI_Wait). Prints what it read. */
#include <stdio.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int r, size, buf[64], win_mem[64], res[8];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2 || argc != 2) {
        if (r == 0)
            fprintf(stderr, "rmaio: run on 2 ranks with a file name\n");
        MPI_Finalize();
        return 2;
    }
    int other = 1 - r, one = 1, cmp = 0;
    for (int i = 0; i < 64; i++)
        buf[i] = win_mem[i] = r * 100 + i;

    MPI_Win win;
    MPI_Request q;
    MPI_Win_create(win_mem, sizeof win_mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Put(buf, 5, MPI_INT, other, 0, 5, MPI_INT, win);
    MPI_Get(res, 3, MPI_INT, other, 10, 3, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Accumulate(buf, 4, MPI_INT, other, 20, 4, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    MPI_Get_accumulate(buf, 2, MPI_INT, res + 3, 2, MPI_INT, other, 30, 2, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    MPI_Fetch_and_op(&one, res + 5, MPI_INT, other, 40, MPI_SUM, win);
    MPI_Win_fence(0, win);
    MPI_Compare_and_swap(&one, &cmp, res + 6, MPI_INT, other, 50, win);
    MPI_Win_fence(0, win);
    MPI_Win_lock(MPI_LOCK_SHARED, other, 0, win);
    MPI_Rput(buf, 2, MPI_INT, other, 60, 2, MPI_INT, win, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_Win_unlock(other, win);
    MPI_Win_free(&win);

    MPI_File fh;
    int in[10];
    MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    MPI_File_write_at(fh, r * 40, buf, 10, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);
    MPI_File_read_at(fh, other * 40, in, 10, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_write_at_all(fh, 80 + r * 24, buf, 6, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_read_at_all(fh, 80 + r * 24, in, 6, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_iwrite_at(fh, 128 + r * 8, buf, 2, MPI_INT, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);

    if (r == 0)
        printf("window %d %d %d, get %d %d %d, file %d %d\n", win_mem[0], win_mem[20], win_mem[40],
               res[0], res[1], res[2], in[0], in[5]);
    MPI_Finalize();
    return 0;
}
