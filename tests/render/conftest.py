"""Pools the render tests share: the design-notes pool and a matrix of GPU stacks."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import make_pool

HERE = Path(__file__).resolve().parent
RENDER_DATA = HERE / "data"

# name -> (vm size, keyword arguments for make_pool)
MATRIX: dict[str, tuple[str, dict]] = {
    "t4": ("Standard_NC4as_T4_v3", {"nodeTaints": ["sku=gpu:NoSchedule"],
                                    "autoscaler": {"minCount": 1, "maxCount": 3}}),
    "t4spot": ("Standard_NC4as_T4_v3", {"priority": "Spot", "nodeTaints": ["sku=gpu:NoSchedule"],
                                        "nodeCount": 0, "autoscaler": {"minCount": 0, "maxCount": 3}}),
    "migsingle": ("Standard_ND96asr_v4", {"nodeTaints": ["sku=gpu:NoSchedule"],
                                          "gpu": {"instanceProfile": "MIG1g", "migStrategy": "Single"}}),
    "migmixed": ("Standard_ND96asr_v4", {"nodeTaints": ["nvidia.com/gpu:NoExecute", "team=ml:NoSchedule"],
                                         "gpu": {"instanceProfile": "MIG1g", "migStrategy": "Mixed"}}),
    "h100mig": ("Standard_ND96isr_H100_v5", {"nodeTaints": ["sku=gpu:NoSchedule"],
                                             "gpu": {"instanceProfile": "MIG3g"}}),
    "tslice": ("Standard_NC4as_T4_v3", {"nodeTaints": ["sku=gpu:NoSchedule"],
                                        "gpu": {"sharing": {"timeSlicing": {"replicas": 4}}}}),
    "tslicer": ("Standard_NC4as_T4_v3", {
        "nodeTaints": ["sku=gpu:NoSchedule"],
        "gpu": {"sharing": {"timeSlicing": {"replicas": 3, "renameByDefault": True,
                                            "failRequestsGreaterThanOne": True}}},
    }),
    "managed": ("Standard_NC24ads_A100_v4", {"nodeTaints": ["sku=gpu:NoSchedule"],
                                             "gpu": {"managed": True, "instanceProfile": "MIG1g",
                                                     "migStrategy": "Mixed"}}),
    "drvnone": ("Standard_ND96isr_H100_v5", {"nodeTaints": ["sku=gpu:NoSchedule", "gpu=h100:NoExecute"],
                                             "gpu": {"driver": "None", "instanceProfile": "MIG1g",
                                                     "migStrategy": "Mixed"}}),
    "azlmig": ("Standard_ND96asr_v4", {"osSku": "AzureLinux", "nodeTaints": ["sku=gpu:NoSchedule"],
                                       "gpu": {"instanceProfile": "MIG2g"}}),
}


def matrix_pool(name: str):
    size, kw = MATRIX[name]
    return make_pool(size, name=name, **kw)


@pytest.fixture(params=sorted(MATRIX))
def matrix(request):
    """Each pool of the matrix in turn."""
    return matrix_pool(request.param)


@pytest.fixture
def pool_named():
    """``pool_named("managed")``: a matrix pool by name."""
    return matrix_pool


@pytest.fixture
def all_matrix_pools():
    return [matrix_pool(n) for n in sorted(MATRIX)]


@pytest.fixture
def render_data():
    return RENDER_DATA


@pytest.fixture
def design_notes_pool():
    """The pool of the design notes / AKS docs: T4, sku=gpu:NoSchedule, autoscaler 1..3, driver only."""
    return make_pool("Standard_NC4as_T4_v3", name="gpunp", nodeCount=1, nodeTaints=["sku=gpu:NoSchedule"],
                     autoscaler={"minCount": 1, "maxCount": 3}, gpu={"driver": "Install"})
