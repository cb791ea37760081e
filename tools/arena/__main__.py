"""``python -m tools.arena``: see tools/arena/__init__.py."""

import sys

from tools.arena.cli import main

sys.exit(main())
