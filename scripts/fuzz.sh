#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/) into build-fuzz/, seeds their corpora
# and runs each target for a while, then prints one table row per target.
# See fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets=(json-differential ovsdb-load schema profile)

usage() {
  cat <<EOF
usage: scripts/fuzz.sh [--minutes N] [--jobs P] [--build-only] [TARGET...]

Builds build-fuzz/ (clang, -Dfuzz=true, ASan+UBSan, libFuzzer), seeds the
corpora in build-fuzz/corpus/TARGET/ and runs each TARGET (default: all of
${all_targets[*]}) for N minutes (default 1; fractions allowed),
P targets at a time (default 1, at most 2), under nice.  A run stops at the
first crash, leak, sanitizer report or timeout; the input is kept as
build-fuzz/artifacts/TARGET/<kind>-<sha1> and the log as
build-fuzz/logs/TARGET.log.  Then prints, per target: minutes, execs,
execs/s, coverage (libFuzzer's cov: edges and ft: features) and crashes.
Exit status 1 if any target crashed.

  --minutes N     run time per target (default 1)
  --jobs P        targets run at once (1 or 2)
  --build-only    build and seed, do not run
  -h, --help      this help
EOF
}

minutes=1 parallel=1 build_only=0 targets=()
while [ $# -gt 0 ]; do
  case $1 in
    --minutes) minutes=${2:?--minutes needs a value}; shift 2 ;;
    --jobs) parallel=${2:?--jobs needs a value}; shift 2 ;;
    --build-only) build_only=1; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  case " ${all_targets[*]} " in
    *" $t "*) ;;
    *) echo "fuzz.sh: unknown target $t (have: ${all_targets[*]})" >&2
       exit 2 ;;
  esac
done
if ! [[ $minutes =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
  echo "fuzz.sh: --minutes wants a number, got $minutes" >&2; exit 2
fi
case $parallel in 1|2) ;; *) echo "fuzz.sh: --jobs is 1 or 2" >&2
                             exit 2 ;; esac
seconds=$(awk -v m="$minutes" 'BEGIN { s = int(m * 60); print s < 1 ? 1 : s }')

# clang and its runtimes (libFuzzer) are only in the fuzz deps.
scripts/deps.sh --fuzz

B=build-fuzz
if [ ! -f $B/build.ninja ]; then
  CC=clang CXX=clang++ meson setup $B -Dfuzz=true \
    -Dbuildtype=debugoptimized -Db_lto=false \
    -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
nice ninja -C $B "${targets[@]/#/fuzz/}" datasets/ovsdb-gen >/dev/null

# Seeds: the committed ones (fuzz/seeds/TARGET/), plus inputs made from the
# project's test data, schemas, profiles and tiny generated databases.
# Each target's first byte(s) select a mode (see fuzz/*.c): seeds get them.
seed() {  # seed TARGET NAME PREFIX-BYTES FILE
  local dir=$B/corpus/$1
  mkdir -p "$dir"
  { printf "$3"; cat "$4"; } >"$dir/seed-$2"
}
nb=/usr/share/ovn/ovn-nb.ovsschema sb=/usr/share/ovn/ovn-sb.ovsschema
for t in "${targets[@]}"; do
  mkdir -p $B/corpus/$t $B/artifacts/$t $B/logs
  cp fuzz/seeds/$t/* $B/corpus/$t/ 2>/dev/null || true
  case $t in
    json-differential)
      for f in tests/data/jsontestsuite/test_parsing/*.json \
               tests/data/jsontestsuite/test_transform/*.json; do
        [ "$(stat -c %s "$f")" -le 16384 ] || continue
        seed $t "$(basename "$f")" '\000' "$f"
      done
      # The same text in chunks of 1, 2 and 5 bytes.
      seed $t nb-schema-split '\003\001\002\005' $nb
      ;;
    schema)
      seed $t nb.ovsschema '' $nb
      seed $t sb.ovsschema '' $sb
      ;;
    profile)
      seed $t nb.profile '\000' datasets/profiles/nb.profile
      seed $t sb.profile '\001' datasets/profiles/sb.profile
      ;;
    ovsdb-load)
      tmp=$(mktemp -d)
      for kind in nb sb; do
        for form in snapshot log cluster; do
          $B/datasets/ovsdb-gen --schema /usr/share/ovn/ovn-$kind.ovsschema \
            --profile datasets/profiles/$kind.profile --scale 0.0001 \
            --form $form --txns 20 --seed 1 -q -o "$tmp/db"
          seed $t $kind-$form '\000' "$tmp/db"
          # The same records without headers (mode 1 writes them; mode 3
          # with the clustered magic).
          grep -v '^OVSDB \(JSON\|CLUSTER\) ' "$tmp/db" >"$tmp/lines"
          seed $t $kind-$form-lines \
            "$([ $form = cluster ] && echo '\003' || echo '\001')" "$tmp/lines"
          # Also converted to its own schema (bit 2; bit 3: all via JSON).
          seed $t $kind-$form-convert '\004' "$tmp/db"
          seed $t $kind-$form-convert-json '\014' "$tmp/db"
        done
      done
      rm -rf "$tmp"
      ;;
  esac
done
# Dictionaries of the tokens each input format is made of (fuzz/*.dict).
mkdir -p $B/dict
cp fuzz/json.dict $B/dict/json-differential.dict
cat fuzz/json.dict fuzz/ovsdb.dict >$B/dict/ovsdb-load.dict
cp $B/dict/ovsdb-load.dict $B/dict/schema.dict
cp fuzz/profile.dict $B/dict/profile.dict
[ $build_only -eq 1 ] && exit 0

# Inputs are capped near the largest seed; the JSON target's seeds are small.
max_len() {
  case $1 in
    json-differential|schema) echo 65536 ;;
    *) echo 262144 ;;
  esac
}

run() {  # run TARGET: fuzz it, log to $B/logs/TARGET.log
  local t=$1 start
  start=$(date +%s)
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  nice $B/fuzz/$t $B/corpus/$t \
    -max_total_time="$seconds" -max_len="$(max_len $t)" \
    -dict=$B/dict/$t.dict -timeout=30 -rss_limit_mb=2048 \
    -print_final_stats=1 \
    -artifact_prefix=$B/artifacts/$t/ >$B/logs/$t.log 2>&1 || true
  echo $(($(date +%s) - start)) >$B/logs/$t.seconds
}

echo "fuzzing ${targets[*]} for $minutes min each, $parallel at a time" >&2
for t in "${targets[@]}"; do
  rm -f $B/artifacts/$t/*
done
pids=()
for t in "${targets[@]}"; do
  run "$t" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$parallel" ]; then
    wait "${pids[0]}"
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p"; done

# One row per target from libFuzzer's log: the final stats (execs, run
# time) and the last status line (cov:, ft:).
status=0
printf '%-18s %7s %12s %9s %7s %8s %7s\n' target minutes execs execs/s cov ft \
  crashes
for t in "${targets[@]}"; do
  log=$B/logs/$t.log
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  crashes=$(find $B/artifacts/$t -type f | wc -l)
  ran=$(awk -v s="$(cat $B/logs/$t.seconds)" 'BEGIN { printf "%.1f", s / 60 }')
  printf '%-18s %7s %12s %9s %7s %8s %7s\n' "$t" "$ran" "${execs:--}" \
    "${rate:--}" "${cov:--}" "${ft:--}" "$crashes"
  if [ "$crashes" -gt 0 ]; then
    status=1
    find $B/artifacts/$t -type f | sed 's/^/    /'
  fi
done
exit $status
