#!/usr/bin/env python3
"""Prints the image rows of `tilecl bench --family image --json` files as one Markdown table per statistic.

Usage: image_table.py [--min] FILE.json [FILE.json ...]
Per (op, shape, dtype) group: tilecl's time with the float arithmetic and with OpenCV's, OpenCV's time, each
ratio (OpenCV's time / tilecl's: above 1 tilecl is faster), the copy of the same bytes and tilecl's fraction of
it. Times are the median over the files of each row's median (or, with --min, of each row's minimum: on a busy
shared machine the minimum is the time a run gets when it is not interrupted).
"""
import json
import statistics
import sys
from collections import OrderedDict


def main(argv):
    field = "min_ms" if "--min" in argv else "median_ms"
    groups = OrderedDict()
    for path in (a for a in argv if not a.startswith("--")):
        for row in json.load(open(path))["rows"]:
            if row["family"] != "image" or row["failed"]:
                continue
            group = groups.setdefault((row["op"], row["shape"], row["dtype"]), {})
            group.setdefault(row["implementation"], []).append(row[field])

    def time(group, name):
        return statistics.median(group[name]) if name in group else None

    def ms(value):
        return f"{value:.3f}" if value else "-"

    def ratio(ours, peer):
        return f"{peer / ours:.2f}x" if ours and peer else "-"

    print("| op | shape | dtype | tilecl ms | x OpenCV | tilecl opencv-arithmetic ms | x OpenCV | OpenCV ms | copy ms |"
          " tilecl % of copy |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (op, shape, dtype), group in groups.items():
        ours, exact = time(group, "tilecl"), time(group, "tilecl opencv-arithmetic")
        peer, copy = time(group, "OpenCV"), time(group, "copy of the same bytes")
        share = f"{100 * copy / ours:.0f}%" if ours and copy else "-"
        print(f"| {op} | {shape} | {dtype} | {ms(ours)} | {ratio(ours, peer)} | {ms(exact)} | {ratio(exact, peer)} |"
              f" {ms(peer)} | {ms(copy)} | {share} |")


if __name__ == "__main__":
    main(sys.argv[1:])
