#!/bin/bash
# Session 14, run 3. (1) batched_kernels: LOAD_VEC 4 settings alone, with DOUBLE_BUFFER, with DOUBLE_BUFFER and
# PREFETCH_C. (2) ops.gemm_batched on the GPU (DOUBLE_BUFFER in the tests). (3) tilecl bench --family blas
# --no-first-call from an empty cache (64 and 128 buckets: 64 x 64, 8 x 4, K 32). (4) the new batched sweep, seed 13.
source .gpu/env.sh
cd .exp/s14r3
mkdir -p /tmp/r3
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > /tmp/r3/gpu.txt 2>&1
timeout 240 ./batched_kernels > /tmp/r3/batched.jsonl 2> /tmp/r3/batched.log; echo "rc $?" >> /tmp/r3/batched.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 120 ./tilecl_tests -ts='ops.gemm_batched' > /tmp/r3/tests.log 2>&1; echo "rc $?" >> /tmp/r3/tests.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 200 ./tilecl bench --family blas --no-first-call --json /tmp/r3/bench-blas.json > /tmp/r3/bench-blas.txt 2>&1; echo "rc $?" >> /tmp/r3/bench-blas.txt
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 150 ./tilecl bench --sweep --family blas --seed 13 --json /tmp/r3/sweep-batched-seed13.json > /tmp/r3/sweep-batched-seed13.txt 2>&1; echo "rc $?" >> /tmp/r3/sweep-batched-seed13.txt
tar -C /tmp/r3 -czf $OUT/run3.tar.gz .
cat /tmp/r3/gpu.txt; tail -n 1 /tmp/r3/batched.log
grep -B2 -A12 -E "ERROR|FATAL" /tmp/r3/tests.log | head -c 3000; tail -n 4 /tmp/r3/tests.log
grep -E "gemm_strided_batched|gemm_batched" /tmp/r3/bench-blas.txt | grep -v "^  " | head -30
tail -n 2 /tmp/r3/bench-blas.txt
grep -A30 "^Shape sweep" /tmp/r3/sweep-batched-seed13.txt | cut -c1-150; tail -n 3 /tmp/r3/sweep-batched-seed13.txt | cut -c1-250
python3 - <<'PY'
import json, re
rows=[json.loads(l) for l in open('/tmp/r3/batched.jsonl')]
regs={}
for l in open('/tmp/r3/batched.log'):
    m=re.match(r'(\S+) (.*): Used (\d+) registers', l)
    if m: regs[(m.group(1), m.group(2))]=m.group(3)
for r in rows:
    m=re.sub(r' -DALIGN_[ABC]=\d','',r['macros']).replace('-D','').replace('USE_LOCAL_VECTORS','ULV').replace('LOAD_VEC=4 ','').replace('TILE_','T').replace('WPT_','W')
    print(r['shape'], m, round(r['ms']*1000,1) if 'ms' in r else r.get('error','')[:80], round(r.get('of_copy',0),2), regs.get((r['shape'], r['macros']),'?'))
PY
