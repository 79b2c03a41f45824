/* h5static.c: a parallel HDF5 program for t_h5static.sh (issue 50), built
 * with the MPI's h5pcc, which links HDF5 into the executable: each rank
 * writes its block of one dataset three times, collectively, from the line
 * marked "// user: write", then rank 0 reads the dataset back and prints
 * its sum. */
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>

#define N 1024

static void write_block(hid_t dset, hid_t fspace, hid_t mspace, int rank, const int *buf)
{
    hsize_t start = (hsize_t)rank * N, count = N;
    H5Sselect_hyperslab(fspace, H5S_SELECT_SET, &start, NULL, &count, NULL);
    hid_t xfer = H5Pcreate(H5P_DATASET_XFER);
    H5Pset_dxpl_mpio(xfer, H5FD_MPIO_COLLECTIVE);
    H5Dwrite(dset, H5T_NATIVE_INT, mspace, fspace, xfer, buf); // user: write
    H5Pclose(xfer);
}

int main(int argc, char **argv)
{
    int rank, size, buf[N];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < N; i++)
        buf[i] = rank * N + i;
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    hid_t file = H5Fcreate(argc > 1 ? argv[1] : "h5static.h5", H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    hsize_t dims = (hsize_t)size * N, mdims = N;
    hid_t fspace = H5Screate_simple(1, &dims, NULL), mspace = H5Screate_simple(1, &mdims, NULL);
    hid_t dset = H5Dcreate2(file, "x", H5T_NATIVE_INT, fspace, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    for (int k = 0; k < 3; k++)
        write_block(dset, fspace, mspace, rank, buf);
    H5Dclose(dset);
    H5Fclose(file);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        static int all[64 * N];
        long sum = 0;
        hid_t f = H5Fopen(argc > 1 ? argv[1] : "h5static.h5", H5F_ACC_RDONLY, H5P_DEFAULT);
        hid_t d = H5Dopen2(f, "x", H5P_DEFAULT);
        if (size <= 64 && H5Dread(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, all) >= 0)
            for (int i = 0; i < size * N; i++)
                sum += all[i];
        H5Dclose(d);
        H5Fclose(f);
        printf("h5static: %ld\n", sum);
    }
    H5Sclose(fspace);
    H5Sclose(mspace);
    H5Pclose(fapl);
    MPI_Finalize();
    return 0;
}
