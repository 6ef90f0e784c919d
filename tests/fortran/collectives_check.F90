! Every collective hiercoll handles, called from Fortran through one of the
! three bindings, chosen when compiling (tests/fortran/BUILD):
! -DBINDING_MPIF_H (include 'mpif.h'), -DBINDING_USE_MPI (use mpi) or
! -DBINDING_MPI_F08 (use mpi_f08).  Results are checked against closed
! forms over rank numbers (rank r's element i is 1000 r + i), on
! MPI_COMM_WORLD and on a communicator in reverse rank order, with
! MPI_IN_PLACE, MPI_BOTTOM, non-default roots, counts 0, 1, odd and large,
! a non-commutative user operation on a derived datatype, error classes
! under MPI_ERRORS_RETURN, and hints set from Fortran.  The nonblocking and
! persistent forms and the functions that complete them:
! requests_check.F90, #included below.
!
! Rank 0 prints "fortran <binding>: N checks, F failed on P ranks" and one line per
! operation, "fortran-expect: <op> served=S native=N": the calls each rank
! made that hiercoll must serve, and those that hints hand to MPI, so that
! tests/fortran/fortran_test.sh compares them with HIERCOLL_STATS.
#if defined(BINDING_MPI_F08)
#define HANDLE(kind) type(kind)
#define BINDING_NAME 'use mpi_f08'
#elif defined(BINDING_USE_MPI)
#define HANDLE(kind) integer
#define BINDING_NAME 'use mpi'
#else
#define HANDLE(kind) integer
#define BINDING_NAME 'mpif.h'
#endif

module checks
#if defined(BINDING_MPI_F08)
  use mpi_f08
#elif defined(BINDING_USE_MPI)
  use mpi
#endif
  implicit none
#if !defined(BINDING_MPI_F08) && !defined(BINDING_USE_MPI)
  include 'mpif.h'
#endif

  ! Operations in the order of HIERCOLL_STATS's lines.
  integer, parameter :: K_BCAST = 1, K_REDUCE = 2, K_ALLREDUCE = 3, K_ALLGATHER = 4, &
       K_REDUCE_SCATTER_BLOCK = 5, K_REDUCE_SCATTER = 6, K_ALLTOALL = 7, K_SCAN = 8, &
       K_EXSCAN = 9, K_BARRIER = 10, K_GATHER = 11, K_SCATTER = 12, K_GATHERV = 13, &
       K_SCATTERV = 14, K_ALLGATHERV = 15, K_ALLTOALLV = 16, K_ALLTOALLW = 17, NOPS = 17
  character(len=20), parameter :: op_names(NOPS) = [character(len=20) :: 'bcast', 'reduce', &
       'allreduce', 'allgather', 'reduce_scatter_block', 'reduce_scatter', 'alltoall', 'scan', &
       'exscan', 'barrier', 'gather', 'scatter', 'gatherv', 'scatterv', 'allgatherv', 'alltoallv', &
       'alltoallw']
  integer, parameter :: LARGE = 70001   ! elements: segmented and pipelined paths
  integer, parameter :: PRIME = 1009    ! the affine maps' modulus

  integer :: served(NOPS) = 0, native(NOPS) = 0
  integer :: nchecks = 0, failures = 0
  integer :: noted_errors = 0, noted_class = 0   ! by note_error
  integer :: world_rank, rank, nprocs   ! rank and size in the communicator under test
  character(len=16) :: comm_name

contains

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    nchecks = nchecks + 1
    if (ok) return
    failures = failures + 1
    if (failures <= 20) print '(a,i0,4a)', 'rank ', world_rank, ': FAILED on ', trim(comm_name), ': ', what
  end subroutine expect

  ! A call that hiercoll serves returned success.
  subroutine done(k, ierr)
    integer, intent(in) :: k, ierr
    call expect(ierr == MPI_SUCCESS, trim(op_names(k)) // ' returned an error')
    served(k) = served(k) + 1
  end subroutine done

  ! Rank r's elements 1..n.
  function series(r, n) result(s)
    integer, intent(in) :: r, n
    integer :: s(n), i
    s = [(1000 * r + i, i = 1, n)]
  end function series

  ! series(0, n) + ... + series(upto - 1, n).
  function total(n, upto) result(s)
    integer, intent(in) :: n, upto
    integer :: s(n), i
    s = [(1000 * (upto * (upto - 1) / 2) + upto * i, i = 1, n)]
  end function total

  ! series(0, m), series(1, m), ..., series(nb - 1, m) one after another.
  function blocks(m, nb) result(s)
    integer, intent(in) :: m, nb
    integer :: s(m * nb), j
    s = [(series(j, m), j = 0, nb - 1)]
  end function blocks

  ! Rank r's n affine maps x -> a x + b mod PRIME, as (a, b) pairs.
  function affine_of(r, n) result(m)
    integer, intent(in) :: r, n
    integer :: m(2, n), k
    m = reshape([([mod(7 * r + 3 * k + 2, PRIME), mod(13 * r + k, PRIME)], k = 1, n)], [2, n])
  end function affine_of

  ! inout(:, k) = in(:, k) followed by inout(:, k): associative, not commutative.
  subroutine compose(in, inout, n)
    integer, intent(in) :: n, in(2, n)
    integer, intent(inout) :: inout(2, n)
    integer :: k
    do k = 1, n
      inout(:, k) = [mod(inout(1, k) * in(1, k), PRIME), mod(inout(1, k) * in(2, k) + inout(2, k), PRIME)]
    end do
  end subroutine compose

  ! The maps of ranks 0..upto-1 composed in rank order.
  function affine_total(n, upto) result(s)
    integer, intent(in) :: n, upto
    integer :: s(2, n), m(2, n), r
    s(1, :) = 1
    s(2, :) = 0
    do r = 0, upto - 1
      m = affine_of(r, n)
      call compose(s, m, n)
      s = m
    end do
  end function affine_total

  subroutine check_bcast(comm)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer, allocatable :: a(:)
    integer :: root, n, ierr, j
    integer, parameter :: counts(4) = [0, 1, 7, LARGE]
    do root = 0, nprocs - 1
      do j = 1, size(counts)
        n = counts(j)
        if (n == LARGE .and. root /= nprocs - 1) cycle
        allocate (a(n))
        a = -1
        if (rank == root) a = series(root, n)
        call MPI_Bcast(a, n, MPI_INTEGER, root, comm, ierr)
        call done(K_BCAST, ierr)
        call expect(all(a == series(root, n)), 'bcast')
        deallocate (a)
      end do
    end do
  end subroutine check_bcast

  ! MPI_BOTTOM with datatypes of absolute addresses: bcast (two blocks with
  ! a gap) and allgather.
  subroutine check_bottom(comm)
    HANDLE(MPI_Comm), intent(in) :: comm
    HANDLE(MPI_Datatype) :: absolute, gathered
    integer :: a(5), want(5), g(2 * nprocs), ierr
    integer(kind=MPI_ADDRESS_KIND) :: where(2)
    want = series(nprocs - 1, 5)
    want(3) = -7
    a = -1
    if (rank == nprocs - 1) a = want
    a(3) = -7
    call MPI_Get_address(a(1), where(1), ierr)
    call MPI_Get_address(a(4), where(2), ierr)
    call MPI_Type_create_hindexed(2, [2, 2], where, MPI_INTEGER, absolute, ierr)
    call MPI_Type_commit(absolute, ierr)
    call MPI_F_sync_reg(a)
    call MPI_Bcast(MPI_BOTTOM, 1, absolute, nprocs - 1, comm, ierr)
    call done(K_BCAST, ierr)
    call MPI_F_sync_reg(a)
    call expect(all(a == want), 'bcast to MPI_BOTTOM')
    call MPI_Type_free(absolute, ierr)

    g = -1
    call MPI_Get_address(g, where(1), ierr)
    call MPI_Type_create_hindexed(1, [2], where, MPI_INTEGER, gathered, ierr)
    call MPI_Type_commit(gathered, ierr)
    call MPI_Allgather(series(rank, 2), 2, MPI_INTEGER, MPI_BOTTOM, 1, gathered, comm, ierr)
    call done(K_ALLGATHER, ierr)
    call MPI_F_sync_reg(g)
    call expect(all(g == blocks(2, nprocs)), 'allgather to MPI_BOTTOM')
    call MPI_Type_free(gathered, ierr)
  end subroutine check_bottom

  subroutine check_reduce(comm)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer :: s(7), r(7), root, ierr
    integer, allocatable :: big(:), bigr(:)
    root = nprocs - 1
    s = series(rank, 7)
    r = -1
    call MPI_Reduce(s, r, 7, MPI_INTEGER, MPI_SUM, root, comm, ierr)
    call done(K_REDUCE, ierr)
    if (rank == root) call expect(all(r == total(7, nprocs)), 'reduce sum')

    r = s
    if (rank == root) then
      call MPI_Reduce(MPI_IN_PLACE, r, 7, MPI_INTEGER, MPI_SUM, root, comm, ierr)
    else
      call MPI_Reduce(s, r, 7, MPI_INTEGER, MPI_SUM, root, comm, ierr)
    end if
    call done(K_REDUCE, ierr)
    if (rank == root) call expect(all(r == total(7, nprocs)), 'reduce in place')

    allocate (big(LARGE), bigr(LARGE))
    big = series(rank, LARGE)
    bigr = -1
    call MPI_Reduce(big, bigr, LARGE, MPI_INTEGER, MPI_MAX, 0, comm, ierr)
    call done(K_REDUCE, ierr)
    if (rank == 0) call expect(all(bigr == series(nprocs - 1, LARGE)), 'reduce max, large')
  end subroutine check_reduce

  subroutine check_allreduce(comm)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer :: s(7), r(7), ierr, i
    double precision, allocatable :: d(:), dr(:)
    logical :: l(3), lr(3)
    complex(kind(0d0)) :: z(2), zr(2)
    s = series(rank, 7)
    call MPI_Allreduce(s, r, 7, MPI_INTEGER, MPI_SUM, comm, ierr)
    call done(K_ALLREDUCE, ierr)
    call expect(all(r == total(7, nprocs)), 'allreduce sum')

    r = s
    call MPI_Allreduce(MPI_IN_PLACE, r, 7, MPI_INTEGER, MPI_SUM, comm, ierr)
    call done(K_ALLREDUCE, ierr)
    call expect(all(r == total(7, nprocs)), 'allreduce in place')

    allocate (d(LARGE), dr(LARGE))
    d = [(rank + 0.5d0 * i, i = 1, LARGE)]
    call MPI_Allreduce(d, dr, LARGE, MPI_DOUBLE_PRECISION, MPI_MAX, comm, ierr)
    call done(K_ALLREDUCE, ierr)
    call expect(all(dr == [(nprocs - 1 + 0.5d0 * i, i = 1, LARGE)]), 'allreduce max, double precision, large')

    ! Fortran's own types: LOGICAL, DOUBLE COMPLEX.
    l = [.true., rank /= 0, rank == 0]
    call MPI_Allreduce(l, lr, 3, MPI_LOGICAL, MPI_LAND, comm, ierr)
    call done(K_ALLREDUCE, ierr)
    call expect(all(lr .eqv. [.true., nprocs == 1, nprocs == 1]), 'allreduce land, logical')
    call MPI_Allreduce(l, lr, 3, MPI_LOGICAL, MPI_LOR, comm, ierr)
    call done(K_ALLREDUCE, ierr)
    call expect(all(lr .eqv. [.true., nprocs > 1, .true.]), 'allreduce lor, logical')
    z = [(cmplx(rank, -i * rank, kind(0d0)), i = 1, 2)]
    call MPI_Allreduce(z, zr, 2, MPI_DOUBLE_COMPLEX, MPI_SUM, comm, ierr)
    call done(K_ALLREDUCE, ierr)
    call expect(all(zr == [(cmplx(1, -i, kind(0d0)) * (nprocs * (nprocs - 1) / 2), i = 1, 2)]), &
         'allreduce sum, double complex')
  end subroutine check_allreduce

  ! A non-commutative user operation (affine_op) on a derived datatype of
  ! two INTEGERs: reduce to a middle rank, allreduce, scan.
  subroutine check_user_op(comm, affine, pair)
    HANDLE(MPI_Comm), intent(in) :: comm
    HANDLE(MPI_Op), intent(in) :: affine
    HANDLE(MPI_Datatype), intent(in) :: pair
    integer :: maps(2, 3), res(2, 3), ierr
    maps = affine_of(rank, 3)
    res = -1
    call MPI_Reduce(maps, res, 3, pair, affine, nprocs / 2, comm, ierr)
    call done(K_REDUCE, ierr)
    if (rank == nprocs / 2) call expect(all(res == affine_total(3, nprocs)), 'reduce, non-commutative')

    call MPI_Allreduce(maps, res, 3, pair, affine, comm, ierr)
    call done(K_ALLREDUCE, ierr)
    call expect(all(res == affine_total(3, nprocs)), 'allreduce, non-commutative')

    call MPI_Scan(maps, res, 3, pair, affine, comm, ierr)
    call done(K_SCAN, ierr)
    call expect(all(res == affine_total(3, rank + 1)), 'scan, non-commutative')
  end subroutine check_user_op

  subroutine check_allgather(comm)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer :: r(2 * nprocs), ierr
    r = -1
    call MPI_Allgather(series(rank, 2), 2, MPI_INTEGER, r, 2, MPI_INTEGER, comm, ierr)
    call done(K_ALLGATHER, ierr)
    call expect(all(r == blocks(2, nprocs)), 'allgather')

    r = -1
    r(2 * rank + 1:2 * rank + 2) = series(rank, 2)
    call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r, 2, MPI_INTEGER, comm, ierr)
    call done(K_ALLGATHER, ierr)
    call expect(all(r == blocks(2, nprocs)), 'allgather in place')
  end subroutine check_allgather

  subroutine check_reduce_scatter(comm)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer :: full(3 * nprocs), sums(3 * nprocs), r(3), counts(nprocs), ierr, j, first, n
    integer, allocatable :: s(:), rv(:), want(:)
    full = series(rank, 3 * nprocs)
    sums = total(3 * nprocs, nprocs)
    call MPI_Reduce_scatter_block(full, r, 3, MPI_INTEGER, MPI_SUM, comm, ierr)
    call done(K_REDUCE_SCATTER_BLOCK, ierr)
    call expect(all(r == sums(3 * rank + 1:3 * rank + 3)), 'reduce_scatter_block')

    call MPI_Reduce_scatter_block(MPI_IN_PLACE, full, 3, MPI_INTEGER, MPI_SUM, comm, ierr)
    call done(K_REDUCE_SCATTER_BLOCK, ierr)
    call expect(all(full(1:3) == sums(3 * rank + 1:3 * rank + 3)), 'reduce_scatter_block in place')

    ! Irregular counts, zero on every third rank.
    counts = [(mod(j, 3), j = 0, nprocs - 1)]
    n = sum(counts)
    first = sum(counts(1:rank))
    allocate (s(n), rv(max(1, counts(rank + 1))), want(n))
    s = series(rank, n)
    want = total(n, nprocs)
    rv = -1
    call MPI_Reduce_scatter(s, rv, counts, MPI_INTEGER, MPI_SUM, comm, ierr)
    call done(K_REDUCE_SCATTER, ierr)
    call expect(all(rv(1:counts(rank + 1)) == want(first + 1:first + counts(rank + 1))), 'reduce_scatter')

    call MPI_Reduce_scatter(MPI_IN_PLACE, s, counts, MPI_INTEGER, MPI_SUM, comm, ierr)
    call done(K_REDUCE_SCATTER, ierr)
    call expect(all(s(1:counts(rank + 1)) == want(first + 1:first + counts(rank + 1))), 'reduce_scatter in place')
  end subroutine check_reduce_scatter

  subroutine check_alltoall(comm)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer :: r(2 * nprocs), want(2 * nprocs), mine(2 * nprocs), theirs(2 * nprocs), ierr, j
    ! Block j of rank i's send buffer is elements 2j+1, 2j+2 of series(i, 2 nprocs).
    mine = series(rank, 2 * nprocs)
    do j = 0, nprocs - 1
      theirs = series(j, 2 * nprocs)
      want(2 * j + 1:2 * j + 2) = theirs(2 * rank + 1:2 * rank + 2)
    end do
    r = -1
    call MPI_Alltoall(mine, 2, MPI_INTEGER, r, 2, MPI_INTEGER, comm, ierr)
    call done(K_ALLTOALL, ierr)
    call expect(all(r == want), 'alltoall')

    call MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, mine, 2, MPI_INTEGER, comm, ierr)
    call done(K_ALLTOALL, ierr)
    call expect(all(mine == want), 'alltoall in place')
  end subroutine check_alltoall

  subroutine check_scans(comm)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer :: s(7), r(7), ierr
    s = series(rank, 7)
    call MPI_Scan(s, r, 7, MPI_INTEGER, MPI_SUM, comm, ierr)
    call done(K_SCAN, ierr)
    call expect(all(r == total(7, rank + 1)), 'scan')

    r = s
    call MPI_Scan(MPI_IN_PLACE, r, 7, MPI_INTEGER, MPI_SUM, comm, ierr)
    call done(K_SCAN, ierr)
    call expect(all(r == total(7, rank + 1)), 'scan in place')

    r = -1
    call MPI_Exscan(s, r, 7, MPI_INTEGER, MPI_SUM, comm, ierr)
    call done(K_EXSCAN, ierr)
    if (rank > 0) call expect(all(r == total(7, rank)), 'exscan')

    r = s
    call MPI_Exscan(MPI_IN_PLACE, r, 7, MPI_INTEGER, MPI_SUM, comm, ierr)
    call done(K_EXSCAN, ierr)
    if (rank > 0) call expect(all(r == total(7, rank)), 'exscan in place')
  end subroutine check_scans

  subroutine check_rooted_blocks(comm)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer :: all_blocks(2 * nprocs), r(2), root, ierr
    ! gather to rank 1 (0 on one rank), scatter from the last rank
    root = min(1, nprocs - 1)
    all_blocks = -1
    call MPI_Gather(series(rank, 2), 2, MPI_INTEGER, all_blocks, 2, MPI_INTEGER, root, comm, ierr)
    call done(K_GATHER, ierr)
    if (rank == root) call expect(all(all_blocks == blocks(2, nprocs)), 'gather')

    all_blocks = -1
    if (rank == root) then
      all_blocks(2 * root + 1:2 * root + 2) = series(root, 2)
      call MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all_blocks, 2, MPI_INTEGER, root, comm, ierr)
    else
      call MPI_Gather(series(rank, 2), 2, MPI_INTEGER, all_blocks, 2, MPI_INTEGER, root, comm, ierr)
    end if
    call done(K_GATHER, ierr)
    if (rank == root) call expect(all(all_blocks == blocks(2, nprocs)), 'gather in place')

    root = nprocs - 1
    all_blocks = blocks(2, nprocs)
    r = -1
    call MPI_Scatter(all_blocks, 2, MPI_INTEGER, r, 2, MPI_INTEGER, root, comm, ierr)
    call done(K_SCATTER, ierr)
    call expect(all(r == series(rank, 2)), 'scatter')

    r = -1
    if (rank == root) then
      call MPI_Scatter(all_blocks, 2, MPI_INTEGER, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root, comm, ierr)
      call expect(all(all_blocks == blocks(2, nprocs)), 'scatter in place kept the root''s data')
    else
      call MPI_Scatter(all_blocks, 2, MPI_INTEGER, r, 2, MPI_INTEGER, root, comm, ierr)
      call expect(all(r == series(rank, 2)), 'scatter in place')
    end if
    call done(K_SCATTER, ierr)

    call MPI_Barrier(comm, ierr)
    call done(K_BARRIER, ierr)
  end subroutine check_rooted_blocks

  ! Displacements of blocks of these counts one after another.
  function packed_displs(cnt) result(d)
    integer, intent(in) :: cnt(:)
    integer :: d(size(cnt)), j
    d(1) = 0
    do j = 2, size(cnt)
      d(j) = d(j - 1) + cnt(j - 1)
    end do
  end function packed_displs

  ! Displacements of blocks of these counts in reverse order, with a
  ! one-element gap after each.
  function gapped_reverse_displs(cnt) result(d)
    integer, intent(in) :: cnt(:)
    integer :: d(size(cnt)), j
    d(size(cnt)) = 0
    do j = size(cnt) - 1, 1, -1
      d(j) = d(j + 1) + cnt(j + 1) + 1
    end do
  end function gapped_reverse_displs

  ! The v-variants' blocks: rank j's block has mod(j, 4) elements (none on
  ! ranks 0, 4, ...), series(j, .); they lie in reverse rank order with a
  ! one-element gap after each (displs), the gaps keep -1.
  subroutine v_layout(cnt, displs, want)
    integer, intent(out) :: cnt(nprocs), displs(nprocs)
    integer, allocatable, intent(out) :: want(:)
    integer :: j
    cnt = [(mod(j, 4), j = 0, nprocs - 1)]
    displs = gapped_reverse_displs(cnt)
    allocate (want(displs(1) + cnt(1) + 1))
    want = -1
    do j = 1, nprocs
      want(displs(j) + 1:displs(j) + cnt(j)) = series(j - 1, cnt(j))
    end do
  end subroutine v_layout

  ! Gatherv and scatterv from every root, each also in place at the root;
  ! allgatherv, also in place.
  subroutine check_gatherv_scatterv(comm)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer :: cnt(nprocs), displs(nprocs), r(4), root, ierr, n
    integer, allocatable :: want(:), g(:)
    call v_layout(cnt, displs, want)
    allocate (g(size(want)))
    n = cnt(rank + 1)
    do root = 0, nprocs - 1
      g = -1
      call MPI_Gatherv(series(rank, n), n, MPI_INTEGER, g, cnt, displs, MPI_INTEGER, root, comm, ierr)
      call done(K_GATHERV, ierr)
      if (rank == root) call expect(all(g == want), 'gatherv')

      g = -1
      if (rank == root) then
        g(displs(rank + 1) + 1:displs(rank + 1) + n) = series(rank, n)
        call MPI_Gatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, g, cnt, displs, MPI_INTEGER, root, comm, ierr)
        call expect(all(g == want), 'gatherv in place')
      else
        call MPI_Gatherv(series(rank, n), n, MPI_INTEGER, g, cnt, displs, MPI_INTEGER, root, comm, ierr)
      end if
      call done(K_GATHERV, ierr)

      g = want
      r = -1
      call MPI_Scatterv(g, cnt, displs, MPI_INTEGER, r, n, MPI_INTEGER, root, comm, ierr)
      call done(K_SCATTERV, ierr)
      call expect(all(r(1:n) == series(rank, n)) .and. all(r(n + 1:) == -1), 'scatterv')

      r = -1
      if (rank == root) then
        call MPI_Scatterv(g, cnt, displs, MPI_INTEGER, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, root, comm, ierr)
        call expect(all(g == want), 'scatterv in place kept the root''s data')
      else
        call MPI_Scatterv(g, cnt, displs, MPI_INTEGER, r, n, MPI_INTEGER, root, comm, ierr)
        call expect(all(r(1:n) == series(rank, n)), 'scatterv in place')
      end if
      call done(K_SCATTERV, ierr)
    end do

    g = -1
    call MPI_Allgatherv(series(rank, n), n, MPI_INTEGER, g, cnt, displs, MPI_INTEGER, comm, ierr)
    call done(K_ALLGATHERV, ierr)
    call expect(all(g == want), 'allgatherv')

    g = -1
    g(displs(rank + 1) + 1:displs(rank + 1) + n) = series(rank, n)
    call MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, g, cnt, displs, MPI_INTEGER, comm, ierr)
    call done(K_ALLGATHERV, ierr)
    call expect(all(g == want), 'allgatherv in place')
  end subroutine check_gatherv_scatterv

  ! Element k of the block rank i sends rank j.
  elemental integer function a2a(i, j, k)
    integer, intent(in) :: i, j, k
    a2a = 100000 * i + 100 * j + k
  end function a2a

  ! Alltoallv: rank i sends rank j mod(i + 2 j, 3) elements (zeros
  ! included), packed in rank order; it receives them in reverse rank
  ! order with one-element gaps.  In place with the symmetric counts
  ! mod(i + j, 3).  Alltoallw (typed): the same with blocks twice as long
  ! (all_to_all).
  subroutine check_alltoallv(comm, typed)
    HANDLE(MPI_Comm), intent(in) :: comm
    logical, intent(in) :: typed
    integer :: sc(nprocs), sd(nprocs), rc(nprocs), rd(nprocs), j, k, m, ierr
    integer, allocatable :: s(:), r(:), want(:)
    m = merge(2, 1, typed)
    do j = 1, nprocs
      sc(j) = m * mod(rank + 2 * (j - 1), 3)
      rc(j) = m * mod(j - 1 + 2 * rank, 3)
    end do
    sd = packed_displs(sc)
    rd = gapped_reverse_displs(rc)
    allocate (s(max(1, sum(sc))), r(rd(1) + rc(1) + 1), want(rd(1) + rc(1) + 1))
    want = -1
    do j = 1, nprocs
      s(sd(j) + 1:sd(j) + sc(j)) = [(a2a(rank, j - 1, k), k = 1, sc(j))]
      want(rd(j) + 1:rd(j) + rc(j)) = [(a2a(j - 1, rank, k), k = 1, rc(j))]
    end do
    r = -1
    call all_to_all(s, sc, sd, r, rc, rd, comm, typed, .false., ierr)
    call done(merge(K_ALLTOALLW, K_ALLTOALLV, typed), ierr)
    call expect(all(r == want), trim(op_names(merge(K_ALLTOALLW, K_ALLTOALLV, typed))))

    do j = 1, nprocs
      rc(j) = m * mod(rank + j - 1, 3)
    end do
    rd = gapped_reverse_displs(rc)
    deallocate (r, want)
    allocate (r(rd(1) + rc(1) + 1), want(rd(1) + rc(1) + 1))
    r = -1
    want = -1
    do j = 1, nprocs
      r(rd(j) + 1:rd(j) + rc(j)) = [(a2a(rank, j - 1, k), k = 1, rc(j))]
      want(rd(j) + 1:rd(j) + rc(j)) = [(a2a(j - 1, rank, k), k = 1, rc(j))]
    end do
    call all_to_all(s, sc, sd, r, rc, rd, comm, typed, .true., ierr)
    call done(merge(K_ALLTOALLW, K_ALLTOALLV, typed), ierr)
    call expect(all(r == want), trim(op_names(merge(K_ALLTOALLW, K_ALLTOALLV, typed))) // ' in place')
  end subroutine check_alltoallv

  ! MPI_Alltoallv of INTEGER blocks (counts sc, rc; displacements sd, rd),
  ! or, typed, MPI_Alltoallw of the same blocks: odd peers' (from 0) as
  ! pairs of INTEGERs (a contiguous datatype), displacements in bytes.  In
  ! place: the send side's arguments are ignored (MPI_DATATYPE_NULL).
  subroutine all_to_all(s, sc, sd, r, rc, rd, comm, typed, in_place, ierr)
    integer, intent(in) :: s(:), sc(:), sd(:), rc(:), rd(:)
    integer, intent(inout) :: r(:)
    HANDLE(MPI_Comm), intent(in) :: comm
    logical, intent(in) :: typed, in_place
    integer, intent(out) :: ierr
    HANDLE(MPI_Datatype) :: pairs, ts(nprocs)
    integer :: sn(nprocs), rn(nprocs), j, freed
    if (.not. typed) then
      if (in_place) then
        call MPI_Alltoallv(MPI_IN_PLACE, sc, sd, MPI_DATATYPE_NULL, r, rc, rd, MPI_INTEGER, comm, ierr)
      else
        call MPI_Alltoallv(s, sc, sd, MPI_INTEGER, r, rc, rd, MPI_INTEGER, comm, ierr)
      end if
      return
    end if
    call MPI_Type_contiguous(2, MPI_INTEGER, pairs, ierr)
    call MPI_Type_commit(pairs, ierr)
    sn = sc
    rn = rc
    do j = 1, nprocs
      ts(j) = MPI_INTEGER
      if (mod(j, 2) == 0) then
        ts(j) = pairs
        sn(j) = sc(j) / 2
        rn(j) = rc(j) / 2
      end if
    end do
    if (in_place) then
      call MPI_Alltoallw(MPI_IN_PLACE, sn, sd, ts, r, rn, 4 * rd, ts, comm, ierr)
    else
      call MPI_Alltoallw(s, sn, 4 * sd, ts, r, rn, 4 * rd, ts, comm, ierr)
    end if
    call MPI_Type_free(pairs, freed)
  end subroutine all_to_all

  ! The communicator the next checks run on: its name, rank and size.
  subroutine under_test(comm, name)
    HANDLE(MPI_Comm), intent(in) :: comm
    character(len=*), intent(in) :: name
    integer :: ierr
    comm_name = name
    call MPI_Comm_rank(comm, rank, ierr)
    call MPI_Comm_size(comm, nprocs, ierr)
  end subroutine under_test

  subroutine check_all(comm, name, affine, pair)
    HANDLE(MPI_Comm), intent(in) :: comm
    character(len=*), intent(in) :: name
    HANDLE(MPI_Op), intent(in) :: affine
    HANDLE(MPI_Datatype), intent(in) :: pair
    call under_test(comm, name)
    call check_bcast(comm)
    call check_bottom(comm)
    call check_reduce(comm)
    call check_allreduce(comm)
    call check_user_op(comm, affine, pair)
    call check_allgather(comm)
    call check_reduce_scatter(comm)
    call check_alltoall(comm)
    call check_scans(comm)
    call check_rooted_blocks(comm)
    call check_gatherv_scatterv(comm)
    call check_alltoallv(comm, .false.)
    call check_alltoallv(comm, .true.)
  end subroutine check_all

  ! Error classes reach ierror under MPI_ERRORS_RETURN, and nothing is counted.
  subroutine check_errors()
#if defined(BINDING_MPI_F08)
    procedure(MPI_Comm_errhandler_function) :: note_error
#else
    external :: note_error
#endif
    HANDLE(MPI_Comm) :: comm, bogus
    HANDLE(MPI_Errhandler) :: handler
    integer :: a(4), ierr, ignored, cls
    comm_name = 'errors'
    call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
    call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN, ierr)
    a = 0
    call MPI_Bcast(a, 4, MPI_INTEGER, nprocs, comm, ierr)
    call MPI_Error_class(ierr, cls, ignored)
    call expect(cls == MPI_ERR_ROOT, 'bcast to root = size: MPI_ERR_ROOT')
    call MPI_Bcast(a, -1, MPI_INTEGER, 0, comm, ierr)
    call expect(ierr == MPI_ERR_COUNT, 'bcast of -1 elements: MPI_ERR_COUNT')
    call MPI_Bcast(MPI_IN_PLACE, 4, MPI_INTEGER, 0, comm, ierr)
    call expect(ierr == MPI_ERR_ARG, 'bcast of MPI_IN_PLACE: MPI_ERR_ARG')
    call MPI_Bcast(a, 4, MPI_DATATYPE_NULL, 0, comm, ierr)
    call expect(ierr == MPI_ERR_TYPE, 'bcast of MPI_DATATYPE_NULL: MPI_ERR_TYPE')
    call MPI_Reduce(a, a(3), 2, MPI_INTEGER, MPI_OP_NULL, 0, comm, ierr)
    call expect(ierr == MPI_ERR_OP, 'reduce with MPI_OP_NULL: MPI_ERR_OP')
    ! A handler written in Fortran gets the call's error, which ierror returns.
    call MPI_Comm_create_errhandler(note_error, handler, ierr)
    call MPI_Comm_set_errhandler(comm, handler, ierr)
    noted_errors = 0
    call MPI_Scatter(a, 1, MPI_INTEGER, a(2), 1, MPI_INTEGER, -1, comm, ierr)
    call expect(noted_errors == 1 .and. noted_class == MPI_ERR_ROOT .and. ierr == MPI_ERR_ROOT, &
         'scatter from root -1: MPI_ERR_ROOT through a Fortran error handler')
    call MPI_Errhandler_free(handler, ierr)
    call MPI_Comm_free(comm, ierr)

    ! A handle that names no communicator reports on MPI_COMM_WORLD's handler.
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
    call MPI_Barrier(MPI_COMM_NULL, ierr)
    call expect(ierr == MPI_ERR_COMM, 'barrier on MPI_COMM_NULL: MPI_ERR_COMM')
