#!/bin/bash
# GPU run 6b: explore_overrides (sampled configurations of half axpy / vector_add, gemm m = 4 and 8 through the
# gemv variant, small strided-batched gemm, uint8 and multichannel Gaussian / box filters); the elementwise bench
# before (d59764a) and after (HEAD) the architecture split (run 6a's limit cut it); the suites changed since their
# last H200 run.
source .gpu/env.sh
export LD_LIBRARY_PATH=$PWD/.exp/lead/lib:$LD_LIBRARY_PATH
R=/tmp/results; mkdir -p $R
cp .exp/lead/commit $R/commit; date -u > $R/date
finish() { (cd /tmp && tar czf $OUT/results.tgz results); }
trap finish EXIT
export TILECL_CACHE_DIR=/tmp/cache-explore
start=$(date +%s)
TILECL_TUNE=off timeout 220 .exp/lead/explore_overrides half,gemv,batched,image 18 > $R/explore.jsonl 2> $R/explore.err
echo "explore: rc $? in $(( $(date +%s) - start )) s, $(wc -l < $R/explore.jsonl) lines"
for side in before after; do
  bin=.exp/lead/tilecl; [ $side = before ] && bin=.exp/before/tilecl
  export TILECL_CACHE_DIR=/tmp/cache-$side
  start=$(date +%s)
  timeout 60 $bin bench --family elementwise --no-first-call --json $R/$side-elementwise.json > $R/$side-elementwise.txt 2> $R/$side-elementwise.err
  echo "elementwise $side: rc $? in $(( $(date +%s) - start )) s"
done
export TILECL_CACHE_DIR=/tmp/tilecl-cache-tests
start=$(date +%s)
(cd .exp/lead/tests && timeout 170 ./tilecl_tests -ts='ops.gemm_mma,ops.transpose,ops.reduce,ops.gemm_batched,runtime.*,tuning.*' -tce='*soak*' > $R/tests.log 2>&1)
echo "tests: rc $? in $(( $(date +%s) - start )) s"; grep -E '^\[doctest\] (test cases|assertions)' $R/tests.log; grep -E 'ERROR|TEST CASE' $R/tests.log | cut -c1-300 | head -16
