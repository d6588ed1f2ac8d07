#!/bin/bash
# Session 20, run 2 (sources 1a4d905): the seed-26 sweep of every op with an empty cache (first-use tuning),
# tilecl's calls alternating with the peer's.
source .gpu/env.sh
cd .exp/s20r1
R=/tmp/r2; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total,driver_version --format=csv > $R/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
start=$(date +%s)
timeout 450 ./tilecl bench --sweep --seed 26 --json $R/sweep-s26.json > $R/sweep-s26.txt 2>&1; echo "rc $? after $(( $(date +%s) - start )) s" >> $R/sweep-s26.txt
tar -C $R -czf $OUT/run2.tar.gz .
grep -A30 "Sweep summary" $R/sweep-s26.txt | cut -c1-230
