#!/usr/bin/env bash
# Generation benchmark (not a test): MB/s of ovsdb-gen for NB and SB
# snapshots, wall clock and per CPU second (the machine may be shared).
#
# usage: datasets/bench-gen.sh [BUILD_DIR] [SCALE] [OUT_DIR]
#   defaults: build, 0.2, datasets/out
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
scale=${2:-0.2}
out=${3:-datasets/out}
mkdir -p "$out"
gen="$build/datasets/ovsdb-gen"
[ -x "$gen" ] || { echo "bench-gen: $gen not built (ninja -C $build)" >&2; exit 1; }

printf '%-4s %-8s %6s %12s %9s %9s %10s %10s\n' db form scale bytes wall_s cpu_s MB/s MB/cpu_s
for db in nb sb; do
  for form in snapshot log; do
    report="$out/bench-$db-$form.json"
    "$gen" --schema "/usr/share/ovn/ovn-$db.ovsschema" \
      --profile "datasets/profiles/$db.profile" --scale "$scale" \
      --form "$form" --txns 10000 -o "$out/bench-$db-$form.db" \
      --report "$report" -q
    /usr/bin/python3 - "$report" "$db" "$form" "$scale" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("%-4s %-8s %6s %12d %9.2f %9.2f %10.1f %10.1f" % (
    sys.argv[2], sys.argv[3], sys.argv[4], r["bytes"], r["seconds"],
    r["cpu_seconds"], r["mb_per_s"], r["mb_per_cpu_s"]))
PY
    rm -f "$out/bench-$db-$form.db"
  done
done
