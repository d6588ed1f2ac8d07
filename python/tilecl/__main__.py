"""``python -m tilecl devices|tune|cache|bench``: see tilecl._cli."""

import sys

from ._cli import main

sys.exit(main())
