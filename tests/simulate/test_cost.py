"""Prices: the bundled table (source and asOf per price), --prices FILE, the API fetch (stubbed), the bill."""

from __future__ import annotations

import io
import json
from pathlib import Path
from urllib.parse import unquote

import pytest

from gpupool.errors import InputError
from gpupool.simulate import bundled, fetch_prices, load_prices
from gpupool.simulate.cost import API

FIGURES = Path(__file__).resolve().parents[1] / "data" / "prices-test-figures.yaml"  # test figures only


def test_bundled_table_has_no_price_without_a_source(k) -> None:
    """No price with a public source and a date was found (2026-12-03): the bundled table prices nothing,
    says why, and every cost is unknown (with how to get real prices), never a guess."""
    t = bundled()
    assert t.origin == "bundled" and t.prices == {} and t.currency == "USD"
    assert t.source.startswith("none: no price with a public source")
    for p in t.prices.values():  # a row added later must carry its own source and date
        assert p.region and p.as_of and p.source and p.per_hour > 0
    r = k.run([k.system(1), k.pool("gpunp", count=1)])
    assert r.cost_per_hour is None and all(p.cost_per_hour is None for p in r.pools)
    assert any("no price for Standard_NC4as_T4_v3" in n for n in r.notes)


def test_cost_per_pool_and_total(k) -> None:
    docs = [k.system(2), k.pool("gpunp", count=3), k.pod("p", gpu=1)]
    r = k.run(docs, prices=load_prices(FIGURES))
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
    table = load_prices(FIGURES)
    r = k.run([k.pool("h200", "Standard_ND96isr_H200_v5", 1)], prices=table)
    assert r.pools[0].cost_per_hour is None and r.cost_per_hour is None
    assert any("no price for Standard_ND96isr_H200_v5" in n for n in r.notes)
    r = k.run([k.system(1), k.pool("h200", "Standard_ND96isr_H200_v5", 0)], prices=table)
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
    assert k.run([k.system(1)], prices=load_prices(FIGURES)).cost_per_hour == 0.192
    assert k.run([k.system(1)]).cost_per_hour is None  # the bundled table prices nothing
