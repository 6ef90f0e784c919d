# shellcheck shell=bash
# tools/cluster_options.sh — the launcher's command line (its options, the layout, their checks)
# and the tools and files it needs.
# Sourced by tools/cluster.sh (both stages); not a program.

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
