"""``python -m bombbuster_core``: see :mod:`bombbuster_core.cli`."""
import sys

from .cli import main

sys.exit(main())
