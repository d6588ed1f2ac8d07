#!/bin/bash
# Run 8c: final gemm_mma kernel (staged epilogue with cvt pairs, fragment double-buffering for 16-bit formats):
# GPU tests of gemm_mma, probe of the main tilings, bench gemm_mma with empty caches (first-use tuning), the
# gemm_mma sweep (seed 1, 10 shapes per mode, each checked), cuBLAS via torch.
source .gpu/env.sh
cd .exp/lead
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 150 tests/tilecl_tests -ts=ops.gemm_mma > $OUT/tests-gemm_mma.txt 2>&1; echo "rc $?" >> $OUT/tests-gemm_mma.txt
MMA_PROBE_TILINGS="128,128,32,2,2,3,0;128,128,32,2,2,2,0;128,256,32,2,4,2,0" timeout 80 ./mma_probe 4096 8192 8192x8192x64 > $OUT/probe.txt 2>&1; echo "rc $?" >> $OUT/probe.txt
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 120 ./tilecl bench --family gemm_mma --no-first-call --json $OUT/bench-gemm-mma.json > $OUT/bench-gemm-mma.txt 2>&1; echo "rc $?" >> $OUT/bench-gemm-mma.txt
timeout 150 ./tilecl bench --sweep --family gemm_mma --seed 1 --sweep-count 10 --json $OUT/sweep-gemm-mma.json > $OUT/sweep-gemm-mma.txt 2>&1; echo "rc $?" >> $OUT/sweep-gemm-mma.txt
timeout 60 python3 torch_gemm.py > $OUT/cublas.jsonl 2>&1
