"""``python -m toolkit ...``: the same command line as the ``tokenizer-toolkit`` console script.

>>> # python -m toolkit encode tok.json "Hello world" --format tokens
"""

import sys

from toolkit.cli import main

if __name__ == "__main__":
    sys.exit(main())
