#!/bin/bash
# Session 19, run 4: (1) batched_thin (ed4ddd1's library): strided-batched SGEMM with m or n of 1, first use beside
# forced configurations; (2) the strided-batched sweeps of seeds 25, 13 and 14 with ed4ddd1's tilecl (head) and with
# the thin-group fit (A: a group of several matrices under 64 work-items takes fewer outputs per work-item).
source .gpu/env.sh
cd .exp/s19r4
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 90 ./batched_thin > $OUT/thin.jsonl 2> $OUT/thin.err; echo "rc $?" >> $OUT/thin.err
for seed in 25 13; do for b in head A; do
  export TILECL_CACHE_DIR=$(mktemp -d)
  timeout 45 ./tilecl_$b bench --sweep --seed $seed --family gemm_strided_batched --json $OUT/b-s$seed-$b.json > $OUT/b-s$seed-$b.txt 2>&1; echo "rc $?" >> $OUT/b-s$seed-$b.txt
done; done
tail -3 $OUT/thin.err
python3 -c "
import json
for l in open('$OUT/thin.jsonl'):
  d=json.loads(l); print(d['shape'].ljust(24), '%8.4f %8.4f copy %7.4f'%(d['ms'],d['batch_ms'],d['copy_ms']), d['config'][:100])
"
grep -h "gemm_strided_batched float shapes\|^rc" $OUT/b-s*.txt | cut -c1-200
# (3) the test suites of the changed code on the GPU: the working tree (8d561b3 + the thin-group fit).
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 150 ./tilecl_tests -ts=ops.convolve,ops.gemm_batched,tuning.tuner > $OUT/tests.txt 2>&1; echo "rc $?" >> $OUT/tests.txt
tail -4 $OUT/tests.txt
