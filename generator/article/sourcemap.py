"""Where each piece of a rendered article came from in its template.

Rendering yields the output piece by piece: literal text typed in the template, and
the output of each ``{{ placeholder }}``. Every piece keeps its origin (file line
and column), so any character of the rendered Markdown maps back to the line and
column an editor must change, and the checker can tell typed prose from printed
figures and from generated blocks (footnotes, compliance paragraph, provenance).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from types import CodeType
from typing import Any

TEXT, EXPR, GENERATED = "text", "expr", "generated"

_LITERAL_YIELD = re.compile(r"^\s*yield (?:'|\")")
_EXPR_YIELD = re.compile(r"^\s*yield (?!from\b)")
_JINJA_BLOCKS = re.compile(r"\{#.*?#\}|\{%.*?%\}", re.S)


@dataclass
class Chunk:
    """One piece of output with its origin."""

    text: str
    line: int
    col: int
    kind: str  # TEXT, EXPR or GENERATED
    uses: tuple[int, int] = (0, 0)  # indices of the figure uses it printed


@dataclass(frozen=True)
class Segment:
    start: int
    end: int
    line: int
    col: int
    kind: str


class SourceMap:
    """Offsets of the rendered Markdown mapped to template positions."""

    def __init__(self, segments: list[Segment]) -> None:
        self.segments = segments
        self._starts = [s.start for s in segments]

    @classmethod
    def from_chunks(cls, chunks: list[Chunk]) -> SourceMap:
        segs, pos = [], 0
        for c in chunks:
            if c.text:
                segs.append(Segment(pos, pos + len(c.text), c.line, c.col, c.kind))
                pos += len(c.text)
        return cls(segs)

    def segment(self, offset: int) -> Segment | None:
        i = bisect.bisect_right(self._starts, offset) - 1
        if i < 0:
            return None
        s = self.segments[i]
        return s if offset < s.end else None

    def kind(self, offset: int) -> str:
        s = self.segment(offset)
        return s.kind if s else GENERATED

    def position(self, offset: int, markdown: str) -> tuple[int, int]:
        """Template (line, column) of the rendered character at *offset*."""
        s = self.segment(offset)
        if s is None:
            return (0, 0)
        if s.kind != TEXT:
            return (s.line, s.col)
        before = markdown[s.start : offset]
        n = before.count("\n")
        if n == 0:
            return (s.line, s.col + len(before))
        return (s.line + n, len(before) - before.rfind("\n"))


class Origins:
    """The template position of every ``yield`` of a compiled template's code."""

    def __init__(self, python_source: str, code: CodeType, template: Any, source: str) -> None:
        self.filename = code.co_filename
        self.template = template
        self.source = source
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", source)]
        # jinja parses its debug info again on every get_corresponding_lineno (a fifth of a second
        # of rendering the reference article): parsed once here, looked up by bisection
        info = template.debug_info
        self._code_lines = [py for _, py in info]
        self._template_lines = [line for line, _ in info]
        self._sorted = self._code_lines == sorted(self._code_lines)
        self.kinds: dict[int, str] = {}
        expr_lines: dict[int, list[int]] = {}
        for n, text in enumerate(python_source.splitlines(), start=1):
            if _LITERAL_YIELD.match(text):
                self.kinds[n] = TEXT
            elif _EXPR_YIELD.match(text):
                self.kinds[n] = EXPR
                expr_lines.setdefault(self.template_line(n), []).append(n)
        self.expr_cols: dict[int, int] = {}
        for line, pylines in expr_lines.items():
            cols = self._placeholder_columns(line)
            for k, py in enumerate(sorted(pylines)):
                self.expr_cols[py] = cols[k] if k < len(cols) else (cols[-1] if cols else 1)
        self._literal_pos: dict[tuple[int, str], tuple[int, int]] = {}

    def template_line(self, pyline: int) -> int:
        """The template line of a line of the compiled code (jinja's ``get_corresponding_lineno``)."""
        if not self._sorted:  # never seen: jinja writes its debug info in code order
            return int(self.template.get_corresponding_lineno(pyline))
        i = bisect.bisect_right(self._code_lines, pyline)
        return self._template_lines[i - 1] if i else 1

    def _placeholder_columns(self, line: int) -> list[int]:
        if not 1 <= line <= len(self.line_starts):
            return []
        start = self.line_starts[line - 1]
        end = self.source.find("\n", start)
        text = self.source[start : end if end != -1 else len(self.source)]
        masked = _JINJA_BLOCKS.sub(lambda m: " " * len(m.group(0)), text)
        return [m.start() + 1 for m in re.finditer(r"\{\{", masked)]

    def _literal(self, pyline: int, piece: str) -> tuple[int, int]:
        key = (pyline, piece)
        if key not in self._literal_pos:
            line = self.template_line(pyline)
            start = self.line_starts[max(0, min(line, len(self.line_starts)) - 1)]
            at = self.source.find(piece, start)
            if at == -1:
                at = self.source.find(piece)
            if at == -1:
                self._literal_pos[key] = (line, 1)
            else:
                ln = bisect.bisect_right(self.line_starts, at)
                self._literal_pos[key] = (ln, at - self.line_starts[ln - 1] + 1)
        return self._literal_pos[key]

    def of(self, gen: Any, piece: str) -> tuple[int, int, str]:
        """(line, column, kind) of the piece the template generator *gen* just yielded."""
        chain = list(_frames(gen))
        ours = [f for f in chain if f.f_code.co_filename == self.filename]
        if not ours:
            return (0, 0, EXPR)
        frame = ours[-1]
        py = frame.f_lineno
        kind = self.kinds.get(py, EXPR) if frame is chain[-1] else EXPR  # else: from an include
        if kind == TEXT:
            line, col = self._literal(py, piece)
            return (line, col, TEXT)
        return (self.template_line(py), self.expr_cols.get(py, 1), EXPR)


def _frames(gen: Any) -> Any:
    """The frames of a chain of ``yield from`` generators, outermost first."""
    while gen is not None:
        frame = getattr(gen, "gi_frame", None)
        if frame is not None:
            yield frame
        gen = getattr(gen, "gi_yieldfrom", None)