#if defined(BINDING_MPI_F08)
    bogus%MPI_VAL = 123456
#else
    bogus = 123456
#endif
    call MPI_Barrier(bogus, ierr)
    call expect(ierr == MPI_ERR_COMM, 'barrier on an unknown handle: MPI_ERR_COMM')
    ! The communicator freed above: its Fortran handle is MPI_COMM_NULL now.
    call MPI_Barrier(comm, ierr)
    call expect(ierr == MPI_ERR_COMM, 'barrier on a freed communicator: MPI_ERR_COMM')
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL, ierr)
  end subroutine check_errors

  ! Hints set from Fortran reach hiercoll: "hiercoll" = "off" hands the
  ! calls to MPI (one barrier through MPI_Comm_set_info, two through
  ! MPI_Comm_dup_with_info, so either one missing shows in the count).
  subroutine check_hints()
    HANDLE(MPI_Comm) :: set, duped
    HANDLE(MPI_Info) :: info
    integer :: ierr, n
    comm_name = 'hints'
    call MPI_Info_create(info, ierr)
    call MPI_Info_set(info, 'hiercoll', 'off', ierr)
    call MPI_Comm_dup(MPI_COMM_WORLD, set, ierr)
    call MPI_Comm_set_info(set, info, ierr)
    call expect(ierr == MPI_SUCCESS, 'MPI_Comm_set_info')
    call MPI_Barrier(set, ierr)
    call expect(ierr == MPI_SUCCESS, 'barrier with hiercoll=off')
    native(K_BARRIER) = native(K_BARRIER) + 1
    call MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, duped, ierr)
    call expect(ierr == MPI_SUCCESS, 'MPI_Comm_dup_with_info')
    call MPI_Comm_size(duped, n, ierr)
    call expect(ierr == MPI_SUCCESS .and. n == nprocs, 'MPI_Comm_dup_with_info gave a communicator')
    call MPI_Barrier(duped, ierr)
    call MPI_Barrier(duped, ierr)
    native(K_BARRIER) = native(K_BARRIER) + 2
    call MPI_Comm_free(set, ierr)
    call MPI_Comm_free(duped, ierr)
    call MPI_Info_free(info, ierr)
  end subroutine check_hints

