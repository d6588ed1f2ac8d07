#!/bin/bash
# Session 11, run 5 (binaries of the session's final sources, as run 4; explore_overrides with its new
# transpose_byte_tiles section): byte transposes with larger tiles and sector-aligned pieces; the blas bench rows
# (issue 19) and the image sweep of seed 13 from empty caches.
source .gpu/env.sh
cd .exp/run5
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > $OUT/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
TILECL_TUNE=off timeout 80 ./explore_overrides transpose_byte_tiles > $OUT/transpose-byte-tiles.jsonl 2> $OUT/transpose-byte-tiles.log; echo "rc $?" >> $OUT/transpose-byte-tiles.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 120 ./tilecl bench --family blas --no-first-call --json $OUT/bench-blas.json > $OUT/bench-blas.txt 2>&1; echo "rc $?" >> $OUT/bench-blas.txt
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 130 ./tilecl bench --sweep --seed 13 --family convolve,color --json $OUT/sweep-image-seed13.json > $OUT/sweep-image-seed13.txt 2>&1; echo "rc $?" >> $OUT/sweep-image-seed13.txt
tail -n 2 $OUT/transpose-byte-tiles.log; wc -l $OUT/transpose-byte-tiles.jsonl; tail -n 2 $OUT/bench-blas.txt; grep -A10 "Sweep summary" $OUT/sweep-image-seed13.txt
