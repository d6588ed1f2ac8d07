#!/bin/bash
# Session 19, run 1 (HEAD ed4ddd1): (1) NPP's image filters (npp_filters.cu, built here with nvcc) and tilecl's calls on
# the same 7680x4320 images (image_latency npp, first-use tuning), the SASS of tilecl's filter programs; (2) the
# seed-24 Gaussian/box sweep with the tall/wide rule and prefetch on one channel (compare session 18 run 2).
source .gpu/env.sh
cd .exp/s19r1
R=/tmp/r1; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > $R/gpu.txt 2>&1
export PATH=$PATH:/usr/local/cuda/bin
( nvcc -O2 -std=c++17 -arch=sm_90 npp_filters.cu -lnppif -lnppicc -lnppc -o npp_filters ) > $R/nvcc.txt 2>&1
timeout 60 ./npp_filters > $R/npp.jsonl 2> $R/npp.err; echo "rc $?" >> $R/npp.err
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 170 ./image_latency npp > $R/tilecl.jsonl 2> $R/tilecl.err; echo "rc $?" >> $R/tilecl.err
timeout 40 python3 sass.py $TILECL_CACHE_DIR $R/sass > $R/sass.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 150 ./tilecl bench --sweep --seed 24 --family gaussian_blur,box_blur --json $R/img-s24.json > $R/img-s24.txt 2>&1; echo "rc $?" >> $R/img-s24.txt
tar -C $R -czf $OUT/run1.tar.gz .
cat $R/gpu.txt; tail -3 $R/nvcc.txt; tail -2 $R/npp.err $R/tilecl.err; head -3 $R/sass.txt
python3 - <<'PY'
import json
npp={}
for l in open('/tmp/r1/npp.jsonl'):
  d=json.loads(l); npp[(d['op'],d['dtype'],int(d['shape'].split('x')[2]))]=d
for l in open('/tmp/r1/tilecl.jsonl'):
  d=json.loads(l); ch=3 if d['op']=='rgb_to_gray' else int(d['shape'].split(',')[0].split('x')[2])
  n=npp.get((d['op'],d['dtype'],ch),{})
  print(d['op'][:10].ljust(10),d['dtype'].ljust(5),ch,'tilecl kern %.1f batch %.1f copy %.1f'%(d['kernel_us'],d['batch_us'],d['copy_us']),
        '| npp %s batch %s copy %s'%(n.get('npp_us',n.get('error')),n.get('npp_batch_us'),n.get('copy_us')), d['config'][:60])
PY
grep -A6 "Sweep summary" $R/img-s24.txt | cut -c1-170; tail -1 $R/img-s24.txt
