"""Fraction of a copy of the same bytes per image row of a bench log's progress lines (a bench cut before its table):
python3 image_rows.py run1/bench-first-use.txt"""
import re, sys
rows, copies = {}, {}
for line in open(sys.argv[1]):
    m = re.match(r"\s+image (\S+) (\S+) (\S+) (tilecl|copy of the same bytes): ([0-9.]+) ms", line)
    if m:
        op, shape, dtype, what, ms = m.groups()
        (rows if what == "tilecl" else copies)[(op, shape, dtype)] = float(ms)
for key in sorted(rows):
    if key in copies:
        print(f"{key[0]:14} {key[1]:26} {key[2]:6} {rows[key]:.4f} ms  copy {copies[key]:.4f} ms  {100 * copies[key] / rows[key]:.0f}%")
