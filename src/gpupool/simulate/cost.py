"""Hourly prices: the bundled table (``simulate/data/prices.yaml``), a ``--prices FILE`` of the same shape,
or — only when asked explicitly — the public Azure Retail Prices API.

File shape (YAML or JSON)::

    region: eastus            # region, currency, asOf and source apply to every price unless a row
    currency: USD             # overrides them
    asOf: "2026-08-01"
    source: our EA price sheet
    prices:
      Standard_NC4as_T4_v3: 0.526                      # per hour, or
      Standard_ND96asr_v4: {perHour: 27.197, spot: 5.4, estimate: true}
"""

from __future__ import annotations

import json
import math
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from importlib import resources
from pathlib import Path
from typing import Any

from gpupool import yamlio
from gpupool.errors import InputError

API = "https://prices.azure.com/api/retail/prices"
ROW_FIELDS = ("perHour", "spot", "region", "currency", "asOf", "source", "estimate")
TOP_FIELDS = ("region", "currency", "asOf", "source", "prices", "defaults")


@dataclass(frozen=True)
class Price:
    vm_size: str
    per_hour: float
    spot: float | None
    region: str
    currency: str
    as_of: str
    source: str
    estimate: bool = False

    def hourly(self, spot: bool) -> float:
        """A node's price per hour: the Spot price for a Spot node when the table has one."""
        return self.spot if spot and self.spot is not None else self.per_hour


@dataclass(frozen=True)
class PriceTable:
    region: str
    currency: str
    as_of: str
    source: str
    prices: dict[str, Price]  # key: VM size, lower case
    origin: str = "bundled"  # bundled | file | api

    def get(self, vm_size: str) -> Price | None:
        return self.prices.get(vm_size.lower())

    @property
    def any_estimate(self) -> bool:
        return any(p.estimate for p in self.prices.values())

    def meta(self) -> dict[str, Any]:
        return {
            "region": self.region,
            "currency": self.currency,
            "asOf": self.as_of,
            "source": self.source,
            "origin": self.origin,
            "estimates": self.any_estimate,
        }


def _line(obj: Any, default: int | None) -> int | None:
    return getattr(obj, "line", None) or default


def _number(value: Any, path: str, line: int | None, what: str) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or (isinstance(value, float) and (math.isnan(value) or math.isinf(value)))
    ):
        raise InputError(path, line, f"{what}: expected a number (price per hour), got {value!r}"[:200])
    if value < 0:
        raise InputError(path, line, f"{what}: a price cannot be negative")
    return float(value)


def parse_table(data: Any, path: str, doc_line: int = 1, origin: str = "file") -> PriceTable:
    """Validate a price table document. Raises InputError with the line of the bad field."""
    if not isinstance(data, dict):
        raise InputError(
            path, doc_line, "a price table is a mapping with region, currency, asOf, source and prices"
        )
    for key in data:
        if key not in TOP_FIELDS:
            raise InputError(
                path,
                data.key_pos.get(key, (doc_line,))[0] if isinstance(data, yamlio.LineDict) else doc_line,
                f'unknown field "{key}" in the price table',
                f"known fields: {', '.join(TOP_FIELDS)}",
            )
    top: dict[str, str] = {}
    for key in ("region", "currency", "asOf", "source"):
        v = data.get(key)
        if v is None:
            raise InputError(
                path,
                doc_line,
                f'the price table needs "{key}"',
                "state region, currency, asOf and source so the cost can be trusted",
            )
        if not isinstance(v, (str, int, float)) or isinstance(v, bool):
            raise InputError(path, _line(data, doc_line), f"{key}: expected a string")
        top[key] = " ".join(str(v).split())
    rows = data.get("prices")
    if origin == "bundled" and rows == {}:
        rows = {}  # the bundled table may be empty: no size has a sourced price (prices.yaml says why)
    elif not isinstance(rows, dict) or not rows:
        raise InputError(
            path, _line(rows, doc_line), "prices: expected a mapping of VM size to price per hour"
        )
    out: dict[str, Price] = {}
    for size, row in rows.items():
        rline = rows.key_pos.get(size, (doc_line,))[0] if isinstance(rows, yamlio.LineDict) else doc_line
        if not isinstance(size, str) or not size.strip():
            raise InputError(path, rline, "prices: VM size names must be strings")
        if isinstance(row, dict):
            for k in row:
                if k not in ROW_FIELDS:
                    raise InputError(
                        path,
                        rline,
                        f'prices.{size}: unknown field "{k}"',
                        f"known fields: {', '.join(ROW_FIELDS)}",
                    )
            if "perHour" not in row:
                raise InputError(path, rline, f"prices.{size}: perHour is required")
            per_hour = _number(row["perHour"], path, rline, f"prices.{size}.perHour")
            spot = (
                _number(row["spot"], path, rline, f"prices.{size}.spot")
                if row.get("spot") is not None
                else None
            )
            fields = {
                k: " ".join(str(row.get(k, top[k])).split()) for k in ("region", "currency", "asOf", "source")
            }
            estimate = bool(row.get("estimate", False))
        else:
            per_hour = _number(row, path, rline, f"prices.{size}")
            spot, fields, estimate = None, dict(top), False
        if fields["currency"] != top["currency"]:
            raise InputError(
                path,
                rline,
                f"prices.{size}: currency {fields['currency']} differs from the table's "
                f"{top['currency']}; use one currency per table",
            )
        out[size.lower()] = Price(
            size,
            per_hour,
            spot,
            fields["region"],
            fields["currency"],
            fields["asOf"],
            fields["source"],
            estimate,
        )
    return PriceTable(top["region"], top["currency"], top["asOf"], top["source"], out, origin)


