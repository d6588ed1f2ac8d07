#!/bin/bash
# Session 20, run 1 (sources 18cbe5e): the issues' rows with an empty cache (first-use tuning): the full bench
# (every family), then cuBLAS through torch at the gemm_mma shapes.
source .gpu/env.sh
cd .exp/s20r1
R=/tmp/r1; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total,driver_version --format=csv > $R/gpu.txt 2>&1
cat $R/gpu.txt
export TILECL_CACHE_DIR=$(mktemp -d)
start=$(date +%s)
timeout 430 ./tilecl bench --json $R/bench-first-use.json > $R/bench-first-use.txt 2>&1; echo "rc $? after $(( $(date +%s) - start )) s" >> $R/bench-first-use.txt
timeout 60 python3 torch_gemm.py > $R/torch.jsonl 2> $R/torch.err; echo "rc $?" >> $R/torch.err
cp -r $TILECL_CACHE_DIR $R/cache
tar -C $R -czf $OUT/run1.tar.gz .
tail -2 $R/bench-first-use.txt
