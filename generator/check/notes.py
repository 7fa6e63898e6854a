"""Footnotes and their markers, in every style editors use.

* the generator's own: markers ``[^\\[1\\]](#mlperf-fn-1)`` and a numbered list of notes
  carrying ``<a id="mlperf-fn-1">``;
* Markdown footnotes: ``[^1]`` in the text, ``[^1]: ...`` definitions;
* the guidelines' plain style: "[1]" (or "^[1]", or "¹") in the text, and a note that
  starts with "[1]" or "1." at the end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from generator.article.sourcemap import EXPR
from generator.check.document import Block, Document
from generator.check.vocabulary import ENTRY

GENERATED_MARKER = re.compile(r"\[\^?\\\[(\d+)\\\]\]\(#mlperf-fn-(\d+)\)")
#: a Markdown footnote reference; "[^1]:" is a definition at the start of a line only ("the
#: following verified results[^1]:" refers to the note)
MD_MARKER = re.compile(r"\[\^([^\]\s]+)\](?!:)|(?<=\S)\[\^([^\]\s]+)\](?=:)")
BRACKET_MARKER = re.compile(
    r"(?<![\\\[_])\^?\[(\d{1,2})\](?![(:\w])"
)  # "tokens per second[1]", "results [1]"
SUPERSCRIPT = {"¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9"}
SUPER_MARKER = re.compile(r"(?<=[\w.,;:)%×”\"])([¹²³⁴⁵⁶⁷⁸⁹]+)")
#: a hand-written note's label: "[1]", "1.", "1)", "¹" (not a clause number "4.1 This ...")
NOTE_START = re.compile(r"^\s*(?:\[(\d{1,2})\]|(\d{1,2})[.)](?!\d)|([¹²³⁴⁵⁶⁷⁸⁹]))\s*")
CITATION_WORDS = re.compile(r"MLPerf|MLCommons|Retrieved|retrieved|\bentr(?:y|ies)\b|trademark", re.I)


@dataclass
class Note:
    label: str
    blocks: list[Block]
    style: str  # generated, markdown, plain, aside (a plain note citing no result: on method)
    generated: bool = False

    @property
    def text(self) -> str:
        return "\n".join(b.text for b in self.blocks)

    @property
    def raw(self) -> str:
        return "\n".join(b.raw for b in self.blocks)

    @property
    def entries(self) -> set[str]:
        return set(ENTRY.findall(self.text))

    @property
    def block(self) -> Block:
        return self.blocks[0]

    @property
    def cites_results(self) -> bool:
        """A note that cites MLPerf® results (not an aside, nor a note on method that mentions
        MLPerf®): it gives an entry or a retrieval, or names the suite with a division."""
        return bool(
            ENTRY.search(self.text)
            or re.search(r"\b[Rr]etrieved\b", self.raw)
            or (re.search(r"MLPerf", self.raw) and re.search(r"\b(?:Closed|Open)\b", self.raw))
        )


@dataclass
class Marker:
    label: str
    block: Block
    index: int  # in the block's text
    style: str


@dataclass
class Notes:
    notes: list[Note] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)

    def labels(self) -> set[str]:
        return {n.label for n in self.notes}

    def note(self, label: str) -> Note | None:
        """The note a marker's label points to."""
        return next((n for n in self.notes if n.label == label), None)

    def entries(self) -> set[str]:
        return {e for n in self.notes for e in n.entries}

    def text(self) -> str:
        return "\n".join(n.text for n in self.notes)

    def note_blocks(self) -> set[int]:
        return {id(b) for n in self.notes for b in n.blocks}


def _list_number(doc: Document, b: Block) -> str:
    """The number of an ordered-list item, read from the line it starts on."""
    md = doc.markdown
    start = md.rfind("\n", 0, b.offsets[0]) + 1
    m = re.match(r"\s*(\d{1,2})[.)]\s", md[start : b.offsets[0] + 1])
    return m.group(1) if m else ""


