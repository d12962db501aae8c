"""Flaming Pyramids positions and views drawn as SVG (pure: returns text, as python-chess's boards).

The pyramid is drawn row by row as the terminal (``games/flaming/render.py``) and the
browser (``server/static/js/flaming-draw.js``) draw it: rows count upwards from the base,
columns in half steps, so a tile at ``r,c`` sits between its supports ``r-1,c±1``. Every
tile shows its code (``R40``) on its colour, with a band for its material; an ember has a
glowing outline, the tile that must fall is written ``↓R40↓`` with its two landing places,
the ember whose fire die is pending ``*Y1*`` (the terminal's marks), and the spots to play
``·r,c·``. Below: whose turn, the pending decision, each seat's hand and pile sizes (and
the hand's tiles when the drawing may show them), the tiles out and the quenched embers.

A position (all hidden facts) shows every hand; a view shows only what its seat may know
(FP-VIEW): its own hand face up, the other hands as counts and their publicly known tiles.
The output depends on its input only (no ids, no clock), is a standalone SVG document and
reads without colour. The words are English.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape

from pyramids.core.bits import bits_of
from pyramids.core.errors import PositionError
from pyramids.core.svg import attrs, document, seen_as, svg_text
from pyramids.flaming.position import CHECK, DIE, FALL, NONE, FlamingPosition
from pyramids.flaming.tiles import (
    COLOUR_LETTER,
    IS_EMBER,
    MATERIAL,
    NAMES,
    SUPPORT_LEFT,
    SUPPORT_RIGHT,
    Material,
    col_of,
    row_of,
    spot_name,
)
from pyramids.flaming.view import FlamingView, make_view, view_spots

TW = 64
"""A tile's width: two column steps (as the browser draws it)."""
TH = 46
"""A tile's height: one row."""
MINI_W, MINI_H = 40, 24
"""A tile in a hand or a list."""
PAD = 12
LINE = 20
"""Height of a status line."""
CHAR = 7
"""Width of a character of the status text, for the drawing's width (an estimate)."""
MIN_SPAN = 8
"""The pyramid is drawn at least this many columns wide, so a young one is not tiny."""

FILL = {"Y": "#e9c25b", "R": "#c9483e", "G": "#3f8a58", "B": "#3a6aae", "W": "#eceae3"}
INK = {"Y": "#3b2f12", "R": "#ffffff", "G": "#ffffff", "B": "#ffffff", "W": "#2d2a26"}
BAND = {
    Material.STRAW: "#f0d98c",
    Material.WOOD: "#8d5b34",
    Material.STONE: "#8f9196",
    Material.EMBER: "#ff5a1f",
}
MATERIAL_WORDS = {
    Material.STRAW: "straw",
    Material.WOOD: "wood",
    Material.STONE: "stone",
    Material.EMBER: "ember",
}
COLOUR_WORDS = {"Y": "yellow", "R": "red", "G": "green", "B": "blue", "W": "every colour"}
MUTED = "#6b6459"


def position_svg(pos: FlamingPosition, names: Sequence[str] | None = None) -> str:
    """The whole position as SVG: the pyramid and every seat's hand (hidden facts included).

    ``names``: a label per seat (default ``seat 0``, ``seat 1`` …).
    """
    view = make_view(pos, {}, None)
    hands = {seat: tuple(hand) for seat, hand in enumerate(pos.hands)}
    return _draw(view, hands, names, "position", overlooked=pos.overlooked)


def view_svg(view: FlamingView, names: Sequence[str] | None = None) -> str:
    """What ``view``'s seat may know as SVG: its own hand face up, the others as counts
    (and the tiles of theirs everyone knows, FP-VIEW-2). Nothing hidden from it is drawn."""
    hands = {} if view.player is None or view.hand is None else {view.player: view.hand}
    return _draw(view, hands, names, "view", overlooked=False)


# --- drawing --------------------------------------------------------------------------


def _tile_title(tile: int, where: str = "") -> str:
    """A tile in words, for its tooltip: ``R40 at 1,1: red, wood``."""
    at = f" at {where}" if where else ""
    return (
        f"{NAMES[tile]}{at}: {COLOUR_WORDS[COLOUR_LETTER[tile]]}, {MATERIAL_WORDS[MATERIAL[tile]]}"
    )


