"""gpupool: design, check, render, lint, diff and simulate GPU node pools on AKS, offline."""

__version__ = "0.1.0"
