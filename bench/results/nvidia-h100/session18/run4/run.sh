#!/bin/bash
# Session 18, run 4 (ee02a04's library): image_latency's narrow_short section -- the seed-24 sweep's worst image rows
# with the default, tiled 32 x 32 tiles of 4 rows per work-item, and the register ring (separable) or the direct
# vector kernel in strips of 8 rows (convolve2d), each forced.
source .gpu/env.sh
cd .exp/s18r4
R=/tmp/r4; mkdir -p $R
export TILECL_CACHE_DIR=$(mktemp -d)
TILECL_TUNE=off timeout 270 ./image_latency narrow_short > $R/narrow_short.jsonl 2> $R/narrow_short.err; echo "rc $?" >> $R/narrow_short.err
cp $R/* $OUT/
tail -2 $R/narrow_short.err
python3 -c "
import json
for l in open('$R/narrow_short.jsonl'):
  d=json.loads(l); print(d['op'][:8],d['dtype'],d['shape'][:26].ljust(26),d['config'][:62].ljust(62),'copy %.0f kern %.0f total %.0f batch %.0f'%(d['copy_us'],d['kernel_us'],d['total_us'],d['batch_us']))
"
