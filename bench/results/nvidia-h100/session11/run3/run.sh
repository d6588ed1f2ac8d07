#!/bin/bash
# Session 11, run 3 (sources: 9a4ef71 + via_float beside the tensor cores up to 2^31 multiply-adds, TF32's via_float
# as float gemm in place, the two test fixes; binaries built here as in run 1): the changed suites on the GPU, the
# gemm_mma sweep of seed 13 again from an empty cache (before: run 2), the gemm_mma bench rows and cuBLAS beside them.
source .gpu/env.sh
cd .exp/run3
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > $OUT/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 150 ./tilecl_tests -ts='ops.gemm_mma,runtime.op_frame,tuning.space_properties' > $OUT/tests.log 2>&1; echo "rc $?" >> $OUT/tests.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 140 ./tilecl bench --sweep --seed 13 --family gemm_mma --json $OUT/sweep-gemm-mma-seed13.json > $OUT/sweep-gemm-mma-seed13.txt 2>&1; echo "rc $?" >> $OUT/sweep-gemm-mma-seed13.txt
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 120 ./tilecl bench --family gemm_mma --no-first-call --json $OUT/bench-gemm-mma.json > $OUT/bench-gemm-mma.txt 2>&1; echo "rc $?" >> $OUT/bench-gemm-mma.txt
timeout 60 python3 torch_gemm.py > $OUT/cublas.jsonl 2> $OUT/cublas.log; echo "rc $?" >> $OUT/cublas.log
tail -n 4 $OUT/tests.log; grep -A6 "Sweep summary" $OUT/sweep-gemm-mma-seed13.txt; tail -n 3 $OUT/bench-gemm-mma.txt; wc -l $OUT/cublas.jsonl
