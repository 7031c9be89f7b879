import sys

from autograph.cli import main

sys.exit(main())
