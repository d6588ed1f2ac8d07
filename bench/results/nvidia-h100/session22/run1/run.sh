#!/bin/bash
# Session 22, run 1: the running-sum box kernel (convolve_separable_sliding) on bytes beside the default (tiled),
# kernel times and a copy of the same bytes (image_latency sliding); then the convolve suite on the GPU.
source .gpu/env.sh
cd .exp/s22r1
R=/tmp/r1; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total,driver_version --format=csv > $R/gpu.txt 2>&1
cat $R/gpu.txt
export TILECL_CACHE_DIR=$(mktemp -d)
TILECL_TUNE=off timeout 200 ./image_latency sliding > $R/sliding.jsonl 2> $R/sliding.err; echo "rc $?" >> $R/sliding.err
python3 - $R/sliding.jsonl <<'PY'
import json,sys
for l in open(sys.argv[1]):
  d=json.loads(l)
  print(d['shape'][:30].ljust(30), ('%.1f'%d['kernel_us']).rjust(7), ('%.0f%%'%(100*d['copy_us']/max(d['total_us'],1e-9))).rjust(5), ('%.1f'%d['copy_us']).rjust(7), d['config'][:60])
PY
tail -3 $R/sliding.err
TILECL_TUNE=off timeout 250 ./tilecl_tests -ts="ops.convolve" > $R/tests.txt 2>&1; echo "rc $?" >> $R/tests.txt
tail -5 $R/tests.txt
tar -C $R -czf $OUT/run1.tar.gz .
