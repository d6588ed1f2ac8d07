#!/bin/sh
# Runs the test cases named "... (also run under oclgrind)" on oclgrind's simulated device, which reports
# data races, out-of-bounds accesses and uses of uninitialized values. Any report fails the test.
# Usage: run_under_oclgrind.sh OCLGRIND TEST_EXECUTABLE
set -u
log=$(mktemp)
"$1" --data-races --uninitialized --check-api --log "$log" "$2" --test-case='*also run under oclgrind*' --no-intro=true
status=$?
if [ -s "$log" ]; then
  echo "oclgrind reported:"
  head -c 20000 "$log"
  status=1
fi
rm -f "$log"
exit $status
