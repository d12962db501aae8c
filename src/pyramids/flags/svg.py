"""Pyramids and Flags positions and views drawn as SVG (pure: returns text, as python-chess's boards).

The table is drawn as the terminal (``games/flags/render.py``) and the browser
(``server/static/js/flags-table.js``) draw it: the towers side by side in the notation's
order, each a stack of pyramids from its bottom piece up, a pyramid's width showing its
size, its code (``B3``) written on its colour; the group moved last is outlined dashed.
Below: whose turn, the pending decision, the bank, then per seat its cards, scoring
pyramids, face-up flags and points; the deck's size; the result.

A position (all hidden facts) shows every hand; a view shows only what its seat may know
(PF-VIEW): its own hand, and for the other seats the cards it knows and ``?`` for the
rest. The output depends on its input only (no ids, no clock), is a standalone SVG
document and reads without colour. The words are English.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

from pyramids.core.bits import bits_of
from pyramids.core.svg import attrs, document, seen_as, svg_text
from pyramids.flags.cards import CODES
from pyramids.flags.pieces import COLOUR_NAMES_EN, NAMES, SIZE
from pyramids.flags.position import FlagsPosition
from pyramids.flags.scoring import win_reason
from pyramids.flags.text import pending_json
from pyramids.flags.view import FlagsView, make_view

PIECE_W = {1: 30, 2: 40, 3: 50}
PIECE_H = {1: 18, 2: 21, 3: 24}
"""A pyramid's width and height by size (as the browser draws them)."""
COLUMN = 56
"""Width of a tower's column: the large pyramid and a gap."""
PER_BAND = 9
"""Towers per band: more wrap onto the next band."""
PAD = 12
LINE = 20
CHAR = 7
"""Width of a character of the status text, for the drawing's width (an estimate)."""
CARD_W, CARD_H = 40, 22
MUTED = "#6b6459"

FILL = {
    "K": "#2b2b2b",
    "W": "#f7f6f0",
    "Y": "#e9c25b",
    "B": "#3a6aae",
    "G": "#3f8a58",
    "R": "#c9483e",
    "O": "#ee8a2a",
    "P": "#8a55b8",
    "C": "#38b2c4",
    "X": "#e4e8ea",
}
INK = {
    "K": "#ffffff",
    "W": "#2d2a26",
    "Y": "#3b2f12",
    "B": "#ffffff",
    "G": "#ffffff",
    "R": "#ffffff",
    "O": "#2d2a26",
    "P": "#ffffff",
    "C": "#16363b",
    "X": "#2d2a26",
}
COLOUR_WORDS = COLOUR_NAMES_EN
TREE_ACTIONS = {
    "R": "destroy",
    "B": "trade",
    "G": "grow",
    "Y": "new start",
    "K": "pirate",
    "W": "wild",
}
SIZE_WORDS = {1: "small", 2: "medium", 3: "large"}


def position_svg(pos: FlagsPosition, names: Sequence[str] | None = None) -> str:
    """The whole position as SVG: the table and every seat's cards (hidden facts included).

    ``names``: a label per seat (default ``seat 0``, ``seat 1`` …).
    """
    view = make_view(pos, {}, None)
    hands = [[CODES[c] for c in hand] for hand in pos.hands]
    return _draw(view, hands, pending_json(pos), names, "position")


def view_svg(view: FlagsView, names: Sequence[str] | None = None) -> str:
    """What ``view``'s seat may know as SVG: its own cards, the others' as ``?`` except the
    ones it knows (PF-VIEW-3). Nothing hidden from it is drawn."""
    return _draw(view, view.masked_hands(), view.pending, names, "view")


# --- drawing --------------------------------------------------------------------------


