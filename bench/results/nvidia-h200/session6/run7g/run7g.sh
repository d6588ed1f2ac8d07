#!/bin/bash
# GPU run 7g (session 6): half vectors through one aligned load (tilecl_vload_halfN_aligned) in gemv and reduce:
# half gemv (explore defaults and neighbours; bench blas), half sum (bench reduce), and the gemv and reduce half
# tests on the H200.
source .gpu/env.sh
export LD_LIBRARY_PATH=$PWD/.exp/lead/lib:$LD_LIBRARY_PATH
R=/tmp/results7g; mkdir -p $R
cp .exp/lead/commit $R/commit; date -u > $R/date
finish() { (cd /tmp && tar czf $OUT/results.tgz results7g); }
trap finish EXIT
export TILECL_CACHE_DIR=/tmp/cache-explore-g7
start=$(date +%s)
TILECL_TUNE=off timeout 60 .exp/lead/explore_overrides gemv_half 0 > $R/explore-gemv-half.jsonl 2> $R/explore-gemv-half.err
echo "explore gemv_half: rc $? in $(( $(date +%s) - start )) s"; cut -c1-200 $R/explore-gemv-half.jsonl
for spec in blas:50 reduce:40; do
  fam=${spec%%:*}; limit=${spec##*:}; start=$(date +%s)
  export TILECL_CACHE_DIR=/tmp/cache-bench7g-$fam
  timeout $limit .exp/lead/tilecl bench --family $fam --no-first-call --json $R/bench-$fam.json > $R/bench-$fam.txt 2> $R/bench-$fam.err
  echo "bench $fam: rc $? in $(( $(date +%s) - start )) s"; grep -E "half|copy" $R/bench-$fam.txt | grep -B1 -A1 half | head -16
done
export TILECL_CACHE_DIR=/tmp/tilecl-cache-tests7g
start=$(date +%s)
(cd .exp/lead/tests && timeout 150 ./tilecl_tests -ts='ops.gemv,ops.reduce' -tc='*half*' > $R/tests.log 2>&1)
echo "tests: rc $? in $(( $(date +%s) - start )) s"; grep -E '^\[doctest\] (test cases|assertions)' $R/tests.log; grep -E 'ERROR|TEST CASE' $R/tests.log | cut -c1-300 | head -16
