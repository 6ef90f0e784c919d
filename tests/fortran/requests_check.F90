! The nonblocking and persistent collectives from Fortran, and the request
! functions that complete them; #included by collectives_check.F90 (module
! checks: the counters, expect, the closed forms), compiled for each binding.
!
! post_all starts every nonblocking collective (MPI_I<op>), or makes every
! persistent one (MPIX_<op>_init), on the buffers below, in place too where
! the operation allows it, with a point-to-point pair among them: all in
! flight at once.  fill sets the inputs (shifted by s, so that each start of
! a persistent request has new data) and verify checks the outputs against
! the closed forms.  complete finishes the requests with one of the Wait or
! Test functions, checking the indices, statuses and requests Fortran gets
! back.
#if defined(BINDING_MPI_F08)
#define STATUS_VAR(name) type(MPI_Status) :: name
#define STATUS_ARRAY(name, n) type(MPI_Status) :: name(n)
#define STATUS_AT(sts, k) sts(k)
#define FIELD(st, f) st%f
#else
#define STATUS_VAR(name) integer :: name(MPI_STATUS_SIZE)
#define STATUS_ARRAY(name, n) integer :: name(MPI_STATUS_SIZE, n)
#define STATUS_AT(sts, k) sts(:, k)
#define FIELD(st, f) st(f)
#endif

module request_checks
  use checks
#if defined(BINDING_MPI_F08)
  use mpi_f08_ext
#elif defined(BINDING_USE_MPI)
  use mpi_ext
#endif
  implicit none
#if !defined(BINDING_MPI_F08) && !defined(BINDING_USE_MPI)
  include 'mpif-ext.h'
#endif

  integer, parameter :: MAXREQ = 44, TAG_P2P = 77
  ! Completion by: MPI_Waitall, MPI_Testall, MPI_Waitany, MPI_Testany,
  ! MPI_Waitsome, MPI_Testsome, and one by one (MPI_Wait, MPI_Test,
  ! MPI_Request_get_status).
  integer, parameter :: WAITALL = 1, TESTALL = 2, WAITANY = 3, TESTANY = 4, WAITSOME = 5, TESTSOME = 6, &
       ONE_BY_ONE = 7
  HANDLE(MPI_Request) :: req(MAXREQ)
  integer :: nreq, kinds(MAXREQ)   ! kinds: K_<op>, 0 for point-to-point
  integer :: recv_at               ! req(recv_at): the point-to-point receive
  logical :: is_persistent

  ! Inputs and outputs; module variables, so that the compiler keeps their
  ! contents in memory across the calls that complete them.
  integer, allocatable, asynchronous :: bc(:), rd_s(:), rd_r(:), rdp(:), rd_dummy(:), ar_s(:), ar_r(:), arp(:), &
       ag_s(:), ag_r(:), agp(:), rsb_s(:), rsb_r(:), rsbp(:), rs_s(:), rs_r(:), rsp(:), a2_s(:), a2_r(:), a2p(:), &
       sc_s(:), sc_r(:), scp(:), ex_r(:), ex_p(:), ga_s(:), ga_r(:), gap(:), sct_s(:), sct_r(:), sctp(:), &
       gv_s(:), gv_r(:), gvp(:), sv_s(:), sv_r(:), svp(:), agv_r(:), agvp(:), av_s(:), av_r(:), avp(:), &
       aw_r(:), awp(:), p2p_s(:), p2p_r(:)
  integer, allocatable :: rs_counts(:), v_counts(:), v_displs(:), v_want(:), av_counts(:), av_sd(:), av_rd(:), &
       aw_sd(:), aw_rd(:)
  HANDLE(MPI_Datatype), allocatable :: aw_types(:)   ! alltoallw: alltoallv's blocks, displacements in bytes

