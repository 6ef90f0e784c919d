# shellcheck shell=bash
# The commands that run the project's programs, most on the emulated
# cluster (cluster, topo, bench, tune, simulate, explain, fuzz,
# algorithms), sourced by ./hiercoll.
# ---------------------------------------------------------------------------
# programs

# Builds TARGET, or explains that it does not exist (yet).
build_target() {
  local target=$1 out
  if ! out=$("$BAZEL" query --output=label "$target" 2>&1); then
    if grep -qE "no such (package|target)" <<<"$out"; then
      die "target $target does not exist (yet) in this tree; nothing to run"
    fi
    echo "$out" >&2
    die "bazel query $target failed"
  fi
  "$BAZEL" build "$target"
}

need_cluster_script() {
  [[ -x tools/cluster.sh ]] || die "tools/cluster.sh is missing (or not executable)"
}

# Splits "$@" into CLUSTER_ARGS (the known cluster options) and PROG_ARGS
# (everything else, and everything after `--`).
split_args() {
  CLUSTER_ARGS=()
  PROG_ARGS=()
  while (($# > 0)); do
    case "$1" in
      --nodes | --ppn | --ppn-list | --map-by | --nic | --nic-latency)
        (($# >= 2)) || die "$1 needs a value"
        CLUSTER_ARGS+=("$1" "$2")
        shift 2
        ;;
      --nodes=* | --ppn=* | --ppn-list=* | --map-by=* | --nic=* | --nic-latency=*)
        CLUSTER_ARGS+=("${1%%=*}" "${1#*=}")
        shift
        ;;
      --)
        shift
        PROG_ARGS+=("$@")
        break
        ;;
      *)
        PROG_ARGS+=("$1")
        shift
        ;;
    esac
  done
  check_nic_opts
}

