#!/bin/bash
# Session 14, run 1. batched_kernels (bench/experiments/batched_kernels.cpp): gemm_batched_tiled with and without
# PREFETCH_C and LOAD_VEC at issue 19's five strided shapes; tilecl bench --family blas (library at
# 3cce36f + the kernel macros, defaults unchanged: the baseline) from an empty cache.
source .gpu/env.sh
cd .exp/s14r1
mkdir -p /tmp/r1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > /tmp/r1/gpu.txt 2>&1
timeout 200 ./batched_kernels > /tmp/r1/batched.jsonl 2> /tmp/r1/batched.log; echo "rc $?" >> /tmp/r1/batched.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 200 ./tilecl bench --family blas --no-first-call --json /tmp/r1/bench-blas.json > /tmp/r1/bench-blas.txt 2>&1; echo "rc $?" >> /tmp/r1/bench-blas.txt
tar -C /tmp/r1 -czf $OUT/run1.tar.gz .
cat /tmp/r1/gpu.txt
python3 - <<'PY'
import json
rows=[json.loads(l) for l in open('/tmp/r1/batched.jsonl')]
for r in rows:
    print(r['shape'], r['macros'].replace('-D',''), round(r.get('ms',0)*1000,1) if 'ms' in r else r.get('error','')[:100], round(r.get('of_copy',0),2), '%.1e'%r.get('max_error',0))
PY
grep -E "Used|rc" /tmp/r1/batched.log | head -5
grep -E "gemm_strided_batched|gemm_batched" /tmp/r1/bench-blas.txt | grep -v "^  " | head -30
tail -n 2 /tmp/r1/bench-blas.txt
