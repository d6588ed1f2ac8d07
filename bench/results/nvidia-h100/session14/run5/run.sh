#!/bin/bash
# Session 14, run 5. Sources: run 4's with the fit batch-aware (matrices a group only while the batch gives every compute unit two groups; else fewer outputs per work-item). Run 4: chosen tilings fitted to matrices smaller than their tile
# (gemm_batched_fit_config) + the 64/128 buckets' default 64 x 64, 8 x 4, K 16, DOUBLE_BUFFER 1.
# (1) ops.gemm_batched on the GPU; (2) the batched sweep, seeds 13 and 14; every tilecl figure from an empty cache.
source .gpu/env.sh
cd .exp/s14r5
mkdir -p /tmp/r5
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > /tmp/r5/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 120 ./tilecl_tests -ts='ops.gemm_batched' > /tmp/r5/tests.log 2>&1; echo "rc $?" >> /tmp/r5/tests.log
export TILECL_CACHE_DIR=$(mktemp -d)
# (bench --family blas: its shapes fill their tiles, unchanged by the fit: see run 4)
for seed in 13 14; do
  export TILECL_CACHE_DIR=$(mktemp -d)
  timeout 150 ./tilecl bench --sweep --family blas --seed $seed --json /tmp/r5/sweep-batched-seed$seed.json > /tmp/r5/sweep-batched-seed$seed.txt 2>&1; echo "rc $?" >> /tmp/r5/sweep-batched-seed$seed.txt
done
tar -C /tmp/r5 -czf $OUT/run5.tar.gz .
cat /tmp/r5/gpu.txt
grep -B2 -A12 -E "ERROR|FATAL" /tmp/r5/tests.log | head -c 3000; tail -n 4 /tmp/r5/tests.log

for seed in 13 14; do grep -A24 "^Shape sweep" /tmp/r5/sweep-batched-seed$seed.txt | cut -c1-110; grep -A2 "Sweep summary" /tmp/r5/sweep-batched-seed$seed.txt | cut -c1-250; done
