"""The worker pool shared by the fuzz tests of one session (one worker: the machine is shared)."""

import pytest

from .pool import Pool


@pytest.fixture(scope="session")
def fuzz_pool():
    with Pool(workers=1, timeout=10.0, memory_mb=1024) as pool:
        yield pool
