"""`python -m alpha_py train|eval ...` — the same as the `alpha` console script."""
import sys

from .cli import main

sys.exit(main())
