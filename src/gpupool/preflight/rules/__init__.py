"""Preflight rules (GP7xx): one module per rule, discovered by :mod:`gpupool.rules`."""
