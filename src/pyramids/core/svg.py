"""The SVG document around a game's drawing (the rules packages' ``svg`` modules).

Pure text, standard library only: escaped attributes and text, and the ``<svg>`` element
with its title and background, so that every game's drawing is a standalone, deterministic
SVG document that Jupyter shows (``_repr_svg_``) and a browser opens.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

BACKGROUND = "#fbf8f1"


def attrs(**values: object) -> str:
    """SVG attributes, escaped (``class_`` is written ``class``, ``_`` in a name as ``-``)."""
    return " ".join(
        f"{key.rstrip('_').replace('_', '-')}={quoteattr(str(value))}"
        for key, value in values.items()
    )


def svg_text(x: int, y: int, words: str, **values: object) -> str:
    """A <text> element holding ``words`` (escaped)."""
    return f"<text {attrs(x=x, y=y, **values)}>{escape(words)}</text>"


def seen_as(kind: str, player: int | None, who: Sequence[str]) -> str:
    """What a drawing shows, for its title: ``position``, ``public view``, ``view of seat 1``."""
    if kind != "view":
        return kind
    return "public view" if player is None else f"view of {who[player]}"


def document(width: int, height: int, title: str, body: Sequence[str]) -> str:
    """The standalone SVG document: ``title`` (escaped), a background, then ``body``."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" '
        f"{attrs(width=width, height=height, viewBox=f'0 0 {width} {height}')}"
        f' role="img" font-family="sans-serif">'
        f"<title>{escape(title)}</title>"
        f"<rect {attrs(width=width, height=height, fill=BACKGROUND)}/>" + "".join(body) + "</svg>"
    )
