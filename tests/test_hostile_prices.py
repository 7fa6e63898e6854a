"""data/prices.toml out of range: refused with the file, the key and the value (issue 34, item 5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.article.functions import Prices
from generator.errors import ManifestError

from .conftest import ROOT


def prices_with(tmp_path: Path, old: str, new: str) -> Path:
    text = (ROOT / "data" / "prices.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "prices.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "utilization = 0.50",
            "utilization = 50",
            "assumption.utilization = 50 is not a fraction in (0, 1]: write 50% as 0.50",
        ),
        (
            "utilization_low = 0.30",
            "utilization_low = 0",
            "assumption.utilization_low = 0 is not a fraction in (0, 1]: write 50% as 0.50",
        ),
        (
            "utilization = 0.50",
            "utilization = -0.5",
            "assumption.utilization = -0.5 is not a fraction in (0, 1]: write 50% as 0.50",
        ),
        (
            "b300_hour = 5.00",
            "b300_hour = -5.00",
            "price.b300_hour = -5 is not a price: write US dollars per GPU-hour, above 0",
        ),
        (
            "b200_hour = 5.00",
            "b200_hour = 0",
            "price.b200_hour = 0 is not a price: write US dollars per GPU-hour, above 0",
        ),
    ],
)
def test_out_of_range_refused(tmp_path: Path, old: str, new: str, message: str) -> None:
    path = prices_with(tmp_path, old, new)
    with pytest.raises(ManifestError) as exc:
        Prices.load(path)
    assert str(exc.value) == f"{path}: {message}"


def test_in_range_accepted(tmp_path: Path) -> None:
    path = prices_with(tmp_path, "utilization = 0.50", "utilization = 1")
    prices = Prices.load(path)
    assert prices.assumptions["utilization"] == 1.0
    assert prices.prices["b300_hour"] == 5.0
