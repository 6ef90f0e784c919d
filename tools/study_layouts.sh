# What the decision studies share (tools/heldout_study.sh,
# tools/agreement_study.sh), sourced by them: the operations and sizes,
# the layouts by default, and a layout's cluster options.
ops=allreduce,bcast,reduce,allgather,scan
sizes=1K,64K,1M,4M
default_layouts=(3,1,2 4x2 8x1 2x4)

# layout_shape LAYOUT: sets shape to the cluster options of "NxP" (N nodes
# of P ranks) or of a list of ranks per node, placed round-robin.
layout_shape() {
  case $1 in
    *x*) shape=(--nodes "${1%x*}" --ppn "${1#*x}") ;;
    *) shape=(--ppn-list "$1" --map-by node) ;;
  esac
}

# study_start OUTDIR [LAYOUT ...]: creates OUTDIR and sets out to its
# absolute path, and layouts to the layouts given, else the default ones.
study_start() {
  out=$1
  shift
  layouts=("$@")
  [ ${#layouts[@]} -gt 0 ] || layouts=("${default_layouts[@]}")
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
}
