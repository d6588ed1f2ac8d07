#!/usr/bin/env bash
# One batched GPU run of both memops sweeps (transpose, reduce), from the repository root:
#   OUT=/some/dir bash bench/experiments/memops/run_gpu.sh
# Builds the harnesses, runs the `gpu` presets on the NVIDIA platform, writes full logs and JSON to $OUT and
# prints the two compact summaries (a few KB). Expected wall time on an H200: 2-3 minutes.
set -u
OUT=${OUT:-/tmp/memops-gpu}
BUILD=${BUILD:-build-memops}
mkdir -p "$OUT"
export TILECL_PLATFORM=${TILECL_PLATFORM:-NVIDIA}
start=$(date +%s)
if ! { cmake -S bench/experiments/memops -B "$BUILD" -DCMAKE_BUILD_TYPE=Release && cmake --build "$BUILD" -j "$(nproc)"; } \
    > "$OUT/build.log" 2>&1; then
  tail -40 "$OUT/build.log"
  exit 1
fi
grep "memops peers" "$OUT/build.log"
for family in transpose reduce; do
  "$BUILD/${family}_sweep" --kernels kernels --preset gpu --json "$OUT/$family.json" "$@" > "$OUT/$family.log" 2>&1
  rc=$?
  head -2 "$OUT/$family.log"
  if grep -q "== $family summary" "$OUT/$family.log"; then
    sed -n "/== $family summary/,\$p" "$OUT/$family.log"
  else
    echo "$family sweep ended early (rc $rc):"
    tail -20 "$OUT/$family.log"
  fi
  echo "($family exit code $rc, $(( $(date +%s) - start )) s so far)"
done
