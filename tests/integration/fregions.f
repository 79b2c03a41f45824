! fregions.f: MPI_PCONTROL regions from Fortran (include 'mpif.h'), for
! t_regions.sh: region 'setup' (1 MPI_BARRIER), then 5 times region
! 'work' (2 MPI_ALLREDUCE of one double) with trailing blanks in its name,
! then collecting stopped around 7 MPI_BARRIER. Levels 0 and 1 get a name
! too: gfortran rejects one file's calls with different argument counts.
      PROGRAM FREGIONS
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, I, J
      DOUBLE PRECISION X, Y
      CHARACTER*8 WORK

      WORK = 'work'
      X = 1
      CALL MPI_INIT(IERR)
      CALL MPI_PCONTROL(2, 'setup')
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      CALL MPI_PCONTROL(-2, 'setup')
      DO 20 I = 1, 5
        CALL MPI_PCONTROL(2, WORK)
        DO 10 J = 1, 2
          CALL MPI_ALLREDUCE(X, Y, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &                       MPI_COMM_WORLD, IERR)
   10   CONTINUE
        CALL MPI_PCONTROL(-2, 'work')
   20 CONTINUE
      CALL MPI_PCONTROL(0, ' ')
      DO 30 I = 1, 7
        CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
   30 CONTINUE
      CALL MPI_PCONTROL(1, ' ')
      CALL MPI_FINALIZE(IERR)
      END