def _tile(
    tile: int, x: int, y: int, label: str, *, big: bool, where: str = "", overlay: str = ""
) -> str:
    """One tile at (x, y): its colour, its material band, its label; embers glow.

    ``where``: its spot on the pyramid (None: in a hand or a list); ``overlay``: more
    elements drawn over it."""
    w, h = (TW, TH) if big else (MINI_W, MINI_H)
    letter = COLOUR_LETTER[tile]
    band = max(4, h // 6)
    ember = IS_EMBER[tile]
    outline = (
        attrs(stroke="#ff7a1a", stroke_width=3)
        if ember
        else attrs(stroke="#2d2a26", stroke_width=1)
    )
    return (
        f"<g {attrs(class_='tile', data_tile=NAMES[tile], **({'data_spot': where} if where else {}))}>"
        f"<title>{escape(_tile_title(tile, where))}</title>"
        f"<rect {attrs(x=x + 1, y=y + 1, width=w - 2, height=h - 2, rx=5, fill=FILL[letter])} {outline}/>"
        f"<rect {attrs(x=x + 2, y=y + h - 1 - band, width=w - 4, height=band, fill=BAND[MATERIAL[tile]])}/>"
        + svg_text(
            x + w // 2,
            y + (h - band) // 2 + 5,
            label,
            text_anchor="middle",
            font_size=14 if big else 11,
            font_weight="bold",
            fill=INK[letter],
        )
        + overlay
        + "</g>"
    )


def _mark(x: int, y: int, label: str, kind: str, title: str) -> str:
    """An empty place drawn dashed: a spot to play or where a falling tile may land."""
    return (
        f"<g {attrs(class_=kind)}><title>{escape(title)}</title>"
        f"<rect {attrs(x=x + 3, y=y + 3, width=TW - 6, height=TH - 6, rx=6, fill='none', stroke=MUTED, stroke_dasharray='4 3')}/>"
        + svg_text(
            x + TW // 2, y + TH // 2 + 4, label, text_anchor="middle", font_size=11, fill=MUTED
        )
        + "</g>"
    )


def _pyramid(
    board: Mapping[int, int],
    spots: Sequence[int],
    falling: int | None,
    burning: int | None,
    quenched: set[int],
) -> tuple[list[str], int, int]:
    """The pyramid's elements (origin at the top left), its width and its height."""
    targets = [] if falling is None else [falling + SUPPORT_LEFT, falling + SUPPORT_RIGHT]
    cells = [*board, *spots, *targets]
    cols = [col_of(k) for k in cells] or [0]
    cmin, cmax = min(cols), max(cols)
    if cmax - cmin < MIN_SPAN:
        extra = MIN_SPAN - (cmax - cmin)
        cmin -= (extra + 1) // 2
        cmax += extra // 2
    top = max([row_of(k) for k in cells] or [0])
    axis = 22
    width = axis + (cmax - cmin + 2) * TW // 2
    height = (top + 1) * TH + axis

    def xy(key: int) -> tuple[int, int]:
        return axis + (col_of(key) - cmin) * TW // 2, (top - row_of(key)) * TH

    out: list[str] = []
    for row in range(top + 1):
        y = (top - row) * TH + TH // 2 + 4
        out.append(svg_text(axis - 6, y, str(row), text_anchor="end", font_size=11, fill=MUTED))
    base_y = (top + 1) * TH
    out.append(f"<line {attrs(x1=axis, y1=base_y + 1, x2=width, y2=base_y + 1, stroke=MUTED)}/>")
    first_even = cmin if cmin % 2 == 0 else cmin + 1
    for col in range(first_even, cmax + 1, 2):
        x = axis + (col - cmin) * TW // 2 + TW // 2
        out.append(
            svg_text(x, base_y + 15, str(col), text_anchor="middle", font_size=11, fill=MUTED)
        )
    for key in sorted(board, key=lambda k: (row_of(k), col_of(k))):
        tile = board[key]
        x, y = xy(key)
        label = NAMES[tile]
        if key == falling:
            label = f"↓{label}↓"
        elif key == burning:
            label = f"*{label}*"
        overlay = ""
        if tile in quenched:  # FP-DIE-6: a quenched ember, its fire out for now
            overlay = f"<rect {attrs(x=x + 4, y=y + 4, width=TW - 8, height=TH - 8, rx=4, fill='none', stroke='#3a6aae', stroke_dasharray='2 2')}/>"
        out.append(_tile(tile, x, y, label, big=True, where=spot_name(key), overlay=overlay))
    for key in spots:
        if key not in board:
            x, y = xy(key)
            out.append(_mark(x, y, f"·{spot_name(key)}·", "spot", f"spot {spot_name(key)}"))
    for side, key in zip(("left", "right"), targets, strict=False):
        x, y = xy(key)
        arrow = "↙" if side == "left" else "↘"
        out.append(
            _mark(x, y, f"{arrow} {side}", "fall-target", f"falls {side} to {spot_name(key)}")
        )
    return out, width, height


def _pending(view: FlamingView, who: Sequence[str]) -> str | None:
    """The decision pending in the middle of a turn, in words (None: none)."""
    board = view.board
    key = view.pending_key
    if view.pending == FALL and key in board:
        tile = f"{NAMES[board[key]]}@{spot_name(key)}"
        return (
            f"{who[view.responsible]} chooses where {tile} falls: left to "
            f"{spot_name(key + SUPPORT_LEFT)} or right to {spot_name(key + SUPPORT_RIGHT)}"
        )
    if view.pending == DIE and key in board:
        tile = f"{NAMES[board[key]]}@{spot_name(key)}"
        return f"{who[view.responsible]} rolls the fire die for {tile}"
    if view.pending == CHECK and not view.is_terminal:
        checker = (view.to_move + 1) % view.players
        return f"{who[checker]} checks {who[view.to_move]}'s placement"
    return None


def _headline(view: FlamingView, who: Sequence[str]) -> str:
    """Whose turn, or how the game ended."""
    if view.winner is not None:
        return f"{who[view.winner]} wins (turn {view.turn})"
    if view.ranking is not None:
        ranks = view.ranking
        order = sorted(range(view.players), key=lambda s: (ranks[s], s))
        items = "; ".join(f"{ranks[s]}. {who[s]}" for s in order)
        return f"turn limit reached: {items}"
    return f"turn {view.turn}: {who[view.to_move]} to move"


def _tiles_row(tiles: Sequence[int], x: int, y: int) -> tuple[list[str], int]:
    """Mini tiles side by side from (x, y); the elements and the x after them."""
    out = []
    for tile in tiles:
        out.append(_tile(tile, x, y, NAMES[tile], big=False))
        x += MINI_W + 4
    return out, x


def _draw(
    view: FlamingView,
    hands: Mapping[int, Sequence[int]],
    names: Sequence[str] | None,
    kind: str,
    *,
    overlooked: bool,
) -> str:
    """The drawing of ``view`` with the hands in ``hands`` face up (seat -> tiles)."""
    who = list(names) if names is not None else [f"seat {s}" for s in range(view.players)]
    if len(who) != view.players:
        raise PositionError("flaming.names_for_seats", names=len(who), players=view.players)
    over = view.is_terminal
    falling = view.pending_key if view.pending == FALL else None
    burning = view.pending_key if view.pending == DIE else None
    spots = view_spots(view) if view.pending == NONE and not over else []
    quenched = {ember for ember, _ in view.quenched}
    pyramid, pyr_w, pyr_h = _pyramid(view.board, spots, falling, burning, quenched)

    body: list[str] = [f'<g transform="translate({PAD} {PAD})">', *pyramid, "</g>"]
    y = PAD + pyr_h + PAD
    widths = [pyr_w]
    lines: list[tuple[str, bool]] = [(_headline(view, who), True)]
    pending = _pending(view, who)
    if pending is not None:
        lines.append((pending, True))
    for text, bold in lines:
        body.append(
            svg_text(PAD, y + 14, text, font_size=14, font_weight="bold" if bold else "normal")
        )
        widths.append(len(text) * CHAR + 10)
        y += LINE
    labels = [
        f"{who[seat]}: hand {view.hand_sizes[seat]}, pile {view.pile_sizes[seat]}"
        for seat in range(view.players)
    ]
    label_w = 16 + max(len(label) for label in labels) * CHAR + 12
    for seat, label in enumerate(labels):
        row = [svg_text(PAD + 16, y + 16, label, font_size=13)]
        if seat == view.to_move and not over:
            row.append(svg_text(PAD, y + 16, "▶", font_size=13))
        x = PAD + label_w
        if seat in hands:
            tiles, x = _tiles_row(hands[seat], x, y)
            row += tiles
        elif view.hand_known[seat]:  # FP-VIEW-2: drawn from the public part of the pile
            row.append(svg_text(x, y + 16, "known:", font_size=12, fill=MUTED))
            tiles, x = _tiles_row(view.hand_known[seat], x + 50, y)
            row += tiles
        body.append(f"<g {attrs(class_='seat', data_seat=seat)}>{''.join(row)}</g>")
        widths.append(x)
        y += MINI_H + 6
    body.append(svg_text(PAD, y + 16, "out:", font_size=13))
    if view.out:
        tiles, x = _tiles_row(view.out, PAD + 40, y)
        body += tiles
        widths.append(x)
    else:
        body.append(svg_text(PAD + 40, y + 16, "none", font_size=13, fill=MUTED))
    y += MINI_H + 6
    for ember, mask in view.quenched:
        touching = ", ".join(NAMES[t] for t in bits_of(mask)) or "-"
        text = f"{NAMES[ember]} is quenched (touching {touching} at the roll)"
        body.append(svg_text(PAD, y + 14, text, font_size=13))
        widths.append(len(text) * CHAR + 10)
        y += LINE
    if overlooked:
        text = "overlooked mayhem stands"
        body.append(svg_text(PAD, y + 14, text, font_size=13))
        y += LINE
    width = max(widths) + PAD
    height = y + PAD
    title = f"Flaming Pyramids {seen_as(kind, view.player, who)}, {_headline(view, who)}"
    return document(width, height, title, body)
