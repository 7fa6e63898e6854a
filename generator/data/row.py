"""One official result row, as articles, figures and the checker read it (no pandas needed:
the template sandbox imports it in a process that compiles templates ahead)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True, slots=True)
class Row:
    """One official result row, normalized (see :data:`generator.data.results.COLUMNS`)."""

    round: str
    result_id: str
    submitter: str
    system: str
    platform: str
    division: str
    category: str
    suite: str
    benchmark: str
    scenario: str
    accelerator: str
    family: str
    heterogeneous: bool
    nodes: int
    total_accelerators: float
    result: float
    units: str
    higher_is_better: bool
    per_accelerator: float
    software: str
    weight_data_types: str
    inferred: bool
    has_power: bool
    #: the measured MLPerf(R) power of the row (NaN where it has none) and its unit: ``W``
    #: (system power: Offline, Server, Interactive) or ``mJ`` (energy per query or stream:
    #: SingleStream, MultiStream); "" where it has none. Not compared (nor hashed): the other
    #: fields name the row, and a NaN is unequal to itself (two copies of one row, read back in
    #: another process or from the rows cache, were unequal)
    power: float = field(compare=False)
    power_units: str = field(compare=False)
    source_file: str
    source_row: str

    @classmethod
    def from_series(cls, s: pd.Series) -> Row:
        return cls.from_record(s.to_dict())

    @classmethod
    def from_record(cls, rec: Mapping[Any, Any]) -> Row:
        return cls(**{k: _py(rec[k]) for k in cls.__dataclass_fields__})

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.round, self.result_id, self.benchmark, self.scenario)

    @property
    def gpus(self) -> int:
        return int(self.total_accelerators) if self.total_accelerators == self.total_accelerators else 0


def _py(v: Any) -> Any:
    if hasattr(v, "item"):
        return v.item()
    return v
