"""The tools' tests import them as the command lines run them
(``python -m tools.bench``, ``tools.arena``, ``tools.ladder``): from the
repository's root."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
