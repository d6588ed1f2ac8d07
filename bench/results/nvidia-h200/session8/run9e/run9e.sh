#!/bin/bash
# Run 9e (session 8): the ring's edge chunks with the border rule applied once per work-item (idx), beside the
# prototype in the same run (byte_ring, 9x9 Gaussian on one channel, whose "tilecl" row is now the library's ring).
source .gpu/env.sh
cd .exp/lead
export TILECL_CACHE_DIR=$(mktemp -d)
BYTE_RING_QUICK=1 timeout 60 ./byte_ring > $OUT/byte-ring.txt 2>&1; echo "rc $?" >> $OUT/byte-ring.txt
head -4 $OUT/byte-ring.txt
export TILECL_CACHE_DIR=$(mktemp -d)
TILECL_BENCH_IMAGE_ROWS="uint8 c1 mirror,uint8 c1 zero,uint8 c3 mirror,uint8 c4 mirror" timeout 100 ./tilecl bench --family image --no-first-call --json $OUT/bench-image-bytes.json > $OUT/bench-image-bytes.txt 2>&1; echo "rc $?" >> $OUT/bench-image-bytes.txt
grep -E "tilecl:|copy of|rc " $OUT/bench-image-bytes.txt | head -40