# A bad --nic or --nic-latency is refused here, before anything is built
# (tools/cluster.sh checks it again).
check_nic_opts() {
  local k
  for ((k = 0; k < ${#CLUSTER_ARGS[@]}; k += 2)); do
    case ${CLUSTER_ARGS[k]} in
      --nic | --nic-latency)
        [[ ${CLUSTER_ARGS[k]} == --nic && ${CLUSTER_ARGS[k + 1]} == none ]] && continue
        # shellcheck source=tools/cluster_nic.sh
        source tools/cluster_nic.sh
        local msg
        if [[ ${CLUSTER_ARGS[k]} == --nic-latency ]]; then die "$(nic_latency_refusal)"; fi
        msg=$(nic_rate_bits "${CLUSTER_ARGS[k + 1]}" 2>&1) || die "$msg"
        ;;
    esac
  done
}

has_cluster_opt() {
  local want=$1 a
  for a in "${CLUSTER_ARGS[@]}"; do
    [[ $a == "$want" ]] && return 0
  done
  return 1
}

# Ranks start in the caller's folder, as under mpirun, and a relative
# program path is the caller's.
cmd_cluster() {
  need_cluster_script
  local launcher=$PWD/tools/cluster.sh
  cd "$CALLER_DIR"
  exec "$launcher" "$@"
}

# NODES x PPN unless the command line gives the layout.
default_layout() {
  has_cluster_opt --nodes || has_cluster_opt --ppn-list || CLUSTER_ARGS+=(--nodes "$1")
  has_cluster_opt --ppn || has_cluster_opt --ppn-list || CLUSTER_ARGS+=(--ppn "$2")
}

cmd_topo() {
  split_args "$@"
  default_layout 3 2
  cmd_deps
  need_cluster_script
  build_target //topo:topo_print
  exec tools/cluster.sh "${CLUSTER_ARGS[@]}" -- bazel-bin/topo/topo_print "${PROG_ARGS[@]}"
}

# The options of the programs that run on the emulated cluster (bench,
# tune): LAUNCHER gets the launcher's --mca KEY VALUE and --timeout S;
# REST the others, with the value of every option named in PATH_OPTS (a
# space-separated list) made absolute against the caller's directory (the
# script has moved to the repository root).
split_launcher_args() {
  local path_opts=" $1 " caller=$CALLER_DIR
  shift
  LAUNCHER=()
  REST=()
  while (($# > 0)); do
    case "$1" in
      --mca)
        (($# >= 3)) || die "--mca needs a KEY and a VALUE"
        LAUNCHER+=(--mca "$2" "$3")
        shift 3
        ;;
      --timeout)
        (($# >= 2)) || die "--timeout needs a value"
        LAUNCHER+=(--timeout "$2")
        shift 2
        ;;
      --timeout=*)
        LAUNCHER+=(--timeout "${1#*=}")
        shift
        ;;
      --)
        REST+=("$@")
        break
        ;;
      --*=*)
        set -- "${1%%=*}" "${1#*=}" "${@:2}"
        ;;
      *)
        if [[ $path_opts == *" $1 "* ]]; then
          (($# >= 2)) || die "$1 needs a value"
          local path=$2
          [[ $path == /* ]] || path="$caller/$path"
          REST+=("$1" "$path")
          shift 2
        else
          REST+=("$1")
          shift
        fi
        ;;
    esac
  done
}

# Defaults of bench and tune: 4 nodes x 2 ranks, and the link model: at
# 2gbit the network, not the 2 cores, is the bottleneck even with every
# node sending (docs/BENCHMARK.md, "The default link model"); tune measures
# under the same model so that its file fits what bench measures.
default_cluster() {
  default_layout 4 2
  has_cluster_opt --nic || CLUSTER_ARGS+=(--nic 2gbit)
}

# The bench subcommand. Default output results/<timestamp>-<layout>/ in the
# repository (git-ignored). --jobs N: N jobs one after the other into
# DIR/job1..N, then their ratios compared (bench/jobs.h says why).
cmd_bench() {
  local args=() jobs=1 out=""
  split_launcher_args "--out --tuning" "$@"
  set -- "${REST[@]}"
  while (($# > 0)); do
    case "$1" in
      --jobs)
        (($# >= 2)) || die "--jobs needs a value"
        jobs=$2
        [[ $jobs =~ ^[1-9][0-9]*$ ]] || die "--jobs needs a positive number, not '$jobs'"
        shift 2
        ;;
      --out)
        out=$2
        shift 2
        ;;
      --)
        args+=("$@")
        break
        ;;
      *)
        args+=("$1")
        shift
        ;;
    esac
  done
  split_args "${args[@]}"
  default_cluster
  cmd_deps
  need_cluster_script
  build_target //bench:hiercoll_bench
  if ((jobs == 1)); then
    [[ -z $out ]] || PROG_ARGS+=(--out "$out")
    exec tools/cluster.sh "${CLUSTER_ARGS[@]}" "${LAUNCHER[@]}" -- bazel-bin/bench/hiercoll_bench "${PROG_ARGS[@]}"
  fi
  build_target //bench:hiercoll_bench_jobs
  [[ -n $out ]] || out="$PWD/results/$(date +%Y%m%d-%H%M%S)-jobs$jobs"
  mkdir -p "$out" || die "cannot create $out"
  local dirs=() i
  for ((i = 1; i <= jobs; ++i)); do
    echo "hiercoll: benchmark job $i of $jobs -> $out/job$i"
    tools/cluster.sh "${CLUSTER_ARGS[@]}" "${LAUNCHER[@]}" -- bazel-bin/bench/hiercoll_bench "${PROG_ARGS[@]}" \
      --out "$out/job$i" || die "benchmark job $i failed"
    dirs+=("$out/job$i")
  done
  echo
  bazel-bin/bench/hiercoll_bench_jobs "$out" "${dirs[@]}"
}

# The tune subcommand: the tuner on the emulated cluster (default 4 x 2);
# --show FILE prints a tuning file without starting a job.
cmd_tune() {
  # --model: a layout's entry from the model alone, no MPI job.
  local a
  for a in "$@"; do
    if [[ $a == --model ]]; then
      cmd_deps
      build_target //tune:hiercoll_tune
      exec bazel-bin/tune/hiercoll_tune "$@"
    fi
  done
  split_launcher_args "--out --profile --show" "$@"
  split_args "${REST[@]}"
  default_cluster
  cmd_deps
  build_target //tune:hiercoll_tune
  for a in "${PROG_ARGS[@]}"; do
    [[ $a == --show || $a == --help || $a == -h ]] && exec bazel-bin/tune/hiercoll_tune "${PROG_ARGS[@]}"
  done
  need_cluster_script
  exec tools/cluster.sh "${CLUSTER_ARGS[@]}" "${LAUNCHER[@]}" -- bazel-bin/tune/hiercoll_tune "${PROG_ARGS[@]}"
}

cmd_simulate() {
  cmd_deps
  build_target //sim:simulate
  exec bazel-bin/sim/simulate "$@"
}

cmd_explain() {
  cmd_deps
  build_target //sim:explain
  exec bazel-bin/sim/explain "$@"
}

# The fuzz subcommand: the differential fuzzer on the emulated cluster
# (default 4 x 2, no link model: the fuzzer measures correctness, not time).
# The layout options reach the program, which prints them in replay lines.
cmd_fuzz() {
  split_launcher_args "" "$@"
  split_args "${REST[@]}"
  default_layout 4 2
  cmd_deps
  need_cluster_script
  build_target //fuzz:hiercoll_fuzz
  HIERCOLL_FUZZ_LAYOUT="${CLUSTER_ARGS[*]}" exec tools/cluster.sh "${CLUSTER_ARGS[@]}" "${LAUNCHER[@]}" -- \
    bazel-bin/fuzz/hiercoll_fuzz "${PROG_ARGS[@]}"
}

cmd_algorithms() {
  cmd_deps
  build_target //algorithms:list_algorithms
  build_target //hier:list_compositions
  bazel-bin/algorithms/list_algorithms "$@" && exec bazel-bin/hier/list_compositions
}
