#!/usr/bin/env bash
# The benchmark's page as a person sees it: hiercoll_bench_jobs makes
# report.html from two jobs' results (made up here: four implementations,
# a rooted and an unrooted operation, barrier, lower bounds), and headless
# Chromium renders it:
#  - the page names no network resource and runs no script;
#  - the screenshot is not empty;
#  - every image loads (a copy of the page with a script added reports
#    each image's state after the load, through --dump-dom);
#  - the speedups are native's time over each implementation's, with the
#    range over the jobs.
set -uo pipefail
cd "${TEST_SRCDIR}/${TEST_WORKSPACE}"
tmp=$(realpath "${TEST_TMPDIR}")/report
rm -rf "$tmp"
mkdir -p "$tmp"
fail() { echo "FAIL: $*"; exit 1; }

# results.csv and lower_bound.csv of one job; hier is $1 times faster than
# native at every size, flat as fast, han half as fast.
write_job() {
  local dir=$1 factor=$2 op bytes impl t root roots
  mkdir -p "$dir"
  {
    echo "op,bytes,nodes,ppn,impl,algorithm,root,median_us,min_us,max_us,reps"
    for op in bcast allreduce barrier; do
      for bytes in 8 65536 1048576; do
        [[ $op == barrier ]] && { ((bytes == 8)) || continue; bytes=0; }
        roots=-1
        [[ $op == bcast ]] && roots="0 1"
        for impl in hier flat native han; do
          for root in $roots; do
            t=$(awk -v b="$bytes" -v i="$impl" -v f="$factor" 'BEGIN {
              n = 20 + b / 200; t = i == "hier" ? n / f : (i == "han" ? 2 * n : n); printf "%.3f", t }')
            echo "$op,$bytes,4,2,$impl,x,$root,$t,$t,$t,5"
          done
        done
      done
    done
  } >"$dir/results.csv"
  {
    echo "op,bytes,nodes,ppn,bound_us,hier_median_us,ratio,busy_bound_us,busy_ratio"
    for bytes in 8 65536 1048576; do
      echo "allreduce,$bytes,4,2,10.000,20.000,$factor.000,15.000,1.500"
    done
  } >"$dir/lower_bound.csv"
  printf 'hiercoll benchmark (made up for the test)\nlayout: 8 ranks on 4 nodes\n\nrest\n' >"$dir/summary.txt"
}
write_job "$tmp/job1" 2
write_job "$tmp/job2" 3
out=$(bench/hiercoll_bench_jobs "$tmp" "$tmp/job1" "$tmp/job2" 2>&1) || fail "hiercoll_bench_jobs: $out"
grep -q "^report: $tmp/report.html" <<<"$out" || fail "no report line: $out"
page=$tmp/report.html
[[ -s $page ]] || fail "no report.html"

grep -qiE '(src|href)="[a-z]+:|<script|<link|url\(|@import' "$page" && fail "the page refers to the network or runs a script"
# hier is 2x and 3x faster than native in the two jobs: median 2.50, range 2.00-3.00.
grep -q '<td class="good">2.50 <small>(2.00–3.00)</small></td>' "$page" || fail "hier's speedup cell"
grep -q '<td class="bad">0.50 <small>(0.50–0.50)</small></td>' "$page" || fail "han's speedup cell"
for f in bcast_speedup.png allreduce_speedup.png barrier_speedup.png allreduce_bound.png; do
  grep -q "src=\"plots/$f\"" "$page" || fail "the page does not show plots/$f"
  [[ -s $tmp/plots/$f ]] || fail "plots/$f was not drawn"
done

chromium_run() {
  HOME=$tmp timeout 120 chromium --headless --no-sandbox --disable-gpu --user-data-dir="$tmp/profile" \
    --host-resolver-rules="MAP * ~NOTFOUND" --window-size=1200,3000 "$@" 2>"$tmp/chromium.log"
}
chromium_run --screenshot="$tmp/shot.png" "file://$page" >/dev/null || { cat "$tmp/chromium.log"; fail "chromium"; }
size=$(stat -c %s "$tmp/shot.png" 2>/dev/null || echo 0)
# A blank page of this size compresses to a few KiB; text, tables and plots
# make it much larger.
((size > 50000)) || fail "the screenshot is empty or nearly so ($size bytes)"

{
  sed '/<\/body>/,$d' "$page"
  cat <<'EOF'
<script>
window.addEventListener("load", () => {
  const images = [...document.images];
  const broken = images.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.getAttribute("src"));
  document.body.dataset.images = images.length;
  document.body.dataset.broken = broken.join(" ") || "none";
});
</script>
</body>
</html>
EOF
} >"$tmp/check.html"
dom=$(chromium_run --virtual-time-budget=10000 --dump-dom "file://$tmp/check.html") || { cat "$tmp/chromium.log"; fail "chromium --dump-dom"; }
images=$(grep -o 'data-images="[0-9]*"' <<<"$dom" | grep -o '[0-9]*')
((images >= 4)) || fail "the rendered page has ${images:-no} images"
grep -q 'data-broken="none"' <<<"$dom" || fail "images that do not load: $(grep -o 'data-broken="[^"]*"' <<<"$dom")"
echo "report renders: $images images load, screenshot $size bytes"
