#!/bin/bash
# Session 9, run A (sources: e4b6f4c, the image ops in the op frame and the CPU edge windows; binaries built here
# with `cmake -B build-gpu -DCMAKE_BUILD_TYPE=Release -DCMAKE_DISABLE_FIND_PACKAGE_OpenCV=ON`, image_latency from
# bench/experiments/image_latency.cpp, carried in .exp/run1 with .gpu from ../shared/device/prepare-gpu-bundle).
source .gpu/env.sh
cd .exp/run1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $OUT/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
TILECL_TUNE=off timeout 220 ./image_latency small,large > $OUT/latency.jsonl 2> $OUT/latency.log; echo "rc $?" >> $OUT/latency.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 300 ./tilecl bench --sweep --seed 1 --family convolve,color --json $OUT/sweep-image-seed1.json > $OUT/sweep-image-seed1.txt 2> $OUT/sweep-image-seed1.log; echo "rc $?" >> $OUT/sweep-image-seed1.txt
tail -n 12 $OUT/sweep-image-seed1.txt
