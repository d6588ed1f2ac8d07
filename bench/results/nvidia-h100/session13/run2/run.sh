#!/bin/bash
# Session 13, run 2. Binaries: tilecl-old (the session-12 build), tilecl (76ab2c5 + 32 x 32 / 64 x 32 / 32 x 64
# tensor-core tilings ranked where 64 x 64 tiles leave compute units idle, portable GPU candidates 4 x 4 K_STEP 8 and
# 2 x 2 K_STEP 16, from run 1's mma-small.jsonl). The GPU suite ops.gemm_mma; the gemm_mma sweeps of seeds 13 and 14
# with the old and the new binary on the same machine, each from an empty cache. Outputs tarred.
source .gpu/env.sh
cd .exp/s13r2
mkdir -p /tmp/r2
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > /tmp/r2/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 75 ./tilecl_tests -ts='ops.gemm_mma' > /tmp/tests.log 2>&1; echo "rc $?" >> /tmp/tests.log
grep -B3 -A16 -E "ERROR|FATAL" /tmp/tests.log | grep -v "^\[tilecl\] warning" | head -c 60000 > /tmp/r2/test-failures.txt; tail -n 5 /tmp/tests.log >> /tmp/r2/test-failures.txt
for run in old:13 new:13 old:14 new:14; do
  bin=${run%%:*}; seed=${run##*:}; exe=./tilecl; [ $bin = old ] && exe=./tilecl-old
  export TILECL_CACHE_DIR=$(mktemp -d)
  timeout 118 $exe bench --sweep --seed $seed --family gemm_mma --json /tmp/r2/sweep-gemm-mma-$bin-seed$seed.json > /tmp/r2/sweep-gemm-mma-$bin-seed$seed.txt 2>&1; echo "rc $?" >> /tmp/r2/sweep-gemm-mma-$bin-seed$seed.txt
done
tar -C /tmp/r2 -czf $OUT/run2.tar.gz .
tail -n 4 /tmp/r2/test-failures.txt
for f in /tmp/r2/sweep-gemm-mma-*.txt; do echo "== $(basename $f)"; grep -A4 "Sweep summary" $f | grep gemm_mma; done
