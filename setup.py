"""Build hook for the optional C reader (src/gpupool/_cyaml.c); everything else is in pyproject.toml.

The extension links libyaml (Debian/Ubuntu: libyaml-dev; macOS: brew install libyaml). Where it cannot be
built, the install goes on without it and gpupool reads YAML with PyYAML alone (same results, slower lint).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("gpupool._cyaml", ["src/gpupool/_cyaml.c"], libraries=["yaml"], optional=True),
    ]
)
