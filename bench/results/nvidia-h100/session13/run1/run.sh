#!/bin/bash
# Session 13, run 1. Binaries: tilecl-old (the session-12 build), tilecl (76ab2c5: gemm_mma_portable with K in steps
# of K_STEP, loads issued together), tilecl-tilings (76ab2c5 + 32 x 32, 32 x 64 and 64 x 32 tensor-core tilings in the
# model's ranking; uncommitted). The GPU suite ops.gemm_mma (76ab2c5); the gemm_mma sweep of seed 13 with each binary
# on the same machine, each from an empty cache; explore_overrides mma_small (half gemm at the session-12 sweep's worst
# shapes: tensor-core tilings, portable K_STEP settings, via_float). Outputs tarred.
source .gpu/env.sh
cd .exp/s13r1
mkdir -p /tmp/r1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > /tmp/r1/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 75 ./tilecl_tests -ts='ops.gemm_mma' > /tmp/tests.log 2>&1; echo "rc $?" >> /tmp/tests.log
grep -B3 -A16 -E "ERROR|FATAL" /tmp/tests.log | grep -v "^\[tilecl\] warning" | head -c 60000 > /tmp/r1/test-failures.txt; tail -n 5 /tmp/tests.log >> /tmp/r1/test-failures.txt
for bin in old new tilings; do
  exe=./tilecl; [ $bin = old ] && exe=./tilecl-old; [ $bin = tilings ] && exe=./tilecl-tilings
  export TILECL_CACHE_DIR=$(mktemp -d)
  timeout 125 $exe bench --sweep --seed 13 --family gemm_mma --json /tmp/r1/sweep-gemm-mma-$bin-seed13.json > /tmp/r1/sweep-gemm-mma-$bin-seed13.txt 2>&1; echo "rc $?" >> /tmp/r1/sweep-gemm-mma-$bin-seed13.txt
done
export TILECL_CACHE_DIR=$(mktemp -d)
TILECL_TUNE=off timeout 140 ./explore_overrides mma_small > /tmp/r1/mma-small.jsonl 2> /tmp/r1/mma-small.log; echo "rc $?" >> /tmp/r1/mma-small.log
tar -C /tmp/r1 -czf $OUT/run1.tar.gz .
tail -n 4 /tmp/r1/test-failures.txt
grep -h -A5 "Sweep summary" /tmp/r1/sweep-gemm-mma-*.txt
tail -n 2 /tmp/r1/mma-small.log; wc -l < /tmp/r1/mma-small.jsonl
