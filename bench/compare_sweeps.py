#!/usr/bin/env python3
"""Compares two `tilecl bench --sweep --json` files of the same seed shape by shape: how much faster the second
run's choice is than the first's (e.g. first-use tuning in the first, TILECL_TUNE=full in the second).

Usage: compare_sweeps.py FIRST.json SECOND.json [--label-first NAME] [--label-second NAME]
Prints per op (op, dtype): shapes compared, geometric mean and worst of FIRST time / SECOND time (> 1: the second
run is faster), and the shapes where the first run is more than 10% slower.
"""
import json
from collections import defaultdict

from compare_common import geomean, two_run_parser


def timed_points(path):
    with open(path) as file:
        run = json.load(file)
    points = {}
    for point in run["points"]:
        if point.get("family") == "overhead" or point.get("error") or point.get("tilecl_ms", 0) <= 0:
            continue
        points[(point["op"], point["dtype"], point["shape"])] = point
    return run.get("seed"), points


def main():
    parser = two_run_parser(__doc__)
    args = parser.parse_args()
    seed_first, first = timed_points(args.first)
    seed_second, second = timed_points(args.second)
    if seed_first != seed_second:
        print(f"warning: seeds differ ({seed_first}, {seed_second}): only shapes present in both are compared")
    ratios = defaultdict(list)
    slow = []
    for key in sorted(first.keys() & second.keys()):
        ratio = first[key]["tilecl_ms"] / second[key]["tilecl_ms"]
        ratios[key[:2]].append(ratio)
        if ratio > 1.1:
            slow.append((key, ratio, first[key].get("parameters", ""), second[key].get("parameters", "")))
    print(f"{args.label_first} time / {args.label_second} time per shape (> 1: {args.label_second} is faster)")
    print(f"{'op':<12} {'dtype':<8} {'shapes':>6} {'geomean':>8} {'worst':>8}")
    everything = []
    for (op, dtype), values in sorted(ratios.items()):
        everything += values
        mean = geomean(values)
        print(f"{op:<12} {dtype:<8} {len(values):>6} {mean:>8.3f} {max(values):>8.3f}")
    if everything:
        mean = geomean(everything)
        print(f"{'all':<12} {'':<8} {len(everything):>6} {mean:>8.3f} {max(everything):>8.3f}")
    for (op, dtype, shape), ratio, params_first, params_second in slow:
        print(f"  {op} {dtype} {shape}: {args.label_first} {ratio:.2f}x slower ({params_first} vs {params_second})")


if __name__ == "__main__":
    main()
