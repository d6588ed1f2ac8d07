#!/bin/bash
# Session 16, run 3 (sources: 8a7318e + fitted work-groups for the flat image kernels + TILECL_MAD (fma where the
# compiler reports fused multiply-add)): the GPU test suites touched, and a gemm sweep with a new seed.
source .gpu/env.sh
cd .exp/s16r3
R=/tmp/r3; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > $R/gpu.txt 2>&1
./fmaq > $R/fma-macros.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 220 ./tilecl_tests -ts='ops.gemm,ops.gemv,ops.convolve,ops.color,ops.gemm_batched' > $R/tests.log 2>&1; echo "rc $?" >> $R/tests.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 150 ./tilecl bench --sweep --seed 23 --family gemm,gaussian_blur,box_blur,convolve2d --json $R/sweep-s23.json > $R/sweep-s23.txt 2>&1; echo "rc $?" >> $R/sweep-s23.txt
tar -C $R -czf $OUT/run3.tar.gz .
cat $R/gpu.txt $R/fma-macros.txt
grep -B2 -A12 -E "ERROR|FATAL" $R/tests.log | head -c 3000; tail -n 5 $R/tests.log
grep -A12 "Sweep summary" $R/sweep-s23.txt | cut -c1-200
