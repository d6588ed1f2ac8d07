"""Plain-text tables for the command line."""

from __future__ import annotations

from typing import Sequence


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """Prints ``header`` and ``rows`` in left-aligned columns."""
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows)]
    for row in (header, *rows):
        print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip())
