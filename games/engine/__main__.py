"""``python -m games.engine``: answer the JSON-lines protocol of RULES §11;
``python -m games.engine simulate …``: play and check whole games with bots;
``python -m games.engine match …``: two bots on duplicate deals;
``python -m games.engine league …``: every pairing of bots on the same deals."""

import sys

from .protocol import serve

if __name__ == "__main__":
    if sys.argv[1:2] == ["simulate"]:
        from .simulate import main

        main(sys.argv[2:])
    elif sys.argv[1:2] == ["league"]:
        from .league import main

        main(sys.argv[2:])
    elif sys.argv[1:2] == ["match"]:
        from .match import main

        main(sys.argv[2:])
    else:
        serve(sys.stdin, sys.stdout)
