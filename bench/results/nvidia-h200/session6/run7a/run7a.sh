#!/bin/bash
# GPU run 7a (session 6): bytes through float bit patterns in the filters (USE_BYTE_BITS, USE_ROUND_BY_ADD's low
# byte) against conversions, tiles and the register-only vector kernel (explore_overrides image_bytes); how half
# storage is read (half_loads: vload_half8 vs an aligned ushort8 load; PTX kept); the uint8 image bench rows with
# the new defaults (first-use tuning, empty cache); the convolve suite's GPU-default and rounding cases.
source .gpu/env.sh
export LD_LIBRARY_PATH=$PWD/.exp/lead/lib:$LD_LIBRARY_PATH
R=/tmp/results; mkdir -p $R
cp .exp/lead/commit $R/commit; date -u > $R/date
finish() { (cd /tmp && tar czf $OUT/results.tgz results); }
trap finish EXIT
start=$(date +%s)
timeout 60 .exp/lead/half_loads $R > $R/half-loads.jsonl 2> $R/half-loads.err
echo "half_loads: rc $? in $(( $(date +%s) - start )) s"; cat $R/half-loads.jsonl
export TILECL_CACHE_DIR=/tmp/cache-explore
start=$(date +%s)
TILECL_TUNE=off timeout 230 .exp/lead/explore_overrides image_bytes > $R/explore.jsonl 2> $R/explore.err
echo "explore: rc $? in $(( $(date +%s) - start )) s, $(wc -l < $R/explore.jsonl) lines"
export TILECL_CACHE_DIR=/tmp/cache-bench
start=$(date +%s)
TILECL_BENCH_IMAGE_ROWS="gaussian_blur uint8 c1 mirror,gaussian_blur uint8 c3 mirror,gaussian_blur uint8 c4 mirror,box_blur uint8 c1 mirror,box_blur uint8 c3 mirror,box_blur uint8 c4 mirror" \
  timeout 100 .exp/lead/tilecl bench --family image --no-first-call --json $R/bench-image.json > $R/bench-image.txt 2> $R/bench-image.err
echo "bench image: rc $? in $(( $(date +%s) - start )) s"; grep -E "ms$" $R/bench-image.err | grep -v naive | head -40
export TILECL_CACHE_DIR=/tmp/tilecl-cache-tests
start=$(date +%s)
(cd .exp/lead/tests && timeout 120 ./tilecl_tests -ts='ops.convolve' -tc='*GPU defaults*,*rounds exact ties*,*every variant and setting*' > $R/tests.log 2>&1)
echo "tests: rc $? in $(( $(date +%s) - start )) s"; grep -E '^\[doctest\] (test cases|assertions)' $R/tests.log; grep -E 'ERROR|TEST CASE' $R/tests.log | cut -c1-300 | head -16
