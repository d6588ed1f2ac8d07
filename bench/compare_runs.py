#!/usr/bin/env python3
"""Compares tilecl's rows in two `tilecl bench --json` runs (e.g. before and after a change, on one device):
each row's time in the first run over its time in the second (> 1: the second is faster).

Usage: compare_runs.py FIRST.json[,MORE.json...] SECOND.json[,MORE.json...] [--label-first NAME]
                       [--label-second NAME] [--threshold 0.1] [--min-ms 0]
A comma-separated list merges several runs of one side (one JSON per family, or repeated runs: each row then
takes its median over the runs). Rows pair by family, op,
shape, dtype and implementation; only rows of implementations named "tilecl..." are compared, and the limits
rows (family "limits": copies, FMA) are listed on their own as a measure of how the device itself moved between the runs. Prints per
family: rows compared, geometric mean and range of the ratios, and every row beyond the threshold either way.
Rows faster than --min-ms in both runs are left out of the verdict (launch noise) but still counted.
"""
import json
from collections import defaultdict

from compare_common import geomean, two_run_parser


def rows_of(paths):
    """Rows by key; with several runs, each row's median time over the runs that have it (and its ratio to the
    best peer from the same run as that median)."""
    runs = defaultdict(list)
    for path in paths.split(","):
        with open(path) as file:
            run = json.load(file)
        for row in run.get("rows", []):
            if row.get("failed") or row.get("median_ms", 0) <= 0:
                continue
            runs[(row.get("family", ""), row["op"], row["shape"], row["dtype"], row["implementation"])].append(row)
    return {key: sorted(rows, key=lambda row: row["median_ms"])[(len(rows) - 1) // 2] for key, rows in runs.items()}


def main():
    parser = two_run_parser(__doc__)
    parser.add_argument("--threshold", type=float, default=0.1, help="report rows whose ratio is off 1 by more")
    parser.add_argument("--min-ms", type=float, default=0.0, help="rows faster than this in both runs: not judged")
    args = parser.parse_args()
    first, second = rows_of(args.first), rows_of(args.second)
    by_family = defaultdict(list)
    limits = []
    for key in sorted(first.keys() & second.keys()):
        ratio = first[key]["median_ms"] / second[key]["median_ms"]
        if key[0] == "limits":
            limits.append((key, ratio))
        elif key[4].startswith("tilecl"):
            by_family[key[0]].append((key, ratio, max(first[key]["median_ms"], second[key]["median_ms"])))
    print(f"time in {args.label_first} / time in {args.label_second} (> 1: {args.label_second} is faster)")
    print(f"rows only in {args.label_first}: {len(first.keys() - second.keys())}, "
          f"only in {args.label_second}: {len(second.keys() - first.keys())}")
    if limits:
        ratios = [r for _, r in limits]
        print(f"limits: {len(ratios)} rows, geometric mean {geomean(ratios):.3f}, range {min(ratios):.3f}-{max(ratios):.3f}")
    all_judged = []
    relative = [first[k]["ratio_to_best_peer"] and second[k]["ratio_to_best_peer"] / first[k]["ratio_to_best_peer"]
                for entries in by_family.values() for k, _, _ in entries
                if first[k].get("ratio_to_best_peer", 0) > 0 and second[k].get("ratio_to_best_peer", 0) > 0]
    if relative:
        print(f"speed relative to the best peer of the same run (cancels what moved the device or host between the "
              f"runs): {len(relative)} rows, geometric mean {geomean(relative):.3f}, range {min(relative):.3f}-"
              f"{max(relative):.3f}")
    for family, entries in sorted(by_family.items()):
        judged = [r for _, r, ms in entries if ms >= args.min_ms]
        all_judged += judged
        if not judged:
            continue
        print(f"{family}: {len(entries)} rows ({len(judged)} judged), geometric mean {geomean(judged):.3f}, "
              f"range {min(judged):.3f}-{max(judged):.3f}")
        for key, ratio, ms in entries:
            if ms >= args.min_ms and abs(ratio - 1) > args.threshold:
                print(f"    {ratio:6.3f}  {key[1]} {key[2]} {key[3]} [{key[4]}] "
                      f"{first[key]['median_ms']:.4f} -> {second[key]['median_ms']:.4f} ms")
    if all_judged:
        print(f"all tilecl rows judged: {len(all_judged)}, geometric mean {geomean(all_judged):.3f}, "
              f"range {min(all_judged):.3f}-{max(all_judged):.3f}")


if __name__ == "__main__":
    main()
