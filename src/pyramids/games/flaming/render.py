"""Drawing Flaming Pyramids positions for the terminal (pure: returns rich renderables or text).

The pyramid is drawn row by row from the top down on a grid of half-tile columns, so
a tile in row r+1 sits between its two supports in row r. Every tile shows its code
(``R40``) as well as its colour, so the drawing reads the same without colour
(``NO_COLOR=1``). Nothing here prints: callers hand the result to a rich Console.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from pyramids.cli.i18n import seat_name
from pyramids.flaming.state import CHECK, DIE, FALL, NONE, FlamingState
from pyramids.flaming.tiles import (
    COLOUR_LETTER,
    EMBERS,
    IGNITES,
    IS_EMBER,
    MATERIAL,
    NAMES,
    SUPPORT_LEFT,
    SUPPORT_RIGHT,
    WEIGHT,
    Material,
    col_of,
    row_of,
    spot_name,
)
from pyramids.flaming.view import FlamingView
from pyramids.games.flaming.words import tr

TILE_STYLES: dict[str, str] = {
    "Y": "black on yellow",
    "R": "bold white on red",
    "G": "black on green",
    "B": "bold white on blue",
    "W": "bold black on bright_white",
}
"""Background colour of each tile colour letter (W is the millstone W200)."""

SPOT_STYLE = "dim"
FALLING_STYLE = "underline"
BURNING_STYLE = "underline"
MIN_HALF = 3
"""Narrowest half-tile width in characters: a tile cell is two halves, e.g. ``[R100]``."""


def tile_style(tile: int) -> str:
    """The rich style of a tile (its colour; embers also bold)."""
    style = TILE_STYLES[COLOUR_LETTER[tile]]
    return f"{style} bold" if IS_EMBER[tile] else style


def tile_label(tile: int) -> Text:
    """A tile as ``[R40]`` in its colour."""
    return Text(f"[{NAMES[tile]}]", style=tile_style(tile))


def tiles_line(tiles: Iterable[int], empty: str = "") -> Text:
    """Tiles side by side, each in its colour, separated by spaces."""
    out = Text()
    for i, tile in enumerate(tiles):
        if i:
            out.append(" ")
        out.append_text(tile_label(tile))
    if not out.plain and empty:
        out.append(empty, style=SPOT_STYLE)
    return out


def _cells(
    board: Mapping[int, int],
    spots: Iterable[int],
    falling: int | None,
    burning: int | None,
) -> dict[int, tuple[str, str, str, str]]:
    """key -> (open, label, close, style); spots use an empty open/close (centred whole)."""
    cells: dict[int, tuple[str, str, str, str]] = {}
    for key in spots:
        if key not in board:
            cells[key] = ("", f"·{spot_name(key)}·", "", SPOT_STYLE)
    for key, tile in board.items():
        style = tile_style(tile)
        if key == falling:
            cells[key] = ("↓", NAMES[tile], "↓", f"{style} {FALLING_STYLE}")
        elif key == burning:
            cells[key] = ("*", NAMES[tile], "*", f"{style} {BURNING_STYLE}")
        else:
            cells[key] = ("[", NAMES[tile], "]", style)
    return cells


def render_pyramid(
    board: Mapping[int, int],
    spots: Iterable[int] = (),
    falling: int | None = None,
    burning: int | None = None,
) -> Text:
    """The pyramid as rich Text: rows top down, row numbers left, base columns below.

    ``spots`` are empty places to play (drawn ``·r,c·``), ``falling`` the key of a tile
    waiting for its fall direction (``↓R40↓``), ``burning`` an ember whose fire-die roll
    is pending (``*Y1*``).
    """
    cells = _cells(board, spots, falling, burning)
    out = Text(no_wrap=True, overflow="ignore")
    if not cells:
        return out
    widest = max(len(o) + len(label) + len(c) for o, label, c, _ in cells.values())
    half = max(MIN_HALF, (widest + 1) // 2)
    width = 2 * half
    cols = [col_of(k) for k in cells]
    rows = [row_of(k) for k in cells]
    cmin, cmax = min(cols), max(cols)
    top = max(rows)
    margin = len(str(top))
    by_row: dict[int, list[int]] = {}
    for key in cells:
        by_row.setdefault(row_of(key), []).append(key)
    for row in range(top, -1, -1):
        out.append(f"{row:>{margin}} ", style=SPOT_STYLE)
        x = 0
        for key in sorted(by_row.get(row, []), key=col_of):
            opening, label, closing, style = cells[key]
            start = (col_of(key) - cmin) * half
            out.append(" " * (start - x))
            if opening:
                inner = width - len(opening) - len(closing)
                pad = max(0, inner - len(label))
                body = f"{opening}{' ' * ((pad + 1) // 2)}{label}{' ' * (pad // 2)}{closing}"
                out.append(body, style=style)
            else:
                pad = max(0, width - len(label))
                out.append(" " * ((pad + 1) // 2))
                out.append(label, style=style)
                out.append(" " * (pad // 2))
            x = start + width
        out.append("\n")
    axis = " " * (margin + 1)
    min_start = len(axis)
    first_even = cmin if cmin % 2 == 0 else cmin + 1
    for col in range(first_even, cmax + 1, 2):
        label = str(col)
        centre = margin + 1 + (col - cmin) * half + half
        start = max(min_start, centre - len(label) // 2)
        axis += " " * (start - len(axis)) + label
        min_start = len(axis) + 1
    out.append(axis, style=SPOT_STYLE)
    return _rstrip_lines(out)


def _rstrip_lines(text: Text) -> Text:
    """The same Text without trailing spaces on any line."""
    lines = text.split("\n", allow_blank=True)
    out = Text(no_wrap=True, overflow="ignore")
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        line.rstrip()
        out.append_text(line)
    return out


def render_pyramid_text(
    board: Mapping[int, int],
    spots: Iterable[int] = (),
    falling: int | None = None,
    burning: int | None = None,
) -> str:
    """The pyramid as plain text (no colour), e.g. for tests and logs."""
    return render_pyramid(board, spots, falling, burning).plain


def render_legend(
    lang: str,
    *,
    spots: bool = False,
    falling: bool = False,
    burning: bool = False,
) -> Text:
    """One dim line explaining the marks that appear in the drawing."""
    parts = [tr("legend_tile", lang)]
    if spots:
        parts.append(tr("legend_spot", lang))
    if falling:
        parts.append(tr("legend_fall", lang))
        parts.append(tr("legend_land", lang))
    if burning:
        parts.append(tr("legend_die", lang))
    return Text("   ".join(parts), style=SPOT_STYLE)


def _ignited(mask: int, lang: str) -> str:
    """The materials in ``mask`` in words: ``straw and wood``."""
    picked = [tr(f"mat_{m.name.lower()}", lang) for m in Material if m & mask]
    if len(picked) <= 1:
        return "".join(picked)
    return f"{', '.join(picked[:-1])} {tr('and', lang)} {picked[-1]}"


def render_materials(lang: str = "en") -> Text:
    """Two dim lines: each material's weights and what each kind of ember ignites (FP-TILE).

    Read from the engine's tile tables (``MATERIAL``, ``WEIGHT``, ``IGNITES``), so the
    legend says what the rules do.
    """
    weights: dict[Material, list[int]] = {}
    for tile, material in enumerate(MATERIAL):
        weights.setdefault(material, [])
        if WEIGHT[tile] not in weights[material]:
            weights[material].append(WEIGHT[tile])
    burnable = 0
    by_mask: dict[int, list[str]] = {}
    for ember in EMBERS:
        burnable |= IGNITES[ember]
        by_mask.setdefault(IGNITES[ember], []).append(NAMES[ember])
    line = {
        m.name.lower(): " ".join(str(w) for w in sorted(weights.get(m, [])))
        for m in Material
        if m is not Material.EMBER
    }
    never = [m for m in Material if m is not Material.EMBER and not burnable & m]
    text = tr(
        "legend_materials",
        lang,
        straw=line["straw"],
        wood=line["wood"],
        stone=line["stone"],
        never=tr("legend_never", lang) if Material.STONE in never else "",
    ).replace(" ()", "")
    ignites = tr("legend_join", lang).join(
        tr("legend_ignites", lang, embers=" ".join(names), materials=_ignited(mask, lang))
        for mask, names in sorted(by_mask.items())
    )
    return Text(text + "\n" + tr("legend_embers", lang, ignites=ignites), style=SPOT_STYLE)


def view_spots(state: FlamingState) -> list[int]:
    """The places to play, when the game is at rest (none mid-turn, during a check or after the end)."""
    if state.is_terminal() or state.pending[0] != NONE:
        return []
    return state.placement_spots()


def _names(view: FlamingView, names: Sequence[str] | None, lang: str) -> list[str]:
    if names is not None:
        return list(names)
    return [seat_name(s, lang) for s in range(view.players)]


def render_status(
    view: FlamingView,
    lang: str = "en",
    names: Sequence[str] | None = None,
    spots: Sequence[int] = (),
    *,
    turn_line: bool = True,
) -> Text:
    """Whose turn, hand and pile sizes, tiles out, quenched embers, pending decision, result."""
    who = _names(view, names, lang)
    out = Text()
    lines: list[Text] = []
    over = view.winner is not None or view.ranking is not None
    if turn_line and not over:
        lines.append(
            Text(tr("turn_line", lang, turn=view.turn, who=who[view.to_move]), style="bold")
        )
    width = max(len(w) for w in who)
    for seat in range(view.players):
        mark = "▶" if seat == view.to_move and not over else " "
        lines.append(
            Text(
                tr(
                    "seat_line",
                    lang,
                    mark=mark,
                    who=who[seat].ljust(width),
                    hand=f"{view.hand_sizes[seat]:>2}",
                    pile=f"{view.pile_sizes[seat]:>2}",
                )
            )
        )
    out_line = Text(tr("out_line", lang, tiles=""))
    out_line.append_text(tiles_line(view.out, tr("none", lang)))
    lines.append(out_line)
    for ember, mask in view.quenched:
        touching = [NAMES[t] for t in range(len(NAMES)) if (mask >> t) & 1]
        lines.append(
            Text(tr("quenched_line", lang, ember=NAMES[ember], tiles=", ".join(touching) or "-"))
        )
    board = view.board
    if view.pending == FALL and view.pending_key in board:
        key = view.pending_key
        lines.append(
            Text(
                tr(
                    "pending_fall",
                    lang,
                    who=who[view.responsible],
                    tile=f"{NAMES[board[key]]}@{spot_name(key)}",
                    left=spot_name(key + SUPPORT_LEFT),
                    right=spot_name(key + SUPPORT_RIGHT),
                ),
                style="bold",
            )
        )
    elif view.pending == DIE and view.pending_key in board:
        key = view.pending_key
        lines.append(
            Text(
                tr(
                    "pending_die",
                    lang,
                    who=who[view.responsible],
                    tile=f"{NAMES[board[key]]}@{spot_name(key)}",
                ),
                style="bold",
            )
        )
    elif view.pending == CHECK and not over:
        checker = (view.to_move + 1) % view.players
        lines.append(
            Text(
                tr("pending_check", lang, who=who[checker], placer=who[view.to_move]), style="bold"
            )
        )
    elif spots:
        lines.append(Text(tr("spots_line", lang, spots="; ".join(spot_name(k) for k in spots))))
    if view.winner is not None:
        lines.append(Text(tr("winner_line", lang, who=who[view.winner]), style="bold"))
    elif view.ranking is not None:
        left = [h + p for h, p in zip(view.hand_sizes, view.pile_sizes, strict=True)]
        order = sorted(
            range(view.players), key=lambda s: (view.ranking[s] if view.ranking else 0, s)
        )
        items = [
            tr("rank_item", lang, rank=view.ranking[s], who=who[s], left=left[s]) for s in order
        ]
        lines.append(Text(tr("ranking_line", lang, ranking="; ".join(items)), style="bold"))
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        out.append_text(line)
    return out


def render_hand(tiles: Sequence[int], label: str, lang: str = "en") -> Text:
    """``Hand of seat 0: [R40] [Y2]`` with the tiles in colour."""
    out = Text(label + " ", style="bold")
    out.append_text(tiles_line(tiles, tr("empty", lang)))
    return out


def render_position(
    view: FlamingView,
    spots: Sequence[int] = (),
    lang: str = "en",
    names: Sequence[str] | None = None,
    *,
    hand_label: str | None = None,
    legend: bool = True,
    turn_line: bool = True,
) -> RenderableType:
    """The pyramid, a legend and the status; the viewer's hand too when the view has one."""
    board = view.board
    falling = view.pending_key if view.pending == FALL else None
    burning = view.pending_key if view.pending == DIE else None
    marks: list[int] = list(spots)
    if falling is not None:
        marks = [falling + SUPPORT_LEFT, falling + SUPPORT_RIGHT]
    parts: list[RenderableType] = [render_pyramid(board, marks, falling, burning)]
    if legend:
        parts.append(
            render_legend(
                lang, spots=bool(spots), falling=falling is not None, burning=burning is not None
            )
        )
        if view.hand is not None:  # a player deciding: what their tiles are made of
            parts.append(render_materials(lang))
    parts.append(render_status(view, lang, names, spots, turn_line=turn_line))
    if view.hand is not None and view.player is not None:
        who = _names(view, names, lang)[view.player]
        label = hand_label or tr("hand_of", lang, who=who)
        parts.append(render_hand(view.hand, label, lang))
    return Group(*parts)


def render_state(
    state: FlamingState,
    seat: int | None = None,
    lang: str = "en",
    names: Sequence[str] | None = None,
    *,
    legend: bool = True,
    turn_line: bool = True,
) -> RenderableType:
    """A state drawn as ``seat`` sees it (None: a spectator, no hand shown)."""
    view = state.view(seat)
    return render_position(view, view_spots(state), lang, names, legend=legend, turn_line=turn_line)


def render_choices(labels: Sequence[str], header: str = "") -> Text:
    """A numbered list ``1) R40@1,1`` laid out in columns."""
    out = Text()
    if header:
        out.append(header + "\n", style="bold")
    if not labels:
        return out
    items = [f"{i + 1:>2}) {label}" for i, label in enumerate(labels)]
    width = max(len(s) for s in items) + 2
    per_line = max(1, 78 // width)
    for i, item in enumerate(items):
        if i and i % per_line == 0:
            out.append("\n")
        out.append(item.ljust(width) if (i + 1) % per_line and i + 1 < len(items) else item)
    return out
