"""Writing a file whole or not at all: a temporary file in the same directory, then a rename.

Every file gpupool writes for a user (``--output-file``, ``diff --write``/``--runbook``, ``report``'s page,
the merged SARIF) goes through :func:`write_atomic`, so a reader never sees half a file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from gpupool.errors import InputError


def write_atomic(path: str | Path, text: str, mode: int = 0o644) -> None:
    """Write ``text`` to ``path`` via a temporary file in the same directory and a rename."""
    target = Path(path)
    if target.is_dir():
        raise InputError(str(path), None, "is a directory")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(str(path), None, "no such directory: " + str(parent))
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=parent)
    except OSError as e:
        raise InputError(str(path), None, f"cannot write: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise InputError(str(path), None, f"cannot write: {e.strerror or e}") from None
