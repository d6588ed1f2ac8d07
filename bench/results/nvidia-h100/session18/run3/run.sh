#!/bin/bash
# Session 18, run 3: the working tree with the direct kernel's strips of rows (convolve2d): the image suites on the
# GPU; image_latency's narrow section (the seed-24 sweep's worst image rows, every listed configuration forced).
source .gpu/env.sh
cd .exp/s18r2
R=/tmp/r3; mkdir -p $R
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 170 ./tilecl_tests -ts=ops.convolve,ops.color > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
export TILECL_CACHE_DIR=$(mktemp -d)
TILECL_TUNE=off timeout 150 ./image_latency narrow > $R/narrow.jsonl 2> $R/narrow.err; echo "rc $?" >> $R/narrow.err
tar -C $R -czf $OUT/run3.tar.gz .
tail -4 $R/tests.txt; tail -3 $R/narrow.err
python3 -c "
import json
for l in open('$R/narrow.jsonl'):
  d=json.loads(l); print(d['op'][:8],d['dtype'],d['shape'][:26].ljust(26),d['config'][:62].ljust(62),'copy %.0f kern %.0f total %.0f batch %.0f'%(d['copy_us'],d['kernel_us'],d['total_us'],d['batch_us']))
"
