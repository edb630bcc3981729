"""Prices: the bundled table (source and asOf per price), --prices FILE, the API fetch (stubbed), the bill."""

from __future__ import annotations

import io
import json
from urllib.parse import unquote

import pytest

from gpupool.errors import InputError
from gpupool.simulate import bundled, fetch_prices, load_prices
from gpupool.simulate.cost import API


def test_bundled_table_states_region_currency_asof_source_for_every_price() -> None:
    t = bundled()
    assert t.prices and t.origin == "bundled"
    for p in t.prices.values():
        assert p.region and p.currency == "USD" and p.as_of and p.source and p.per_hour > 0
        assert p.estimate, f"{p.vm_size}: not verified from a source in the knowledge base, so an estimate"
    assert t.get("standard_nc4as_t4_v3").per_hour == 0.526


def test_cost_per_pool_and_total(k) -> None:
    docs = [k.system(2), k.pool("gpunp", count=3), k.pod("p", gpu=1)]
    r = k.run(docs)
    assert [p.cost_per_hour for p in r.pools] == [0.384, 1.578]
    assert r.cost_per_hour == pytest.approx(1.962)
    d = r.to_dict()
    assert d["costPerHour"] == pytest.approx(1.962) and d["currency"] == "USD"
    assert d["prices"]["estimates"] is True and any("estimates" in n for n in r.notes)


def test_prices_file_replaces_the_table(k) -> None:
    path = k.tmp / "prices.yaml"
    path.write_text(
        "region: westeurope\ncurrency: EUR\nasOf: '2026-08-01'\nsource: EA sheet\nprices:\n"
        "  Standard_NC4as_T4_v3: 1.0\n  Standard_D4s_v5: {perHour: 0.25, spot: 0.05}\n",
        encoding="utf-8",
    )
    table = load_prices(path)
    docs = [k.system(2), k.pool("gpunp", count=1), k.pool("spot", "Standard_D4s_v5", 2, priority="Spot")]
    r = k.run(docs, prices=table)
    assert [p.cost_per_hour for p in r.pools] == [0.5, 1.0, 0.1]
    assert r.cost_per_hour == 1.6 and r.to_dict()["currency"] == "EUR"
    assert not [n for n in r.notes if "estimates" in n]


def test_unknown_price_makes_the_total_unknown(k) -> None:
    r = k.run([k.pool("h200", "Standard_ND96isr_H200_v5", 1)])
    assert r.pools[0].cost_per_hour is None and r.cost_per_hour is None
    assert any("no price for Standard_ND96isr_H200_v5" in n for n in r.notes)
    r = k.run([k.system(1), k.pool("h200", "Standard_ND96isr_H200_v5", 0)])
    assert r.cost_per_hour == 0.192  # a pool with no node costs nothing, priced or not


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        ("region: eastus\ncurrency: USD\nasOf: x\nprices: {Standard_D4s_v5: 1}\n", 1, 'needs "source"'),
        (
            "region: eastus\ncurrency: USD\nasOf: x\nsource: s\nprices:\n  Standard_D4s_v5: -1\n",
            6,
            "negative",
        ),
        (
            "region: eastus\ncurrency: USD\nasOf: x\nsource: s\nprices:\n  Standard_D4s_v5: cheap\n",
            6,
            "expected a number",
        ),
        (
            "region: eastus\ncurrency: USD\nasOf: x\nsource: s\nprices:\n  Standard_D4s_v5: {perhour: 1}\n",
            6,
            'unknown field "perhour"',
        ),
        (
            "region: eastus\ncurrency: USD\nasOf: x\nsource: s\nprices:\n"
            "  Standard_D4s_v5: {perHour: 1, currency: EUR}\n",
            6,
            "one currency per table",
        ),
        (
            "region: eastus\ncurrency: USD\nasOf: x\nsource: s\ncolour: red\nprices: {a: 1}\n",
            5,
            'unknown field "colour"',
        ),
        ("region: eastus\ncurrency: USD\nasOf: x\nsource: s\nprices: []\n", 5, "prices: expected a mapping"),
        ("region: eastus\nregion: westus\n", 2, "duplicate key"),
        ("prices: [\n", 2, "invalid YAML"),
    ],
)
def test_bad_prices_file_is_input_error_with_line(k, text: str, line: int, needle: str) -> None:
    path = k.tmp / "p.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_prices(path)
    assert needle in e.value.message and e.value.line == line, (e.value.message, e.value.line)


class StubOpener:
    """Stands in for the network: records URLs, serves canned Retail Prices API pages."""

    def __init__(self, pages: dict[str, list[dict]]) -> None:
        self.pages = pages
        self.urls: list[str] = []

    def __call__(self, url: str):  # type: ignore[no-untyped-def]
        self.urls.append(url)
        sku = next(s for s in self.pages if f"armSkuName eq '{s}'" in unquote(url))
        pages = self.pages[sku]
        n = int(url.split("&page=")[1]) if "&page=" in url else 0
        body = {
            "Items": pages[n],
            "NextPageLink": f"{url.split('&page=')[0]}&page={n + 1}" if n + 1 < len(pages) else None,
        }
        return io.BytesIO(json.dumps(body).encode())


def item(
    price: float, sku: str = "NC4as T4 v3", product: str = "NCasT4_v3 Series", unit: str = "1 Hour"
) -> dict:
    return {
        "retailPrice": price,
        "skuName": sku,
        "productName": product,
        "unitOfMeasure": unit,
        "armSkuName": "Standard_NC4as_T4_v3",
        "type": "Consumption",
    }


def test_fetch_prices_with_a_stub() -> None:
    stub = StubOpener(
        {
            "Standard_NC4as_T4_v3": [
                [item(0.9, product="NCasT4_v3 Series Windows"), item(0.15, sku="NC4as T4 v3 Spot")],
                [item(0.526), item(0.2, sku="NC4as T4 v3 Low Priority"), item(100, unit="1/Month")],
            ]
        }
    )
    t = fetch_prices("eastus", ["Standard_NC4as_T4_v3"], opener=stub)
    p = t.get("Standard_NC4as_T4_v3")
    assert (p.per_hour, p.spot, p.region, p.currency, p.estimate) == (0.526, 0.15, "eastus", "USD", False)
    assert t.origin == "api" and t.source.startswith(API)
    assert len(stub.urls) == 2 and stub.urls[0].startswith(API + "?currencyCode='USD'&$filter=")
    flt = unquote(stub.urls[0])
    assert "serviceName eq 'Virtual Machines'" in flt and "armRegionName eq 'eastus'" in flt
    assert "priceType eq 'Consumption'" in flt


def test_fetch_prices_network_error_is_input_error() -> None:
    def broken(url: str):  # type: ignore[no-untyped-def]
        raise OSError("network is unreachable")

    with pytest.raises(InputError, match="cannot fetch prices"):
        fetch_prices("eastus", ["Standard_D4s_v5"], opener=broken)


def test_fetch_is_not_reached_without_the_flag(k, monkeypatch) -> None:
    import urllib.request

    def no_network(*a, **kw):  # type: ignore[no-untyped-def]
        raise AssertionError("simulate must not touch the network")

    monkeypatch.setattr(urllib.request, "urlopen", no_network)
    assert k.run([k.system(1)]).cost_per_hour == 0.192
