"""``gpupool preflight``: can this pool be created here, now? Region, zones, quota, versions, CLI.

Layout: model.py (plain data), inputs.py (az JSON -> model), live.py (Azure SDK -> model, opt-in),
engine.py (contexts, quota sums, running the rules), rules/ (GP7xx, one module each), data/ (facts).
"""
