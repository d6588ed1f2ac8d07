#!/bin/bash
# GPU run 7b (session 6): transposes of large ragged matrices and half, first-use choice (default line) against
# padded and shifted tiles; half gemv on a 512 MiB matrix (default and a sample); the uint8 image bench rows with
# the rounding default and byte tiles of 32 rows (first-use tuning, empty cache).
source .gpu/env.sh
export LD_LIBRARY_PATH=$PWD/.exp/lead/lib:$LD_LIBRARY_PATH
R=/tmp/results; mkdir -p $R
cp .exp/lead/commit $R/commit; date -u > $R/date
finish() { (cd /tmp && tar czf $OUT/results.tgz results); }
trap finish EXIT
export TILECL_CACHE_DIR=/tmp/cache-explore-t
start=$(date +%s)
timeout 100 .exp/lead/explore_overrides transpose > $R/explore-transpose.jsonl 2> $R/explore-transpose.err
echo "explore transpose: rc $? in $(( $(date +%s) - start )) s, $(wc -l < $R/explore-transpose.jsonl) lines"
export TILECL_CACHE_DIR=/tmp/cache-explore-g
start=$(date +%s)
TILECL_TUNE=off timeout 100 .exp/lead/explore_overrides gemv_half 20 > $R/explore-gemv-half.jsonl 2> $R/explore-gemv-half.err
echo "explore gemv_half: rc $? in $(( $(date +%s) - start )) s, $(wc -l < $R/explore-gemv-half.jsonl) lines"
export TILECL_CACHE_DIR=/tmp/cache-bench
start=$(date +%s)
TILECL_BENCH_IMAGE_ROWS="gaussian_blur uint8 c1 mirror,gaussian_blur uint8 c3 mirror,gaussian_blur uint8 c4 mirror,box_blur uint8 c1 mirror,box_blur uint8 c3 mirror,box_blur uint8 c4 mirror" \
  timeout 100 .exp/lead/tilecl bench --family image --no-first-call --json $R/bench-image.json > $R/bench-image.txt 2> $R/bench-image.err
echo "bench image: rc $? in $(( $(date +%s) - start )) s"; grep -E "ms$" $R/bench-image.err | grep -v "naive\|limits" | head -40
