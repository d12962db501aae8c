"""Refusals shared by every game: unparseable text, illegal actions, inconsistent positions.

A refusal is a code and its facts, not a sentence: ``IllegalActionError("flaming.not_in_hand",
tile="R40", seat=0)``. Both engines (Python and the native core) raise the same code with the
same facts; the words live in the message catalogue (``pyramids.texts``) under
``refusal.<code>``, in every language the product speaks, so a French page shows a French
refusal. ``str(error)`` is the English sentence once ``pyramids.texts`` is loaded (it
installs the renderer with ``set_renderer``), else the code and the facts.

Codes are dotted: the game's short name (or ``core``, ``record``...) then a name in
snake case. Facts are JSON values (str, int, float, bool, None, lists), so they cross the
native boundary, the server's protocol and a pickle unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

Renderer = Callable[[str, Mapping[str, Any]], str]
"""``(code, data) -> English sentence``; raises KeyError/LookupError for an unknown code."""

_RENDERER: list[Renderer] = []


def set_renderer(renderer: Renderer | None) -> None:
    """Install (or with None remove) what ``str(error)`` puts refusals into words with."""
    _RENDERER.clear()
    if renderer is not None:
        _RENDERER.append(renderer)


def plain(code: str, data: Mapping[str, Any]) -> str:
    """The refusal without words: its code and facts (``flaming.not_in_hand {"tile": "R40"}``)."""
    if not data:
        return code
    return f"{code} {json.dumps(dict(data), ensure_ascii=False, sort_keys=True, default=repr)}"


def _rebuild(cls: type[PyramidsError], code: str, data: dict[str, Any]) -> PyramidsError:
    return cls(code, **data)


class PyramidsError(ValueError):
    """Base class of every refusal: ``code`` names what is wrong, ``data`` its facts."""

    code: str
    data: dict[str, Any]

    def __init__(self, code: str, /, **data: Any) -> None:
        if not isinstance(code, str) or not code:
            raise TypeError(f"a refusal's code is a non-empty string, not {code!r}")
        super().__init__(code, data)
        self.code = code
        self.data = data

    def __str__(self) -> str:
        for render in _RENDERER:
            try:
                return render(self.code, self.data)
            except (LookupError, ValueError):  # no words for it (or for a refusal it wraps)
                break
        return plain(self.code, self.data)

    def __repr__(self) -> str:
        facts = "".join(f", {k}={v!r}" for k, v in self.data.items())
        return f"{type(self).__name__}({self.code!r}{facts})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self.code, dict(self.data)))


class ActionParseError(PyramidsError):
    """The text is not an action in the game's notation at all."""


class IllegalActionError(PyramidsError):
    """The action parses but is not legal in this state (wrong turn, not in hand, bad spot...)."""


class PositionError(PyramidsError):
    """A position (JSON or record), options or a view break the rules of the notation or of the game."""
