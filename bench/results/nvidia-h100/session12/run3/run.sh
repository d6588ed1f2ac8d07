#!/bin/bash
# Session 12, run 3 (sources 15680e8 + transpose_bytes with unchecked funnel-shift windows on interior tiles, SECTOR 4
# in its space, and the bytes kernel (TILE 64, WG_Y 8, PAD 1, SECTOR 4) as the GPU default for bytes; first use
# also times the padded tile): byte transposes under explicit settings (explore_overrides transpose_bytes), then the
# transpose sweep of seed 13 from an empty cache (as session 11's run 2). Outputs are tarred: at most 8 files return.
source .gpu/env.sh
cd .exp/s12r3
mkdir -p /tmp/r3
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > /tmp/r3/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
TILECL_TUNE=off timeout 100 ./explore_overrides transpose_bytes > /tmp/r3/transpose-bytes.jsonl 2> /tmp/r3/transpose-bytes.log; echo "rc $?" >> /tmp/r3/transpose-bytes.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 200 ./tilecl_bytes bench --sweep --seed 13 --family transpose --json /tmp/r3/sweep-transpose-seed13.json > /tmp/r3/sweep-transpose-seed13.txt 2>&1; echo "rc $?" >> /tmp/r3/sweep-transpose-seed13.txt
tar -C /tmp/r3 -czf $OUT/run3.tar.gz .
python3 - <<'PY'
import json
rows = [json.loads(l) for l in open('/tmp/r3/transpose-bytes.jsonl') if l.startswith('{')]
for r in rows:
    if 'ms' in r: print('%-12s %-45s %.4f ms  %3.0f%% of copy' % (r['shape'], r['config'][:45], r['ms'], 100 * r['copy_ms'] / r['ms']))
    else: print(r['shape'], r['config'], r.get('error', '')[:80])
PY
grep -A6 "Sweep summary" /tmp/r3/sweep-transpose-seed13.txt; grep "uint8" /tmp/r3/sweep-transpose-seed13.txt | head -20
