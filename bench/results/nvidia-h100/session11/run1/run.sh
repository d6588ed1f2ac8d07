#!/bin/bash
# Session 11, run 1 (sources: 9a4ef71; binaries built here with `cmake -B build-gpu -DCMAKE_BUILD_TYPE=Release
# -DCMAKE_DISABLE_FIND_PACKAGE_OpenCV=ON`, explore_overrides from bench/experiments/explore_overrides.cpp).
source .gpu/env.sh
cd .exp/run1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > $OUT/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
TILECL_TUNE=off timeout 110 ./explore_overrides image_ring > $OUT/ring.jsonl 2> $OUT/ring.log; echo "rc $?" >> $OUT/ring.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 260 ./tilecl_tests > $OUT/tests.log 2>&1; echo "rc $?" >> $OUT/tests.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 180 ./tilecl bench --family image --no-first-call --json $OUT/bench-image.json > $OUT/bench-image.txt 2>&1; echo "rc $?" >> $OUT/bench-image.txt
tail -n 4 $OUT/tests.log; tail -n 3 $OUT/ring.log; grep -c . $OUT/ring.jsonl
