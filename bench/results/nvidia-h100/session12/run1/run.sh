#!/bin/bash
# Session 12, run 1 (sources 8f1eeea + the host-clock tuner and via_float beside the tensor cores for half and
# bfloat16, uncommitted): GPU tests of the touched suites; gemm_mma sweeps of seeds 13 and 14 (as session 11's run 4)
# from empty caches; gemm_batched with listed offsets beside strided (bench/experiments/batched_listed.cpp).
source .gpu/env.sh
cd .exp/s12r1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > $OUT/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 150 ./tilecl_tests -ts='ops.gemm_mma,ops.gemm_batched,tuning.*' > $OUT/tests.log 2>&1; echo "rc $?" >> $OUT/tests.log
for seed in 13 14; do
  export TILECL_CACHE_DIR=$(mktemp -d)
  timeout 130 ./tilecl bench --sweep --seed $seed --family gemm_mma --json $OUT/sweep-gemm-mma-seed$seed.json > $OUT/sweep-gemm-mma-seed$seed.txt 2>&1; echo "rc $?" >> $OUT/sweep-gemm-mma-seed$seed.txt
done
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 60 ./listed 16384 8 8 8 4096 32 32 32 1024 64 64 64 256 128 128 128 3000 20 30 40 > $OUT/listed.txt 2>&1; echo "rc $?" >> $OUT/listed.txt
tail -n 4 $OUT/tests.log; grep -h -A4 "Sweep summary" $OUT/sweep-gemm-mma-seed*.txt; cat $OUT/listed.txt
