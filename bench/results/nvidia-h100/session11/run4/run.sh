#!/bin/bash
# Session 11, run 4 (the session's final sources: TF32's via_float beside the tensor cores, half and bfloat16 ranked
# as before; binaries built here as in run 1): the gemm_mma suites on the GPU, the gemm_mma sweeps of seeds 13 (as
# runs 2 and 3) and 14 from empty caches.
source .gpu/env.sh
cd .exp/run4
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > $OUT/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 120 ./tilecl_tests -ts='ops.gemm_mma,runtime.op_frame' > $OUT/tests.log 2>&1; echo "rc $?" >> $OUT/tests.log
for seed in 13 14; do
  export TILECL_CACHE_DIR=$(mktemp -d)
  timeout 130 ./tilecl bench --sweep --seed $seed --family gemm_mma --json $OUT/sweep-gemm-mma-seed$seed.json > $OUT/sweep-gemm-mma-seed$seed.txt 2>&1; echo "rc $?" >> $OUT/sweep-gemm-mma-seed$seed.txt
done
tail -n 4 $OUT/tests.log; grep -h -A4 "Sweep summary" $OUT/sweep-gemm-mma-seed*.txt
