import sys

from spec_impl.vectors.cli import main

sys.exit(main())
