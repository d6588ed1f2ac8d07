#!/bin/bash
# Session 18, run 5: separable tiled filters prefetch only on one channel (working tree after ee02a04): the seed-24
# image sweep with 4b80872's binary (tilecl_old) and with the change (tilecl), back to back on one machine; then
# image_latency's prefetch section (7680x4320 floats, the default against the other USE_PREFETCH).
source .gpu/env.sh
cd .exp/s18r5
R=/tmp/r5; mkdir -p $R
for b in tilecl_old tilecl; do
  export TILECL_CACHE_DIR=$(mktemp -d)
  timeout 75 ./$b bench --sweep --seed 24 --family gaussian_blur,box_blur --json $R/img-s24-$b.json > $R/img-s24-$b.txt 2>&1; echo "rc $?" >> $R/img-s24-$b.txt
done
export TILECL_CACHE_DIR=$(mktemp -d)
TILECL_TUNE=off timeout 80 ./image_latency prefetch > $R/prefetch.jsonl 2> $R/prefetch.err; echo "rc $?" >> $R/prefetch.err
cp $R/* $OUT/
for b in tilecl_old tilecl; do grep -A6 "Sweep summary" $R/img-s24-$b.txt | grep -E "blur" | cut -c1-170; tail -1 $R/img-s24-$b.txt; done
tail -2 $R/prefetch.err
python3 -c "
import json
for l in open('$R/prefetch.jsonl'):
  d=json.loads(l); print(d['op'][:8],d['dtype'],d['shape'][:26].ljust(26),d['config'][:90].ljust(90),'copy %.0f kern %.0f'%(d['copy_us'],d['kernel_us']))
"
