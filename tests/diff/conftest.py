"""Fixtures for the diff/import tests (helpers and data paths live in helpers.py)."""

from __future__ import annotations

from diff.helpers import stubs, write  # noqa: F401 - re-exported as fixtures
