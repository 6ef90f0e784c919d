#!/usr/bin/env bash
# tools/cluster.sh — run one MPI program on an emulated cluster on this machine.
#
#   tools/cluster.sh --nodes N --ppn K [options] -- PROGRAM ARGS...
#   tools/cluster.sh --ppn-list 3,1,2   [options] -- PROGRAM ARGS...
#
# Run with --help for the options. Needs root, Open MPI (mpirun), util-linux
# (unshare, setpriv, mount) and iproute2 (ip).
#
# How the emulation works (DESIGN.md, "Emulated cluster on one machine"):
#  * The whole job (mpirun, its daemons, the ranks) runs inside private
#    network, mount, UTS, IPC and PID namespaces. The network namespace has
#    only `lo`, so Open MPI is told to use `lo` for its launch channel (oob)
#    and for its TCP transport.
#  * Emulated node i is the host name "node<i>", which resolves to its own
#    loopback address 127.0.0.(i+2) through a generated hosts file that is
#    bind-mounted over /etc/hosts inside the private mount namespace only.
#    (A name resolving to 127.0.0.1 would be taken by Open MPI for the
#    launcher's own host.)
#  * mpirun itself runs under the host name "hc-launcher", which is NOT in the
#    hostfile. So mpirun starts no rank itself: it starts one orted per
#    emulated node through our rsh agent, and the agent gives each orted (and
#    so the ranks it forks) its own UTS namespace with the node's host name.
#    This holds for node0 too. Open MPI thus sees N distinct hosts: ranks of
#    one node use shared memory (vader), ranks of different nodes use TCP.
#  * A fresh tmpfs is mounted over /dev/shm in the namespace. It holds the
#    generated files (hosts file, hostfile, rsh agent), vader's segments and
#    Open MPI's session directories (orte_tmpdir_base), so they all vanish
#    with the namespace, even when the job is killed with SIGKILL: the
#    launcher writes nothing to disk (and so needs no $TMPDIR). It also keeps
#    the session directory paths short (PMIx puts Unix sockets there, whose
#    paths are limited to 108 bytes; a deep $TMPDIR under bazel would
#    overflow that).
#  * The namespace's init is the child of `unshare --fork --kill-child`; when
#    unshare dies, init gets SIGKILL, and when a PID namespace's init dies the
#    kernel kills every other process in it. The launcher therefore stops the
#    whole job (timeout, SIGINT, SIGTERM) by killing unshare, and unshare gets
#    SIGKILL by itself should the launcher die (setpriv --pdeathsig).

set -euo pipefail

readonly PROG_NAME=cluster.sh
readonly LAUNCHER_HOST=hc-launcher
readonly INNER_FLAG=--__inside-namespace   # internal: second stage, see inner_main

# ---------------------------------------------------------------- messages --

usage() {
  cat <<'EOF'
Usage: tools/cluster.sh --nodes N --ppn K [options] -- PROGRAM [ARGS...]
       tools/cluster.sh --ppn-list K0,K1,... [options] -- PROGRAM [ARGS...]

Runs PROGRAM as one MPI job (mpirun) on N emulated nodes on this machine,
each in its own network identity: ranks on one node talk through shared
memory, ranks on different nodes through TCP. Must be run as root.

Options:
  --nodes N           number of emulated nodes
  --ppn K             ranks per node
  --ppn-list LIST     ranks of each node, comma-separated (e.g. 3,1,2: three
                      nodes with 3, 1 and 2 ranks); implies --nodes
  --map-by slot|node  slot (default): consecutive ranks fill a node;
                      node: ranks go round-robin over the nodes, skipping
                      nodes that are full
  --preload           run the ranks with LD_PRELOAD of the hiercoll
                      interposition library (bazel-bin/runtime/
                      libhiercoll.so, or $HIERCOLL_PRELOAD_LIB)
  --mca KEY VALUE     extra Open MPI parameter (repeatable); replaces the
                      launcher's own value for the same KEY
  --timeout S         kill the whole job after S seconds (exit status 124)
  --nic RATE          every node sends its inter-node (TCP) traffic through
                      one link of RATE shared by its ranks, in tc's units
                      (1gbit, 400mbit, 50mbps); receiving, latency and shared
                      memory are not shaped (tools/cluster_nic.sh). The ranks
                      get HIERCOLL_CLUSTER_NIC_BITS=<bit/s>. `--nic none`: no
                      model (the default)
  --verbose           print the layout, generated files and mpirun command
  -h, --help          show this help

Environment variables whose names start with HIERCOLL_ are passed to every
rank. The exit status is mpirun's (that of the first failing rank); 124 on
timeout, 130/143 when interrupted by SIGINT/SIGTERM, 2 for usage errors.
EOF
}

die() {
  echo "$PROG_NAME: error: $*" >&2
  exit 2
}

say() {   # verbose output
  if [[ $verbose == 1 ]]; then echo "$PROG_NAME: $*" >&2; fi
}

# ------------------------------------------------------------------ parts --
# Sourced from this script's folder, in both stages: the command line and
# the checks (cluster_options.sh), the mpirun command and the job's control
# from outside (cluster_launch.sh), the namespaces' inside (cluster_inside.sh).
# The link model (cluster_nic.sh) is sourced only for --nic.
parts_dir=$(dirname -- "${BASH_SOURCE[0]}")
# shellcheck source=tools/cluster_options.sh
source "$parts_dir/cluster_options.sh"
# shellcheck source=tools/cluster_launch.sh
source "$parts_dir/cluster_launch.sh"
# shellcheck source=tools/cluster_inside.sh
source "$parts_dir/cluster_inside.sh"

# ---------------------------------------------------------- first stage --

main() {
  parse_args "$@"
  compute_layout
  check_options
  ((EUID == 0)) || die "must run as root (it creates network, mount and PID namespaces)"
  resolve_tools
  resolve_program
  cores=$(nproc)
  if ((preload)); then preload_lib=$(preload_library); fi
  self=$(realpath -- "${BASH_SOURCE[0]}")
  build_mpirun_cmd
  say "map-by $map_by${timeout_s:+, timeout $timeout_s s}"
  if [[ -n $nic_bits ]]; then say "link model: every node sends through one link of $(nic_describe "$nic_bits")"; fi

  # A closed stdin would make `<&0` in start_job fail.
  if ! { : <&0; } 2>/dev/null; then exec </dev/null; fi

  trap 'on_signal INT 130' INT
  trap 'on_signal TERM 143' TERM
  trap 'on_signal HUP 129' HUP
  trap cleanup EXIT
  start_job
  local status=0
  wait_job || status=$?
  say "exit status $status"
  exit "$status"
}

# Where the second stage writes the hostfile, hosts file and rsh agent: on
# the tmpfs it mounts over /dev/shm, seen only inside the namespaces.
readonly JOB_DIR=/dev/shm/hiercoll-cluster

preload_lib=""
self=""
cores=1
unshare_bin="" setpriv_bin="" hostname_bin="" ip_bin="" tc_bin="" mpirun_bin=""
# Set for the ranks by --nic only, never inherited from the caller.
unset HIERCOLL_CLUSTER_NIC_BITS
if [[ ${1:-} == "$INNER_FLAG" ]]; then
  shift
  inner_main "$@"
else
  main "$@"
fi
