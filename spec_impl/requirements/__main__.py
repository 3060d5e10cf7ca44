import sys

from spec_impl.requirements.index import main

sys.exit(main())
