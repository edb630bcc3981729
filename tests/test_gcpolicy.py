"""gcpolicy.batch: the young generation's threshold is raised for a run and restored however it ends."""

from __future__ import annotations

import gc

import pytest

from gpupool.gcpolicy import YOUNG_THRESHOLD, batch


def test_threshold_raised_and_restored() -> None:
    before = gc.get_threshold()
    with batch():
        inside = gc.get_threshold()
        assert inside[0] == max(before[0], YOUNG_THRESHOLD) and inside[1:] == before[1:]
    assert gc.get_threshold() == before


def test_restored_on_exit_and_error() -> None:
    before = gc.get_threshold()
    with pytest.raises(SystemExit), batch():
        raise SystemExit(2)
    assert gc.get_threshold() == before
    with pytest.raises(ValueError), batch():
        raise ValueError
    assert gc.get_threshold() == before


def test_a_higher_threshold_is_kept() -> None:
    before = gc.get_threshold()
    try:
        gc.set_threshold(YOUNG_THRESHOLD * 2, *before[1:])
        with batch():
            assert gc.get_threshold()[0] == YOUNG_THRESHOLD * 2
    finally:
        gc.set_threshold(*before)


def test_the_cli_runs_commands_in_a_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    """The real entry point: a command sees the raised threshold."""
    import sys

    from gpupool.cli import common, main

    seen = []

    def fake_run_app(app, prog_name):  # type: ignore[no-untyped-def]
        seen.append(gc.get_threshold()[0])

    monkeypatch.setattr(common, "run_app", fake_run_app)
    monkeypatch.setattr(sys, "argv", ["gpupool", "rules"])
    main.main()
    assert seen and seen[0] >= YOUNG_THRESHOLD
