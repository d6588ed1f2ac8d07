#!/bin/bash
# Session 21, run 2 (working tree after eea3fb1: gemv kernels take 1..16 vectors; skinny products with m or n of
# 9..16 are "-narrow" classes whose GPU candidates include the gemv kernels second; half there via gemv<half>):
# (1) gemm_ranked (float): every ranked configuration and the gemv variant's neighbours at skinny 9..16 shapes;
# (2) mma_ranked (half vs float, first-use choices) at the same kind of shapes; (3) tests on the GPU;
# (4) seed-26 sweeps of gemm and gemm_mma (compare session 21 run 1 and session 20 run 2).
source .gpu/env.sh
cd .exp/s21r2
R=/tmp/r2; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv > $R/gpu.txt 2>&1
cat $R/gpu.txt
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 170 ./gemm_ranked 13x4996x4826:TT:row 16x4096x4096:NN 4096x16x4096:NN 4096x16x4096:NT 2039x13x4916:NN:col 4023x15x2592:NN 302x13x1070:NN > $R/ranked.jsonl 2> $R/ranked.err; echo "rc $?" >> $R/ranked.err
python3 - $R/ranked.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
  d=json.loads(l)
  print(d['shape'].ljust(22), str(d['rank']).rjust(3), ('%8.4f'%d['ms']) if 'ms' in d else d.get('error','')[:60], d['config'][:95])
PY
tail -2 $R/ranked.err
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 90 ./mma_ranked 13x4996x4826:TT:row+ 13x4996x4826:TT:row 2039x13x4916:NN:col 16x4096x4096:NN 4096x16x4096:NT+ 12x3000x3000:NN+ > $R/mma.jsonl 2> $R/mma.err; echo "rc $?" >> $R/mma.err
cut -c1-220 $R/mma.jsonl; tail -2 $R/mma.err
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 120 ./tilecl bench --sweep --seed 26 --family gemm,gemm_mma --json $R/sweep-s26.json > $R/sweep-s26.txt 2>&1; echo "rc $?" >> $R/sweep-s26.txt
grep -A8 "Sweep summary" $R/sweep-s26.txt | cut -c1-200; tail -1 $R/sweep-s26.txt
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 150 ./tilecl_tests -ts=ops.gemv,ops.gemm,ops.gemm_mma > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
tail -4 $R/tests.txt
tar -C $R -czf $OUT/run2.tar.gz .
