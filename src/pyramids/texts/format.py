"""The message format: ICU MessageFormat's named placeholders, ``select`` and ``plural``, plus lists.

One small, documented subset, implemented identically here and in the browser
(``server/static/js/messageformat.js``); both read the same JSON catalogue:

- ``{name}``: the fact ``name`` of the event's data; a dotted path reaches into lists and
  objects (``{tiles.0.at}``). Numbers and strings print as they are, lists as
  ``[a, b]``, booleans as ``true``/``false``, None as ``null`` (the JSON spellings).
- ``{name, select, left {…} right {…} other {…}}``: the branch named by the value as
  printed above (so None selects ``null`` and booleans ``true``/``false``); ``other``
  when no branch is named so.
- ``{name, plural, =0 {…} =1 {…} other {…}}``: the branch ``=N`` for the number N, else
  ``other``. A list counts its items. Only exact ``=N`` selectors: the catalogue says
  "0 tiles" and "0 tuiles" alike, so no CLDR plural categories (and no ``#``).
- ``{name, list}`` or ``{name, list, STYLE}`` or ``{name, list, STYLE, {item}}``: the
  items joined. STYLE ``and`` (the default) gives "a, b and c" with the word of the
  catalogue entry ``list.and`` ("and", "et"); ``space`` "a b c"; ``plus`` "a + b";
  ``semicolon`` "a; b". ``{item}`` is a sub-message for each item, where ``{_}`` is the
  item, ``{_index}`` its position from 0 and, when the item is an object, its fields
  are facts too (``{collapsed, list, and, {{tile}}}``).
- ``{name, term, PREFIX}``: the catalogue entry ``PREFIX.<value>`` (shared words such as
  ``flags.action.R`` = "destroy"), itself formatted with the same facts.
- ``{name, number}`` or ``{name, number, STYLE}``: a number in the language's way, the
  one number formatter of every host. STYLE is an optional ``+`` (a plus sign before
  positives), then the digits after the decimal mark (0 when absent), then an optional
  ``%`` (the value is a fraction written as a percentage): ``{x, number, 1}`` gives
  "1,234.5" / "1 234,5", ``{x, number, +1%}`` "+61.6%" / "+61,6 %". The thousands
  separator, the decimal mark and the percent pattern are the catalogue entries
  ``number.group``, ``number.decimal`` and ``number.percent`` (French: a narrow no-break
  space U+202F, a comma, "{n} %" with U+202F); negatives take a true minus U+2212, a value
  that rounds to zero has no sign, None reads "–". Rounding is to the nearest, ties to
  even, on the exact binary value (Python's own ``f"{x:.1f}"``: 0.125 gives "0.12" and
  2.5 "2"); the browser's formatter rounds the same way, digit for digit.

Sub-messages are the exact text between their braces (spaces kept). Apostrophes are
ordinary characters (no ICU quoting) and no message needs a literal brace.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from functools import lru_cache
from typing import Any

Lookup = Callable[[str], str | None]
"""A catalogue entry by key in the language being formatted (None if absent)."""

JOINERS = {"space": " ", "plus": " + ", "semicolon": "; "}
"""The list styles other than ``and``, with their separators."""

NUMBER_STYLE = re.compile(r"(\+?)(\d{0,2})(%?)")
"""A ``number`` placeholder's style: sign, digits after the mark, percent."""
MINUS = "\u2212"
NO_NUMBER = "–"
"""What a number placeholder says for None (an absent statistic)."""


class MessageError(ValueError):
    """A message is malformed, names a missing fact or an absent catalogue entry."""


@dataclass(frozen=True)
class Placeholder:
    """One ``{…}`` of a message."""

    name: str
    type: str = ""
    style: str = ""
    branches: tuple[tuple[str, Message], ...] = ()
    item: Message | None = None


Message = tuple[str | Placeholder, ...]
"""A parsed message: literal text and placeholders."""


def _close(text: str, start: int) -> int:
    """The index of the brace closing the one at ``start``."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise MessageError(f"unclosed brace in {text!r}")


@lru_cache(maxsize=4096)
def parse(text: str) -> Message:
    """Parse a message (cached: the catalogue is small and fixed)."""
    nodes: list[str | Placeholder] = []
    literal: list[str] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "{":
            end = _close(text, i)
            if literal:
                nodes.append("".join(literal))
                literal = []
            nodes.append(_placeholder(text[i + 1 : end]))
            i = end + 1
            continue
        if c == "}":
            raise MessageError(f"unopened brace in {text!r}")
        literal.append(c)
        i += 1
    if literal:
        nodes.append("".join(literal))
    return tuple(nodes)


def _placeholder(body: str) -> Placeholder:
    name, _, rest = body.partition(",")
    name = name.strip()
    if not name:
        raise MessageError(f"placeholder without a name: {{{body}}}")
    if not rest:
        return Placeholder(name)
    kind, _, rest = rest.partition(",")
    kind = kind.strip()
    if kind in ("select", "plural"):
        return Placeholder(name, kind, branches=_branches(rest))
    if kind == "list":
        style, _, item = rest.partition(",")
        style = style.strip() or "and"
        if style != "and" and style not in JOINERS:
            raise MessageError(f"unknown list style {style!r}")
        item = item.strip()
        if item and not (item.startswith("{") and _close(item, 0) == len(item) - 1):
            raise MessageError(f"list item must be one braced sub-message: {item!r}")
        return Placeholder(name, kind, style, item=parse(item[1:-1]) if item else None)
    if kind == "number":
        style = rest.strip()
        if not NUMBER_STYLE.fullmatch(style):
            raise MessageError(f"bad number style {style!r}")
        return Placeholder(name, kind, style)
    if kind == "term":
        if not rest.strip():
            raise MessageError(f"term without a prefix: {{{body}}}")
        return Placeholder(name, kind, rest.strip())
    raise MessageError(f"unknown placeholder type {kind!r}")


def _branches(text: str) -> tuple[tuple[str, Message], ...]:
    branches: list[tuple[str, Message]] = []
    i = 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i == len(text):
            return tuple(branches)
        start = i
        while i < len(text) and not text[i].isspace() and text[i] != "{":
            i += 1
        selector = text[start:i]
        while i < len(text) and text[i].isspace():
            i += 1
        if not selector or i == len(text) or text[i] != "{":
            raise MessageError(f"bad branches {text!r}")
        end = _close(text, i)
        branches.append((selector, parse(text[i + 1 : end])))
        i = end + 1


def show(value: Any) -> str:
    """A fact as text (the JSON spellings for None and booleans; lists as ``[a, b]``)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(show(v) for v in value) + "]"
    return str(value)


