"""The file to give `spark-submit` (it runs a path, not a module):

    spark-submit --master spark://host:7077 --py-files audit.zip conformance/audit/submit.py METADATA [options]

Same arguments and exit codes as `iceberg-audit` (`cli.main`), in the submitted session.
"""

import sys

from conformance.audit.cli import main

if __name__ == "__main__":
    sys.exit(main())
