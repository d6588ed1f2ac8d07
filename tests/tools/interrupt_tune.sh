#!/bin/bash
# tools.tune_interrupt: Ctrl-C (SIGINT) during `tilecl tune` stops the run after the current candidate, keeps
# the keys already tuned and says so (exit status 130); a dry run of the same command afterwards counts them as
# already tuned and plans the rest. Usage: interrupt_tune.sh TILECL WORK_DIR
set -euo pipefail
tilecl=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
export TILECL_CACHE_DIR=$work/cache
keys=(--op axpy --dtype float --shape 2^10 --shape 2^15 --shape 2^19 --shape 2^23 --budget 1500)
"$tilecl" tune "${keys[@]}" >"$work/out" 2>&1 &
pid=$!
for _ in $(seq 1200); do
  if grep -q "^key 1 of 4: " "$work/out"; then break; fi
  sleep 0.1
done
kill -INT "$pid"
status=0
wait "$pid" || status=$?
cat "$work/out"
fail() { echo "tools.tune_interrupt: $*" >&2; exit 1; }
[ "$status" = 130 ] || fail "exit status $status, expected 130"
grep -q "stopping after the current candidate" "$work/out" || fail "no note on Ctrl-C"
grep -Eq "interrupted after .*: [12] of 4 key\(s\) tuned and kept" "$work/out" || fail "no summary of the kept keys"
"$tilecl" tune "${keys[@]}" --dry-run >"$work/dry"
cat "$work/dry"
grep -Eq "^[23] key\(s\) to tune, [12] already tuned" "$work/dry" || fail "the dry run does not see the kept keys"
rm -rf "$work"
echo "tools.tune_interrupt: passed"
