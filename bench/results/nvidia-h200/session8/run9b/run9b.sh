#!/bin/bash
# Run 9b (session 8): the byte ring as the GPU default for separable byte filters: the convolve tests on the GPU,
# the image bench rows with empty caches (first-use tuning), and the image sweep (seed 1) again.
source .gpu/env.sh
cd .exp/lead
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 200 tests/tilecl_tests -ts=ops.convolve > $OUT/tests-convolve.log 2>&1; echo "rc $?" >> $OUT/tests-convolve.log
tail -n 4 $OUT/tests-convolve.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 150 ./tilecl bench --family image --no-first-call --json $OUT/bench-image.json > $OUT/bench-image.txt 2>&1; echo "rc $?" >> $OUT/bench-image.txt
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 240 ./tilecl bench --sweep --seed 1 --family convolve,color --json $OUT/sweep-image-seed1.json > $OUT/sweep-image-seed1.txt 2> $OUT/sweep-image-seed1.log; echo "rc $?" >> $OUT/sweep-image-seed1.txt
tail -n 12 $OUT/sweep-image-seed1.txt
