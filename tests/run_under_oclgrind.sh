#!/bin/sh
# Runs each test case named "... (also run under oclgrind)" on oclgrind's simulated device, which reports
# data races, out-of-bounds accesses and uses of uninitialized values. Any report fails the test.
# Each case runs in its own oclgrind process: oclgrind 21.10 keeps stale "uninitialized" shadow state for
# addresses that a new buffer reuses, so cases that follow other cases in one process see false reports.
# Usage: run_under_oclgrind.sh OCLGRIND TEST_EXECUTABLE
set -u
oclgrind=$1
tests=$2
cases=$("$tests" --list-test-cases --test-case='*also run under oclgrind*' --no-intro=true 2>/dev/null |
        grep 'also run under oclgrind')
if [ -z "$cases" ]; then
  echo "no test case is marked '(also run under oclgrind)'"
  exit 1
fi
status=0
log=$(mktemp)
echo "$cases" | while IFS= read -r name; do
  # doctest filters treat commas as separators and support wildcards: match on the text before any comma.
  filter=$(printf '%s' "$name" | sed 's/,.*$/*/')
  : > "$log"
  if ! "$oclgrind" --data-races --uninitialized --check-api --log "$log" "$tests" --test-case="$filter" \
       --no-intro=true --no-version=true > "$log.out" 2>&1; then
    echo "FAILED: $name"
    cat "$log.out"
    exit 1
  fi
  if [ -s "$log" ]; then
    echo "oclgrind reported, in: $name"
    head -c 20000 "$log"
    exit 1
  fi
  echo "clean: $name"
done || status=1
rm -f "$log" "$log.out"
exit $status