def _fact(args: Mapping[str, Any], name: str) -> Any:
    head, *path = name.split(".")
    if head not in args:
        raise MessageError(f"no fact {head!r}")
    value = args[head]
    for step in path:
        try:
            value = value[int(step)] if isinstance(value, list | tuple) else value[step]
        except (IndexError, KeyError, ValueError, TypeError):
            raise MessageError(f"no fact {name!r}") from None
    return value


def _entry(lookup: Lookup, key: str) -> str:
    text = lookup(key)
    if text is None:
        raise MessageError(f"no catalogue entry {key!r}")
    return text


def render(message: Message, args: Mapping[str, Any], lookup: Lookup) -> str:
    """Fill a parsed message with ``args``; terms and the list word come from ``lookup``."""
    out: list[str] = []
    for node in message:
        if isinstance(node, str):
            out.append(node)
            continue
        value = _fact(args, node.name)
        if node.type == "":
            out.append(show(value))
        elif node.type == "select":
            out.append(render(_branch(node, show(value)), args, lookup))
        elif node.type == "plural":
            n = len(value) if isinstance(value, list | tuple) else int(value)
            out.append(render(_branch(node, f"={n}"), args, lookup))
        elif node.type == "list":
            out.append(_list(node, value, args, lookup))
        elif node.type == "number":
            out.append(_number(node.style, value, lookup))
        else:  # term
            out.append(format_message(_entry(lookup, f"{node.style}.{show(value)}"), args, lookup))
    return "".join(out)


def _branch(node: Placeholder, selector: str) -> Message:
    chosen = dict(node.branches)
    if selector in chosen:
        return chosen[selector]
    if "other" in chosen:
        return chosen["other"]
    raise MessageError(f"no branch {selector!r} nor other for {node.name!r}")


def _list(node: Placeholder, value: Any, args: Mapping[str, Any], lookup: Lookup) -> str:
    if not isinstance(value, list | tuple):
        raise MessageError(f"fact {node.name!r} is not a list")
    items = []
    for index, item in enumerate(value):
        if node.item is None:
            items.append(show(item))
            continue
        scope = {**args, "_": item, "_index": index}
        if isinstance(item, Mapping):
            scope.update(item)
        items.append(render(node.item, scope, lookup))
    if node.style in JOINERS:
        return JOINERS[node.style].join(items)
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {_entry(lookup, 'list.and')} {items[-1]}"


def number_text(
    value: float | None,
    digits: int = 0,
    *,
    sign: bool = False,
    group: str = ",",
    decimal: str = ".",
) -> str:
    """``value`` with ``digits`` after the ``decimal`` mark and its thousands joined by
    ``group``: ``1,234.5``; a true minus, ``+`` before positives when ``sign``, no sign on
    a value that rounds to zero, "–" for None. Rounded to the nearest, ties to even, on the
    exact binary value (as ``f"{value:.{digits}f}"`` does)."""
    if value is None:
        return NO_NUMBER
    if not math.isfinite(value):  # "nan", "inf", "−inf", as f-strings spell them
        return f"{value}".replace("-", MINUS)
    exact = Decimal(value).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN)
    text = f"{abs(exact):.{digits}f}"
    whole, _, fraction = text.partition(".")
    head = len(whole) % 3 or 3
    whole = group.join([whole[:head], *(whole[i : i + 3] for i in range(head, len(whole), 3))])
    text = f"{whole}{decimal}{fraction}" if fraction else whole
    if exact == 0:
        return text
    if exact < 0:
        return MINUS + text
    return f"+{text}" if sign else text


def _number(style: str, value: Any, lookup: Lookup) -> str:
    """A ``{name, number, STYLE}`` placeholder (see the module docstring)."""
    match = NUMBER_STYLE.fullmatch(style)
    if match is None:
        raise MessageError(f"bad number style {style!r}")
    plus, digits, percent = match.groups()
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
        raise MessageError(f"not a number: {show(value)}")
    scaled = None if value is None else (100 * value if percent else value)
    text = number_text(
        scaled,
        int(digits or 0),
        sign=bool(plus),
        group=_entry(lookup, "number.group"),
        decimal=_entry(lookup, "number.decimal"),
    )
    if not percent or value is None:
        return text
    return format_message(_entry(lookup, "number.percent"), {"n": text}, lookup)


def format_message(text: str, args: Mapping[str, Any], lookup: Lookup) -> str:
    """Parse and fill one message (see the module docstring for the syntax)."""
    return render(parse(text), args, lookup)
