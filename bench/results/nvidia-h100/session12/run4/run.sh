#!/bin/bash
# Session 12, run 4 (sources 22628a5: the device-span tuner restored, packing in the tensor-core classes, the 128 x 128
# byte tile timed at first use): the blas bench rows (gemv-shaped gemm after the tuner's restoration; GemmBatched) and
# the transpose sweeps of seeds 13 and 14 from empty caches. Outputs tarred (at most 8 files return).
source .gpu/env.sh
cd .exp/s12r4
mkdir -p /tmp/r4
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > /tmp/r4/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 150 ./tilecl bench --family blas --no-first-call --json /tmp/r4/bench-blas.json > /tmp/r4/bench-blas.txt 2>&1; echo "rc $?" >> /tmp/r4/bench-blas.txt
for seed in 13 14; do
  export TILECL_CACHE_DIR=$(mktemp -d)
  timeout 150 ./tilecl bench --sweep --seed $seed --family transpose --json /tmp/r4/sweep-transpose-seed$seed.json > /tmp/r4/sweep-transpose-seed$seed.txt 2>&1; echo "rc $?" >> /tmp/r4/sweep-transpose-seed$seed.txt
done
tar -C /tmp/r4 -czf $OUT/run4.tar.gz .
grep -E "^(gemm m<=8|gemm_batched|gemm_strided|gemv) " /tmp/r4/bench-blas.txt | grep -v "copy of"
grep -h -A4 "Sweep summary" /tmp/r4/sweep-transpose-seed*.txt
grep -h "uint8" /tmp/r4/sweep-transpose-seed*.txt | grep -E "^[0-9]" | head -40
