#!/bin/bash
# Run 8g: final binaries of session 7: GPU tests of gemm_mma and transpose, the gemm_mma sweep (seed 1, 10 shapes
# per mode, each result checked against float gemm within the documented bound).
source .gpu/env.sh
cd .exp/lead
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 200 tests/tilecl_tests -ts=ops.gemm_mma,ops.transpose > $OUT/tests.log 2>&1; echo "rc $?" >> $OUT/tests.log
tail -n 4 $OUT/tests.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 150 ./tilecl bench --sweep --family gemm_mma --seed 1 --sweep-count 10 --json $OUT/sweep-gemm-mma.json > $OUT/sweep-gemm-mma.txt 2>&1; echo "rc $?" >> $OUT/sweep-gemm-mma.txt
tail -n 6 $OUT/sweep-gemm-mma.txt
