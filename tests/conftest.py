"""Fixtures shared by every test package; helpers live in tests/support.py (``from support import ...``)."""

from __future__ import annotations

import pytest

from support import run_cli, run_program


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture
def program():
    return run_program


@pytest.fixture(autouse=True)
def _fixed_today(monkeypatch):
    """Support windows (GP135, GP137) are judged on this date, so results do not change with the calendar."""
    monkeypatch.setenv("GPUPOOL_TODAY", "2026-12-03")


@pytest.fixture(autouse=True)
def _no_configured_version():
    """A run's .gpupool.yaml kubernetesVersion is process state (set by the CLI): none leaks into the next
    test."""
    yield
    from gpupool.catalog.aks import configure_default_version

    configure_default_version(None)
