#!/bin/bash
# Session 20, run 3 (sources 1a4d905): `tilecl tune` of gemm and transpose (default keys), then the seed-26 gemm and
# transpose sweeps with that database (compare with run 2's first-use figures).
source .gpu/env.sh
cd .exp/s20r1
R=/tmp/r3; mkdir -p $R
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total,driver_version --format=csv > $R/gpu.txt 2>&1
export TILECL_CACHE_DIR=$(mktemp -d)
start=$(date +%s)
timeout 260 ./tilecl tune --family gemm --family transpose --budget 3000 > $R/tune.txt 2>&1; echo "rc $? after $(( $(date +%s) - start )) s" >> $R/tune.txt
start=$(date +%s)
timeout 250 ./tilecl bench --sweep --seed 26 --family gemm,transpose --json $R/sweep-s26-tuned.json > $R/sweep-s26-tuned.txt 2>&1; echo "rc $? after $(( $(date +%s) - start )) s" >> $R/sweep-s26-tuned.txt
./tilecl cache export $R/tuning-database.json > /dev/null 2>&1
tar -C $R -czf $OUT/run3.tar.gz .
tail -1 $R/tune.txt
grep -A30 "Sweep summary" $R/sweep-s26-tuned.txt | cut -c1-230
