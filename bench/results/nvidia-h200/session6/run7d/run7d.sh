#!/bin/bash
# GPU run 7d (session 6): first use with the budget counted after prepare and the transpose timing matrix filled
# on the device (explore_overrides transpose: default lines against padded and shifted); a transpose sweep with a
# new seed (first-use tuning, empty cache); the elementwise and reduce bench families (half rows with the
# session-5 defaults never reached a bench before).
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
export TILECL_CACHE_DIR=/tmp/cache-sweep
start=$(date +%s)
timeout 150 .exp/lead/tilecl bench --sweep --seed 4 --family transpose --json $R/sweep-seed4-transpose.json > $R/sweep-seed4-transpose.txt 2> $R/sweep-seed4-transpose.err
echo "sweep transpose: rc $? in $(( $(date +%s) - start )) s"; tail -12 $R/sweep-seed4-transpose.txt
for spec in elementwise:45 reduce:60; do
  fam=${spec%%:*}; limit=${spec##*:}; start=$(date +%s)
  export TILECL_CACHE_DIR=/tmp/cache-bench-$fam
  timeout $limit .exp/lead/tilecl bench --family $fam --no-first-call --json $R/bench-$fam.json > $R/bench-$fam.txt 2> $R/bench-$fam.err
  echo "bench $fam: rc $? in $(( $(date +%s) - start )) s"; grep half $R/bench-$fam.txt | head -12
done
