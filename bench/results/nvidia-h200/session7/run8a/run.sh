#!/bin/bash
# Run 8a: gemm_mma tilings, staged epilogue (new) beside the previous kernel (base, 8029a0a), same binary inputs.
source .gpu/env.sh
cd .exp/lead
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > $OUT/gpu.txt 2>&1
timeout 330 ./mma_probe_new --builds 4096 8192 8192x8192x64 > $OUT/new.txt 2>&1
echo "rc $?" >> $OUT/new.txt
timeout 230 ./mma_probe_base 4096 8192 8192x8192x64 > $OUT/base.txt 2>&1
echo "rc $?" >> $OUT/base.txt
