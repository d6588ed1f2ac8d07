"""Shared fixtures: the device queue (TILECL_PLATFORM / TILECL_DEVICE, else the first device) and a random
generator whose seed is printed (TILECL_TEST_SEED reproduces a run), as in the C++ suites."""

from __future__ import annotations

import os
import random
import sys

import numpy as np
import pyopencl as cl
import pytest

# Tuning is tested by the C++ suites; here it would only add time (keys are tuned once per process anyway).
os.environ.setdefault("TILECL_TUNE", "off")
sys.path.insert(0, os.path.dirname(__file__))

import tilecl  # noqa: E402

SEED = int(os.environ.get("TILECL_TEST_SEED", random.SystemRandom().randrange(1 << 31)))


def pytest_report_header(config: pytest.Config) -> str:
    return f"tilecl {tilecl.version()} from {os.path.dirname(tilecl.__file__)}; TILECL_TEST_SEED={SEED}"


@pytest.fixture(scope="session")
def queue() -> cl.CommandQueue:
    queue = cl.CommandQueue(cl.Context([tilecl.select_device()]))
    tilecl.numpy.set_default_queue(queue)
    return queue


@pytest.fixture
def rng(request: pytest.FixtureRequest) -> np.random.Generator:
    """A generator seeded from the run's seed and the test's name (so each test's data is reproducible alone)."""
    return np.random.default_rng([SEED, sum(map(ord, request.node.nodeid))])
