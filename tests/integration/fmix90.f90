! fmix90.f90: a known mix of MPI calls from Fortran 90 (use mpi), whose
! counts, bytes and call sites t_fortran.sh checks exactly (run on 2 ranks;
! any P >= 2 works). Exercises what the Fortran entry points convert:
! handles in and out, request and status arrays, MPI_STATUS(ES)_IGNORE,
! 1-based indices, MPI_IN_PLACE, MPI_BOTTOM. Rank 0 prints every rank's
! checksum of what it received, identical with and without the profiler.
! "! site SUB_ MPI_X" marks a call site t_fortran.sh looks for, "! caller"
! the call of SUB it expects as that site's ancestor at depth 2.
program fmix90
  use mpi
  implicit none
  integer :: ierr, rank, np, left, right, namelen
  integer(8) :: chk, all(64)
  character(len=MPI_MAX_PROCESSOR_NAME) :: pname
  common /fmixck/ chk

  chk = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  left = mod(rank + np - 1, np)
  right = mod(rank + 1, np)
  call ring(rank, left, right)   ! caller MAIN__ ring_
  call nonblocking(left, right)
  call persistent(rank, left, right)
  call collectives(rank, np)
  call communicators(rank)
  call datatypes(rank, left, right)
  ! Not converted (a string): the MPI library's own Fortran binding does it.
  call MPI_Get_processor_name(pname, namelen, ierr)
  call MPI_Gather(chk, 1, MPI_INTEGER8, all, 1, MPI_INTEGER8, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a,i0,a,i0)', ('rank ', left, ' checksum ', all(left + 1), left = 0, np - 1)
  call MPI_Finalize(ierr)
end program fmix90

