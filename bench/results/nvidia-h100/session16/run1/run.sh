#!/bin/bash
# Session 16, run 1 (sources 8a7318e): (1) gemm_ranked at the skinny/mid shapes of docs/notes/gemm.md section 5 (every
# ranked configuration forced, beside the first-use choice); (2) the seed-21 sweeps from empty caches.
source .gpu/env.sh
cd .exp/s16r1
R=/tmp/r1; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > $R/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 150 ./gemm_ranked 2750x26x4733:NN 2039x13x4916:NN:col 4096x16x4096:NN 4096x16x4096:NT 16x4096x4096:NN 16x4096x4096:TN 26x2750x4733:NN 500x20x8000:NN 8000x24x500:NN 1000x32x1000:TN 725x442x102:NN:col 128x120x85:TN 45x224x2342:NN > $R/ranked.jsonl 2> $R/ranked.err; echo "rc $?" >> $R/ranked.err
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 170 ./tilecl bench --sweep --seed 21 --family gemm --json $R/sweep-gemm-s21.json > $R/sweep-gemm-s21.txt 2>&1; echo "rc $?" >> $R/sweep-gemm-s21.txt
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 200 ./tilecl bench --sweep --seed 21 --family transpose,axpy,sum,blas --json $R/sweep-other-s21.json > $R/sweep-other-s21.txt 2>&1; echo "rc $?" >> $R/sweep-other-s21.txt
tar -C $R -czf $OUT/run1.tar.gz .
cat $R/gpu.txt; tail -2 $R/ranked.err
python3 - <<'PY'
import json
rows=[json.loads(l) for l in open('/tmp/r1/ranked.jsonl') if l.strip()]
for r in rows: print(r.get('shape'), r.get('rank'), r.get('ms', r.get('error')), str(r.get('config'))[:90])
PY
grep -h -A12 "Sweep summary" $R/sweep-*-s21.txt | cut -c1-200
