#!/bin/bash
# Run 8d: byte transposes, the bytes kernel's grid beside padded and block (explore_overrides transpose_bytes).
source .gpu/env.sh
cd .exp/lead
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 280 ./explore_overrides transpose_bytes > $OUT/transpose-bytes.txt 2>&1; echo "rc $?" >> $OUT/transpose-bytes.txt
