# shellcheck shell=bash
# tools/cluster_launch.sh — launching: the mpirun command (Open MPI's parameters, the ranks'
# variables) and the first stage's control of the job: started in new
# namespaces, timed, stopped on a signal.
# Sourced by tools/cluster.sh (both stages); not a program.

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

# ------------------------------------------------------ job control --

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
