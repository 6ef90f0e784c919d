/* hiercoll: hierarchy-aware MPI collectives.
 *
 * Each function takes exactly the arguments of the MPI function of the same
 * name and returns an MPI error code; bad input is reported through the
 * communicator's error handler, like MPI itself.  MPI_IN_PLACE is accepted
 * wherever MPI accepts it.  Calls on intercommunicators, and every call when
 * HIERCOLL_MODE=off (or the communicator's "hiercoll" info hint is "off"),
 * are handed to the MPI library.  Linking libhiercoll (or preloading it)
 * also makes the MPI_* functions of the same names use hiercoll.
 */
#ifndef HIERCOLL_H_
#define HIERCOLL_H_

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version, "MAJOR.MINOR.PATCH" (the SONAME carries MAJOR). */
const char* hiercoll_version(void);

/* Broadcasts count elements from root's buffer to every rank's buffer. */
int hiercoll_bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
/* Combines every rank's sendbuf with op, in rank order, into root's recvbuf. */
int hiercoll_reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                    MPI_Comm comm);
/* Like hiercoll_reduce, with the result on every rank. */
int hiercoll_allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm);
/* Every rank receives every rank's sendbuf, in rank order. */
int hiercoll_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm);
/* Reduces size*recvcount elements and leaves block i of the result on rank i. */
int hiercoll_reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                  MPI_Op op, MPI_Comm comm);
/* Like reduce_scatter_block with recvcounts[i] elements for rank i. */
int hiercoll_reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm);
/* Block j of rank i's sendbuf becomes block i of rank j's recvbuf. */
int hiercoll_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, MPI_Comm comm);
/* Inclusive prefix reduction: rank i gets sendbuf(0) op ... op sendbuf(i). */
int hiercoll_scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
/* Exclusive prefix reduction: rank i > 0 gets sendbuf(0) op ... op sendbuf(i-1). */
int hiercoll_exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm);
/* Returns on a rank only after every rank has entered. */
int hiercoll_barrier(MPI_Comm comm);
/* Root receives every rank's sendbuf, in rank order. */
int hiercoll_gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm);
/* Rank i receives block i of root's sendbuf. */
int hiercoll_scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm);
/* The v-variants: rank i's block has counts[i] elements at displs[i]
   (in extents of the datatype) of the buffer that holds every block. */
int hiercoll_gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm);
int hiercoll_scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                      void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int hiercoll_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm);
int hiercoll_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                       void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                       MPI_Comm comm);
/* Alltoallw: per peer a count, a displacement in bytes and a datatype. */
int hiercoll_alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                       const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                       const MPI_Datatype recvtypes[], MPI_Comm comm);

/* Nonblocking versions: the same calls, started; the request completes in
 * MPI's Test/Wait functions like any other (a generalized request), and the
 * call advances in them, in hiercoll's other calls and in the progress
 * thread (HIERCOLL_PROGRESS_THREAD=1). */
int hiercoll_ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request* request);
int hiercoll_ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                     MPI_Comm comm, MPI_Request* request);
int hiercoll_iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm, MPI_Request* request);
int hiercoll_iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request);
int hiercoll_ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                   MPI_Op op, MPI_Comm comm, MPI_Request* request);
int hiercoll_ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm, MPI_Request* request);
int hiercoll_ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request);
int hiercoll_iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                   MPI_Request* request);
int hiercoll_iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                     MPI_Request* request);
int hiercoll_ibarrier(MPI_Comm comm, MPI_Request* request);
int hiercoll_igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                     MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request);
int hiercoll_iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request);
/* The v-variants' counts and displacements are read at the start. */
int hiercoll_igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm,
                      MPI_Request* request);
int hiercoll_iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                       void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                       MPI_Request* request);
int hiercoll_iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                         MPI_Request* request);
int hiercoll_ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                        void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                        MPI_Comm comm, MPI_Request* request);
int hiercoll_ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                        const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* request);

/* Persistent versions (MPI-4.0's MPI_<op>_init, Open MPI 4.1's MPIX_<op>_init):
 * collective; the decision, plan and schedule are made here, on every rank
 * alike, and each MPI_Start / MPI_Startall runs the schedule on the
 * buffers' current contents (their addresses, counts, displacements and
 * datatypes must not change).  The request completes in MPI's Test/Wait
 * functions and is then inactive, ready for the next start; MPI_Request_free
 * of an inactive one frees it.  Starting an active request is
 * MPI_ERR_REQUEST.  info is passed to MPI where the call goes to MPI. */
int hiercoll_bcast_init(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request* request);
int hiercoll_reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                         MPI_Comm comm, MPI_Info info, MPI_Request* request);
int hiercoll_allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm, MPI_Info info, MPI_Request* request);
int hiercoll_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                            int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                            MPI_Request* request);
int hiercoll_reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype,
                                       MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request);
int hiercoll_reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request* request);
int hiercoll_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request);
int hiercoll_scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm, MPI_Info info, MPI_Request* request);
int hiercoll_exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm, MPI_Info info, MPI_Request* request);
int hiercoll_barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request);
int hiercoll_gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request);
int hiercoll_scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request);
int hiercoll_gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                          MPI_Comm comm, MPI_Info info, MPI_Request* request);
int hiercoll_scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                           void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                           MPI_Info info, MPI_Request* request);
int hiercoll_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Info info, MPI_Request* request);
int hiercoll_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request);
int hiercoll_alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                            const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                            const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                            MPI_Request* request);

#ifdef __cplusplus
}
#endif

#endif /* HIERCOLL_H_ */
