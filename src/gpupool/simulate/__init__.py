"""``gpupool simulate``: will the workloads fit the pools? Placement, Pending messages, scale-up, cost.

Pure engine (data in, data out; only the CLI prints)::

    from gpupool.simulate import Options, load_inputs, simulate
    result = simulate(load_inputs(["pools.yaml", "workloads.yaml"]), Options(kubernetes_version="1.35"))
    result.to_dict()        # the JSON payload (without "version", which the reporter adds)
    result.exit_code        # 0 all placed, 1 something Pending

Modules: :mod:`.inputs` (reading), :mod:`.nodes` (node shapes, AKS reservations, CA template),
:mod:`.pods` (pod shapes), :mod:`.cluster` (filters, scores, preemption, FitError), :mod:`.autoscaler`
(CA scale-up), :mod:`.cost` (prices), :mod:`.messages` (texts), :mod:`.engine` (the run), ``rules/`` (GP5xx).
"""

from gpupool.simulate.cost import PriceTable, bundled, fetch_prices, load_prices
from gpupool.simulate.engine import Options, SimulationResult, simulate
from gpupool.simulate.facts import Reservations, default_reservations, load_reservations
from gpupool.simulate.inputs import Inputs, load_inputs

__all__ = [
    "Inputs",
    "Options",
    "PriceTable",
    "Reservations",
    "SimulationResult",
    "bundled",
    "default_reservations",
    "fetch_prices",
    "load_inputs",
    "load_prices",
    "load_reservations",
    "simulate",
]
