#!/bin/bash
# Run 8b: gemm_mma main loop: staged epilogue only (staged), + fragments of the next K step loaded during the mmas
# and all buffers filled up front (pipe), + copy addresses advanced by whole rows (pipe2).
source .gpu/env.sh
cd .exp/lead
export MMA_PROBE_TILINGS="128,128,32,2,2,3,0;128,128,32,2,2,2,0;128,128,16,2,2,4,0;128,256,32,2,4,2,0;256,128,32,4,2,2,0"
for v in pipe2 pipe staged; do
  timeout 150 ./mma_probe_$v 4096 8192 8192x8192x64 > $OUT/$v.txt 2>&1
  echo "rc $?" >> $OUT/$v.txt
done
