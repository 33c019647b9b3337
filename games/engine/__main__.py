"""``python -m games.engine``: answer the JSON-lines protocol of RULES §11."""

import sys

from .protocol import serve

if __name__ == "__main__":
    serve(sys.stdin, sys.stdout)