def bundled() -> PriceTable:
    text = resources.files("gpupool.simulate").joinpath("data", "prices.yaml").read_text(encoding="utf-8")
    doc = yamlio.load_documents(text, "gpupool/simulate/data/prices.yaml")[0]
    return parse_table(doc.data, doc.path, doc.line, origin="bundled")


def load_prices(path: str | Path) -> PriceTable:
    """``--prices FILE`` (YAML or JSON), read through gpupool.yamlio."""
    docs = [d for d in yamlio.load_file(path) if d.data is not None]
    if len(docs) != 1:
        raise InputError(str(path), None, "expected one document: a price table")
    doc = docs[0]
    if doc.duplicates:
        d = doc.duplicates[0]
        raise InputError(doc.path, d.line, f'duplicate key "{d.key}" (first at line {d.first_line})')
    return parse_table(doc.data, doc.path, doc.line, origin="file")


Opener = Callable[[str], Any]


def _default_opener(url: str) -> Any:  # pragma: no cover - network; tests pass a stub
    req = urllib.request.Request(url, headers={"User-Agent": "gpupool"})
    return urllib.request.urlopen(req, timeout=30)


def fetch_prices(
    region: str,
    vm_sizes: Iterable[str],
    currency: str = "USD",
    opener: Opener | None = None,
    max_pages: int = 20,
) -> PriceTable:
    """Ask the Azure Retail Prices API (no auth) for Linux pay-as-you-go and Spot prices of ``vm_sizes``.

    Only called for ``--fetch-prices``. Filter values are case-sensitive (api-version 2023-01-01-preview on);
    100 items per page, followed through ``NextPageLink``. Windows meters and "Low Priority" are skipped.
    """
    open_url = opener or _default_opener
    out: dict[str, Price] = {}
    when = date.today().isoformat()
    for size in sorted(set(vm_sizes)):
        flt = (
            f"serviceName eq 'Virtual Machines' and armRegionName eq '{region}' and armSkuName eq '{size}' "
            "and priceType eq 'Consumption'"
        )
        url: str | None = f"{API}?currencyCode='{currency}'&$filter={urllib.parse.quote(flt)}"
        on_demand: list[float] = []
        spot: list[float] = []
        pages = 0
        while url and pages < max_pages:
            pages += 1
            try:
                with open_url(url) as resp:
                    body = json.loads(resp.read().decode("utf-8"))
            except (OSError, ValueError) as e:
                raise InputError(
                    None,
                    None,
                    f"cannot fetch prices from {API}: {e}",
                    "run without --fetch-prices to use the bundled table, or pass --prices FILE",
                ) from None
            for item in body.get("Items") or []:
                if not isinstance(item, dict) or item.get("unitOfMeasure") != "1 Hour":
                    continue
                product = str(item.get("productName", ""))
                sku = str(item.get("skuName", ""))
                if "Windows" in product or "Low Priority" in sku:
                    continue
                price = item.get("retailPrice")
                if not isinstance(price, (int, float)) or isinstance(price, bool):
                    continue
                (spot if "Spot" in sku else on_demand).append(float(price))
            nxt = body.get("NextPageLink")
            url = nxt if isinstance(nxt, str) and nxt.startswith(API) else None
        if on_demand:
            out[size.lower()] = Price(
                size, min(on_demand), min(spot) if spot else None, region, currency, when, API, False
            )
    return PriceTable(region, currency, when, f"{API} (fetched)", out, origin="api")