def find_notes(doc: Document) -> Notes:
    out = Notes()
    by_label: dict[str, Note] = {}
    for b in doc.blocks:
        if b.kind == "footnote":
            note = by_label.get(b.label)
            if note is None:
                note = by_label[b.label] = Note(b.label, [], "markdown", generated=b.generated)
                out.notes.append(note)
            note.blocks.append(b)
            continue
        gen = re.search(r'id="mlperf-fn-(\d+)"', b.raw)
        if gen:
            out.notes.append(Note(gen.group(1), [b], "generated", generated=True))
            continue
        m = NOTE_START.match(b.text)
        # a sidebar's note inside its box ("> [1] MLPerf® Inference v6.1 ..."): bracketed only
        boxed = b.kind == "quote" and m is not None and bool(m.group(1))
        if b.kind not in ("paragraph", "item") and not boxed:
            continue
        if not CITATION_WORDS.search(b.text):
            # "[2] How we compute per-GPU figures: ...": a note on method, if a marker points at it
            # or it ends the article (kept or dropped with the other plain notes below)
            if m is not None and m.group(1) and b.kind == "paragraph":
                out.notes.append(Note(m.group(1), [b], "aside", generated=b.generated))
            continue
        label = (m.group(1) or m.group(2) or SUPERSCRIPT.get(m.group(3) or "", "")) if m else ""
        if not label and b.kind == "item":
            label = _list_number(doc, b)
        if label and re.search(r"MLPerf|Retrieved|retrieved|entr(?:y|ies) \d", b.text):
            out.notes.append(Note(label, [b], "plain", generated=b.generated))
        elif m is not None and m.group(1) and b.kind == "paragraph":
            # "[2] Per-GPU throughput = ... ; not verified by MLCommons Association.": a note on
            # method that names MLCommons, no results note (kept or dropped as the asides are)
            out.notes.append(Note(m.group(1), [b], "aside", generated=b.generated))
    out.notes = _plain_notes_in_place(doc, out.notes)
    note_ids = out.note_blocks()
    smap = doc.rendered.sourcemap
    for b in doc.blocks:
        found = _markers(b, is_note=id(b) in note_ids)
        # "[2]" or "²" inside text a placeholder printed (a system name, say) is data, not a marker
        out.markers.extend(
            m
            for m in found
            if m.style != "plain" or not smap.segments or smap.kind(b.offset(m.index)) != EXPR
        )
    return out


def _plain_notes_in_place(doc: Document, notes: list[Note]) -> list[Note]:
    """Plain notes ("1. MLPerf® ...") that are notes: referenced by a marker of their label in the
    text, or at the end of the article (no prose of the author's after them). A numbered list of
    findings in the body that mentions MLPerf® ("1. AMD's MI355X ...") is not a list of notes."""
    plain = [n for n in notes if n.style in ("plain", "aside")]
    if not plain:
        return notes
    ids = {id(n.block) for n in plain}
    referenced = {
        m.label
        for b in doc.blocks
        if id(b) not in ids
        for m in _markers(b, is_note=False)
        if m.style == "plain"
    }
    last_prose = max(
        (
            k
            for k, b in enumerate(doc.blocks)
            if id(b) not in ids and not b.generated and b.kind != "footnote"
        ),
        default=-1,
    )
    keep = {
        id(n)
        for n in plain
        if n.label in referenced or doc.index(n.block) > last_prose or (_bracketed(n) and n.style == "plain")
    }
    return [n for n in notes if n.style not in ("plain", "aside") or id(n) in keep]


def _bracketed(n: Note) -> bool:
    """A note that opens with "[1]": written as a note, wherever it stands."""
    m = NOTE_START.match(n.block.text)
    return m is not None and bool(m.group(1))


def _markers(b: Block, *, is_note: bool) -> list[Marker]:
    out: list[Marker] = []
    if "[" not in b.raw and not any(ch in b.raw for ch in SUPERSCRIPT):
        return out  # every marker has a bracket, or is a superscript digit
    plain = b.raw
    if "mlperf-fn-" in b.raw:
        for m in GENERATED_MARKER.finditer(b.raw):
            out.append(Marker(m.group(2), b, m.start(), "generated"))
        plain = GENERATED_MARKER.sub(lambda m: " " * len(m.group(0)), b.raw)
    for m in MD_MARKER.finditer(plain):
        out.append(Marker(m.group(1) or m.group(2), b, m.start(), "markdown"))
    if is_note:
        return out
    for m in BRACKET_MARKER.finditer(plain):
        out.append(Marker(m.group(1), b, m.start(), "plain"))
    for m in SUPER_MARKER.finditer(b.raw):
        for ch in m.group(1):
            out.append(Marker(SUPERSCRIPT[ch], b, m.start(), "plain"))
    return out
