#!/bin/bash
# Session 17, run 2a: half gemm's losing sweep shapes with c5f2303 (mma_ranked_old) and with operands read in place
# + the element-wise epilogue (mma_ranked), each with an empty cache; the ops.gemm_mma suite on the GPU.
source .gpu/env.sh
cd .exp/s17r2
R=/tmp/r2; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > $R/gpu.txt 2>&1
S="2x1x628:NN:col 1x182x1336:TT:col+ 65x76x1459:NT+ 125x17x5384:TT+ 32x18x176:TN 3817x28x209 57x3421x66:TT
 468x137x410 172x3699x71 6x14x4165:TT 5127x2192x5:TT+ 840x4012x2+ 3511x4247x245:TT:col 3785x1020x28:TT+"
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 130 ./mma_ranked_old $S > $R/old.jsonl 2>&1; echo "rc $?" >> $R/old.jsonl
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 130 ./mma_ranked $S > $R/new.jsonl 2>&1; echo "rc $?" >> $R/new.jsonl
timeout 100 ./mma_ranked --ranked 172x3699x71 125x17x5384:TT+ 3511x4247x245:TT:col > $R/ranked.jsonl 2>&1; echo "rc $?" >> $R/ranked.jsonl
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 150 ./tilecl_tests -ts=ops.gemm_mma > $R/tests.log 2>&1; echo "rc $?" >> $R/tests.log
tar -C $R -czf $OUT/run2.tar.gz .
cat $R/gpu.txt
paste -d'\n' <(grep half $R/old.jsonl | cut -c1-200) <(grep half $R/new.jsonl | cut -c1-200)
grep float $R/new.jsonl | cut -c1-150
cut -c1-250 $R/ranked.jsonl
grep -B2 -A10 -E "ERROR|FATAL" $R/tests.log | head -c 2500; tail -n 4 $R/tests.log
