#!/bin/bash
# Session 16, run 2 (the same binaries as run 1, sources 8a7318e, on the same warm machine): the whole sweep with seed 22
# (every op, the overhead rows included), then the image and half/bf16/tf32 sweeps with seed 21; empty caches each.
source .gpu/env.sh; cd .exp/s16r1; R=/tmp/r2; mkdir -p $R
export TILECL_CACHE_DIR=$(mktemp -d); timeout 250 ./tilecl bench --sweep --seed 22 --json $R/sweep-all-s22.json > $R/sweep-all-s22.txt 2>&1; echo "rc $?" >> $R/sweep-all-s22.txt
export TILECL_CACHE_DIR=$(mktemp -d); timeout 200 ./tilecl bench --sweep --seed 21 --family gaussian_blur,box_blur,convolve2d,rgb_to_gray,gemm_mma --json $R/sweep-img-s21.json > $R/sweep-img-s21.txt 2>&1; echo "rc $?" >> $R/sweep-img-s21.txt
tar -C $R -czf $OUT/run2.tar.gz .; grep -h -A16 "Sweep summary" $R/*.txt | cut -c1-220