def _piece(piece: int, cx: int, bottom: int, *, moved: bool = False) -> tuple[str, int]:
    """A pyramid centred on ``cx`` standing on ``bottom``: its element and its height."""
    size = SIZE[piece]
    w, h = PIECE_W[size], PIECE_H[size]
    letter = NAMES[piece][0]
    top = bottom - h
    left = cx - w // 2
    inset = 6
    path = f"M{left + inset} {top} H{left + w - inset} L{left + w} {bottom} H{left} Z"
    stroke = "#8d8778" if letter in "WX" else "#2d2a26"
    dash = {"stroke_dasharray": "3 2", "stroke_width": 2.5} if moved else {"stroke_width": 1}
    title = f"{NAMES[piece]}: {SIZE_WORDS[size]} {COLOUR_WORDS[letter]}"
    if moved:
        title += ", moved last"
    element = (
        f"<g {attrs(class_='piece', data_piece=NAMES[piece])}><title>{escape(title)}</title>"
        f"<path {attrs(d=path, fill=FILL[letter], stroke=stroke, **dash)}/>"
        + svg_text(
            cx,
            bottom - h // 2 + 4,
            NAMES[piece],
            text_anchor="middle",
            font_size=11,
            font_weight="bold",
            fill=INK[letter],
        )
        + "</g>"
    )
    return element, h


def _towers(towers: Sequence[Sequence[int]], moved: frozenset[int]) -> tuple[list[str], int, int]:
    """The table's elements (origin at the top left), its width and its height."""
    out: list[str] = []
    y = 0
    width = 0
    for start in range(0, len(towers), PER_BAND):
        band = towers[start : start + PER_BAND]
        height = max(sum(PIECE_H[SIZE[p]] for p in tower) for tower in band)
        bottom = y + height + 2
        for i, tower in enumerate(band):
            cx = i * COLUMN + COLUMN // 2
            level = bottom
            group = []
            for piece in tower:
                element, h = _piece(piece, cx, level, moved=piece in moved)
                group.append(element)
                level -= h
            names = " ".join(NAMES[p] for p in tower)
            out.append(f"<g {attrs(class_='tower', data_tower=names)}>{''.join(group)}</g>")
        band_w = len(band) * COLUMN
        out.append(f"<line {attrs(x1=0, y1=bottom + 1, x2=band_w, y2=bottom + 1, stroke=MUTED)}/>")
        width = max(width, band_w)
        y = bottom + 12
    return out, width, y


