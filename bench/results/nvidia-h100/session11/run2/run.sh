#!/bin/bash
# Session 11, run 2 (sources 9a4ef71, the binaries of run 1): the test suites run 1's time limit cut, then the
# shape sweeps (seed 13) of every op but the images, from an empty cache (first-use tuning only).
source .gpu/env.sh
cd .exp/run2
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > $OUT/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 200 ./tilecl_tests -ts='ops.reduce,ops.transpose,reliability.*,runtime.*,tuning.*' > $OUT/tests.log 2>&1; echo "rc $?" >> $OUT/tests.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 330 ./tilecl bench --sweep --seed 13 --family gemm,transpose,axpy,sum,gemm_mma --json $OUT/sweep-seed13.json > $OUT/sweep-seed13.txt 2>&1; echo "rc $?" >> $OUT/sweep-seed13.txt
tail -n 4 $OUT/tests.log; grep -A40 "Sweep summary" $OUT/sweep-seed13.txt | head -40
