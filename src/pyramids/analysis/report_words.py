"""The words of the workbench's report (``pyramids.analysis.report``), English and French.

Every sentence, heading and column name is a catalogue entry ``report.<key>``
(``pyramids/texts/messages/<lang>/report.json``); ``text`` picks one and fills it in; the
functions below write numbers, intervals and p-values into those sentences and cells with the
catalogue's number formatter (``charts.num``, ``charts.pct``: decimal comma, thin no-break
spaces and a true minus in French).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pyramids.analysis.charts import num, pct
from pyramids.cli.i18n import catalogue
from pyramids.texts import message

SIGNIFICANCE = 0.05
"""The p-value below which the seat-advantage test counts as significant."""

text = catalogue("report")
"""``text(key, lang, **fields)``: the catalogue entry ``report.<key>`` in ``lang`` (English if
missing), filled with ``fields``."""


# --- numbers in words ------------------------------------------------------------------------


def interval_text(ci: Sequence[float | None] | None, lang: str, fmt: Callable[[float], str]) -> str:
    """An interval's text: ``59.4–63.7%``, ``−5.5 to +3.1`` (signed ends), ``–`` when absent."""
    if not ci or ci[0] is None or ci[1] is None:
        return "–"
    low, high = fmt(ci[0]), fmt(ci[1])
    percent = message("number.percent", lang, n="")
    if low.endswith(percent) and high.endswith(percent):
        low = low[: -len(percent)]
    if low.startswith(("+", "−")) or high.startswith(("+", "−")):
        return text("to", lang, a=low, b=high)
    return f"{low}–{high}"


def ci_text(ci: Sequence[float | None] | None, lang: str, fmt: Callable[[float], str]) -> str:
    """``95%: 59.4–63.7%``: an interval for a sentence."""
    return text("ci", lang, range=interval_text(ci, lang, fmt))


def pct_ci(ci: Sequence[float | None] | None, lang: str) -> str:
    """``95%: 59.4–63.7%``: a rate's interval for a sentence."""
    return ci_text(ci, lang, lambda v: pct(v, lang))


def cell_pct(value: float | None, ci: Sequence[float | None] | None, lang: str) -> str:
    """``61.6% (59.4–63.7%)``: a table cell with a rate and its interval."""
    return f"{pct(value, lang)} ({interval_text(ci, lang, lambda v: pct(v, lang))})"


def cell(
    value: float | None,
    ci: Sequence[float | None] | None,
    lang: str,
    digits: int = 1,
    *,
    sign: bool = False,
    scale: float = 1.0,
) -> str:
    """``49.2 (48.1–50.3)``: a table cell with a number and its interval."""

    def fmt(v: float) -> str:
        return num(v * scale, lang, digits, sign=sign)

    return f"{'–' if value is None else fmt(value)} ({interval_text(ci, lang, fmt)})"


def share(value: float | None, lang: str) -> str:
    """A fair share or chance 1/P: ``50%``, ``33.3%`` (no needless ``.0``)."""
    if value is not None and abs(100 * value - round(100 * value)) < 1e-9:
        return pct(value, lang, 0)
    return pct(value, lang)


def p_text(p: float | None, lang: str) -> str:
    """``p < 0.001`` or ``p = 0.18`` (decimal comma in French)."""
    if p is None:
        return "p –"
    if p < 0.001:
        return f"p < {num(0.001, lang, 3)}"
    digits = 2 if p >= 0.01 else 3
    return f"p = {num(p, lang, digits)}"


def span(values: Sequence[float], lang: str, fmt: Callable[[float], str]) -> str:
    """One value, or ``lowest to highest`` when they differ."""
    if not values:
        return "–"
    low, high = fmt(min(values)), fmt(max(values))
    return low if low == high else text("to", lang, a=low, b=high)


def excludes(ci: Sequence[float | None] | None, value: float) -> bool:
    """Whether the interval ``ci`` lies wholly on one side of ``value`` (a significant effect)."""
    if not ci or ci[0] is None or ci[1] is None:
        return False
    return bool(ci[0] > value or ci[1] < value)


def plural(word: str, lang: str) -> str:
    """A noun's plural by the regular rule of both languages (``tile``/``tiles``, ``tuile``/``tuiles``)."""
    return word if word.endswith(("s", "x", "z")) else f"{word}s"


def int_text(value: object) -> str:
    return "–" if value is None else str(value)


def upper_first(value: str) -> str:
    return value[:1].upper() + value[1:]