contains

  ! The call that made req(nreq + 1), of operation k (0: point-to-point).
  subroutine added(k, ierr)
    integer, intent(in) :: k, ierr
    nreq = nreq + 1
    kinds(nreq) = k
    if (k > 0) call expect(ierr == MPI_SUCCESS, trim(op_names(k)) // ': nonblocking or persistent call failed')
  end subroutine added

  ! Each collective request started once more: what HIERCOLL_STATS counts.
  subroutine count_starts()
    integer :: i
    do i = 1, nreq
      if (kinds(i) > 0) served(kinds(i)) = served(kinds(i)) + 1
    end do
  end subroutine count_starts

  subroutine allocate_buffers()
    integer :: j, nv, na
    integer, allocatable :: want(:)
    if (allocated(bc)) call free_buffers()
    allocate (rs_counts(nprocs), v_counts(nprocs), v_displs(nprocs), av_counts(nprocs), av_sd(nprocs), &
         av_rd(nprocs))
    rs_counts = [(mod(j, 3), j = 0, nprocs - 1)]
    call v_layout(v_counts, v_displs, want)
    call move_alloc(want, v_want)
    nv = v_counts(rank + 1)
    ! Alltoallv: rank i sends rank j mod(i + j, 3) elements, packed; it
    ! receives them in reverse rank order with one-element gaps.
    av_counts = [(mod(rank + j, 3), j = 0, nprocs - 1)]
    av_sd = packed_displs(av_counts)
    av_rd = gapped_reverse_displs(av_counts)
    na = av_rd(1) + av_counts(1) + 1
    allocate (aw_sd(nprocs), aw_rd(nprocs), aw_types(nprocs))
    aw_sd = 4 * av_sd
    aw_rd = 4 * av_rd
    aw_types = MPI_INTEGER
    allocate (bc(7), rd_s(7), rd_r(7), rdp(7), rd_dummy(7), ar_s(7), ar_r(7), arp(7), ag_s(2), ag_r(2 * nprocs), &
         agp(2 * nprocs), rsb_s(3 * nprocs), rsb_r(3), rsbp(3 * nprocs), rs_s(max(1, sum(rs_counts))), &
         rs_r(max(1, rs_counts(rank + 1))), rsp(max(1, sum(rs_counts))), a2_s(2 * nprocs), a2_r(2 * nprocs), &
         a2p(2 * nprocs), sc_s(7), sc_r(7), scp(7), ex_r(7), ex_p(7), ga_s(2), ga_r(2 * nprocs), gap(2 * nprocs), &
         sct_s(2 * nprocs), sct_r(2), sctp(2), gv_s(max(1, nv)), gv_r(size(v_want)), gvp(size(v_want)), &
         sv_s(size(v_want)), sv_r(4), svp(4), agv_r(size(v_want)), agvp(size(v_want)), &
         av_s(max(1, sum(av_counts))), av_r(na), avp(na), aw_r(na), awp(na), p2p_s(3), p2p_r(3))
  end subroutine allocate_buffers

  subroutine free_buffers()
    deallocate (bc, rd_s, rd_r, rdp, rd_dummy, ar_s, ar_r, arp, ag_s, ag_r, agp, rsb_s, rsb_r, rsbp, rs_s, rs_r, &
         rsp, a2_s, a2_r, a2p, sc_s, sc_r, scp, ex_r, ex_p, ga_s, ga_r, gap, sct_s, sct_r, sctp, gv_s, gv_r, gvp, &
         sv_s, sv_r, svp, agv_r, agvp, av_s, av_r, avp, aw_r, awp, p2p_s, p2p_r, rs_counts, v_counts, v_displs, &
         v_want, av_counts, av_sd, av_rd, aw_sd, aw_rd, aw_types)
  end subroutine free_buffers

  ! v_want's blocks shifted by s (its gaps stay -1).
  function v_shifted(s) result(w)
    integer, intent(in) :: s
    integer :: w(size(v_want))
    w = v_want
    where (w /= -1) w = w + s
  end function v_shifted

  ! Alltoallv's blocks as rank `from` sends them to rank `to`, shifted by s,
  ! at the receiver's displacements (the gaps -1).
  function av_blocks(s, sending) result(w)
    integer, intent(in) :: s
    logical, intent(in) :: sending   ! the ones this rank sends (in place: its initial receive buffer)
    integer :: w(size(av_r)), j, k
    w = -1
    do j = 1, nprocs
      if (sending) then
        w(av_rd(j) + 1:av_rd(j) + av_counts(j)) = [(a2a(rank, j - 1, k) + s, k = 1, av_counts(j))]
      else
        w(av_rd(j) + 1:av_rd(j) + av_counts(j)) = [(a2a(j - 1, rank, k) + s, k = 1, av_counts(j))]
      end if
    end do
  end function av_blocks

  ! The inputs, shifted by s; the outputs -1.
  subroutine fill(s)
    integer, intent(in) :: s
    integer :: j, k, nv
    nv = v_counts(rank + 1)
    bc = -1
    if (rank == nprocs - 1) bc = series(rank, 7) + s
    rd_s = series(rank, 7) + s
    rd_r = -1
    rdp = rd_s
    ar_s = rd_s
    ar_r = -1
    arp = rd_s
    ag_s = series(rank, 2) + s
    ag_r = -1
    agp = -1
    agp(2 * rank + 1:2 * rank + 2) = ag_s
    rsb_s = series(rank, 3 * nprocs) + s
    rsb_r = -1
    rsbp = rsb_s
    rs_s = series(rank, size(rs_s)) + s
    rs_r = -1
    rsp = rs_s
    a2_s = series(rank, 2 * nprocs) + s
    a2_r = -1
    a2p = a2_s
    sc_s = rd_s
    sc_r = -1
    scp = rd_s
    ex_r = -1
    ex_p = rd_s
    ga_s = ag_s
    ga_r = -1
    gap = agp
    sct_s = blocks(2, nprocs) + s
    sct_r = -1
    sctp = -1
    gv_s = series(rank, size(gv_s)) + s
    gv_r = -1
    gvp = -1
    gvp(v_displs(rank + 1) + 1:v_displs(rank + 1) + nv) = gv_s(1:nv)
    sv_s = v_shifted(s)
    sv_r = -1
    svp = -1
    agv_r = -1
    agvp = gvp
    av_s = -1
    do j = 1, nprocs
      av_s(av_sd(j) + 1:av_sd(j) + av_counts(j)) = [(a2a(rank, j - 1, k) + s, k = 1, av_counts(j))]
    end do
    av_r = -1
    avp = av_blocks(s, .true.)
    aw_r = -1
    awp = avp
    p2p_s = series(rank, 3) + s
    p2p_r = -1
  end subroutine fill

  ! The outputs of inputs shifted by s.
  subroutine verify(s, how)
    integer, intent(in) :: s
    character(len=*), intent(in) :: how
    integer :: want(2 * nprocs), sums(3 * nprocs), rs_want(size(rs_s)), j, first, c, nv, theirs(2 * nprocs)
    call expect(all(bc == series(nprocs - 1, 7) + s), 'ibcast ' // how)
    if (rank == 0) call expect(all(rd_r == total(7, nprocs) + nprocs * s), 'ireduce ' // how)
    if (rank == nprocs - 1) call expect(all(rdp == total(7, nprocs) + nprocs * s), 'ireduce in place ' // how)
    call expect(all(ar_r == total(7, nprocs) + nprocs * s), 'iallreduce ' // how)
    call expect(all(arp == total(7, nprocs) + nprocs * s), 'iallreduce in place ' // how)
    call expect(all(ag_r == blocks(2, nprocs) + s), 'iallgather ' // how)
    call expect(all(agp == blocks(2, nprocs) + s), 'iallgather in place ' // how)
    sums = total(3 * nprocs, nprocs) + nprocs * s
    call expect(all(rsb_r == sums(3 * rank + 1:3 * rank + 3)), 'ireduce_scatter_block ' // how)
    call expect(all(rsbp(1:3) == sums(3 * rank + 1:3 * rank + 3)), 'ireduce_scatter_block in place ' // how)
    first = sum(rs_counts(1:rank))
    c = rs_counts(rank + 1)
    rs_want = total(size(rs_s), nprocs) + nprocs * s
    call expect(all(rs_r(1:c) == rs_want(first + 1:first + c)), 'ireduce_scatter ' // how)
    call expect(all(rsp(1:c) == rs_want(first + 1:first + c)), 'ireduce_scatter in place ' // how)
    do j = 0, nprocs - 1
      theirs = series(j, 2 * nprocs) + s
      want(2 * j + 1:2 * j + 2) = theirs(2 * rank + 1:2 * rank + 2)
    end do
    call expect(all(a2_r == want), 'ialltoall ' // how)
    call expect(all(a2p == want), 'ialltoall in place ' // how)
    call expect(all(sc_r == total(7, rank + 1) + (rank + 1) * s), 'iscan ' // how)
    call expect(all(scp == total(7, rank + 1) + (rank + 1) * s), 'iscan in place ' // how)
    if (rank > 0) call expect(all(ex_r == total(7, rank) + rank * s), 'iexscan ' // how)
    if (rank > 0) call expect(all(ex_p == total(7, rank) + rank * s), 'iexscan in place ' // how)
    if (rank == min(1, nprocs - 1)) then
      call expect(all(ga_r == blocks(2, nprocs) + s), 'igather ' // how)
      call expect(all(gap == blocks(2, nprocs) + s), 'igather in place ' // how)
    end if
    call expect(all(sct_r == series(rank, 2) + s), 'iscatter ' // how)
    if (rank /= nprocs - 1) call expect(all(sctp == series(rank, 2) + s), 'iscatter in place ' // how)
    if (rank == nprocs - 1) call expect(all(sct_s == blocks(2, nprocs) + s), 'iscatter kept the root''s data')
    nv = v_counts(rank + 1)
    if (rank == nprocs - 1) then
      call expect(all(gv_r == v_shifted(s)), 'igatherv ' // how)
      call expect(all(gvp == v_shifted(s)), 'igatherv in place ' // how)
    end if
    call expect(all(sv_r(1:nv) == series(rank, nv) + s) .and. all(sv_r(nv + 1:) == -1), 'iscatterv ' // how)
    if (rank /= nprocs - 1) call expect(all(svp(1:nv) == series(rank, nv) + s), 'iscatterv in place ' // how)
    call expect(all(agv_r == v_shifted(s)), 'iallgatherv ' // how)
    call expect(all(agvp == v_shifted(s)), 'iallgatherv in place ' // how)
    call expect(all(av_r == av_blocks(s, .false.)), 'ialltoallv ' // how)
    call expect(all(avp == av_blocks(s, .false.)), 'ialltoallv in place ' // how)
    call expect(all(aw_r == av_blocks(s, .false.)), 'ialltoallw ' // how)
    call expect(all(awp == av_blocks(s, .false.)), 'ialltoallw in place ' // how)
    call expect(all(p2p_r == series(mod(rank + nprocs - 1, nprocs), 3) + s), 'point-to-point ' // how)
  end subroutine verify

  ! Every collective on comm, nonblocking or persistent (is_persistent), in
  ! req(1:nreq), and a point-to-point pair (receive from the left, send to
  ! the right).
  subroutine post_all(comm)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer :: ierr, top, groot, nv, left, right
    top = nprocs - 1
    groot = min(1, nprocs - 1)
    nv = v_counts(rank + 1)
    left = mod(rank + nprocs - 1, nprocs)
    right = mod(rank + 1, nprocs)
    nreq = 0
    if (is_persistent) then
      call MPIX_Bcast_init(bc, 7, MPI_INTEGER, top, comm, MPI_INFO_NULL, req(nreq + 1), ierr)
    else
      call MPI_Ibcast(bc, 7, MPI_INTEGER, top, comm, req(nreq + 1), ierr)
    end if
    call added(K_BCAST, ierr)
    if (is_persistent) then
      call MPIX_Reduce_init(rd_s, rd_r, 7, MPI_INTEGER, MPI_SUM, 0, comm, MPI_INFO_NULL, req(nreq + 1), ierr)
    else
      call MPI_Ireduce(rd_s, rd_r, 7, MPI_INTEGER, MPI_SUM, 0, comm, req(nreq + 1), ierr)
    end if
    call added(K_REDUCE, ierr)
    if (is_persistent .and. rank == top) then
      call MPIX_Reduce_init(MPI_IN_PLACE, rdp, 7, MPI_INTEGER, MPI_SUM, top, comm, MPI_INFO_NULL, req(nreq + 1), ierr)
    else if (is_persistent) then
      call MPIX_Reduce_init(rdp, rd_dummy, 7, MPI_INTEGER, MPI_SUM, top, comm, MPI_INFO_NULL, req(nreq + 1), ierr)
    else if (rank == top) then
      call MPI_Ireduce(MPI_IN_PLACE, rdp, 7, MPI_INTEGER, MPI_SUM, top, comm, req(nreq + 1), ierr)
    else
      call MPI_Ireduce(rdp, rd_dummy, 7, MPI_INTEGER, MPI_SUM, top, comm, req(nreq + 1), ierr)
    end if
    call added(K_REDUCE, ierr)
    if (is_persistent) then
      call MPIX_Allreduce_init(ar_s, ar_r, 7, MPI_INTEGER, MPI_SUM, comm, MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_ALLREDUCE, ierr)
      call MPIX_Allreduce_init(MPI_IN_PLACE, arp, 7, MPI_INTEGER, MPI_SUM, comm, MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_ALLREDUCE, ierr)
      call MPIX_Allgather_init(ag_s, 2, MPI_INTEGER, ag_r, 2, MPI_INTEGER, comm, MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_ALLGATHER, ierr)
      call MPIX_Allgather_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, agp, 2, MPI_INTEGER, comm, MPI_INFO_NULL, &
           req(nreq + 1), ierr)
      call added(K_ALLGATHER, ierr)
      call MPIX_Reduce_scatter_block_init(rsb_s, rsb_r, 3, MPI_INTEGER, MPI_SUM, comm, MPI_INFO_NULL, &
           req(nreq + 1), ierr)
      call added(K_REDUCE_SCATTER_BLOCK, ierr)
      call MPIX_Reduce_scatter_block_init(MPI_IN_PLACE, rsbp, 3, MPI_INTEGER, MPI_SUM, comm, MPI_INFO_NULL, &
           req(nreq + 1), ierr)
      call added(K_REDUCE_SCATTER_BLOCK, ierr)
      call MPIX_Reduce_scatter_init(rs_s, rs_r, rs_counts, MPI_INTEGER, MPI_SUM, comm, MPI_INFO_NULL, &
           req(nreq + 1), ierr)
      call added(K_REDUCE_SCATTER, ierr)
      call MPIX_Reduce_scatter_init(MPI_IN_PLACE, rsp, rs_counts, MPI_INTEGER, MPI_SUM, comm, MPI_INFO_NULL, &
           req(nreq + 1), ierr)
      call added(K_REDUCE_SCATTER, ierr)
      call MPIX_Alltoall_init(a2_s, 2, MPI_INTEGER, a2_r, 2, MPI_INTEGER, comm, MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_ALLTOALL, ierr)
      call MPIX_Alltoall_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a2p, 2, MPI_INTEGER, comm, MPI_INFO_NULL, &
           req(nreq + 1), ierr)
      call added(K_ALLTOALL, ierr)
      call MPIX_Scan_init(sc_s, sc_r, 7, MPI_INTEGER, MPI_SUM, comm, MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_SCAN, ierr)
      call MPIX_Scan_init(MPI_IN_PLACE, scp, 7, MPI_INTEGER, MPI_SUM, comm, MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_SCAN, ierr)
      call MPIX_Exscan_init(sc_s, ex_r, 7, MPI_INTEGER, MPI_SUM, comm, MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_EXSCAN, ierr)
      call MPIX_Exscan_init(MPI_IN_PLACE, ex_p, 7, MPI_INTEGER, MPI_SUM, comm, MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_EXSCAN, ierr)
      call MPIX_Barrier_init(comm, MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_BARRIER, ierr)
      call MPIX_Gather_init(ga_s, 2, MPI_INTEGER, ga_r, 2, MPI_INTEGER, groot, comm, MPI_INFO_NULL, &
           req(nreq + 1), ierr)
      call added(K_GATHER, ierr)
      call MPIX_Scatter_init(sct_s, 2, MPI_INTEGER, sct_r, 2, MPI_INTEGER, top, comm, MPI_INFO_NULL, &
           req(nreq + 1), ierr)
      call added(K_SCATTER, ierr)
      call MPIX_Allgatherv_init(gv_s, nv, MPI_INTEGER, agv_r, v_counts, v_displs, MPI_INTEGER, comm, &
           MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_ALLGATHERV, ierr)
      call MPIX_Allgatherv_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, agvp, v_counts, v_displs, MPI_INTEGER, comm, &
           MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_ALLGATHERV, ierr)
      call MPIX_Alltoallv_init(av_s, av_counts, av_sd, MPI_INTEGER, av_r, av_counts, av_rd, MPI_INTEGER, comm, &
           MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_ALLTOALLV, ierr)
      call MPIX_Alltoallv_init(MPI_IN_PLACE, av_counts, av_sd, MPI_DATATYPE_NULL, avp, av_counts, av_rd, &
           MPI_INTEGER, comm, MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_ALLTOALLV, ierr)
      call MPIX_Alltoallw_init(av_s, av_counts, aw_sd, aw_types, aw_r, av_counts, aw_rd, aw_types, comm, &
           MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_ALLTOALLW, ierr)
      call MPIX_Alltoallw_init(MPI_IN_PLACE, av_counts, aw_sd, aw_types, awp, av_counts, aw_rd, aw_types, comm, &
           MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_ALLTOALLW, ierr)
      call MPIX_Gatherv_init(gv_s, nv, MPI_INTEGER, gv_r, v_counts, v_displs, MPI_INTEGER, top, comm, &
           MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_GATHERV, ierr)
      call MPIX_Scatterv_init(sv_s, v_counts, v_displs, MPI_INTEGER, sv_r, nv, MPI_INTEGER, top, comm, &
           MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_SCATTERV, ierr)
      if (rank == groot) then
        call MPIX_Gather_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gap, 2, MPI_INTEGER, groot, comm, MPI_INFO_NULL, &
             req(nreq + 1), ierr)
      else
        call MPIX_Gather_init(ga_s, 2, MPI_INTEGER, gap, 2, MPI_INTEGER, groot, comm, MPI_INFO_NULL, &
             req(nreq + 1), ierr)
      end if
    else
      call MPI_Iallreduce(ar_s, ar_r, 7, MPI_INTEGER, MPI_SUM, comm, req(nreq + 1), ierr)
      call added(K_ALLREDUCE, ierr)
      call MPI_Iallreduce(MPI_IN_PLACE, arp, 7, MPI_INTEGER, MPI_SUM, comm, req(nreq + 1), ierr)
      call added(K_ALLREDUCE, ierr)
      call MPI_Iallgather(ag_s, 2, MPI_INTEGER, ag_r, 2, MPI_INTEGER, comm, req(nreq + 1), ierr)
      call added(K_ALLGATHER, ierr)
      call MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, agp, 2, MPI_INTEGER, comm, req(nreq + 1), ierr)
      call added(K_ALLGATHER, ierr)
      call MPI_Ireduce_scatter_block(rsb_s, rsb_r, 3, MPI_INTEGER, MPI_SUM, comm, req(nreq + 1), ierr)
      call added(K_REDUCE_SCATTER_BLOCK, ierr)
      call MPI_Ireduce_scatter_block(MPI_IN_PLACE, rsbp, 3, MPI_INTEGER, MPI_SUM, comm, req(nreq + 1), ierr)
      call added(K_REDUCE_SCATTER_BLOCK, ierr)
      call MPI_Ireduce_scatter(rs_s, rs_r, rs_counts, MPI_INTEGER, MPI_SUM, comm, req(nreq + 1), ierr)
      call added(K_REDUCE_SCATTER, ierr)
      call MPI_Ireduce_scatter(MPI_IN_PLACE, rsp, rs_counts, MPI_INTEGER, MPI_SUM, comm, req(nreq + 1), ierr)
      call added(K_REDUCE_SCATTER, ierr)
      call MPI_Ialltoall(a2_s, 2, MPI_INTEGER, a2_r, 2, MPI_INTEGER, comm, req(nreq + 1), ierr)
      call added(K_ALLTOALL, ierr)
      call MPI_Ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a2p, 2, MPI_INTEGER, comm, req(nreq + 1), ierr)
      call added(K_ALLTOALL, ierr)
      call MPI_Iscan(sc_s, sc_r, 7, MPI_INTEGER, MPI_SUM, comm, req(nreq + 1), ierr)
      call added(K_SCAN, ierr)
      call MPI_Iscan(MPI_IN_PLACE, scp, 7, MPI_INTEGER, MPI_SUM, comm, req(nreq + 1), ierr)
      call added(K_SCAN, ierr)
      call MPI_Iexscan(sc_s, ex_r, 7, MPI_INTEGER, MPI_SUM, comm, req(nreq + 1), ierr)
      call added(K_EXSCAN, ierr)
      call MPI_Iexscan(MPI_IN_PLACE, ex_p, 7, MPI_INTEGER, MPI_SUM, comm, req(nreq + 1), ierr)
      call added(K_EXSCAN, ierr)
      call MPI_Ibarrier(comm, req(nreq + 1), ierr)
      call added(K_BARRIER, ierr)
      call MPI_Igather(ga_s, 2, MPI_INTEGER, ga_r, 2, MPI_INTEGER, groot, comm, req(nreq + 1), ierr)
      call added(K_GATHER, ierr)
      call MPI_Iscatter(sct_s, 2, MPI_INTEGER, sct_r, 2, MPI_INTEGER, top, comm, req(nreq + 1), ierr)
      call added(K_SCATTER, ierr)
      call MPI_Iallgatherv(gv_s, nv, MPI_INTEGER, agv_r, v_counts, v_displs, MPI_INTEGER, comm, req(nreq + 1), ierr)
      call added(K_ALLGATHERV, ierr)
      call MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, agvp, v_counts, v_displs, MPI_INTEGER, comm, &
           req(nreq + 1), ierr)
      call added(K_ALLGATHERV, ierr)
      call MPI_Ialltoallv(av_s, av_counts, av_sd, MPI_INTEGER, av_r, av_counts, av_rd, MPI_INTEGER, comm, &
           req(nreq + 1), ierr)
      call added(K_ALLTOALLV, ierr)
      call MPI_Ialltoallv(MPI_IN_PLACE, av_counts, av_sd, MPI_DATATYPE_NULL, avp, av_counts, av_rd, MPI_INTEGER, &
           comm, req(nreq + 1), ierr)
      call added(K_ALLTOALLV, ierr)
      call MPI_Ialltoallw(av_s, av_counts, aw_sd, aw_types, aw_r, av_counts, aw_rd, aw_types, comm, req(nreq + 1), &
           ierr)
      call added(K_ALLTOALLW, ierr)
      call MPI_Ialltoallw(MPI_IN_PLACE, av_counts, aw_sd, aw_types, awp, av_counts, aw_rd, aw_types, comm, &
           req(nreq + 1), ierr)
      call added(K_ALLTOALLW, ierr)
      call MPI_Igatherv(gv_s, nv, MPI_INTEGER, gv_r, v_counts, v_displs, MPI_INTEGER, top, comm, req(nreq + 1), ierr)
      call added(K_GATHERV, ierr)
      call MPI_Iscatterv(sv_s, v_counts, v_displs, MPI_INTEGER, sv_r, nv, MPI_INTEGER, top, comm, req(nreq + 1), ierr)
      call added(K_SCATTERV, ierr)
      if (rank == groot) then
        call MPI_Igather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gap, 2, MPI_INTEGER, groot, comm, req(nreq + 1), ierr)
      else
        call MPI_Igather(ga_s, 2, MPI_INTEGER, gap, 2, MPI_INTEGER, groot, comm, req(nreq + 1), ierr)
      end if
    end if
    call added(K_GATHER, ierr)
    call post_in_place_roots(comm, top, nv)
    if (is_persistent) then
      call MPI_Recv_init(p2p_r, 3, MPI_INTEGER, left, TAG_P2P, comm, req(nreq + 1), ierr)
      call added(0, ierr)
      recv_at = nreq
      call MPI_Send_init(p2p_s, 3, MPI_INTEGER, right, TAG_P2P, comm, req(nreq + 1), ierr)
    else
      call MPI_Irecv(p2p_r, 3, MPI_INTEGER, left, TAG_P2P, comm, req(nreq + 1), ierr)
      call added(0, ierr)
      recv_at = nreq
      call MPI_Isend(p2p_s, 3, MPI_INTEGER, right, TAG_P2P, comm, req(nreq + 1), ierr)
    end if
    call added(0, ierr)
  end subroutine post_all

  ! Scatter and scatterv in place at the root (the last rank), gatherv in
  ! place at its root.
  subroutine post_in_place_roots(comm, top, nv)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: top, nv
    integer :: ierr
    if (is_persistent .and. rank == top) then
      call MPIX_Scatter_init(sct_s, 2, MPI_INTEGER, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, top, comm, MPI_INFO_NULL, &
           req(nreq + 1), ierr)
      call added(K_SCATTER, ierr)
      call MPIX_Scatterv_init(sv_s, v_counts, v_displs, MPI_INTEGER, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, top, &
           comm, MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_SCATTERV, ierr)
      call MPIX_Gatherv_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gvp, v_counts, v_displs, MPI_INTEGER, top, comm, &
           MPI_INFO_NULL, req(nreq + 1), ierr)
    else if (is_persistent) then
      call MPIX_Scatter_init(sct_s, 2, MPI_INTEGER, sctp, 2, MPI_INTEGER, top, comm, MPI_INFO_NULL, req(nreq + 1), &
           ierr)
      call added(K_SCATTER, ierr)
      call MPIX_Scatterv_init(sv_s, v_counts, v_displs, MPI_INTEGER, svp, nv, MPI_INTEGER, top, comm, &
           MPI_INFO_NULL, req(nreq + 1), ierr)
      call added(K_SCATTERV, ierr)
      call MPIX_Gatherv_init(gv_s, nv, MPI_INTEGER, gvp, v_counts, v_displs, MPI_INTEGER, top, comm, &
           MPI_INFO_NULL, req(nreq + 1), ierr)
    else if (rank == top) then
      call MPI_Iscatter(sct_s, 2, MPI_INTEGER, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, top, comm, req(nreq + 1), ierr)
      call added(K_SCATTER, ierr)
      call MPI_Iscatterv(sv_s, v_counts, v_displs, MPI_INTEGER, MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, top, comm, &
           req(nreq + 1), ierr)
      call added(K_SCATTERV, ierr)
      call MPI_Igatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gvp, v_counts, v_displs, MPI_INTEGER, top, comm, &
           req(nreq + 1), ierr)
    else
      call MPI_Iscatter(sct_s, 2, MPI_INTEGER, sctp, 2, MPI_INTEGER, top, comm, req(nreq + 1), ierr)
      call added(K_SCATTER, ierr)
      call MPI_Iscatterv(sv_s, v_counts, v_displs, MPI_INTEGER, svp, nv, MPI_INTEGER, top, comm, req(nreq + 1), ierr)
      call added(K_SCATTERV, ierr)
      call MPI_Igatherv(gv_s, nv, MPI_INTEGER, gvp, v_counts, v_displs, MPI_INTEGER, top, comm, req(nreq + 1), ierr)
    end if
    call added(K_GATHERV, ierr)
  end subroutine post_in_place_roots

  ! The point-to-point receive's status: from the left, TAG_P2P, 3 INTEGERs.
  subroutine check_recv_status(st, how)
    STATUS_VAR(st)
    character(len=*), intent(in) :: how
    integer :: n, ierr
    call MPI_Get_count(st, MPI_INTEGER, n, ierr)
    call expect(FIELD(st, MPI_SOURCE) == mod(rank + nprocs - 1, nprocs) .and. FIELD(st, MPI_TAG) == TAG_P2P &
         .and. n == 3, 'the receive''s status, ' // how)
  end subroutine check_recv_status

  ! Request i has completed (index i, from 1, as Fortran gets it): once,
  ! and it is the null request, or inactive but kept if persistent.
  subroutine completed(i, seen, how)
    integer, intent(in) :: i
    logical, intent(inout) :: seen(:)
    character(len=*), intent(in) :: how
    call expect(i >= 1 .and. i <= nreq, 'an index from 1 to the count, ' // how)
    if (i < 1 .or. i > nreq) return
    call expect(.not. seen(i), 'each request completes once, ' // how)
    seen(i) = .true.
    call expect((req(i) == MPI_REQUEST_NULL) .neqv. is_persistent, &
         'the request null once complete, kept if persistent, ' // how)
  end subroutine completed

  ! Completes req(1:nreq) with the functions of `how`.
  subroutine complete(how)
    integer, intent(in) :: how
    STATUS_ARRAY(sts, MAXREQ)
    STATUS_VAR(st)
    logical :: seen(MAXREQ), flag
    integer :: ierr, i, idx, outcount, indices(MAXREQ)
    character(len=16) :: what
    write (what, '(a,i0)') 'completion ', how
    seen = .false.
    select case (how)
    case (WAITALL)
      call MPI_Waitall(nreq, req, sts, ierr)
      call check_recv_status(STATUS_AT(sts, recv_at), what)
      do i = 1, nreq
        call completed(i, seen, what)
      end do
    case (TESTALL)
      flag = .false.
      do while (.not. flag)
        call MPI_Testall(nreq, req, flag, MPI_STATUSES_IGNORE, ierr)
      end do
      do i = 1, nreq
        call completed(i, seen, what)
      end do
    case (WAITANY, TESTANY)
      do i = 1, nreq
        if (how == WAITANY) then
          call MPI_Waitany(nreq, req, idx, st, ierr)
        else
          flag = .false.
          do while (.not. flag)
            call MPI_Testany(nreq, req, idx, flag, st, ierr)
          end do
        end if
        call completed(idx, seen, what)
        if (idx == recv_at) call check_recv_status(st, what)
      end do
      call MPI_Waitany(nreq, req, idx, MPI_STATUS_IGNORE, ierr)
      call expect(idx == MPI_UNDEFINED, 'MPI_UNDEFINED once none is active, ' // what)
    case (WAITSOME, TESTSOME)
      do
        if (how == WAITSOME) then
          call MPI_Waitsome(nreq, req, outcount, indices, sts, ierr)
        else
          call MPI_Testsome(nreq, req, outcount, indices, sts, ierr)
        end if
        if (outcount == MPI_UNDEFINED) exit
        do i = 1, outcount
          call completed(indices(i), seen, what)
          if (indices(i) == recv_at) call check_recv_status(STATUS_AT(sts, i), what)
        end do
      end do
    case (ONE_BY_ONE)
      flag = .false.
      do while (.not. flag)
        call MPI_Request_get_status(req(1), flag, st, ierr)
      end do
      do i = 1, nreq
        if (mod(i, 2) == 0) then
          call MPI_Wait(req(i), st, ierr)
        else
          flag = .false.
          do while (.not. flag)
            call MPI_Test(req(i), flag, st, ierr)
          end do
        end if
        call completed(i, seen, what)
        if (i == recv_at) call check_recv_status(st, what)
      end do
    end select
    call expect(ierr == MPI_SUCCESS .and. all(seen(1:nreq)), 'every request completed, ' // what)
  end subroutine complete

  ! The nonblocking and the persistent collectives on comm.
  subroutine check_requests(comm, name)
    HANDLE(MPI_Comm), intent(in) :: comm
    character(len=*), intent(in) :: name
    call under_test(comm, name)
    call check_nonblocking(comm)
    call check_persistent(comm)
  end subroutine check_requests

  ! Every nonblocking collective in flight at once, completed each way.
  subroutine check_nonblocking(comm)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer :: how
    is_persistent = .false.
    call allocate_buffers()
    do how = WAITALL, ONE_BY_ONE
      call fill(how)
      call post_all(comm)
      call count_starts()
      call complete(how)
      call verify(how, 'nonblocking')
    end do
    call free_buffers()
  end subroutine check_nonblocking

  ! Every persistent collective made once, started several times with new
  ! data (MPI_Start one by one, then MPI_Startall with the point-to-point
  ! pair among them), completed each way, then freed while inactive.
  subroutine check_persistent(comm)
    HANDLE(MPI_Comm), intent(in) :: comm
    integer :: how, i, ierr
    is_persistent = .true.
    call allocate_buffers()
    call fill(0)
    call post_all(comm)
    do how = WAITALL, ONE_BY_ONE
      call fill(10 * how)
      if (how == WAITALL) then
        do i = 1, nreq
          call MPI_Start(req(i), ierr)
          call expect(ierr == MPI_SUCCESS, 'MPI_Start')
        end do
      else
        call MPI_Startall(nreq, req, ierr)
        call expect(ierr == MPI_SUCCESS, 'MPI_Startall')
      end if
      call count_starts()
      call complete(how)
      call verify(10 * how, 'persistent')
    end do
    do i = 1, nreq
      call MPI_Request_free(req(i), ierr)
      call expect(ierr == MPI_SUCCESS .and. req(i) == MPI_REQUEST_NULL, 'MPI_Request_free of an inactive request')
    end do
    call free_buffers()
  end subroutine check_persistent

  ! Handles freed while a started call uses them: the program's handle is
  ! null at once, the call still completes right.  And starting an active
  ! persistent request is MPI_ERR_REQUEST in ierror.
  subroutine check_frees_and_errors()
#if defined(BINDING_MPI_F08)
    procedure(MPI_User_function) :: affine_op
#else
    external :: affine_op
#endif
    HANDLE(MPI_Comm) :: comm
    HANDLE(MPI_Datatype) :: pair
    HANDLE(MPI_Op) :: affine
    HANDLE(MPI_Request) :: two(2)
    integer, asynchronous :: a(6), maps(2, 3), res(2, 3)
    integer :: ierr
    call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
    call under_test(comm, 'frees')
    call MPI_Type_contiguous(2, MPI_INTEGER, pair, ierr)
    call MPI_Type_commit(pair, ierr)
    call MPI_Op_create(affine_op, .false., affine, ierr)
    a = -1
    if (rank == 0) a = series(0, 6)
    maps = affine_of(rank, 3)
    call MPI_Ibcast(a, 3, pair, 0, comm, two(1), ierr)
    call done(K_BCAST, ierr)
    call MPI_Iallreduce(maps, res, 3, pair, affine, comm, two(2), ierr)
    call done(K_ALLREDUCE, ierr)
    call MPI_Type_free(pair, ierr)
    call expect(ierr == MPI_SUCCESS .and. pair == MPI_DATATYPE_NULL, 'MPI_Type_free while in use')
    call MPI_Op_free(affine, ierr)
    call expect(ierr == MPI_SUCCESS .and. affine == MPI_OP_NULL, 'MPI_Op_free while in use')
    call MPI_Comm_free(comm, ierr)
    call expect(ierr == MPI_SUCCESS .and. comm == MPI_COMM_NULL, 'MPI_Comm_free while in use')
    call MPI_Waitall(2, two, MPI_STATUSES_IGNORE, ierr)
    call expect(all(a == series(0, 6)), 'ibcast of a freed datatype on a freed communicator')
    call expect(all(res == affine_total(3, nprocs)), 'iallreduce of a freed operation and datatype')

    comm_name = 'errors'
    call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
    call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN, ierr)
    call MPIX_Barrier_init(comm, MPI_INFO_NULL, two(1), ierr)
    call MPI_Start(two(1), ierr)
    served(K_BARRIER) = served(K_BARRIER) + 1
    call MPI_Start(two(1), ierr)
    call expect(ierr == MPI_ERR_REQUEST, 'MPI_Start of an active request: MPI_ERR_REQUEST')
    call MPI_Wait(two(1), MPI_STATUS_IGNORE, ierr)
    call MPI_Request_free(two(1), ierr)
    call MPI_Comm_free(comm, ierr)
  end subroutine check_frees_and_errors

  ! A persistent call that hints hand to MPI ("hiercoll" = "off") is Open
  ! MPI's, counted as native at each start.
  subroutine check_persistent_hints()
    HANDLE(MPI_Comm) :: off
    HANDLE(MPI_Info) :: info
    HANDLE(MPI_Request) :: r
    integer :: ierr, i
    call MPI_Info_create(info, ierr)
    call MPI_Info_set(info, 'hiercoll', 'off', ierr)
    call MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, off, ierr)
    call MPIX_Barrier_init(off, MPI_INFO_NULL, r, ierr)
    do i = 1, 2
      call MPI_Start(r, ierr)
      call MPI_Wait(r, MPI_STATUS_IGNORE, ierr)
      call expect(ierr == MPI_SUCCESS, 'persistent barrier with hiercoll=off')
    end do
    native(K_BARRIER) = native(K_BARRIER) + 2
    call MPI_Request_free(r, ierr)
    call MPI_Comm_free(off, ierr)
    call MPI_Info_free(info, ierr)
  end subroutine check_persistent_hints

end module request_checks
