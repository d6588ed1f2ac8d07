#!/bin/bash
# Run 9c (session 8): the ring with its edge chunks on a rolled path of their own (run 9b's ring, with both paths
# unrolled together, was 2-4x slower than the prototype), registers of ring and window at most 128.
source .gpu/env.sh
cd .exp/lead
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 120 tests/tilecl_tests -tc="convolve: every variant and setting*,convolve: the GPU defaults*,convolve: every variant with OpenCV*" > $OUT/tests-convolve.log 2>&1; echo "rc $?" >> $OUT/tests-convolve.log
tail -n 4 $OUT/tests-convolve.log
export TILECL_CACHE_DIR=$(mktemp -d)
TILECL_BENCH_IMAGE_ROWS="gaussian_blur uint8,box_blur uint8" timeout 120 ./tilecl bench --family image --no-first-call --json $OUT/bench-image-bytes.json > $OUT/bench-image-bytes.txt 2>&1; echo "rc $?" >> $OUT/bench-image-bytes.txt
grep -E "tilecl:|copy of" $OUT/bench-image-bytes.txt | head -40
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 170 ./tilecl bench --sweep --seed 1 --family gaussian_blur,box_blur --json $OUT/sweep-blur-seed1.json > $OUT/sweep-blur-seed1.txt 2> $OUT/sweep-blur-seed1.log; echo "rc $?" >> $OUT/sweep-blur-seed1.txt
tail -n 8 $OUT/sweep-blur-seed1.txt
