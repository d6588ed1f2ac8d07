#!/bin/bash
# GPU run 6a (issue 15's closing condition): the full bench before the architecture split (d59764a) and after
# (HEAD), family by family in one run, each binary with its own empty cache (first-use tuning on both sides).
source .gpu/env.sh
export LD_LIBRARY_PATH=$PWD/.exp/lead/lib:$LD_LIBRARY_PATH
R=/tmp/results; mkdir -p $R
cp .exp/lead/commit $R/commit-after; cp .exp/before/commit $R/commit-before; date -u > $R/date
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv > $R/gpu.txt 2>&1
finish() { (cd /tmp && tar czf $OUT/results.tgz results); }
trap finish EXIT
for spec in elementwise:30 transpose:30 reduce:30 gemm:50 blas:45 gemm_mma:45 image:75; do
  fam=${spec%%:*}; limit=${spec##*:}
  for side in before after; do
    bin=.exp/lead/tilecl; [ $side = before ] && bin=.exp/before/tilecl
    export TILECL_CACHE_DIR=/tmp/cache-$side
    start=$(date +%s)
    timeout $limit $bin bench --family $fam --no-first-call --json $R/$side-$fam.json > $R/$side-$fam.txt 2> $R/$side-$fam.err
    echo "$fam $side: rc $? in $(( $(date +%s) - start )) s"
  done
done
