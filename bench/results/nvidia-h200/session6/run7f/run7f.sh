#!/bin/bash
# GPU run 7f (session 6), on a fresh machine (cold NVIDIA compiles, as a user's first run): first use of the
# transposes with a 1 s budget (explore_overrides transpose: default lines), and the transpose sweep, seed 4.
source .gpu/env.sh
export LD_LIBRARY_PATH=$PWD/.exp/lead/lib:$LD_LIBRARY_PATH
R=/tmp/results; mkdir -p $R
cp .exp/lead/commit $R/commit; date -u > $R/date
finish() { (cd /tmp && tar czf $OUT/results.tgz results); }
trap finish EXIT
export TILECL_CACHE_DIR=/tmp/cache-explore-f
start=$(date +%s)
TILECL_VERBOSE=1 timeout 60 .exp/lead/explore_overrides transpose > $R/explore-transpose.jsonl 2> $R/explore-transpose.err
echo "explore transpose: rc $? in $(( $(date +%s) - start )) s"; grep -h "first-use\|default" $R/explore-transpose.err $R/explore-transpose.jsonl | cut -c1-230
export TILECL_CACHE_DIR=/tmp/cache-sweep
start=$(date +%s)
timeout 120 .exp/lead/tilecl bench --sweep --seed 4 --family transpose --json $R/sweep-seed4-transpose.json > $R/sweep-seed4-transpose.txt 2> $R/sweep-seed4-transpose.err
echo "sweep transpose: rc $? in $(( $(date +%s) - start )) s"; tail -6 $R/sweep-seed4-transpose.txt
