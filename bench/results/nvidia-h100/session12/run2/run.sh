#!/bin/bash
# Session 12, run 2 (sources: run 1's + gemm_mma classes split by the call's packing and timed with it; transpose_bytes
# with unchecked funnel-shift windows on interior tiles and SECTOR 4; uncommitted): the GPU failures of run 1's
# suites; the gemm_mma sweep of seed 13 again; byte transposes (explore_overrides transpose_bytes); the blas bench rows.
source .gpu/env.sh
cd .exp/s12r2
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > $OUT/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 150 ./tilecl_tests -ts='ops.gemm_mma,ops.gemm_batched,tuning.*' > /tmp/tests.log 2>&1; echo "rc $?" >> /tmp/tests.log
grep -B3 -A16 -E "ERROR|FATAL|TEST CASE" /tmp/tests.log | grep -v "^\[tilecl\] warning" | head -c 60000 > $OUT/test-failures.txt; tail -n 5 /tmp/tests.log >> $OUT/test-failures.txt
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 130 ./tilecl bench --sweep --seed 13 --family gemm_mma --json $OUT/sweep-gemm-mma-seed13.json > $OUT/sweep-gemm-mma-seed13.txt 2>&1; echo "rc $?" >> $OUT/sweep-gemm-mma-seed13.txt
export TILECL_CACHE_DIR=$(mktemp -d)
TILECL_TUNE=off timeout 100 ./explore_overrides transpose_bytes > $OUT/transpose-bytes.jsonl 2> $OUT/transpose-bytes.log; echo "rc $?" >> $OUT/transpose-bytes.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 120 ./tilecl bench --family blas --no-first-call --json $OUT/bench-blas.json > $OUT/bench-blas.txt 2>&1; echo "rc $?" >> $OUT/bench-blas.txt
tail -n 5 $OUT/test-failures.txt; grep -h -A4 "Sweep summary" $OUT/sweep-gemm-mma-seed13.txt; tail -n 2 $OUT/transpose-bytes.log; wc -l $OUT/transpose-bytes.jsonl; grep -E "batched" $OUT/bench-blas.txt | head -30; tail -n 2 $OUT/bench-blas.txt
