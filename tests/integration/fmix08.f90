! fmix08.f90: a few MPI calls through use mpi_f08 (handles of derived
! types, optional ierror, an array section as a choice buffer), for
! t_fortran.sh on 2 ranks: profiled like use mpi calls (exact counts,
! bytes, call sites) with Open MPI and with MPICH, whose procedures with a
! choice buffer take array descriptors (a strided section stays strided).
! MPI_Pcontrol(0) stops collecting for an MPI_Barrier (MPICH).
! Rank 0 prints every rank's checksum. "! site" as in fmix90.f90.
program fmix08
  use mpi_f08
  implicit none
  integer :: rank, np, ierr, i, a(6), b(6), c(4), cin(4), s(3)
  integer(8) :: chk, all(64)
  type(MPI_Status) :: st
  type(MPI_Request) :: req(2)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  a = [(rank * 10 + i, i = 1, 6)]
  if (rank == 0) call MPI_Send(a, 6, MPI_INTEGER, 1, 4, MPI_COMM_WORLD)   ! site MAIN__ MPI_Send
  if (rank == 1) call MPI_Recv(b, 6, MPI_INTEGER, 0, 4, MPI_COMM_WORLD, st, ierr)   ! site MAIN__ MPI_Recv
  chk = 0
  if (rank == 1) chk = sum(b) + 100 * st%MPI_SOURCE + st%MPI_TAG
  b = 0
  if (rank == 0) call MPI_Send(a(1:6:2), 3, MPI_INTEGER, 1, 6, MPI_COMM_WORLD)   ! site MAIN__ MPI_Send
  if (rank == 1) call MPI_Recv(b(2:6:2), 3, MPI_INTEGER, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE)   ! site MAIN__ MPI_Recv
  if (rank == 1) chk = chk + 1000 * sum(b * [1, 2, 3, 4, 5, 6])

  c = [1, 2, 3, rank]
  call MPI_Irecv(cin, 4, MPI_INTEGER, mod(rank + np - 1, np), 5, MPI_COMM_WORLD, req(1))
  call MPI_Isend(c, 4, MPI_INTEGER, mod(rank + 1, np), 5, MPI_COMM_WORLD, req(2))
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE)   ! site MAIN__ MPI_Waitall
  chk = chk + sum(cin * [1, 2, 3, 4])
  if (req(1) == MPI_REQUEST_NULL) chk = chk + 1

  s = [rank, 1, 2]
  call MPI_Allreduce(MPI_IN_PLACE, s, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)   ! site MAIN__ MPI_Allreduce
  chk = chk + sum(s * [1, 2, 3])
  call MPI_Pcontrol(0)
  call MPI_Barrier(MPI_COMM_WORLD)
  call MPI_Pcontrol(1)
  call MPI_Gather(chk, 1, MPI_INTEGER8, all, 1, MPI_INTEGER8, 0, MPI_COMM_WORLD)
  if (rank == 0) print '(a,i0,a,i0)', ('rank ', i, ' checksum ', all(i + 1), i = 0, np - 1)
  call MPI_Finalize(ierr)
end program fmix08
