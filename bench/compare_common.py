"""What bench/compare_runs.py and bench/compare_sweeps.py share: the two-run command line and the geometric mean."""
import argparse
import math


def two_run_parser(doc):
    """A parser for FIRST SECOND [--label-first NAME] [--label-second NAME], described by the module's doc."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--label-first", default="first")
    parser.add_argument("--label-second", default="second")
    return parser


def geomean(values):
    """The geometric mean of positive values (NaN for none)."""
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")
