#!/bin/bash
# Session 18, run 1 (sources 4b80872): GPU tests of the tensor-core gemm; the seed-22 gemm_mma sweep (the same 25
# shapes per mode as session 16's sweep-all-s22) with in-place operands and the short-K model; the 14 losing shapes
# again with mma_ranked. Every figure with an empty cache.
source .gpu/env.sh
cd .exp/s18r1
R=/tmp/r1; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total,driver_version --format=csv > $R/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 70 ./tilecl_tests -ts=ops.gemm_mma > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 200 ./tilecl bench --sweep --seed 22 --family gemm_mma --json $R/sweep-mma-s22.json > $R/sweep-mma-s22.txt 2>&1; echo "rc $?" >> $R/sweep-mma-s22.txt
S="2x1x628:NN:col 1x182x1336:TT:col+ 65x76x1459:NT+ 125x17x5384:TT+ 32x18x176:TN 3817x28x209 57x3421x66:TT
 468x137x410 172x3699x71 6x14x4165:TT 5127x2192x5:TT+ 840x4012x2+ 3511x4247x245:TT:col 3785x1020x28:TT+"
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 90 ./mma_ranked $S > $R/ranked.jsonl 2>&1; echo "rc $?" >> $R/ranked.jsonl
tar -C $R -czf $OUT/run1.tar.gz .
cat $R/gpu.txt; tail -4 $R/tests.txt
grep -E -A8 "Sweep summary" $R/sweep-mma-s22.txt | cut -c1-200; tail -2 $R/sweep-mma-s22.txt
grep half $R/ranked.jsonl | cut -c1-170
