import os
import random
import time

import pytest


@pytest.fixture
def rng(request):
    """A random.Random seeded from PCT_TEST_SEED (or the clock); the seed is
    printed, and shown with a failure, so that PCT_TEST_SEED=N reproduces."""
    seed = int(os.environ.get("PCT_TEST_SEED", time.time_ns() % (1 << 32)))
    print(f"{request.node.name}: seed {seed} (PCT_TEST_SEED={seed} reproduces)")
    r = random.Random(seed)
    r.seed_value = seed
    return r


def pytest_report_header(config):
    import pct

    return f"pct {pct.__version__}, libpct {pct.libpct_version}, implementation {pct.implementation()}"
