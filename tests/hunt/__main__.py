import sys

from tests.hunt.cli import main

sys.exit(main(sys.argv[1:]))
