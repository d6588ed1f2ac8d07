#!/bin/bash
# GPU run 7c (session 6): transposes timed at up to 256 MiB at first use (default lines against padded and
# shifted), half gemv with its new GPU defaults and around them, the blas bench family (first-use tuning), and the
# suites whose defaults changed (gemv, transpose, convolve) on the H200.
source .gpu/env.sh
export LD_LIBRARY_PATH=$PWD/.exp/lead/lib:$LD_LIBRARY_PATH
R=/tmp/results; mkdir -p $R
cp .exp/lead/commit $R/commit; date -u > $R/date
finish() { (cd /tmp && tar czf $OUT/results.tgz results); }
trap finish EXIT
export TILECL_CACHE_DIR=/tmp/cache-explore-t
start=$(date +%s)
timeout 60 .exp/lead/explore_overrides transpose > $R/explore-transpose.jsonl 2> $R/explore-transpose.err
echo "explore transpose: rc $? in $(( $(date +%s) - start )) s, $(wc -l < $R/explore-transpose.jsonl) lines"
grep default $R/explore-transpose.jsonl | cut -c1-220
export TILECL_CACHE_DIR=/tmp/cache-explore-g
start=$(date +%s)
TILECL_TUNE=off timeout 60 .exp/lead/explore_overrides gemv_half 12 > $R/explore-gemv-half.jsonl 2> $R/explore-gemv-half.err
echo "explore gemv_half: rc $? in $(( $(date +%s) - start )) s, $(wc -l < $R/explore-gemv-half.jsonl) lines"
grep default $R/explore-gemv-half.jsonl | cut -c1-220
export TILECL_CACHE_DIR=/tmp/cache-bench
start=$(date +%s)
timeout 60 .exp/lead/tilecl bench --family blas --no-first-call --json $R/bench-blas.json > $R/bench-blas.txt 2> $R/bench-blas.err
echo "bench blas: rc $? in $(( $(date +%s) - start )) s"; grep -E "half|gemv" $R/bench-blas.txt | head -20
export TILECL_CACHE_DIR=/tmp/tilecl-cache-tests
start=$(date +%s)
(cd .exp/lead/tests && timeout 200 ./tilecl_tests -ts='ops.gemv,ops.transpose,ops.convolve' -tce='*soak*' > $R/tests.log 2>&1)
echo "tests: rc $? in $(( $(date +%s) - start )) s"; grep -E '^\[doctest\] (test cases|assertions)' $R/tests.log; grep -E 'ERROR|TEST CASE' $R/tests.log | cut -c1-300 | head -16
