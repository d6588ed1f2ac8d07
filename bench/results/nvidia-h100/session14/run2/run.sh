#!/bin/bash
# Session 14, run 2. (1) batched_kernels with LOAD_VEC 4 everywhere: UNROLL_K, a register cap, PREFETCH_C.
# (2) ops.gemm_batched on the GPU (library with LOAD_VEC / UNROLL_K / PREFETCH_C in the tiled space, defaults
# LOAD_VEC 16 bytes, UNROLL_K 4). (3) tilecl bench --family blas --no-first-call from an empty cache.
source .gpu/env.sh
cd .exp/s14r2
mkdir -p /tmp/r2
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > /tmp/r2/gpu.txt 2>&1
timeout 240 ./batched_kernels > /tmp/r2/batched.jsonl 2> /tmp/r2/batched.log; echo "rc $?" >> /tmp/r2/batched.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 120 ./tilecl_tests -ts='ops.gemm_batched' > /tmp/r2/tests.log 2>&1; echo "rc $?" >> /tmp/r2/tests.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 200 ./tilecl bench --family blas --no-first-call --json /tmp/r2/bench-blas.json > /tmp/r2/bench-blas.txt 2>&1; echo "rc $?" >> /tmp/r2/bench-blas.txt
tar -C /tmp/r2 -czf $OUT/run2.tar.gz .
cat /tmp/r2/gpu.txt; tail -n 1 /tmp/r2/batched.log
grep -B2 -A12 -E "ERROR|FATAL" /tmp/r2/tests.log | head -c 3000; tail -n 4 /tmp/r2/tests.log
grep -E "gemm_strided_batched|gemm_batched" /tmp/r2/bench-blas.txt | grep -v "^  " | head -30
tail -n 2 /tmp/r2/bench-blas.txt