def _pieces_row(pieces: Sequence[int], x: int, y: int) -> tuple[list[str], int]:
    """Pyramids side by side from (x, y), standing on y + 24; the elements and the x after."""
    out = []
    for piece in pieces:
        w = PIECE_W[SIZE[piece]]
        element, _ = _piece(piece, x + w // 2, y + 24)
        out.append(element)
        x += w + 4
    return out, x


def _cards_row(codes: Sequence[str], x: int, y: int, kind: str) -> tuple[list[str], int]:
    """Cards as boxes with their codes (``?``: a card not shown) from (x, y)."""
    out = []
    for code in codes:
        hidden = code == "?"
        fill = "#d9d4c7" if hidden else "#ffffff"
        out.append(
            f"<g {attrs(class_=kind, data_card=code)}>"
            f"<rect {attrs(x=x, y=y + 2, width=CARD_W, height=CARD_H, rx=3, fill=fill, stroke=MUTED)}/>"
            + svg_text(x + CARD_W // 2, y + 17, code, text_anchor="middle", font_size=11)
            + "</g>"
        )
        x += CARD_W + 4
    return out, x


def _pending(view: FlagsView, pending: Mapping[str, Any], who: Sequence[str]) -> str | None:
    """The decision or chance point pending in the middle of a turn, in words."""
    kind = pending.get("kind") if pending else None
    if kind == "capture":
        taken = list(pending.get("taken", []))
        more = f" (taken: {' '.join(taken)})" if taken else ""
        return f"{who[int(pending['player'])]} captures for {pending['card']}{more}"
    if kind == "action":
        colour = str(pending["colour"])
        return f"{who[view.to_move]} may use the {TREE_ACTIONS.get(colour, colour)} action"
    if kind == "steal":
        return f"{who[view.to_move]} steals a card from {who[int(pending['from'])]}"
    if kind == "deal":
        cards = [str(c) for c in pending.get("cards", [])]
        return f"new start: {len(cards)} cards to deal ({' '.join(cards)})"
    return None


def _headline(view: FlagsView, who: Sequence[str]) -> str:
    """Whose turn, or how the game ended."""
    if view.winner is not None:
        reason = win_reason(view.scored[view.winner], view.scoring[view.winner])
        how = "" if reason is None else f": {reason[1]} {reason[0]}"
        if reason is not None and reason[0] == "group":
            how = f": 3 flags of the group {reason[1]}"
        return f"{who[view.winner]} wins{how} (turn {view.turn})"
    if view.ranking is not None:
        ranks = view.ranking
        order = sorted(range(view.players), key=lambda s: (ranks[s], s))
        return "game over: " + "; ".join(f"{ranks[s]}. {who[s]}" for s in order)
    return f"turn {view.turn}: {who[view.to_move]} to move"


def _draw(
    view: FlagsView,
    hands: Sequence[Sequence[str]],
    pending: Mapping[str, Any],
    names: Sequence[str] | None,
    kind: str,
) -> str:
    """The drawing of ``view`` with ``hands`` as codes (``?``: not shown) and ``pending``."""
    who = list(names) if names is not None else [f"seat {s}" for s in range(view.players)]
    if len(who) != view.players:
        raise ValueError(f"{len(who)} names for {view.players} seats")
    over = view.is_terminal
    table, table_w, table_h = _towers(view.towers, frozenset(view.last_moved))
    body = [f'<g transform="translate({PAD} {PAD})">', *table, "</g>"]
    widths = [table_w + PAD]
    y = PAD + table_h + 4
    lines = [_headline(view, who)]
    words = _pending(view, pending, who)
    if words is not None:
        lines.append(words)
    if view.tree and not over:
        lines.append(
            f"{who[view.to_move]} earns the {TREE_ACTIONS[view.tree]} action after scoring"
        )
    for text in lines:
        body.append(svg_text(PAD, y + 14, text, font_size=14, font_weight="bold"))
        widths.append(len(text) * CHAR + 10)
        y += LINE
    body.append(svg_text(PAD, y + 18, "bank:", font_size=13))
    row, x = _pieces_row(view.bank, PAD + 50, y)
    body += row
    widths.append(x)
    y += 30
    for seat in range(view.players):
        label = (
            f"{who[seat]}: {_count(view.hand_sizes[seat], 'card')}, "
            f"{_count(len(view.scored[seat]), 'flag')}, {_count(view.points(seat), 'point')}"
        )
        row = [svg_text(PAD + 16, y + 14, label, font_size=13, font_weight="bold")]
        if seat == view.to_move and not over:
            row.append(svg_text(PAD, y + 14, "▶", font_size=13))
        widths.append(PAD + 16 + len(label) * CHAR)
        y += LINE
        flags = [CODES[c] for c in view.scored[seat]]
        held = bits_of(view.scoring[seat])
        for title in ("cards:", "flags:", "holds:"):
            if title == "cards:":
                drawn, x = _cards_row(hands[seat], PAD + 66, y, "card")
            elif title == "flags:" and flags:
                drawn, x = _cards_row(flags, PAD + 66, y, "flag")
            elif title == "holds:" and held:
                drawn, x = _pieces_row(held, PAD + 66, y)
            else:  # no flags or pyramids yet: no line
                continue
            row.append(svg_text(PAD + 16, y + 17, title, font_size=12, fill=MUTED))
            row += drawn or [svg_text(PAD + 66, y + 17, "none", font_size=12, fill=MUTED)]
            widths.append(x)
            y += 28
        body.append(f"<g {attrs(class_='seat', data_seat=seat)}>{''.join(row)}</g>")
    deck = f"deck: {view.deck_size} cards"
    moved = " ".join(NAMES[p] for p in view.last_moved) or "none"
    for text in (deck, f"moved last: {moved}"):
        body.append(svg_text(PAD, y + 14, text, font_size=13))
        y += LINE
    width = max(widths) + PAD
    height = y + PAD
    title = f"Pyramids and Flags {seen_as(kind, view.player, who)}, {_headline(view, who)}"
    return document(width, height, title, body)


def _count(n: int, word: str) -> str:
    """``1 flag``, ``2 flags``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
