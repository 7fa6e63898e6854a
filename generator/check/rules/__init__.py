"""The rule families; importing this package registers every rule."""

from generator.check.rules import (  # noqa: F401 - imported for their registrations
    comparisons,
    footnotes,
    layout,
    marks,
    numbers,
    power,
    superlatives,
    timing,
    verification,
)