#if defined(BINDING_MPI_F08)
  ! ierror is OPTIONAL in mpi_f08: calls without it.
  subroutine check_without_ierror()
    integer :: r(3)
    type(MPI_Request) :: request
    comm_name = 'no ierror'
    call MPI_Allreduce(series(world_rank, 3), r, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    served(K_ALLREDUCE) = served(K_ALLREDUCE) + 1
    call expect(all(r == total(3, nprocs)), 'allreduce without ierror')
    call MPI_Barrier(MPI_COMM_WORLD)
    served(K_BARRIER) = served(K_BARRIER) + 1
    call MPI_Ibarrier(MPI_COMM_WORLD, request)
    served(K_BARRIER) = served(K_BARRIER) + 1
    call MPI_Wait(request, MPI_STATUS_IGNORE)
    call expect(request == MPI_REQUEST_NULL, 'ibarrier and wait without ierror')
  end subroutine check_without_ierror
#endif

end module checks

#include "requests_check.F90"

! The user operation (an external procedure, as MPI_Op_create needs).
#if defined(BINDING_MPI_F08)
subroutine affine_op(invec, inoutvec, len, datatype)
  use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer
  use mpi_f08, only: MPI_Datatype
  use checks, only: compose
  implicit none
  type(c_ptr), value :: invec, inoutvec
  integer :: len
  type(MPI_Datatype) :: datatype
  integer, pointer :: a(:, :), b(:, :)
  call c_f_pointer(invec, a, [2, len])
  call c_f_pointer(inoutvec, b, [2, len])
  call compose(a, b, len)
end subroutine affine_op
#else
subroutine affine_op(invec, inoutvec, len, datatype)
  use checks, only: compose
  implicit none
  integer :: len, datatype
  integer :: invec(2, len), inoutvec(2, len)
  call compose(invec, inoutvec, len)
end subroutine affine_op
#endif

! An error handler (MPI_Comm_create_errhandler): notes the error's class.
subroutine note_error(comm, code)
#if defined(BINDING_MPI_F08)
  use mpi_f08, only: MPI_Comm, MPI_Error_class
#endif
  use checks, only: noted_errors, noted_class
  implicit none
  HANDLE(MPI_Comm) :: comm
  integer :: code, ignored
  noted_errors = noted_errors + 1
  call MPI_Error_class(code, noted_class, ignored)
end subroutine note_error

program collectives_check
  use request_checks
  implicit none
#if defined(BINDING_MPI_F08)
  procedure(MPI_User_function) :: affine_op
#else
  external :: affine_op
#endif
  HANDLE(MPI_Comm) :: reversed
  HANDLE(MPI_Op) :: affine
  HANDLE(MPI_Datatype) :: pair
  integer :: ierr, k, sums(2)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, world_rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call MPI_Op_create(affine_op, .false., affine, ierr)
  call MPI_Type_contiguous(2, MPI_INTEGER, pair, ierr)
  call MPI_Type_commit(pair, ierr)
  call MPI_Comm_split(MPI_COMM_WORLD, 0, nprocs - world_rank, reversed, ierr)

  call check_all(MPI_COMM_WORLD, 'MPI_COMM_WORLD', affine, pair)  ! sets nprocs
  call check_requests(MPI_COMM_WORLD, 'MPI_COMM_WORLD')
  call check_all(reversed, 'reversed', affine, pair)
  call check_requests(reversed, 'reversed')
  call check_frees_and_errors()
  call check_persistent_hints()
  call check_errors()
  call check_hints()
#if defined(BINDING_MPI_F08)
  call check_without_ierror()
#endif

  call MPI_Allreduce([nchecks, failures], sums, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  served(K_ALLREDUCE) = served(K_ALLREDUCE) + 1
  if (world_rank == 0) then
    print '(3a,i0,a,i0,a,i0,a)', 'fortran ', BINDING_NAME, ': ', sums(1), ' checks, ', sums(2), ' failed on ', &
         nprocs, ' ranks'
    do k = 1, NOPS
      print '(3a,i0,a,i0)', 'fortran-expect: ', trim(op_names(k)), ' served=', served(k), ' native=', native(k)
    end do
  end if
  call MPI_Comm_free(reversed, ierr)
  call MPI_Type_free(pair, ierr)
  call MPI_Op_free(affine, ierr)
  call MPI_Finalize(ierr)
  if (sums(2) /= 0) stop 1
end program collectives_check
