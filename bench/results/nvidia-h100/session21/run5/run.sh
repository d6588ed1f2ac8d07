#!/bin/bash
# Session 21, run 5: half gemm's first-use choice with the in-place form in its own K shares (the working tree after
# eea3fb1: src/ops/gemm/mma_shapes.cpp), beside float gemm, at run 4's shapes; empty cache.
source .gpu/env.sh
cd .exp/s21r5
R=/tmp/r5; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv > $R/gpu.txt 2>&1
cat $R/gpu.txt
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 100 ./mma_ranked 13x4996x4826:TT:row 13x4996x4826:TT:row+ 110x3438x5613:NT:col+ 12x3000x3000:NN+ 2039x13x4916:NN:col 659x373x2444:NT:row+ 4856x111x41:NN:col+ > $R/first-use.jsonl 2> $R/first-use.err; echo "rc $?" >> $R/first-use.err
python3 - $R/first-use.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
  d=json.loads(l)
  c=d['config']
  short=' '.join(x for x in c.split() if x.split('=')[0] in ('IN_PLACE','SPLIT_K','TILE_M','TILE_N')) if c.startswith('mma') else c[:40]
  print(d['shape'][:34].ljust(34), d['what'].ljust(6), '%.4f %.4f'%(d['call_ms'],d['batch_ms']), short)
PY
tail -1 $R/first-use.err
tar -C $R -czf $OUT/run5.tar.gz .
# Then, in a second call on the same warm machine (the files mma-s26.*):
#   source .gpu/env.sh; cd .exp/s21r5; export TILECL_CACHE_DIR=$(mktemp -d)
#   timeout 170 ./tilecl bench --sweep --seed 26 --family gemm_mma --json /tmp/mma-s26.json > /tmp/mma-s26.txt 2>&1
