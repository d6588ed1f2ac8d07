#!/bin/bash
# Session 21, run 1 (eea3fb1, binary tilecl; tilecl_old = 18cbe5e+1a4d905, session 20 runs 1-4):
# (1) the ops suites on the GPU; (2) seed-26 gray sweep old/new alternating (28f5842's words path);
# (3) seed-26 gemm sweep (small-narrow class, compare session20/run2); (4) mma_ranked half at the worst shapes.
source .gpu/env.sh
cd .exp/s21r1
R=/tmp/r1; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv > $R/gpu.txt 2>&1
cat $R/gpu.txt
for run in old-1 new-1 old-2 new-2; do
  b=tilecl_old; [ ${run%-*} = new ] && b=tilecl
  export TILECL_CACHE_DIR=$(mktemp -d)
  timeout 30 ./$b bench --sweep --seed 26 --family rgb_to_gray --json $R/gray-$run.json > $R/gray-$run.txt 2>&1; echo "rc $?" >> $R/gray-$run.txt
done
grep -h "rgb_to_gray uint8 .*shapes\|^rc" $R/gray-*.txt | cut -c1-200
grep -h "sweep rgb_to_gray uint8 .*\(3770x3278\|3163x1331\)" $R/gray-*.txt | cut -c1-200
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 70 ./tilecl bench --sweep --seed 26 --family gemm --json $R/gemm-s26.json > $R/gemm-s26.txt 2>&1; echo "rc $?" >> $R/gemm-s26.txt
grep -A4 "Sweep summary" $R/gemm-s26.txt | cut -c1-200; tail -1 $R/gemm-s26.txt
export TILECL_CACHE_DIR=$(mktemp -d)
S="13x4996x4826:TT:row+ 72x7x471:TN:col+ 4856x111x41:NN:col+ 102x82x110:TN:col 26x385x69:TN:col 227x5x14:TN:row 2755x1x908:NT:col 2663x56x80:TN:row+"
timeout 150 ./mma_ranked --ranked $S > $R/ranked.jsonl 2> $R/ranked.err; echo "rc $?" >> $R/ranked.err
cut -c1-250 $R/ranked.jsonl; tail -2 $R/ranked.err
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 200 ./tilecl_tests -ts=ops.color,ops.gemm,ops.gemm_mma,ops.gemv > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
tail -4 $R/tests.txt
tar -C $R -czf $OUT/run1.tar.gz .
