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

# ------------------------------------------------------------- arguments --

nodes=""            # number of emulated nodes
ppn=""              # ranks per node (uniform layout)
ppn_list=""         # ranks per node (explicit list)
map_by=slot
preload=0
timeout_s=""
nic_rate=""         # --nic as given
nic_bits=""         # --nic in bits per second
verbose=0
user_mca_keys=()    # --mca KEY VALUE pairs, in order
user_mca_values=()
program=()          # PROGRAM ARGS...

is_pos_int() { [[ $1 =~ ^[1-9][0-9]{0,8}$ ]]; }

parse_args() {
  local saw_dashdash=0
  while (($# > 0)); do
    # Accept --opt=value as well as --opt value.
    if [[ $1 == --?*=* ]]; then
      set -- "${1%%=*}" "${1#*=}" "${@:2}"
    fi
    case $1 in
      --nodes|--ppn|--ppn-list|--map-by|--timeout|--nic)
        (($# >= 2)) || die "$1 needs a value"
        case $1 in
          --nodes) nodes=$2 ;;
          --ppn) ppn=$2 ;;
          --ppn-list) ppn_list=$2 ;;
          --map-by) map_by=$2 ;;
          --timeout) timeout_s=$2 ;;
          --nic) nic_rate=$2 ;;
        esac
        shift 2 ;;
      --mca)
        (($# >= 3)) || die "--mca needs a KEY and a VALUE"
        [[ $2 =~ ^[A-Za-z0-9_]+$ ]] || die "bad --mca key '$2'"
        user_mca_keys+=("$2")
        user_mca_values+=("$3")
        shift 3 ;;
      --preload) preload=1; shift ;;
      --nic-latency) load_nic_model; die "$(nic_latency_refusal)" ;;
      --verbose|-v) verbose=1; shift ;;
      -h|--help) usage; exit 0 ;;
      --) saw_dashdash=1; shift; break ;;
      -*) die "unknown option '$1' (see --help)" ;;
      *) die "missing '--' before the program '$1' (see --help)" ;;
    esac
  done
  ((saw_dashdash)) || die "missing '--' before the program (see --help)"
  (($# > 0)) || die "no program given after '--'"
  program=("$@")
}

# Fills ppn_of[] (ranks of each node) and total_ranks from the options.
ppn_of=()
total_ranks=0

compute_layout() {
  if [[ -n $ppn_list ]]; then
    [[ -z $ppn ]] || die "give either --ppn or --ppn-list, not both"
    [[ $ppn_list =~ ^[0-9]+(,[0-9]+)*$ ]] ||
      die "--ppn-list must be positive integers separated by commas, got '$ppn_list'"
    IFS=, read -r -a ppn_of <<<"$ppn_list"
    if [[ -n $nodes ]]; then
      is_pos_int "$nodes" || die "--nodes must be a positive integer, got '$nodes'"
      ((nodes == ${#ppn_of[@]})) ||
        die "--nodes $nodes does not match --ppn-list $ppn_list (${#ppn_of[@]} nodes)"
    fi
  else
    [[ -n $nodes && -n $ppn ]] || die "give --nodes N and --ppn K, or --ppn-list (see --help)"
    is_pos_int "$nodes" || die "--nodes must be a positive integer, got '$nodes'"
    is_pos_int "$ppn" || die "--ppn must be a positive integer, got '$ppn'"
    local i
    for ((i = 0; i < nodes; i++)); do ppn_of+=("$ppn"); done
  fi
  nodes=${#ppn_of[@]}
  # Host names map to 127.0.x.y with x.y = i+2; keep well inside 127.0/16.
  ((nodes <= 65000)) || die "at most 65000 nodes"
  local k
  for k in "${ppn_of[@]}"; do
    is_pos_int "$k" || die "ranks per node must be positive integers, got '$k'"
    total_ranks=$((total_ranks + k))
  done
}

check_options() {
  # wait -n -p (bash 5.1) times the job.
  ((BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1] >= 501)) ||
    die "needs bash 5.1 or newer (this is $BASH_VERSION)"
  [[ $map_by == slot || $map_by == node ]] ||
    die "--map-by must be 'slot' or 'node', got '$map_by'"
  if [[ -n $timeout_s ]]; then
    is_pos_int "$timeout_s" || die "--timeout must be a positive number of seconds, got '$timeout_s'"
  fi
  if [[ -n $nic_rate && $nic_rate != none ]]; then
    load_nic_model
    nic_bits=$(nic_rate_bits "$nic_rate" 2>&1) || die "$nic_bits"
    # The model confines each node's TCP transport to its own interface;
    # a global choice would bypass it.
    local key
    for key in "${user_mca_keys[@]}"; do
      [[ $key != btl_tcp_if_include && $key != btl_tcp_if_exclude ]] ||
        die "--nic sets each node's btl_tcp_if_include itself; drop --mca $key"
    done
    unset OMPI_MCA_btl_tcp_if_include OMPI_MCA_btl_tcp_if_exclude
  fi
}

# The link model lives in its own file, needed only by jobs with --nic.
load_nic_model() {
  local file
  file=$(dirname -- "${BASH_SOURCE[0]}")/cluster_nic.sh
  [[ -f $file ]] || die "--nic: $file is missing"
  # shellcheck source=tools/cluster_nic.sh
  source "$file"
}

# --------------------------------------------------------------- checks --

# Absolute path of a command found in PATH or in the sbin directories
# (bazel tests run with PATH=/bin:/usr/bin, which lacks `ip`).
find_tool() {
  local p
  p=$(PATH="$PATH:/usr/sbin:/sbin:/usr/local/sbin" type -P "$1") ||
    die "required command '$1' not found${2:+ (from $2)}"
  echo "$p"
}

# Absolute paths of the tools the launcher needs.
resolve_tools() {
  unshare_bin=$(find_tool unshare util-linux)
  setpriv_bin=$(find_tool setpriv util-linux)
  hostname_bin=$(find_tool hostname)
  ip_bin=$(find_tool ip iproute2)
  mpirun_bin=$(find_tool mpirun "Open MPI")
  if [[ -n $nic_bits ]]; then tc_bin=$(find_tool tc iproute2); fi
  # mpirun derives Open MPI's install prefix from its own path. Found as
  # /bin/mpirun (PATH=/bin:/usr/bin under bazel, /bin -> usr/bin) that prefix
  # would be "/", which mpirun refuses; resolve the directory (not the file,
  # which is a link to orterun).
  mpirun_bin=$(realpath -- "$(dirname -- "$mpirun_bin")")/mpirun
}

# Resolves program[0] the way a shell would (PATH, or a path relative to the
# current directory) and makes it absolute, without following symbolic links
# (bazel runfiles are symlinks, and a binary finds its runfiles from argv[0]).
resolve_program() {
  local p=${program[0]} abs
  if [[ $p == */* ]]; then
    [[ -e $p ]] || die "program '$p' not found"
  else
    p=$(type -P -- "$p") || die "program '${program[0]}' not found in PATH"
  fi
  [[ -f $p ]] || die "program '$p' is not a regular file"
  [[ -x $p ]] || die "program '$p' is not executable"
  abs=$(realpath -s -- "$p") || die "cannot resolve path of '$p'"
  program[0]=$abs
}

# Path of the interposition library for --preload.
preload_library() {
  if [[ -n ${HIERCOLL_PRELOAD_LIB:-} ]]; then
    [[ -f $HIERCOLL_PRELOAD_LIB ]] ||
      die "HIERCOLL_PRELOAD_LIB=$HIERCOLL_PRELOAD_LIB does not exist"
    realpath -s -- "$HIERCOLL_PRELOAD_LIB"
    return
  fi
  # The repository root is tools/..; try it as invoked (e.g. a runfiles
  # tree) and with symbolic links resolved (the source tree, where the
  # bazel-bin link lives).
  local rel=bazel-bin/runtime/libhiercoll.so tried=() root
  for root in "$(dirname -- "${BASH_SOURCE[0]}")/.." \
              "$(dirname -- "$(realpath -- "${BASH_SOURCE[0]}")")/.."; do
    root=$(realpath -s -- "$root")
    if [[ -f $root/$rel ]]; then
      echo "$root/$rel"
      return
    fi
    [[ " ${tried[*]} " == *" $root/$rel "* ]] || tried+=("$root/$rel")
  done
  die "--preload: interposition library not found (looked for ${tried[*]});" \
      "build it with bazel first, or point HIERCOLL_PRELOAD_LIB at it"
}

# ------------------------------------------------------ generated files --
# These are written by the second stage, inside the namespaces, to JOB_DIR on
# the namespace's private tmpfs: nothing is created on the machine's disks,
# so nothing can be left behind, even when the launcher is killed by SIGKILL.

node_name() { echo "node$1"; }
node_addr() { local n=$(($1 + 2)); echo "127.0.$((n / 256)).$((n % 256))"; }

write_hosts_file() {   # $1: path
  {
    echo "# generated by $PROG_NAME; bind-mounted over /etc/hosts in the job's namespace"
    echo "127.0.0.1 localhost $LAUNCHER_HOST"
    echo "::1 localhost ip6-localhost ip6-loopback"
    local i
    for ((i = 0; i < nodes; i++)); do
      echo "$(node_addr "$i") $(node_name "$i")"
    done
  } >"$1"
}

write_hostfile() {   # $1: path
  local i
  for ((i = 0; i < nodes; i++)); do
    echo "$(node_name "$i") slots=${ppn_of[i]}"
  done >"$1"
}

# The rsh agent Open MPI calls as `agent [ssh options] HOST COMMAND...` to
# start an orted on HOST. Like ssh, it runs COMMAND (the words joined by
# spaces, then read by a shell) "on" HOST: here in a new UTS namespace whose
# host name is HOST.
write_rsh_agent() {   # $1: path
  cat >"$1" <<EOF
#!/bin/sh
# rsh agent generated by $PROG_NAME: [ssh options] HOST COMMAND...
while [ \$# -gt 0 ]; do
  case \$1 in
    -[bcDEeFIiJLlmOopQRSWw]) shift 2 ;;   # ssh options that take a value
    -*) shift ;;
    *) break ;;
  esac
done
[ \$# -ge 2 ] || { echo "rsh agent: usage: [ssh options] HOST COMMAND..." >&2; exit 255; }
host=\$1
shift
$(if [[ -n $nic_bits ]]; then nic_agent_env "$nodes"; fi)
exec $unshare_bin --uts -- /bin/sh -c '$hostname_bin "\$1" || exit 255; shift; eval "\$*"' agent "\$host" "\$@"
EOF
  chmod 755 "$1"
}

# ------------------------------------------------------- mpirun command --

mpirun_cmd=()

# Open MPI parameters: the launcher's defaults, then the user's --mca pairs,
# which replace a default of the same key (Open MPI would otherwise merge
# repeated keys into one comma-separated value).
add_mca_params() {
  local -A value=()
  local order=() key i
  set_mca() { [[ -v value[$1] ]] || order+=("$1"); value[$1]=$2; }

  set_mca plm_rsh_agent "$JOB_DIR/rsh-agent"
  # The namespace has only lo: use it for the launch channel and for TCP.
  set_mca oob_tcp_if_include lo
  # With --nic each node's TCP transport gets its own address from the rsh
  # agent instead (a value here would override it).
  if [[ -z $nic_bits ]]; then set_mca btl_tcp_if_include lo; fi
  # Be explicit about the transports, so that nothing else (UCX, libfabric,
  # openib) is probed or used between emulated nodes.
  set_mca pml ob1
  set_mca btl self,vader,tcp
  # Session directories (next to vader's segments) on the namespace's
  # private tmpfs.
  set_mca orte_tmpdir_base /dev/shm
  # Every emulated node sees all cores of the machine, so binding ranks of
  # different nodes to "their" cores would pile them onto the same ones.
  set_mca hwloc_base_binding_policy none
  if ((total_ranks > cores)); then
    # Busy-polling ranks starve each other and the network stack: without
    # this a message between emulated nodes costs milliseconds instead of
    # tens of microseconds (DESIGN.md). Open MPI does not set it by itself
    # because the hostfile declares enough slots.
    set_mca mpi_yield_when_idle 1
  fi

  for i in "${!user_mca_keys[@]}"; do
    set_mca "${user_mca_keys[i]}" "${user_mca_values[i]}"
  done
  for key in "${order[@]}"; do
    mpirun_cmd+=(--mca "$key" "${value[$key]}")
  done
}

build_mpirun_cmd() {
  mpirun_cmd=("$mpirun_bin" --allow-run-as-root
              --hostfile "$JOB_DIR/hostfile" -np "$total_ranks"
              --map-by "$map_by")
  if ((total_ranks > cores)); then mpirun_cmd+=(--oversubscribe); fi
  add_mca_params

  # Variables for the ranks. (Ranks inherit the launcher's environment
  # anyway, as the agent starts orted locally; -x makes it explicit and also
  # holds should the agent ever clear the environment.)
  local name
  for name in $(compgen -e); do
    if [[ $name == HIERCOLL_* ]]; then mpirun_cmd+=(-x "$name"); fi
  done
  for name in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
    if [[ -n ${!name:-} ]]; then mpirun_cmd+=(-x "$name"); fi
  done
  if [[ -n $nic_bits ]]; then mpirun_cmd+=(-x "HIERCOLL_CLUSTER_NIC_BITS=$nic_bits"); fi
  if ((preload)); then
    # A library built with AddressSanitizer (./hiercoll test --sanitize)
    # needs the sanitizer's runtime loaded before it.
    local asan
    asan=$(ldd "$preload_lib" 2>/dev/null | awk '$1 ~ /^libasan\.so/ { print $3 }')
    mpirun_cmd+=(-x "LD_PRELOAD=${asan:+$asan:}$preload_lib${LD_PRELOAD:+:$LD_PRELOAD}")
  fi
  mpirun_cmd+=("${program[@]}")
}

# --------------------------------------------------------- second stage --

print_setup() {
  ((verbose)) || return 0
  say "$nodes nodes, ranks per node: ${ppn_of[*]}, $total_ranks ranks, $(nproc) cores"
  say "hostfile:"; sed 's/^/    /' "$JOB_DIR/hostfile" >&2
  say "hosts (inside the namespace):"; sed 's/^/    /' "$JOB_DIR/hosts" >&2
  if [[ -n $nic_bits ]]; then
    say "link model (tc on lo):"; "$tc_bin" class show dev lo | sed 's/^/    /' >&2
  fi
  say "command: $(printf '%q ' "$@")"
}

# Runs as the init (PID 1) of the new namespaces: sets up the network, the
# mounts and the generated files, then runs mpirun.
# Arguments: UNSHARE_BIN HOSTNAME_BIN IP_BIN TC_BIN NIC_BITS PPN_LIST VERBOSE
# MPIRUN ARGS... (TC_BIN and NIC_BITS empty without --nic)
inner_main() {
  unshare_bin=$1 hostname_bin=$2 tc_bin=$4 nic_bits=$5 ppn_list=$6 verbose=$7
  local ip_bin=$3
  shift 7
  IFS=, read -r -a ppn_of <<<"$ppn_list"
  nodes=${#ppn_of[@]}
  total_ranks=$(IFS=+; echo $((${ppn_of[*]})))

  # unshare --propagation private already did this; be sure, so that the
  # mounts below can never show outside the namespace.
  mount --make-rprivate /
  "$ip_bin" link set lo up
  if [[ -n $nic_bits ]]; then
    load_nic_model
    nic_setup "$ip_bin" "$tc_bin" "$nic_bits" "$nodes"
  fi
  mount -t tmpfs -o mode=1777 hiercoll-shm /dev/shm
  mkdir -m 700 "$JOB_DIR"
  write_hosts_file "$JOB_DIR/hosts"
  write_hostfile "$JOB_DIR/hostfile"
  write_rsh_agent "$JOB_DIR/rsh-agent"
  mount --bind "$JOB_DIR/hosts" /etc/hosts
  "$hostname_bin" "$LAUNCHER_HOST"
  print_setup "$@"

  # Not exec: as PID 1, bash also reaps orphans that mpirun leaves behind.
  local status=0
  "$@" || status=$?
  exit "$status"
}

# ---------------------------------------------------------- first stage --

job_pid=""          # the unshare process that holds the namespaces
timer_pid=""        # the sleep that times the job (--timeout)

# Stops the job (if running) and the timer. Killing unshare kills the
# namespace's init, hence every process in the namespace.
cleanup() {
  if [[ -n $job_pid ]]; then
    kill -KILL "$job_pid" 2>/dev/null || true
    wait "$job_pid" 2>/dev/null || true
    job_pid=""
  fi
  if [[ -n $timer_pid ]]; then
    kill -KILL "$timer_pid" 2>/dev/null || true
    wait "$timer_pid" 2>/dev/null || true
    timer_pid=""
  fi
}

# Note: a shell cannot trap a signal that was ignored when it started. A
# launcher started with `&` from a non-interactive shell ignores SIGINT
# (POSIX); mpirun inside still reacts to it and ends the job itself.
# shellcheck disable=SC2317  # invoked from a trap
on_signal() {   # $1: signal name, $2: exit status
  trap - INT TERM HUP
  echo "$PROG_NAME: got SIG$1, killing the MPI job" >&2
  cleanup
  exit "$2"
}

# Starts the job in the background inside new namespaces; sets job_pid.
start_job() {
  # setpriv --pdeathsig: unshare gets SIGKILL if the launcher dies (even by
  # SIGKILL). unshare --kill-child: init gets SIGKILL if unshare dies.
  # `<&0`: keep stdin, which bash would otherwise replace by /dev/null for a
  # background command.
  "$setpriv_bin" --pdeathsig KILL -- \
    "$unshare_bin" --net --mount --uts --ipc --pid --fork --kill-child \
    --mount-proc --propagation private -- \
    "$self" "$INNER_FLAG" "$unshare_bin" "$hostname_bin" "$ip_bin" "$tc_bin" "$nic_bits" \
    "$(IFS=,; echo "${ppn_of[*]}")" "$verbose" "${mpirun_cmd[@]}" <&0 &
  job_pid=$!
}

# Waits for the job (and the timer, if any); returns the job's exit status.
wait_job() {
  local done_pid="" status=0
  if [[ -z $timeout_s ]]; then
    wait "$job_pid" || status=$?
    job_pid=""
    return "$status"
  fi
  # The timer is a plain sleep that dies with the launcher (pdeathsig).
  "$setpriv_bin" --pdeathsig KILL -- sleep "$timeout_s" &
  timer_pid=$!
  wait -n -p done_pid "$job_pid" "$timer_pid" || status=$?
  if [[ $done_pid == "$job_pid" ]]; then
    job_pid=""
    return "$status"
  fi
  timer_pid=""
  echo "$PROG_NAME: timeout: the job ran longer than $timeout_s s; killed it" >&2
  cleanup
  return 124
}

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
