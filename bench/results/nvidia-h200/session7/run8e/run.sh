#!/bin/bash
# Run 8f: as 8e, with half C words decoded by cvt.f32.f16 in the staged epilogue.
# gemm_mma with empty caches (beta = 0.5), probe of the main tilings (beta = 0).
source .gpu/env.sh
cd .exp/lead
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 150 tests/tilecl_tests -ts=ops.gemm_mma > $OUT/tests-gemm_mma.log 2>&1; echo "rc $?" >> $OUT/tests-gemm_mma.log
tail -n 4 $OUT/tests-gemm_mma.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 120 ./tilecl bench --family gemm_mma --no-first-call --json $OUT/bench-gemm-mma.json > $OUT/bench-gemm-mma.txt 2>&1; echo "rc $?" >> $OUT/bench-gemm-mma.txt
MMA_PROBE_TILINGS="128,128,32,2,2,3,0;128,256,32,2,4,2,0" timeout 60 ./mma_probe 4096 8192 8192x8192x64 > $OUT/probe.txt 2>&1; echo "rc $?" >> $OUT/probe.txt
