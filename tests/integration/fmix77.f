! fmix77.f: a known mix of MPI calls from Fortran 77-style code
! (include 'mpif.h', fixed form, upper-case calls), whose counts, bytes
! and call sites t_fortran.sh checks exactly (run on 2 ranks; any P >= 2
! works). Rank 0 prints every rank's checksum of what it received,
! identical with and without the profiler. "! site SUB MPI_X" marks a
! call site t_fortran.sh looks for in branches.txt (SUB as reported: the
! procedure's symbol).
      PROGRAM FMIX77
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, NP, LEFT, RIGHT, I
      DOUBLE PRECISION CHK, ALL(64)
      COMMON /F77CK/ CHK

      CHK = 0
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NP, IERR)
      LEFT = MOD(RANK + NP - 1, NP)
      RIGHT = MOD(RANK + 1, NP)
      CALL EXCH(RANK, LEFT, RIGHT)
      CALL NBLOCK(LEFT, RIGHT)
      CALL COLLS(RANK, NP)
      CALL GATHER(ALL)
      IF (RANK .EQ. 0) THEN
        DO 10 I = 1, NP
          PRINT '(A,I0,A,F0.1)', 'rank ', I - 1, ' checksum ', ALL(I)
   10   CONTINUE
      END IF
      CALL MPI_FINALIZE(IERR)
      END

! Blocking exchange of 7 doubles around the ring, status read back.
      SUBROUTINE EXCH(RANK, LEFT, RIGHT)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER RANK, LEFT, RIGHT, K, N, I, IERR, DT, COMM
      INTEGER ST(MPI_STATUS_SIZE)
      DOUBLE PRECISION A(7), B(7), CHK
      COMMON /F77CK/ CHK

      DT = MPI_DOUBLE_PRECISION
      COMM = MPI_COMM_WORLD

      DO 10 I = 1, 7
        A(I) = RANK * 10 + I
   10 CONTINUE
      DO 20 K = 0, 1
        IF ((K .EQ. 0) .EQV. (RANK .EQ. 0)) THEN
          CALL MPI_SEND(A, 7, DT, RIGHT, 3, COMM, IERR)   ! site exch_ MPI_Send
        ELSE
          CALL MPI_RECV(B, 7, DT, LEFT, 3, COMM, ST, IERR)   ! site exch_ MPI_Recv
        END IF
   20 CONTINUE
      CALL MPI_GET_COUNT(ST, DT, N, IERR)
      CHK = CHK + N * 1000 + ST(MPI_SOURCE) * 10 + ST(MPI_TAG)
      DO 30 I = 1, 7
        CHK = CHK + B(I) * I
   30 CONTINUE
      CALL MPI_SENDRECV_REPLACE(A, 4, MPI_DOUBLE_PRECISION, RIGHT, 4,
     &     LEFT, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE, IERR)
      CHK = CHK + A(1) + 2 * A(4)
      END

! Nonblocking: Wait with statuses, Waitall with MPI_STATUSES_IGNORE,
! Testall on completed (null) requests.
      SUBROUTINE NBLOCK(LEFT, RIGHT)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER LEFT, RIGHT, I, IERR
      INTEGER REQ(2), ST(MPI_STATUS_SIZE), E(8), EIN(8), F(3), FIN(3)
      LOGICAL FLAG
      DOUBLE PRECISION CHK
      COMMON /F77CK/ CHK

      DO 10 I = 1, 8
        E(I) = LEFT * 8 + I
   10 CONTINUE
      CALL MPI_IRECV(EIN, 8, MPI_INTEGER, LEFT, 12, MPI_COMM_WORLD,
     &     REQ(1), IERR)
      CALL MPI_ISEND(E, 8, MPI_INTEGER, RIGHT, 12, MPI_COMM_WORLD,
     &     REQ(2), IERR)
      CALL MPI_WAIT(REQ(1), ST, IERR)   ! site nblock_ MPI_Wait
      CHK = CHK + ST(MPI_TAG) + EIN(1) + EIN(8)
      CALL MPI_WAIT(REQ(2), MPI_STATUS_IGNORE, IERR)
      IF (REQ(1) .EQ. MPI_REQUEST_NULL) CHK = CHK + 1

      F(1) = 1
      F(2) = 2
      F(3) = LEFT
      CALL MPI_IRECV(FIN, 3, MPI_INTEGER, RIGHT, 13, MPI_COMM_WORLD,
     &     REQ(1), IERR)
      CALL MPI_ISEND(F, 3, MPI_INTEGER, LEFT, 13, MPI_COMM_WORLD,
     &     REQ(2), IERR)
      CALL MPI_WAITALL(2, REQ, MPI_STATUSES_IGNORE, IERR)
      CALL MPI_TESTALL(2, REQ, FLAG, MPI_STATUSES_IGNORE, IERR)
      IF (FLAG) CHK = CHK + 2
      CHK = CHK + FIN(1) + FIN(2) * 2 + FIN(3) * 3
      END

