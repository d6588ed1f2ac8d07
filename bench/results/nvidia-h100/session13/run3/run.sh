#!/bin/bash
# Session 13, run 3 (sources bdf4d47, the session's gemm_mma changes): the whole test suite on the GPU in two
# processes (doctest suites split so that each fits its limit). Outputs tarred.
source .gpu/env.sh
cd .exp/s13r3
mkdir -p /tmp/r3
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv > /tmp/r3/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 280 ./tilecl_tests -ts='ops.*' -tse='ops.reduce,ops.transpose' > /tmp/r3/tests-a.log 2>&1; echo "rc $?" >> /tmp/r3/tests-a.log
export TILECL_CACHE_DIR=$(mktemp -d)
timeout 270 ./tilecl_tests -tse='ops.color,ops.convolve,ops.elementwise,ops.gemm,ops.gemm_batched,ops.gemm_mma,ops.gemv' > /tmp/r3/tests-b.log 2>&1; echo "rc $?" >> /tmp/r3/tests-b.log
for part in a b; do
  grep -B3 -A16 -E "ERROR|FATAL" /tmp/r3/tests-$part.log | grep -v "^\[tilecl\] warning" | head -c 40000 > /tmp/r3/failures-$part.txt
done
tar -C /tmp/r3 -czf $OUT/run3.tar.gz .
for part in a b; do echo "== part $part"; tail -n 5 /tmp/r3/tests-$part.log; head -c 3000 /tmp/r3/failures-$part.txt; done
