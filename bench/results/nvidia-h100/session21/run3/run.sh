#!/bin/bash
# Session 21, run 3: the whole test suite (eea3fb1's tilecl_tests, the probe and the kernel sources beside it) on the
# GPU, suite group by suite group, each with an empty cache directory.
source .gpu/env.sh
cd .exp/s21r3
R=/tmp/r3; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv > $R/gpu.txt 2>&1
cat $R/gpu.txt
start=$(date +%s)
for group in "runtime.*" "reliability.*" "tuning.*" "ops.elementwise,ops.reduce,ops.transpose,ops.gemv" "ops.gemm,ops.gemm_batched" "ops.gemm_mma" "ops.color,ops.convolve" "multi.*"; do
  name=$(echo "$group" | tr -c 'a-z_\n' '_')
  export TILECL_CACHE_DIR=$(mktemp -d)
  t0=$(date +%s)
  timeout 300 ./tilecl_tests -ts="$group" > $R/tests-$name.txt 2>&1; rc=$?
  echo "$group rc $rc $(( $(date +%s) - t0 )) s: $(grep 'test cases:' $R/tests-$name.txt)"
  grep -B2 -A8 "ERROR\|FATAL" $R/tests-$name.txt | head -40
  [ $(( $(date +%s) - start )) -gt 520 ] && echo "stopping: time" && break
done
tar -C $R -czf $OUT/run3.tar.gz .
