#!/bin/bash
# Session 20, run 4 (sources 1a4d905): the gemm_mma family of the bench with an empty cache (run 1 was cut there),
# then cuBLAS through torch at the same shapes.
source .gpu/env.sh
cd .exp/s20r1
R=/tmp/r4; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total,driver_version --format=csv > $R/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
start=$(date +%s)
timeout 330 ./tilecl bench --family gemm_mma --json $R/bench-mma.json > $R/bench-mma.txt 2>&1; echo "rc $? after $(( $(date +%s) - start )) s" >> $R/bench-mma.txt
timeout 60 python3 torch_gemm.py > $R/torch.jsonl 2> $R/torch.err; echo "rc $?" >> $R/torch.err
tar -C $R -czf $OUT/run4.tar.gz .
grep -E "^gemm_mma" $R/bench-mma.txt | cut -c1-160; tail -1 $R/bench-mma.txt; tail -2 $R/torch.err
