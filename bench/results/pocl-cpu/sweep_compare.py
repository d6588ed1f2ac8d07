#!/usr/bin/env python3
"""Compares `tilecl bench --sweep --json` runs of two builds (OLD and NEW) over the same seeds, shape by shape.

Usage: sweep_compare.py [--min-peer-ms X] OLD_GLOB NEW_GLOB
Each glob names the JSON files of one build (several seeds and repeated runs); per shape the fastest tilecl time
of each build and the fastest peer time over all files are used (a shared machine: best-of-N is the steadiest
figure). Prints each shape whose peer takes more than --min-peer-ms (default 0.1), then geometric means of
OLD / NEW time and of peer / tilecl time for both builds, over those shapes and over all of them.
"""
import glob
import json
import math
import sys


def load(pattern, build, rows):
    for path in sorted(glob.glob(pattern)):
        for p in json.load(open(path))["points"]:
            if p.get("error") or not p.get("tilecl_ms"):
                continue
            entry = rows.setdefault((p["op"], p["dtype"], p["shape"]), {"old": [], "new": [], "peer": []})
            entry[build].append(p["tilecl_ms"])
            if p.get("peer_ms"):
                entry["peer"].append(p["peer_ms"])


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main(argv):
    threshold = 0.1
    if len(argv) > 1 and argv[1] == "--min-peer-ms":
        threshold = float(argv[2])
        argv = argv[:1] + argv[3:]
    if len(argv) != 3:
        sys.exit(__doc__)
    rows = {}
    load(argv[1], "old", rows)
    load(argv[2], "new", rows)
    selected, everything = [], []
    for key, entry in sorted(rows.items(), key=lambda kv: -min(kv[1]["peer"] or [0])):
        if not entry["old"] or not entry["new"]:
            continue
        old, new = min(entry["old"]), min(entry["new"])
        peer = min(entry["peer"]) if entry["peer"] else None
        everything.append((old / new, peer / old if peer else None, peer / new if peer else None))
        if peer and peer > threshold:
            selected.append(everything[-1])
            print(f"{key[0]} {key[1]} {key[2]:34} old {old:8.3f} new {new:8.3f} peer {peer:8.3f}  "
                  f"old/new {old / new:5.2f}  peer/tilecl {peer / old:5.2f} -> {peer / new:5.2f}")
    for name, group in ((f"peer > {threshold} ms", selected), ("all shapes", everything)):
        with_peer = [g for g in group if g[1] is not None]
        print(f"{name}: {len(group)} shapes, old/new {geomean([g[0] for g in group]):.2f}, peer/tilecl "
              f"{geomean([g[1] for g in with_peer]):.2f} -> {geomean([g[2] for g in with_peer]):.2f} "
              f"(worst new {min((g[2] for g in with_peer), default=float('nan')):.2f})")


if __name__ == "__main__":
    main(sys.argv)
