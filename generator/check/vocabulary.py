"""What a piece of prose names: rounds, benchmarks, scenarios, categories, divisions,
chip counts, entries and submitters, read the way editors write them.

A comparison's disclosure, a superlative's scope and a typed number's match all ask
the same question of a sentence: which of these does it name? Bare digits inside
product names ("NVL72", "B300", "70B") never count as chip counts.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from generator.data.manifest import Manifest
from generator.lazy import lazy_pattern

_UNITS = [
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
]  # fmt: skip
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
WORD_NUMBERS = {**{w: i for i, w in enumerate(_UNITS, 1)}, **{t: 20 + 10 * i for i, t in enumerate(_TENS)}}
WORD_NUMBERS.update(single=1, dual=2)
_BELOW_100 = (
    rf"(?:(?:{'|'.join(_TENS)})(?:[- ](?:{'|'.join(_UNITS[:9])})\b)?|"
    rf"{'|'.join(sorted(_UNITS, key=len, reverse=True))})"
)
_HUNDREDS = rf"(?:(?:{'|'.join(_UNITS[:9])}|a) hundred(?:(?: and)? {_BELOW_100})?)"
#: a number written in words up to the thousands ("seventy-two", "seventy two", "two hundred
#: eighty-eight", "one thousand and twenty-four"), "single", "dual": the longest form first, so
#: "seventy-two" is read whole, never as "two", and "two hundred eighty-eight" never as "eighty-eight"
NUMBER_WORD = rf"(?:{_BELOW_100} thousand(?:(?: and)? (?:{_HUNDREDS}|{_BELOW_100}))?|{_HUNDREDS}|{_BELOW_100}|single|dual)"


def word_number(text: str) -> int:
    """``"seventy-two"`` -> 72, ``"eight"`` -> 8, ``"two hundred eighty-eight"`` -> 288 (a
    :data:`NUMBER_WORD`)."""
    total = current = 0
    for part in re.split(r"[- ]+", text.strip().lower()):
        if part == "hundred":
            current = max(current, 1) * 100
        elif part == "thousand":
            total, current = total + current * 1000, 0
        elif part != "and":
            current += 1 if part == "a" else WORD_NUMBERS[part]
    return total + current


def count_of(text: str) -> int:
    """A count written in digits ("1,024") or in words ("seventy-two")."""
    return int(text.replace(",", "")) if text[0].isdigit() else word_number(text)


_GPU_NOUN = r"(?:GPUs?|accelerators?|chips?|devices?|NPUs?|TPUs?|cards?|processors?|sockets?)"
ACCELERATOR = r"(?:GPU|accelerator|chip|device|card|NPU|TPU)s?"
#: "per GPU", "per-GPU", "/GPU", and with the product named: "per B300 GPU", "per Instinct MI355X accelerator"
PRODUCT_WORDS = r"(?:(?-i:[A-Z][\w.+-]*)\s+){0,3}"
PER_ACCELERATOR = rf"(?:\bper[-\s]|/\s*){PRODUCT_WORDS}{ACCELERATOR}\b"
# a pattern whose every alternative starts with a lookbehind or "\b" is tried in full at every
# position of a text; a leading lookahead for its first character ("(?=\d)") rejects most
# positions at once (the same matches, several times faster)
#: "eight of the same GPUs", "four of those cards"
_SAME = r"(?:of\s+(?:the\s+)?(?:same|these|those|its|their)\s+)"
#: up to three words of a product name between a count and its noun ("8 B300 GPUs", "eight RTX
#: PRO 6000 GPUs"): capitalised words, or a model number
_PRODUCT = r"(?:(?!Per\b)(?-i:[A-Z][\w-]*)\s+|\d{3,5}\s+)"  # not "Per": "6 Per GPU" is a rate's
#: one count of a list, atomic: "1,024" is one count, never re-read as "1" and "024" (a run of
#: comma-joined digit groups read both ways took time exponential in its length)
_NUM = rf"(?>\d{{1,3}}(?:,\d{{3}})+(?!\d)|\d+|{NUMBER_WORD})"
CHIP_COUNT = [
    lazy_pattern(
        rf"(?=\d)(?<![\w.,/])(\d{{1,3}}(?:,\d{{3}})*|\d+)(?:\s+|-){_SAME}?{_PRODUCT}{{0,3}}{_GPU_NOUN}\b"
    ),
    # not inside a system's name: "1-node-4x-BMG-B70", "1-node-2S-GNR_128C"
    lazy_pattern(rf"(?=\d)(?<![\w.,])(\d+)-(?:{_GPU_NOUN}|way|node)\b(?!-\w)", re.I),
    re.compile(r"(?=\d)(?<![\w.,])(\d+)\s?[x×]\s?(?=[A-Z])"),
    lazy_pattern(
        rf"(?=[{''.join(sorted({w[0] for w in WORD_NUMBERS}))}])\b({NUMBER_WORD})(?:\s+|-){_SAME}?{_PRODUCT}{{0,3}}{_GPU_NOUN}\b",
        re.I,
    ),
    re.compile(r"\b(?:at|of|from|to|with|versus|vs\.?|against)\s+(\d{1,3}(?:,\d{3})+|\d+)(?![\w.,%×])"),
]
#: a list of counts sharing one noun: "with four, five and eight GPUs", "4, 8 or 16 GPUs"; at most
#: seventeen counts, so a long run of comma-joined words or digits is read in linear time
CHIP_COUNT_LIST = lazy_pattern(
    rf"(?<![\w.,])({_NUM}(?:\s*,\s*{_NUM}){{0,15}})\s*,?\s+(?:and|or)\s+{_NUM}(?:\s+|-){_PRODUCT}{{0,3}}{_GPU_NOUN}\b",
    re.I,
)
#: an all-capital word right before a number: "RTX PRO 6000 GPUs" names a product, not 6000 GPUs
_MODEL_BEFORE = re.compile(r"(?-i:\b[A-Z]{2,})\s+$")
SCENARIOS = {
    "Server": re.compile(r"\bServer\b"),
    "Offline": re.compile(r"\b[Oo]ffline\b"),
    "Interactive": re.compile(r"\bInteractive\b"),
    "SingleStream": re.compile(r"\b[Ss]ingle[- ]?[Ss]tream\b"),
    "MultiStream": re.compile(r"\b[Mm]ulti[- ]?[Ss]tream\b"),
}
_CAT_NOUN = r"(?:category|categories|system|systems|row|rows|hardware|submission|submissions|result|results|part|parts|platforms?)"
CATEGORIES = {
    "available": lazy_pattern(
        rf"\bAvailable\b|\bavailable\s+{_CAT_NOUN}\b|\bgenerally available\b|\bshipping\b|"
        # "among the systems you can buy or rent today": what the Available category means
        rf"\b{_CAT_NOUN}\s+(?:that\s+)?(?:you|one|anyone|buyers?|customers?)\s+can\s+(?:buy|rent|order)(?:\s+or\s+(?:buy|rent|order))?\s+(?:today|now)\b"
    ),
    "preview": re.compile(rf"\bPreview\b|\bpreview\s+{_CAT_NOUN}\b|\bpre-?release\b"),
    "rdi": re.compile(r"\bRDI\b|\bresearch,? development,? (?:or|and) internal\b|\bR&D\b", re.I),
}
DIVISIONS = {
    "closed": re.compile(r"\bClosed\b|\bclosed division\b"),
    "open": re.compile(r"\bOpen\b(?!\s+(?:source|weights?|AI|models?)\b)|\bopen division\b"),
}
ROUND = lazy_pattern(
    r"(?=[vIrM])(?:(?:(?<![\w.])v|\bInference\s+v?|\bInference®?\s+v?|\bround\s+v?|\brounds\s+v?|\bversion\s+|\bMLPerf®?\s+v?)(\d+\.\d+)(?![\d\-])"
    r"|(?<![\w.])v(\d+\.\d+)(?![\d\-]))"
)
ENTRY = re.compile(r"(?<![\w.])\d+\.\d+-\d{4,5}(?!\w)")
UNVERIFIED = re.compile(r"\bunverified\b|\bnot (?:been )?verified\b|\bnot reviewed by MLCommons\b", re.I)
_BENCH_EXTRA = {
    "gpt-oss-120b": ["gpt oss 120b", "gpt-oss 120b", "gptoss120b"],
    "deepseek-r1": ["deepseek r1", "deepseekr1"],
    "qwen3-vl-235b-a22b": ["qwen3-vl", "qwen3 vl", "qwen 3 vl", "qwen3vl"],
    "wan-2.2-t2v-a14b": ["wan 2.2", "wan2.2", "wan-2.2"],
    "resnet": ["resnet-50", "resnet50", "resnet 50", "resnet"],
    "stable-diffusion-xl": ["sdxl", "stable diffusion xl", "stable-diffusion-xl"],
    "rgat": ["r-gat", "rgat"],
    "mixtral-8x7b": ["mixtral 8x7b", "mixtral-8x7b", "mixtral"],
    "e2e-rag-db": ["end-to-end rag", "e2e rag"],
    "e2e-rag-qna": ["end-to-end rag", "e2e rag"],
    "yolo-95": ["yolo"],
    "yolo-99": ["yolo"],
    "pointpainting": ["pointpainting", "point painting"],
    "3d-unet-99": ["3d-unet", "3d u-net", "3d unet"],
    "3d-unet-99.9": ["3d-unet", "3d u-net", "3d unet"],
}


NOT_NAMES = {
    "the", "inc", "llc", "ltd", "technologies", "technology", "industries", "cloud", "sit", "stage",
    "inference", "overflow", "university", "florida",
}  # fmt: skip


def family_of(benchmark: str) -> str:
    """A benchmark without its accuracy target: ``llama2-70b-99.9`` → ``llama2-70b``."""
    return re.sub(r"-(?:99\.9|99|95)$", "", benchmark).removesuffix("-edge")


def variant_of(benchmark: str) -> str:
    m = re.search(r"-(99\.9|99|95)$", benchmark)
    return m.group(1) if m else ""


def _spelling_parts(name: str) -> list[str]:
    return [p for p in re.split(r"[\s\-_.]+|(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])", name.lower()) if p]


def _spelling_pattern(name: str) -> str:
    """A pattern for a benchmark name that tolerates spaces, hyphens and dots between its parts."""
    return r"[\s\-_.]?".join(re.escape(p) for p in _spelling_parts(name))


VARIANT_AFTER = re.compile(r"[\s\-_(]*+(?:at\s+)?(99\.9|99|95)\s*(?:%|percent|\b)")
#: texts read at most once per process (the same sentence is read by several rules)
_READ_CACHE_SIZE = 4096


@dataclass
class Mentions:
    """What a text names."""

    rounds: set[str] = field(default_factory=set)
    benchmarks: set[str] = field(default_factory=set)  # benchmark keys (every variant of a named family)
    variants: set[str] = field(default_factory=set)  # accuracy targets named: "99", "99.9"
    scenarios: set[str] = field(default_factory=set)
    categories: set[str] = field(default_factory=set)
    divisions: set[str] = field(default_factory=set)
    chips: set[int] = field(default_factory=set)
    strict_chips: set[int] = field(default_factory=set)  # only counts written with a GPU noun or "8x"
    entries: set[str] = field(default_factory=set)
    unverified: bool = False
    families: set[str] = field(default_factory=set)  # accelerator families named: "GB300", "MI355X"


class Vocabulary:
    """Reads names out of prose, for the benchmarks this project knows."""

    def __init__(self, manifest: Manifest, benchmarks: set[str] | frozenset[str]) -> None:
        self.manifest = manifest
        self.benchmarks = sorted(benchmarks | set(manifest.rules.benchmarks))
        self._read: dict[str, Mentions] = {}
        self._names: dict[str, list[tuple[re.Match[str], set[str]]]] = {}
        self._log: dict[str, Mentions] | None = None

    @cached_property
    def _bench_patterns(self) -> list[tuple[re.Pattern[str], set[str], str]]:
        """One pattern per spelling, with a literal every match holds (lower case); a spelling
        names every accuracy variant of its family."""
        by_spelling: dict[str, set[str]] = {}
        anchors: dict[str, str] = {}
        for key in self.benchmarks:
            fam = family_of(key)
            rule = self.manifest.rules.benchmarks.get(key)
            names = {fam, *(_BENCH_EXTRA.get(key, [])), *(rule.aliases if rule else ())}
            if rule:
                names.add(family_of(rule.name.lower()))
            family = {k for k in self.benchmarks if family_of(k) == fam}
            for n in names:
                pattern = _spelling_pattern(family_of(n))
                by_spelling.setdefault(pattern, set()).update(family)
                # a name's longest part: every part is in a text the pattern matches
                anchors[pattern] = max(_spelling_parts(family_of(n)) or [""], key=len)
        pats = sorted(by_spelling.items(), key=lambda kv: -len(kv[0]))
        return [(re.compile(rf"(?<![\w]){p}(?![a-z])", re.I), keys, anchors[p]) for p, keys in pats if p]

    @cached_property
    def _family_patterns(self) -> list[tuple[re.Pattern[str], str]]:
        return [
            (re.compile(rf"(?<!\w){re.escape(f.name)}(?!\w)"), f.name)
            for f in self.manifest.families.families
        ]

    def prepare(self) -> None:
        """Compile the patterns now, not on the first text read."""
        self._bench_patterns  # noqa: B018 - computed once, on access
        self._family_patterns  # noqa: B018

    def names(self, text: str) -> list[tuple[re.Match[str], set[str]]]:
        """Every benchmark name in *text*, with the benchmark keys it names (a pattern runs only
        when the text holds its literal)."""
        found = self._names.get(text)
        if found is None:
            low = text.lower()
            found = [
                (m, keys)
                for pat, keys, anchor in self._bench_patterns
                if anchor in low
                for m in pat.finditer(text)
            ]
            if len(self._names) >= _READ_CACHE_SIZE:
                self._names.clear()
            self._names[text] = found
        return found

    @staticmethod
    def submitter_words(text: str, names: set[str] | frozenset[str]) -> set[str]:
        """The submitter names (or parts of joint names: "Dell_AMD" gives "dell", "amd") a text mentions."""
        low = text.lower()
        words = {
            p.lower()
            for n in names
            for p in (n.replace("_", " "), *n.split("_"))
            if len(p) >= 3 and p.lower() not in NOT_NAMES
        }
        return {w for w in words if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", low)}

    def name_spans(self, text: str) -> list[tuple[int, int]]:
        """Where benchmark names stand in *text*: the digits inside them ("Llama 3.1 8B") are names."""
        spans = [(m.start(), m.end()) for m, _ in self.names(text)]
        for pat, name in self._family_patterns:
            if name in text:
                spans.extend((m.start(), m.end()) for m in pat.finditer(text))
        return spans

    def benchmarks_in(self, text: str) -> tuple[set[str], set[str]]:
        """Benchmark keys named in *text*, and the accuracy targets named right after a name."""
        found: set[str] = set()
        variants: set[str] = set()
        for m, keys in self.names(text):
            found |= keys
            v = VARIANT_AFTER.match(text, m.end(), m.end() + 24)
            if v:
                variants.add(v.group(1))
        return found, variants

    def read(self, text: str) -> Mentions:
        """What *text* names (shared: callers never change it)."""
        m = self._read.get(text)
        if m is None:
            if len(self._read) >= _READ_CACHE_SIZE:
                self._read.clear()
            m = self._read[text] = self._read_uncached(text)
        if self._log is not None:
            self._log[text] = m
        return m

    def seed(self, known: Mapping[str, Mentions]) -> None:
        """What texts read before name (by an earlier check, with this vocabulary): read again,
        they are not read anew."""
        for text, m in known.items():
            if len(self._read) >= _READ_CACHE_SIZE:
                break
            self._read.setdefault(text, m)

    def record(self) -> dict[str, Mentions]:
        """From now on, every text read (and what it names) is also put in the dict returned."""
        self._log = {}
        return self._log

    def _read_uncached(self, text: str) -> Mentions:
        m = Mentions()
        m.rounds = {a or b for a, b in ROUND.findall(text)}
        m.benchmarks, m.variants = self.benchmarks_in(text)
        m.scenarios = {s for s, p in SCENARIOS.items() if p.search(text)}
        m.categories = {c for c, p in CATEGORIES.items() if p.search(text)}
        m.divisions = {d for d, p in DIVISIONS.items() if p.search(text)}
        m.chips, m.strict_chips = _chip_counts(text)
        m.entries = set(ENTRY.findall(text))
        m.unverified = bool(UNVERIFIED.search(text))
        # the substring test first: a family's name is in few texts, and "in" costs far less than a search
        m.families = {name for name, p in self._accelerator_patterns if name in text and p.search(text)}
        return m

    @cached_property
    def _accelerator_patterns(self) -> list[tuple[str, re.Pattern[str]]]:
        """The accelerator families' names as words ("B300" is not read in "GB300")."""
        return [
            (f.name, re.compile(rf"(?<![\w-]){re.escape(f.name)}(?![\w])"))
            for f in self.manifest.families.families
        ]


