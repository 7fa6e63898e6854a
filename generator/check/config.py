"""Configuration of the checker: severities per rule, the mark's settings, typed-number
patterns. Read from ``data/check.toml`` of the publication, or ``--config FILE``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from generator.check.registry import RULES, SEVERITIES
from generator.data.manifest import read_toml
from generator.errors import GpuInsightsError


@dataclass
class CheckConfig:
    severities: dict[str, str] = field(default_factory=dict)
    registered: str = "each"
    allowed_after: list[str] = field(default_factory=list)
    number_patterns: list[re.Pattern[str]] = field(default_factory=list)
    path: Path | None = None
    #: where the publication serves the rules reference (``[report] rules_url``): SARIF's helpUri
    rules_url: str = ""

    @classmethod
    def load(cls, path: Path) -> CheckConfig:
        if not path.exists():
            return cls(path=path)
        data = read_toml(path)  # not UTF-8, invalid or too deep: an error naming the file
        unknown = set(data) - {"severity", "mark", "numbers", "report"}
        if unknown:
            raise GpuInsightsError(
                f"{path}: unknown section(s) {', '.join(sorted(unknown))} (known: severity, mark, numbers, report)"
            )
        sev = {str(k): str(v) for k, v in data.get("severity", {}).items()}
        for code, level in sev.items():
            if code not in RULES:
                raise GpuInsightsError(f"{path}: severity: unknown rule {code!r}")
            if level not in SEVERITIES:
                raise GpuInsightsError(
                    f"{path}: severity: {code} = {level!r}, expected one of {', '.join(SEVERITIES)}"
                )
        mark = data.get("mark", {})
        numbers = data.get("numbers", {})
        try:
            patterns = [re.compile(p, re.M) for p in numbers.get("allowed_patterns", [])]
        except re.error as exc:
            raise GpuInsightsError(f"{path}: numbers: allowed_patterns: {exc}") from None
        rules_url = str(data.get("report", {}).get("rules_url", ""))
        if rules_url and not re.fullmatch(r"https?://[^\s#]+", rules_url):
            raise GpuInsightsError(
                f"{path}: report: rules_url = {rules_url!r}, expected an http(s) address without a #fragment"
            )
        return cls(
            severities=sev,
            registered=str(mark.get("registered", "each")),
            allowed_after=list(mark.get("allowed_after", [])),
            number_patterns=patterns,
            path=path,
            rules_url=rules_url,
        )

    def severity(self, code: str) -> str:
        return self.severities.get(code, RULES[code].severity)