! Collectives: Bcast, Reduce, Allreduce in place, Scatter, Alltoall,
! Barrier, and a split communicator freed again.
      SUBROUTINE COLLS(RANK, NP)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER RANK, NP, I, IERR, HALF, HRANK, DT, COMM
      INTEGER R3(3), R3OUT(3), SC(192), SCIN(3), AT(64), ATIN(64)
      DOUBLE PRECISION B50(50), A2(2), CHK
      COMMON /F77CK/ CHK

      DT = MPI_DOUBLE_PRECISION
      COMM = MPI_COMM_WORLD

      DO 10 I = 1, 50
        B50(I) = -1
        IF (RANK .EQ. 0) B50(I) = I * 0.5D0
   10 CONTINUE
      CALL MPI_BCAST(B50, 50, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD,
     &     IERR)
      DO 20 I = 1, 50
        CHK = CHK + B50(I)
   20 CONTINUE

      R3(1) = RANK
      R3(2) = 2
      R3(3) = 3
      CALL MPI_REDUCE(R3, R3OUT, 3, MPI_INTEGER, MPI_SUM, 0,
     &     MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0) CHK = CHK + R3OUT(1) + R3OUT(2) + R3OUT(3)

      A2(1) = RANK + 0.5D0
      A2(2) = 1
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, A2, 2, DT, MPI_SUM, COMM, IERR)   ! site colls_ MPI_Allreduce
      CHK = CHK + A2(1) * 2 + A2(2)

      DO 30 I = 1, 3 * NP
        SC(I) = I * 7
   30 CONTINUE
      CALL MPI_SCATTER(SC, 3, MPI_INTEGER, SCIN, 3, MPI_INTEGER, 0,
     &     MPI_COMM_WORLD, IERR)
      CHK = CHK + SCIN(1) + SCIN(3)

      DO 40 I = 1, NP
        AT(I) = RANK * 100 + I
   40 CONTINUE
      CALL MPI_ALLTOALL(AT, 1, MPI_INTEGER, ATIN, 1, MPI_INTEGER,
     &     MPI_COMM_WORLD, IERR)
      DO 50 I = 1, NP
        CHK = CHK + ATIN(I) * I
   50 CONTINUE
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)

      CALL MPI_COMM_SPLIT(MPI_COMM_WORLD, 0, NP - RANK, HALF, IERR)
      CALL MPI_COMM_RANK(HALF, HRANK, IERR)
      CHK = CHK + HRANK * 3
      CALL MPI_COMM_FREE(HALF, IERR)
      IF (HALF .EQ. MPI_COMM_NULL) CHK = CHK + 4
      END

! Every rank's checksum to rank 0.
      SUBROUTINE GATHER(ALL)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR
      DOUBLE PRECISION ALL(*), CHK
      COMMON /F77CK/ CHK
      CALL MPI_GATHER(CHK, 1, MPI_DOUBLE_PRECISION, ALL, 1,
     &     MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, IERR)
      END
