"""``python -m tools.bench``: see tools/bench/__init__.py."""

import sys

from tools.bench.run import main

sys.exit(main())
