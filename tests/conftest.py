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
