#!/usr/bin/env bash
# Runs the micro-benchmarks of every impl and prints a summary table.
#
# usage: scripts/micro.sh [options] [-- google-benchmark flags...]
#   --build-dir DIR    meson build dir (default: build); set up as a release
#                      build if it does not exist, then brought up to date
#   --impls A,B,...    only these impls (default: every jsonbench-micro-*)
#   --min-time S       --benchmark_min_time per benchmark (default: 0.1)
#   --repetitions N    run all impls N times, interleaved (one process per
#                      impl and repetition), and merge each impl's runs
#                      (default: 1; each benchmark already repeats inside
#                      its process for --min-time); the table shows medians
#   --filter REGEX     --benchmark_filter (default: all benchmarks)
#   --all              more tables (serialize variants, clone, destroy,
#                      allocation counts)
#   --out DIR          results dir (default: results/micro-<UTC timestamp>)
#
# Writes DIR/<impl>.json (google-benchmark JSON), DIR/<impl>.log (console
# output) and DIR/table.md.  The default run takes about 40 s per impl on
# 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build
impls=""
min_time=0.1
repetitions=1
filter=""
all=""
out=""
while [ $# -gt 0 ]; do
  case $1 in
    --build-dir) build=$2; shift 2 ;;
    --impls) impls=$2; shift 2 ;;
    --min-time) min_time=$2; shift 2 ;;
    --repetitions) repetitions=$2; shift 2 ;;
    --filter) filter=$2; shift 2 ;;
    --all) all=--all; shift ;;
    --out) out=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,20s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "micro.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

case $repetitions in
  *[!0-9]*|0*|"") echo "micro.sh: --repetitions takes a count >= 1" >&2
               exit 2 ;;
esac

scripts/deps.sh
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" -Dbuildtype=release >/dev/null
fi
ninja -C "$build" build.ninja >/dev/null   # re-runs meson if meson.build changed

if [ -z "$impls" ]; then
  # The impls the build defines (python/jsonbench/build.py asks meson), in
  # impl_names order: no stale files, no test-only impls built elsewhere.
  impls=$(PYTHONPATH=python${PYTHONPATH:+:$PYTHONPATH} \
            /usr/bin/python3 -m jsonbench.build impls --micro "$build")
fi
impls=${impls%,}
if [ -z "$impls" ]; then
  echo "micro.sh: no jsonbench-micro-* targets in $build" >&2
  exit 1
fi

args=(--benchmark_min_time="$min_time")
[ -z "$filter" ] || args+=(--benchmark_filter="$filter")
args+=("$@")

# Build only what runs here, so a broken target elsewhere does not stop it.
impl_list=${impls//,/ }
ninja -C "$build" $(printf 'bench/jsonbench-micro-%s ' $impl_list) >/dev/null

[ -n "$out" ] || out=results/micro-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$out"

for round in $(seq 1 "$repetitions"); do
  for impl in $impl_list; do
    echo "micro.sh: $impl (repetition $round/$repetitions) ..." >&2
    # Written to a temp name and renamed, so a report is never half there.
    part=$out/$impl.round$round.json
    if ! "$build/bench/jsonbench-micro-$impl" "${args[@]}" \
         --benchmark_out_format=json --benchmark_out="$part.tmp" \
         >>"$out/$impl.log" 2>&1; then
      rm -f "$part.tmp"
      echo "micro.sh: $impl failed; see $out/$impl.log" >&2
      tail -5 "$out/$impl.log" >&2
      exit 1
    fi
    mv "$part.tmp" "$part"
  done
done

reports=()
for impl in $impl_list; do
  if [ "$repetitions" -eq 1 ]; then
    mv "$out/$impl.round1.json" "$out/$impl.json"
  else
    /usr/bin/python3 bench/micro-merge.py "$out/$impl.json" \
      $(seq -f "$out/$impl.round%g.json" 1 "$repetitions")
    rm -f "$out/$impl".round*.json
  fi
  reports+=("$out/$impl.json")
done

/usr/bin/python3 bench/micro-table.py $all "${reports[@]}" >"$out/table.md.tmp"
mv "$out/table.md.tmp" "$out/table.md"
cat "$out/table.md"
echo
echo "micro.sh: reports in $out/" >&2
