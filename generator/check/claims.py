"""Claims: every number an article prints, what it is and which official rows it rests on.

A claim printed by a placeholder knows its rows from its figure. A number typed by hand
(a press release, a third party's post) is read with its unit and scale ("5.75 million
tokens per second", "14,211 per GPU", "2.5×", "37.9%") and matched against the official
rows of the rounds the article names: a system result, a per-accelerator value, or a
ratio or percentage between two rows of one benchmark and scenario.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from generator.article.figures import DERIVED_KINDS, Figure
from generator.article.render import Rendered
from generator.check.document import Block, Document, Sentence
from generator.check.vocabulary import ACCELERATOR, PER_ACCELERATOR, PRODUCT_WORDS
from generator.data.row import Row

#: figure kinds that compare two or more rows
COMPARISON_KINDS = {"ratio", "pct", "scaling", "break_even", "spread", "difference"}
RESULT_KINDS = {"result", "per_gpu", "median"}

_SCALE = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9}
NUMBER = re.compile(
    r"(?<![\w.,/\-])(?P<sign>[-+−])?(?P<cur>\$)?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<scale>\s?(?:thousand|million|billion|mn|bn)\b|[KM]\b|k\b(?=\s*(?:output\s+)?(?:tokens?|samples?|queries|QPS|TPS|tok/s|tokens/s)))?"
    r"(?P<suffix>\s?(?:×|x(?![\w])|%|\s?percent\b|\s?times\b|-fold\b))?"
    r"(?![\w\-]*\d)(?![A-Za-z])(?!-[A-Za-z])(?![.,]\d)"
)
THROUGHPUT_UNIT = re.compile(
    # no "frames": no MLPerf® result is in frames per second; "at 30 frames per second" is a camera's rate
    r"^\s*(?:output\s+|generated\s+)?(?:tokens?|samples?|queries|inferences?|images?)"
    r"(?:\s*/\s*s(?:ec(?:ond)?)?|\s+(?:per|a|each)\s+second|\s*per\s*sec)\b|^\s*(?:QPS|TPS|tok/s|tokens/sec)\b",
    re.I,
)
ENTRY_ID = re.compile(r"(?<![\w.])(\d+\.\d+)-(\d{4,5})(?![\w])")


@dataclass
class Claim:
    """One printed number (or entry ID) and what it rests on."""

    text: str
    value: float
    kind: str  # a figure kind, or for typed numbers: result, per_gpu, ratio, pct, count, number, entry
    rows: tuple[Row, ...]
    block: Block
    index: int  # where it is printed, in the block's text
    typed: bool = False
    figure: Figure | None = None
    unit: str = ""  # "throughput", "per_gpu", "ratio", "pct", "money", ""
    basis: tuple[str, ...] = ()
    unverified: bool = False
    candidates: list[str] = field(default_factory=list)  # why a typed number matched nothing
    nearest: float = math.nan  # the official value closest to a typed number that matched none
    tol: float = 0.5  # half a unit of the last printed digit (typed numbers)
    misattributed: tuple[str, ...] = ()  # entries its sentence cites, which do not give the value
    suffix: str = ""  # ×, %, times (typed numbers)
    cited: tuple[str, ...] = ()  # entries its footnotes cite (a typed number that matched nothing)
    sides: tuple[Claim, ...] = ()  # the printed numbers a typed ratio or percentage relates

    @property
    def sentence(self) -> Sentence:
        return self.block.sentence_at(self.index)

    @property
    def derived(self) -> bool:
        return self.kind in DERIVED_KINDS or any(k in DERIVED_KINDS for k in self.basis)

    @property
    def comparison(self) -> bool:
        keys = {r.key for r in self.rows}
        return (
            self.kind in COMPARISON_KINDS
            and len(keys) >= 2
            and not any(k in COMPARISON_KINDS for k in self.basis)
        )

    @property
    def typed_value(self) -> bool:
        """A number typed by hand that may be a result: it has a results unit, or is too large
        for a count (an entry ID is not one)."""
        return (
            self.typed
            and self.kind != "entry"
            and (self.unit in ("throughput", "per_gpu") or abs(self.value) >= 1000)
        )

    @property
    def entries(self) -> set[str]:
        return {r.result_id for r in self.rows if r.result_id}

    def offset(self) -> int:
        return self.block.offset(self.index)


def figure_claims(doc: Document) -> list[Claim]:
    """The claims printed by placeholders, each attached to the block that shows it."""
    out: list[Claim] = []
    r: Rendered = doc.rendered
    for u in r.uses:
        if u.offset < 0:
            continue
        found = doc.block_at(u.offset)
        if found is None:  # a chart: its caption is the next block
            later = [b for b in doc.blocks if b.offsets and b.offsets[0] > u.offset]
            if not later:
                continue
            found = (later[0], 0)
        block, index = found
        f = u.figure
        unit = {
            "ratio": "ratio",
            "pct": "pct",
            "scaling": "pct",
            "spread": "pct",
            "per_gpu": "per_gpu",
            "power": "power",  # measured system power (power(...)): no throughput
        }.get(f.kind, "")
        out.append(
            Claim(
                u.text,
                float(f.value),
                f.kind,
                tuple(f.entries),
                block,
                index,
                figure=f,
                unit=unit,
                basis=tuple(f.basis),
                unverified=bool(getattr(f, "stated_by", "")) and "unverified" in f.formula.lower(),
            )
        )
    return out


def parse_number(m: re.Match[str]) -> tuple[float, float, str]:
    """(value, tolerance, suffix) of a matched number: the tolerance is half its last printed digit."""
    num = m.group("num").replace(",", "")
    value = float(num)
    decimals = len(num.split(".")[1]) if "." in num else 0
    scale = _SCALE.get((m.group("scale") or "").strip().lower(), 1.0)
    tol = 0.5 * 10 ** (-decimals) * scale
    suffix = (m.group("suffix") or "").strip().lower()
    if m.group("sign") in ("-", "−"):
        value = -value
    return value * scale, tol, suffix


def typed_numbers(doc: Document, block: Block) -> list[tuple[re.Match[str], int]]:
    """Numbers typed by hand in a block: only in text the template itself holds."""
    r = doc.rendered
    out = []
    phones = [p.span() for p in PHONE.finditer(block.text)] if "0" in block.text or "+" in block.text else []
    for m in NUMBER.finditer(block.text):
        off = block.offset(m.start("num"))
        if r.sourcemap.segments and r.sourcemap.kind(off) != "text":
            continue
        if any(a <= m.start("num") < b for a, b in phones):
            continue  # "Call 0800 555 0199": a telephone number's groups are no numbers
        out.append((m, m.start()))
    return out


#: a telephone number: "+44 20 7946 0958", "0800 555 0199", "(030) 555 0123"
PHONE = re.compile(
    r"\+\d{1,3}(?:[\s-]\(?\d{1,5}\)?){2,5}|(?<![\w.,])0\d{2,4}(?:[\s.-]\d{2,5}){2,4}(?![.,]?\d)"
    r"|\(\d{2,5}\)\s?\d{2,5}(?:[\s.-]\d{2,5}){1,3}"
)


POWER_UNIT = re.compile(r"^\s*(?:[kMG]?W|[kMG]?Wh|watts?|kilowatts?|megawatts?|joules?|J)\b")
PER_POWER = re.compile(r"^\s*(?:per|/)\s*(?:[kM]?W|watt|joule|J|kWh)\b", re.I)
AFTER_UNIT_PER_GPU = re.compile(
    rf"^\s*(?:{PER_ACCELERATOR}|(?:for\s+)?each\s+{PRODUCT_WORDS}{ACCELERATOR}\b|a\s+{ACCELERATOR}\b)", re.I
)
BEFORE_PER_GPU = re.compile(
    PER_ACCELERATOR
    + r"\s*(?:throughputs?|values?|figures?|rates?|results?|numbers?|scores?|performance)?\s*(?:of|is|was|are|were|at|to|from|reached|rose to)?\s*$",
    re.I,
)


LATENCY_UNIT = re.compile(
    r"^\s*(?:ms|milliseconds?|s|secs?|seconds?)(?:\s+(?:per|a|each)\s+(?:sample|query|image|clip|video|request))?\b(?!\s*(?:per|/)\s*(?:k?W|watt|joule))",
    re.I,
)
_PER_GPU_LEAD = re.compile(PER_ACCELERATOR + r"[^\d]*$", re.I)
#: product names and sizes, whose digits are not numbers: "B300", "NVL72", "8-GPU", "4x"
_PRODUCT = re.compile(r"\b(?=\w*\d)(?=\w*[A-Za-z])\w+\b|\b\d+-[A-Za-z][\w-]*")
#: a number with its unit right before "per GPU": the "per GPU" qualifies that number
_QUALIFIES = re.compile(r"(?<![\d,.])\d(?:[\d,.]*\d)?\s*(?:[A-Za-z/]+\s*){0,3}$")


_VERSION = re.compile(r"\bv\d+(?:\.\d+)+\b")


class _Lead:
    """'per GPU' earlier in the sentence with no number in between (product names may hold
    digits), which does not qualify an earlier number ("15,990 tokens/s per GPU, from ...")."""

    @staticmethod
    def search(lead: str) -> bool:
        text = _PRODUCT.sub("w", _VERSION.sub("w", lead))  # "Per GPU, our v6.1 Server result is"
        m = _PER_GPU_LEAD.search(text)
        return m is not None and not _QUALIFIES.search(text[: m.start()])


PER_GPU_LEAD = _Lead()
TOTAL_BEFORE = re.compile(
    r"\b(total|in all|aggregate|system result|whole system|per system|per server|per rack)\b[^\d]{0,30}$",
    re.I,
)


#: "a factor of 48", "by a factor of about 30"
FACTOR_BEFORE = re.compile(
    r"\bfactor\s+of\s+(?:about\s+|roughly\s+|around\s+|nearly\s+|almost\s+|some\s+|~\s*)?$", re.I
)
#: an amount of money in a currency's code: "NOK 41 billion", "EUR 3.2 million"
CURRENCY_BEFORE = re.compile(r"\b(?:USD|EUR|GBP|NOK|SEK|DKK|CHF|JPY|CNY|RMB|KRW|INR|CAD|AUD|TWD|SGD|HKD)\s?$")


def unit_of(block: Block, m: re.Match[str], suffix: str) -> str:
    """What a typed number measures, from the words right around it."""
    after = block.text[m.end() : m.end() + 60]
    before = block.text[max(0, m.start() - 50) : m.start()]
    if m.group("cur") or CURRENCY_BEFORE.search(before):
        return "money"
    if suffix in ("×", "x", "times", "-fold") or FACTOR_BEFORE.search(before):
        return "ratio"
    if suffix in ("%", "percent"):
        return "pct"
    if POWER_UNIT.match(after):
        return "power"
    unit = THROUGHPUT_UNIT.match(after)
    if unit:
        rest = after[unit.end() :]
        if PER_POWER.match(rest):
            return "power"
        s = block.sentence_at(m.start())
        lead = block.text[s.start : m.start()]
        if AFTER_UNIT_PER_GPU.match(rest) or BEFORE_PER_GPU.search(before):
            return "per_gpu"
        total = TOTAL_BEFORE.search(before)
        if PER_GPU_LEAD.search(lead) and (total is None or PER_GPU_LEAD.search(before[total.end(1) :])):
            # "Per GPU, that is 10,267 tokens per second"; "... is a system total; per GPU it comes to 11,229"
            return "per_gpu"
        return "throughput"
    latency = LATENCY_UNIT.match(after)
    if latency:  # "14 ms" or "14 seconds": the rows' latencies are in one or the other
        return "latency_ms" if latency.group(0).strip().lower().startswith("m") else "latency_s"
    if AFTER_UNIT_PER_GPU.match(after) or BEFORE_PER_GPU.search(before):
        return "per_gpu"
    return ""


def entry_claims(doc: Document, block: Block, rows_by_id: Mapping[str, list[Row]]) -> list[Claim]:
    """Entry IDs typed in the text: citations of every row of that entry."""
    out = []
    smap = doc.rendered.sourcemap
    for m in ENTRY_ID.finditer(block.text):
        if smap.segments and smap.kind(block.offset(m.start())) != "text":
            continue  # printed by a placeholder: a figure claim already
        rows = tuple(rows_by_id.get(m.group(0), ()))
        out.append(Claim(m.group(0), math.nan, "entry", rows, block, m.start(), typed=True))
    return out
