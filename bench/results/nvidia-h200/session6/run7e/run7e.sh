#!/bin/bash
# GPU run 7e (session 6): why first use keeps the shifted tile for a 3488 x 8425 double transpose (padded is 16%
# faster in explore_overrides): the first-use tuning database entries (times of default and winner) and a full
# tune of the same keys for comparison.
source .gpu/env.sh
export LD_LIBRARY_PATH=$PWD/.exp/lead/lib:$LD_LIBRARY_PATH
R=/tmp/results; mkdir -p $R
cp .exp/lead/commit $R/commit; date -u > $R/date
finish() { (cd /tmp && tar czf $OUT/results.tgz results); }
trap finish EXIT
export TILECL_CACHE_DIR=/tmp/cache-explore-v
start=$(date +%s)
TILECL_VERBOSE=1 timeout 60 .exp/lead/explore_overrides transpose > $R/explore-transpose.jsonl 2> $R/explore-transpose.err
echo "explore transpose: rc $? in $(( $(date +%s) - start )) s"; grep -i "first-use\|default" $R/explore-transpose.err $R/explore-transpose.jsonl | cut -c1-260 | head -20
find /tmp/cache-explore-v -name "*.json" | head; for f in $(find /tmp/cache-explore-v -name "*.json"); do cp $f $R/; python3 -m json.tool $f | grep -E '"(op|dtype|bucket|config|time_ms|default_ms|origin)"' | head -60; done
export TILECL_CACHE_DIR=/tmp/cache-tune
start=$(date +%s)
timeout 120 .exp/lead/tilecl tune --op transpose --dtype double --dtype float --dtype half --shape 3488x8425 --shape 5305x8878 --shape 16384x16384 --budget 8000 --json > $R/tune-transpose.json 2> $R/tune-transpose.err
echo "tune: rc $? in $(( $(date +%s) - start )) s"; tail -5 $R/tune-transpose.err
python3 - $R/tune-transpose.json <<'PY'
import json,sys
try:
    d=json.load(open(sys.argv[1]))
except Exception as e:
    print("no json", e); sys.exit()
for k in (d if isinstance(d,list) else d.get('keys',d.get('results',[]))):
    print({x:k.get(x) for x in ('op','dtype','bucket','shape','best','best_ms','default_ms','config','time_ms')})
PY
