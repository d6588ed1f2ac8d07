#!/usr/bin/env python3
"""Compares `tilecl bench --family image --json` runs side by side: per row, OpenCV's time over tilecl's
(above 1 tilecl is faster), each ratio taken within one run; then per op and element type the minimum,
median and maximum of those ratios over the rows (1, 3 and 4 channels, every border OpenCV takes).

Usage: image_compare.py [--min] NAME=FILE.json [NAME=FILE.json ...]
Each row's median time is used (with --min, its minimum). Rows without an OpenCV counterpart (wrap) are left
out. Columns: tilecl with the float arithmetic, then with OpenCV's ("opencv-arithmetic", uint8 only).
"""
import json
import statistics
import sys


def load(path):
    return {(r["op"], r["shape"], r["dtype"], r["implementation"]): r for r in json.load(open(path))["rows"]}


def ratio(rows, key, implementation, field):
    ours, theirs = rows.get(key + (implementation,)), rows.get(key + ("OpenCV",))
    if not ours or not theirs or ours.get("failed") or theirs.get("failed"):
        return None
    return theirs[field] / ours[field]


def cell(value):
    return "-" if value is None else f"{value:.2f}x"


def main(argv):
    field = "min_ms" if "--min" in argv else "median_ms"
    runs = [(name, load(path)) for name, path in (a.split("=", 1) for a in argv if not a.startswith("--"))]
    keys = []
    for key in runs[0][1]:
        if key[3] == "OpenCV" and key[:3] not in keys:
            keys.append(key[:3])
    implementations = ("tilecl", "tilecl opencv-arithmetic")
    names = [n for n, _ in runs]
    print("| op | shape | dtype | " + " | ".join(names) + " | " + " | ".join(n + " opencv-arith." for n in names) + " |")
    print("|" + "---|" * (3 + 2 * len(runs)))
    families = {}
    for key in keys:
        values = [[ratio(rows, key, impl, field) for _, rows in runs] for impl in implementations]
        print(f"| {key[0]} | {key[1]} | {key[2]} | " + " | ".join(cell(v) for v in values[0] + values[1]) + " |")
        families.setdefault((key[0], key[2]), []).append(values)
    print()
    print("| rows | " + " | ".join(names) + " | " + " | ".join(n + " opencv-arith." for n in names) + " |")
    print("|" + "---|" * (1 + 2 * len(runs)))
    for (op, dtype), rows in families.items():
        cells = []
        for which in range(len(implementations)):
            for i in range(len(runs)):
                found = [r[which][i] for r in rows if r[which][i] is not None]
                cells.append("-" if not found else
                             f"{min(found):.2f} / {statistics.median(found):.2f} / {max(found):.2f}")
        print(f"| {op} {dtype} ({len(rows)} rows) | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
