"""First-use time / time with a `tilecl tune` database, per op and dtype, over the rows of two sweeps of one seed.
Rows whose copy (memory-bound ops) or peer (gemm) time moved by more than 10% / 15% between the runs are left out:
the machine was in another state (run 3's first rows ran right after the tuning, with copies 3x slower)."""
import json, math, sys
a = json.load(open(sys.argv[1]))['points']; b = json.load(open(sys.argv[2]))['points']
ta = {(p['op'], p['dtype'], p['shape']): p for p in a}
for op in ('gemm', 'transpose'):
    for dt in ('float', 'double', 'uint8'):
        logs, skipped, worst = [], 0, (0, '')
        for p in b:
            if p['op'] != op or p['dtype'] != dt: continue
            q = ta[(op, dt, p['shape'])]
            if p['copy_ms'] and q['copy_ms'] and abs(p['copy_ms'] / q['copy_ms'] - 1) > 0.1: skipped += 1; continue
            if p['peer_ms'] and q['peer_ms'] and abs(p['peer_ms'] / q['peer_ms'] - 1) > 0.15: skipped += 1; continue
            r = q['tilecl_ms'] / p['tilecl_ms']
            logs.append(math.log(r))
            if r > worst[0]: worst = (r, p['shape'])
        if logs:
            print(f"{op} {dt}: {len(logs)} rows ({skipped} left out), first-use / tuned time geomean "
                  f"{math.exp(sum(logs) / len(logs)):.3f}, worst {worst[0]:.2f} ({worst[1]})")
