#!/bin/bash
# GPU run 6c: the new GPU defaults (half elementwise 8-byte accesses, gemm m = 2..8 through gemv, byte filters
# without prefetch) in the elementwise, blas and image bench families (first-use tuning, empty caches); hand-picked
# filter tiles for 3 and 4 channels and gemm m = 2, 4, 8 (explore_overrides); the suites whose defaults changed.
source .gpu/env.sh
export LD_LIBRARY_PATH=$PWD/.exp/lead/lib:$LD_LIBRARY_PATH
R=/tmp/results; mkdir -p $R
cp .exp/lead/commit $R/commit; date -u > $R/date
finish() { (cd /tmp && tar czf $OUT/results.tgz results); }
trap finish EXIT
export TILECL_CACHE_DIR=/tmp/cache-bench
for spec in elementwise:35 blas:40; do
  fam=${spec%%:*}; limit=${spec##*:}; start=$(date +%s)
  timeout $limit .exp/lead/tilecl bench --family $fam --no-first-call --json $R/bench-$fam.json > $R/bench-$fam.txt 2> $R/bench-$fam.err
  echo "bench $fam: rc $? in $(( $(date +%s) - start )) s"
done
start=$(date +%s)
TILECL_BENCH_IMAGE_ROWS="gaussian_blur uint8 c1 mirror,gaussian_blur uint8 c3 mirror,gaussian_blur uint8 c4 mirror,box_blur uint8 c1 mirror,box_blur uint8 c3 mirror,box_blur uint8 c4 mirror,gaussian_blur float c3 mirror,gaussian_blur float c4 mirror" \
  timeout 80 .exp/lead/tilecl bench --family image --no-first-call --json $R/bench-image.json > $R/bench-image.txt 2> $R/bench-image.err
echo "bench image: rc $? in $(( $(date +%s) - start )) s"; grep -E "ms$" $R/bench-image.err | grep -v naive | head -40
export TILECL_CACHE_DIR=/tmp/cache-explore
start=$(date +%s)
TILECL_TUNE=off timeout 130 .exp/lead/explore_overrides gemv_multi,image_channels > $R/explore.jsonl 2> $R/explore.err
echo "explore: rc $? in $(( $(date +%s) - start )) s, $(wc -l < $R/explore.jsonl) lines"
export TILECL_CACHE_DIR=/tmp/tilecl-cache-tests
start=$(date +%s)
(cd .exp/lead/tests && timeout 200 ./tilecl_tests -ts='ops.elementwise,ops.gemv,ops.convolve,ops.reduce,tuning.*' -tce='*soak*' > $R/tests.log 2>&1)
echo "tests: rc $? in $(( $(date +%s) - start )) s"; grep -E '^\[doctest\] (test cases|assertions)' $R/tests.log; grep -E 'ERROR|TEST CASE' $R/tests.log | cut -c1-300 | head -16