PER_NODE = lazy_pattern(
    r"\b(?:nodes?|servers?|trays?|hosts?|blades?)\s+(?:of|with|each with)\s+$|"
    # "16 nodes, each with eight GPUs" (not "eight systems, each with eight GPUs": a system's count)
    r"\b(?:nodes?|servers?|trays?|hosts?|blades?)\b[^.;]{0,12}\beach (?:with )?$|\bper (?:node|server|tray|host)\s*$",
    re.I,
)


def chip_counts(text: str, *, strict: bool = False) -> set[int]:
    """Chip counts a text states: "8 GPUs", "72-GPU", "8x B300", "eight accelerators", and unless
    *strict*, a bare count after "at", "from", "to", "versus" ("288 accelerators ... at 72")."""
    every, counted = _chip_counts(text)
    return counted if strict else every


_HAS_COUNT = lazy_pattern(rf"\d|\b{NUMBER_WORD}\b", re.I)


def _chip_counts(text: str) -> tuple[set[int], set[int]]:
    """(every chip count, the strict ones) of :func:`chip_counts`, reading the text once."""
    every: set[int] = set()
    strict: set[int] = set()
    if not _HAS_COUNT.search(text):
        return every, strict
    last = len(CHIP_COUNT) - 1
    for k, pat in enumerate(CHIP_COUNT):
        for m in pat.finditer(text):
            before = text[max(0, m.start() - 24) : m.start()]
            if PER_NODE.search(before):
                continue  # "64 nodes of eight GPUs": a count per node, not the system's
            if k == 0 and len(m.group(1)) >= 3 and _MODEL_BEFORE.search(before):
                continue  # "RTX PRO 6000 GPUs": a model number
            n = count_of(m.group(1))
            if n:
                every.add(n)
                if k < last:
                    strict.add(n)
    for m in CHIP_COUNT_LIST.finditer(text):
        if re.search(r"(?:hundred|thousand)$", m.group(1), re.I):
            continue  # "five hundred and twelve GPUs": one number, not a list
        counts = {count_of(g) for g in re.split(r"\s*,\s*", m.group(1))} - {0}
        every |= counts
        strict |= counts
    return every, strict