! Blocking ring of 10 integers, a status read back, then a probed message.
subroutine ring(rank, left, right)
  use mpi
  implicit none
  integer, intent(in) :: rank, left, right
  integer :: a(10), b(10), five(5), st(MPI_STATUS_SIZE), n, i, k, ierr
  integer(8) :: chk
  common /fmixck/ chk

  a = [(rank * 100 + i, i = 1, 10)]
  do k = 0, 1
    if ((k == 0) .eqv. (rank == 0)) then
      call MPI_Send(a, 10, MPI_INTEGER, right, 1, MPI_COMM_WORLD, ierr)   ! site ring_ MPI_Send
    else
      call MPI_Recv(b, 10, MPI_INTEGER, left, 1, MPI_COMM_WORLD, st, ierr)   ! site ring_ MPI_Recv
    end if
  end do
  call MPI_Get_count(st, MPI_INTEGER, n, ierr)
  chk = chk + sum(b) + 1000 * n + 10 * st(MPI_SOURCE) + st(MPI_TAG)

  five = [5, 4, 3, 2, 1]
  if (rank == 1) call MPI_Send(five, 5, MPI_INTEGER, 0, 99, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    call MPI_Probe(1, 99, MPI_COMM_WORLD, st, ierr)   ! site ring_ MPI_Probe
    call MPI_Get_count(st, MPI_INTEGER, n, ierr)
    call MPI_Recv(five, n, MPI_INTEGER, st(MPI_SOURCE), st(MPI_TAG), MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    chk = chk + sum(five * [1, 2, 3, 4, 5])
  end if
end subroutine ring

! Nonblocking exchanges completed by Waitall (statuses), Waitany (indices),
! Wait, Waitsome (one active request, then none), Test, and a Waitall of 40.
subroutine nonblocking(left, right)
  use mpi
  implicit none
  integer, intent(in) :: left, right
  double precision :: d(16, 2), din(16, 2)
  integer :: req(4), sts(MPI_STATUS_SIZE, 4), st(MPI_STATUS_SIZE), t3(3), t3in(3, 2), fv(5), fvin(5)
  integer :: idx, idxs(2), outcount, i, k, ierr, big(20), bigin(20), breq(40), bsts(MPI_STATUS_SIZE, 40)
  logical :: flag
  integer(8) :: chk
  common /fmixck/ chk

  d(:, 1) = [(left + i * 0.5d0, i = 1, 16)]
  d(:, 2) = [(right + i * 0.25d0, i = 1, 16)]
  call MPI_Irecv(din(1, 1), 16, MPI_DOUBLE_PRECISION, left, 10, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Irecv(din(1, 2), 16, MPI_DOUBLE_PRECISION, right, 11, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Isend(d(1, 1), 16, MPI_DOUBLE_PRECISION, right, 10, MPI_COMM_WORLD, req(3), ierr)
  call MPI_Isend(d(1, 2), 16, MPI_DOUBLE_PRECISION, left, 11, MPI_COMM_WORLD, req(4), ierr)
  call MPI_Waitall(4, req, sts, ierr)   ! site nonblocking_ MPI_Waitall
  chk = chk + int(sum(din) * 4) + 100 * sts(MPI_SOURCE, 1) + sts(MPI_TAG, 2) + count(req == MPI_REQUEST_NULL)

  t3 = [1, 2, 3]
  call MPI_Irecv(t3in(1, 1), 3, MPI_INTEGER, left, 5, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Irecv(t3in(1, 2), 3, MPI_INTEGER, right, 6, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Isend(t3, 3, MPI_INTEGER, right, 5, MPI_COMM_WORLD, req(3), ierr)
  call MPI_Isend(t3, 3, MPI_INTEGER, left, 6, MPI_COMM_WORLD, req(4), ierr)
  do k = 1, 4
    call MPI_Waitany(4, req, idx, MPI_STATUS_IGNORE, ierr)
    chk = chk + 10 ** (idx - 1)
  end do
  chk = chk + sum(t3in)

  fv = [9, 8, 7, 6, 5]
  call MPI_Irecv(fvin, 5, MPI_INTEGER, left, 7, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Isend(fv, 5, MPI_INTEGER, right, 7, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Wait(req(2), st, ierr)
  do k = 1, 2
    call MPI_Waitsome(2, req, outcount, idxs, sts, ierr)
    chk = chk + 7 * outcount
    if (outcount == 1) chk = chk + 100 * idxs(1) + sts(MPI_TAG, 1) + sum(fvin)
  end do
  call MPI_Test(req(1), flag, st, ierr)
  if (flag) chk = chk + 1

  ! More requests than the Fortran entries convert on the stack.
  do k = 1, 20
    big(k) = k + 1000 * left
    call MPI_Irecv(bigin(k), 1, MPI_INTEGER, left, 100 + k, MPI_COMM_WORLD, breq(k), ierr)
  end do
  do k = 1, 20
    call MPI_Isend(big(k), 1, MPI_INTEGER, right, 100 + k, MPI_COMM_WORLD, breq(20 + k), ierr)
  end do
  call MPI_Waitall(40, breq, bsts, ierr)
  chk = chk + sum(bigin) + sum(bsts(MPI_TAG, 1:20)) + count(breq == MPI_REQUEST_NULL)
end subroutine nonblocking

! Persistent requests: 6 integers, started three times by Startall.
subroutine persistent(rank, left, right)
  use mpi
  implicit none
  integer, intent(in) :: rank, left, right
  integer :: six(6), sixin(6), pr(2), it, ierr
  integer(8) :: chk
  common /fmixck/ chk

  six = [6, 5, 4, 3, 2, rank]
  call MPI_Recv_init(sixin, 6, MPI_INTEGER, left, 8, MPI_COMM_WORLD, pr(1), ierr)
  call MPI_Send_init(six, 6, MPI_INTEGER, right, 8, MPI_COMM_WORLD, pr(2), ierr)
  do it = 1, 3
    call MPI_Startall(2, pr, ierr)   ! site persistent_ MPI_Startall
    call MPI_Waitall(2, pr, MPI_STATUSES_IGNORE, ierr)
    chk = chk + sum(sixin) * it
    six(1) = six(1) + 1
  end do
  call MPI_Request_free(pr(1), ierr)
  call MPI_Request_free(pr(2), ierr)
  if (pr(1) == MPI_REQUEST_NULL .and. pr(2) == MPI_REQUEST_NULL) chk = chk + 3
end subroutine persistent

! Collectives on MPI_COMM_WORLD, MPI_IN_PLACE where MPI allows it.
subroutine collectives(rank, np)
  use mpi
  implicit none
  integer, intent(in) :: rank, np
  integer :: b100(100), a5(5), counts(np), displs(np), rcounts(np), rdispls(np), g(2 * np), j, i, total, ierr
  integer, allocatable :: gv(:), src(:), av(:)
  double precision :: r10(10), r10out(10)
  integer(8) :: chk
  common /fmixck/ chk

  b100 = -1
  if (rank == 0) b100 = [(3 * i, i = 1, 100)]
  call MPI_Bcast(b100, 100, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)   ! site collectives_ MPI_Bcast
  chk = chk + sum(b100)

  r10 = [(rank + i, i = 1, 10)]
  if (rank == 1) then
    call MPI_Reduce(MPI_IN_PLACE, r10, 10, MPI_DOUBLE_PRECISION, MPI_SUM, 1, MPI_COMM_WORLD, ierr)
    chk = chk + int(sum(r10))
  else
    call MPI_Reduce(r10, r10out, 10, MPI_DOUBLE_PRECISION, MPI_SUM, 1, MPI_COMM_WORLD, ierr)
  end if

  a5 = [rank, 1, 2, 3, 4]
  call MPI_Allreduce(MPI_IN_PLACE, a5, 5, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)   ! site collectives_ MPI_Allreduce
  chk = chk + sum(a5 * [1, 2, 3, 4, 5])

  total = 0
  do j = 1, np
    counts(j) = j
    displs(j) = total
    total = total + j
  end do
  allocate(gv(total), src(total), av(np * (rank + 1)))
  gv = -1
  gv(displs(rank + 1) + 1 : displs(rank + 1) + rank + 1) = [(rank * 10 + i, i = 0, rank)]
  call MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_INTEGER, gv, counts, displs, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  chk = chk + sum(gv * [(i, i = 1, total)])

  do j = 1, np
    rcounts(j) = rank + 1
    rdispls(j) = (j - 1) * (rank + 1)
  end do
  src = [(rank * 1000 + i, i = 1, total)]
  call MPI_Alltoallv(src, counts, displs, MPI_INTEGER, av, rcounts, rdispls, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  chk = chk + sum(av)

  g = -1
  g(2 * rank + 1 : 2 * rank + 2) = [rank, 2 * rank]
  if (rank == 0) then
    call MPI_Gather(MPI_IN_PLACE, 0, MPI_INTEGER, g, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    chk = chk + sum(g * [(i, i = 1, 2 * np)])
  else
    call MPI_Gather(g(2 * rank + 1), 2, MPI_INTEGER, g, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  deallocate(gv, src, av)
end subroutine collectives

! A split communicator and its duplicate, both freed.
subroutine communicators(rank)
  use mpi
  implicit none
  integer, intent(in) :: rank
  integer :: half, dup, hsize, hrank, s, ierr
  integer(8) :: chk
  common /fmixck/ chk

  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half, ierr)
  call MPI_Comm_dup(half, dup, ierr)
  call MPI_Comm_size(dup, hsize, ierr)
  call MPI_Comm_rank(half, hrank, ierr)
  call MPI_Allreduce(rank + 1, s, 1, MPI_INTEGER, MPI_SUM, dup, ierr)
  chk = chk + 100 * hsize + 10 * hrank + s
  call MPI_Comm_free(dup, ierr)
  call MPI_Comm_free(half, ierr)
  if (dup == MPI_COMM_NULL .and. half == MPI_COMM_NULL) chk = chk + 5
end subroutine communicators

! Derived datatypes: a contiguous type, and a struct at absolute addresses
! sent from MPI_BOTTOM.
subroutine datatypes(rank, left, right)
  use mpi
  implicit none
  integer, intent(in) :: rank, left, right
  integer :: s32(32), s32in(32), q(4, 3), qin(4, 3), xs(4), xin(4), t4, tb, blen(1), types(1), i, ierr
  integer :: st(MPI_STATUS_SIZE)
  integer(kind=MPI_ADDRESS_KIND) :: addr(1)
  integer(8) :: chk
  common /fmixck/ chk

  s32 = [(rank * i, i = 1, 32)]
  call MPI_Sendrecv(s32, 32, MPI_INTEGER, right, 9, s32in, 32, MPI_INTEGER, left, 9, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
  chk = chk + sum(s32in)

  call MPI_Type_contiguous(4, MPI_INTEGER, t4, ierr)
  call MPI_Type_commit(t4, ierr)
  q = reshape([(rank + i, i = 1, 12)], [4, 3])
  call MPI_Sendrecv(q, 3, t4, right, 20, qin, 3, t4, left, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  chk = chk + sum(qin)
  call MPI_Type_free(t4, ierr)

  xs = [11, 22, 33, rank]
  call MPI_Get_address(xs, addr(1), ierr)
  blen(1) = 4
  types(1) = MPI_INTEGER
  call MPI_Type_create_struct(1, blen, addr, types, tb, ierr)
  call MPI_Type_commit(tb, ierr)
  call MPI_Sendrecv(MPI_BOTTOM, 1, tb, right, 21, xin, 4, MPI_INTEGER, left, 21, MPI_COMM_WORLD, st, ierr)   ! site datatypes_ MPI_Sendrecv
  chk = chk + sum(xin * [1, 2, 3, 4]) + st(MPI_SOURCE)
  call MPI_Type_free(tb, ierr)
  if (t4 == MPI_DATATYPE_NULL .and. tb == MPI_DATATYPE_NULL) chk = chk + 7
end subroutine datatypes
