#!/bin/bash
# Run 9a (session 8): the byte ring prototype beside tilecl's byte filters, then the image sweep (seed 1, empty cache).
source .gpu/env.sh
cd .exp/lead
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 200 ./byte_ring > $OUT/byte-ring.txt 2>&1; echo "rc $?" >> $OUT/byte-ring.txt
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 330 ./tilecl bench --sweep --seed 1 --family convolve,color --json $OUT/sweep-image-seed1.json > $OUT/sweep-image-seed1.txt 2> $OUT/sweep-image-seed1.log; echo "rc $?" >> $OUT/sweep-image-seed1.txt
tail -n 12 $OUT/sweep-image-seed1.txt
