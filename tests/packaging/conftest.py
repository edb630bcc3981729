"""The packaging proof is marked ``packaging``: CI runs it; deselect it with ``-m "not packaging"``."""

from __future__ import annotations


def pytest_configure(config) -> None:  # type: ignore[no-untyped-def]
    config.addinivalue_line(
        "markers", "packaging: builds the sdist and wheels and installs them in fresh environments (~1 min)"
    )
