#!/bin/bash
# Session 13, run 4. Binaries: tilecl-prev (bdf4d47, run 2's new binary), tilecl (bdf4d47 + SPLIT_K: the tensor-core
# kernel in K shares with gemm_mma_split_sum; uncommitted). ops.gemm_mma on the GPU; the seed-13 gemm_mma sweep with
# both binaries from empty caches. Outputs tarred.
source .gpu/env.sh
cd .exp/s13r4
mkdir -p /tmp/r4
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > /tmp/r4/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 70 ./tilecl_tests -ts='ops.gemm_mma' > /tmp/r4/tests.log 2>&1; echo "rc $?" >> /tmp/r4/tests.log
for bin in prev new; do
  exe=./tilecl; [ $bin = prev ] && exe=./tilecl-prev
  export TILECL_CACHE_DIR=$(mktemp -d)
  timeout 100 $exe bench --sweep --seed 13 --family gemm_mma --json /tmp/r4/sweep-gemm-mma-$bin-seed13.json > /tmp/r4/sweep-gemm-mma-$bin-seed13.txt 2>&1; echo "rc $?" >> /tmp/r4/sweep-gemm-mma-$bin-seed13.txt
done
tar -C /tmp/r4 -czf $OUT/run4.tar.gz .
grep -B2 -A12 -E "ERROR|FATAL" /tmp/r4/tests.log | head -c 4000; tail -n 4 /tmp/r4/tests.log
for f in /tmp/r4/sweep-gemm-mma-*.txt; do echo "== $(basename $f)"; grep -A4 "Sweep summary" $f | grep gemm_mma; tail -n 1 $f; done
grep -h "SPLIT_K=[2-9]" /tmp/r4/sweep-gemm-mma-new-seed13.txt | head -20
