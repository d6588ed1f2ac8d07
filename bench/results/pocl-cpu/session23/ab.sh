# Session 23 edge-chunk A/B: filter_cpu_time linked against a9c7c56 (old) and the edge chunks in registers (new),
# alternating three rounds per case, one PoCL thread, 50 calls each; the lowest CPU ms per call of each build.
export TILECL_CACHE_DIR=/tmp/s23/cache-fct TILECL_TUNE=off POCL_MAX_PTHREAD_COUNT=1 REPS=50
while read border rest; do
  for round in 1 2 3; do for b in old new; do echo "$b $(BORDER=$border ${B:-/tmp/s23/fct_}$b $rest default)"; done; done |
    awk -v c="$rest" -v bd="$border" '{b=$1; v=$(NF-4); if(!(b in m)||v<m[b])m[b]=v} END{printf "%-30s border %s  old %.4f  new %.4f  new/old %.2f\n", c, bd, m["old"], m["new"], m["new"]/m["old"]}'
done
