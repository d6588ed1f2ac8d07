#!/bin/bash
# Session 14, run 4. Sources: run 3's + chosen tilings fitted to matrices smaller than their tile
# (gemm_batched_fit_config) + the 64/128 buckets' default 64 x 64, 8 x 4, K 16, DOUBLE_BUFFER 1.
# (1) ops.gemm_batched on the GPU; (2) tilecl bench --family blas --no-first-call; (3) the batched sweep, seeds 13
# and 14; every tilecl figure from an empty cache.
source .gpu/env.sh
cd .exp/s14r4
mkdir -p /tmp/r4
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > /tmp/r4/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 120 ./tilecl_tests -ts='ops.gemm_batched' > /tmp/r4/tests.log 2>&1; echo "rc $?" >> /tmp/r4/tests.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 200 ./tilecl bench --family blas --no-first-call --json /tmp/r4/bench-blas.json > /tmp/r4/bench-blas.txt 2>&1; echo "rc $?" >> /tmp/r4/bench-blas.txt
for seed in 13 14; do
  export TILECL_CACHE_DIR=$(mktemp -d)
  timeout 150 ./tilecl bench --sweep --family blas --seed $seed --json /tmp/r4/sweep-batched-seed$seed.json > /tmp/r4/sweep-batched-seed$seed.txt 2>&1; echo "rc $?" >> /tmp/r4/sweep-batched-seed$seed.txt
done
tar -C /tmp/r4 -czf $OUT/run4.tar.gz .
cat /tmp/r4/gpu.txt
grep -B2 -A12 -E "ERROR|FATAL" /tmp/r4/tests.log | head -c 3000; tail -n 4 /tmp/r4/tests.log
grep -E "gemm_strided_batched|gemm_batched" /tmp/r4/bench-blas.txt | grep -v "^  " | head -30
for seed in 13 14; do grep -A24 "^Shape sweep" /tmp/r4/sweep-batched-seed$seed.txt | cut -c1-110; grep -A2 "Sweep summary" /tmp/r4/sweep-batched-seed$seed.txt | cut -c1-250; done
