#!/bin/bash
# Session 21, run 4: mma_ranked --splits (eea3fb1's library): the first tensor-core tiling of the ranking, packed and
# in place, in 1..16 K shares, at the shapes where half gemm lost to float gemm (sessions 19-21); empty cache.
source .gpu/env.sh
cd .exp/s21r4
R=/tmp/r4; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv > $R/gpu.txt 2>&1
cat $R/gpu.txt
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 230 ./mma_ranked --splits 13x4996x4826:TT:row 13x4996x4826:TT:row+ 4856x111x41:NN:col+ 2039x13x4916:NN:col 12x3000x3000:NN+ 659x373x2444:NT:row+ 110x3438x5613:NT:col+ > $R/splits.jsonl 2> $R/splits.err; echo "rc $?" >> $R/splits.err
python3 - $R/splits.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
  d=json.loads(l)
  c=d['config']
  short=' '.join(x for x in c.split() if x.split('=')[0] in ('IN_PLACE','SPLIT_K','TILE_M','TILE_N')) if c.startswith('mma') else c[:40]
  print(d['shape'][:34].ljust(34), d['what'].ljust(7), ('%.4f %.4f dev %.4f'%(d['call_ms'],d['batch_ms'],d.get('device_ms',0))) if 'call_ms' in d else d.get('error','')[:70], short)
PY
tail -2 $R/splits.err
tar -C $R -czf $OUT/run4.tar.gz .
