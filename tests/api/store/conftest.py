"""The contract suites' shared fixtures: the store on each backend (:data:`.contract.BACKENDS`) and the test's own
names. A suite whose entries outlive their keys on the shared Cluster overrides ``ids`` to clear them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .contract import BACKENDS, Names, open_store


@pytest.fixture(params=BACKENDS)
def store(request) -> Iterator:
    yield from open_store(request)


@pytest.fixture
def ids() -> Names:
    return Names()
