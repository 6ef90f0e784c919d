# shellcheck shell=bash
# tools/cluster_nic.sh — the per-node link model of tools/cluster.sh --nic.
# Sourced by tools/cluster.sh (only for jobs with --nic); not a program.
#
# The model: every emulated node sends all its inter-node TCP traffic
# through ONE link of the given rate, shared by all its ranks (egress
# shaping). What a node receives, and latency, are not modelled; shared
# memory inside a node is untouched.
#
# How (inside the job's private network namespace, so it dies with it):
#  * node i gets an interface of its own, hcn<i> (one end of a veth pair,
#    both ends up), holding its link address 127.1.x.y (x.y = i+2). Open MPI
#    4.1.4 needs the separate interface: with several addresses on lo it
#    overflows a buffer in its TCP transport's address exchange (malloc
#    "corrupted top size" in MPI_Init). Not the node's host address
#    127.0.x.y: a host name that resolves to an interface's address is
#    taken by mpirun for its own host. Packets between local addresses are
#    routed through lo whatever interface holds them, so all of them meet
#    the qdisc below;
#  * the rsh agent starts each node's orted with
#    OMPI_MCA_btl_tcp_if_include=hcn<i>: that node's TCP transport listens
#    on, and sends from, its own link address only (the ranks inherit
#    orted's environment);
#  * lo gets an htb qdisc with one class of RATE per node and a u32 filter
#    on the source address; everything else (127.0.0.1: the launch channel)
#    is unclassified and goes unshaped.

# tc's rate units (tc(8), case-insensitive): bits or bytes per second, with
# decimal (k, m, g, t) or binary (ki, mi, gi, ti) prefixes; a bare number is
# bits per second. Prints the rate in bits per second (an integer), or
# fails with a message on stderr.
nic_rate_bits() {   # $1: rate as given to --nic
  local given=$1 lower number unit
  lower=${given,,}
  if [[ ! $lower =~ ^([0-9]+(\.[0-9]+)?)([a-z]*)$ ]]; then
    echo "--nic: '$given' is not a rate; give a number with tc's units, e.g. 1gbit, 400mbit, 50mbps" >&2
    return 1
  fi
  number=${BASH_REMATCH[1]} unit=${BASH_REMATCH[3]}
  local factor
  case $unit in
    ''|bit) factor=1 ;;
    kbit) factor=1e3 ;;  mbit) factor=1e6 ;;  gbit) factor=1e9 ;;  tbit) factor=1e12 ;;
    kibit) factor=1024 ;;  mibit) factor=1048576 ;;  gibit) factor=1073741824 ;;  tibit) factor=1099511627776 ;;
    bps) factor=8 ;;  kbps) factor=8e3 ;;  mbps) factor=8e6 ;;  gbps) factor=8e9 ;;  tbps) factor=8e12 ;;
    kibps) factor=8192 ;;  mibps) factor=8388608 ;;  gibps) factor=8589934592 ;;  tibps) factor=8796093022208 ;;
    *)
      echo "--nic: unknown unit '$unit' in '$given' (tc's units: bit kbit mbit gbit tbit, kibit..., bps kbps mbps gbps..., kibps...)" >&2
      return 1 ;;
  esac
  local bits
  bits=$(awk -v n="$number" -v f="$factor" 'BEGIN { printf "%.0f", n * f }')
  # Below about 1 Mbit/s Open MPI's start-up alone takes seconds; above
  # 1 Tbit/s the link would never be the bottleneck (loopback is ~20 Gbit/s).
  if ((bits < 1000000 || bits > 1000000000000)); then
    echo "--nic: '$given' ($bits bit/s) is outside 1mbit..1tbit" >&2
    return 1
  fi
  echo "$bits"
}

# "400 Mbit/s (50.0 MB/s)" for messages and the benchmark's header.
nic_describe() {   # $1: bits per second
  awk -v b="$1" 'BEGIN {
    if (b >= 1e9) printf "%g Gbit/s", b / 1e9; else printf "%g Mbit/s", b / 1e6
    printf " (%.1f MB/s)", b / 8e6 }'
}

# Why there is no --nic-latency (checked on this machine's kernel).
nic_latency_refusal() {
  echo "--nic-latency: no mechanism here can delay packets (the netem, fq and etf qdiscs are not in this kernel; htb and tbf only shape rates); see docs/BENCHMARK.md, 'Link model'"
}

# The link address of node $1 (see above).
nic_addr() { local n=$(($1 + 2)); echo "127.1.$((n / 256)).$((n % 256))"; }

# Inside the namespace: the nodes' interfaces, and the htb classes on lo.
nic_setup() {   # $1: ip, $2: tc, $3: bits per second, $4: number of nodes
  local ip_bin=$1 tc_bin=$2 bits=$3 count=$4 i addr class
  # The token bucket's depth: one loopback segment (64 KiB, TSO), which
  # htb sends whole and then blocks its class for. Measured at 2gbit:
  # smaller buckets (8, 32 KiB) made round trips erratic (means 1.5-8x the
  # minimum at 256 KiB-1 MiB); larger ones let more of each message pass
  # at once after the link idles (256 KiB: a 1 MiB ping-pong at 132% of
  # the rate). With 64 KiB: 1 MiB at 106%, 4 MiB at 102%, steadily
  # (docs/BENCHMARK.md, "Link model").
  local burst=65536
  "$tc_bin" qdisc add dev lo root handle 1: htb
  for ((i = 0; i < count; i++)); do
    addr=$(nic_addr "$i")
    class=1:$(printf %x $((i + 1)))
    "$ip_bin" link add name "hcn$i" type veth peer name "hcp$i"
    "$ip_bin" link set "hcp$i" up
    "$ip_bin" link set "hcn$i" up
    "$ip_bin" addr add "$addr/32" dev "hcn$i"
    "$tc_bin" class add dev lo parent 1: classid "$class" htb rate "${bits}bit" ceil "${bits}bit" \
      burst "$burst" cburst "$burst" quantum 65536
    "$tc_bin" filter add dev lo parent 1: protocol ip prio 1 u32 match ip src "$addr/32" flowid "$class"
  done
}

# The environment line the rsh agent runs before orted on node $1 (a name
# node<i>): that node's TCP transport uses its own address only.
nic_agent_env() {   # $1: number of nodes; writes a `case` on $host to stdout
  local count=$1 i
  # shellcheck disable=SC2016  # $host is the agent's variable
  echo 'case $host in'
  for ((i = 0; i < count; i++)); do
    echo "  $(node_name "$i")) OMPI_MCA_btl_tcp_if_include=hcn$i; export OMPI_MCA_btl_tcp_if_include ;;"
  done
  echo 'esac'
}
