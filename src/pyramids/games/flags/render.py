"""Drawing Pyramids and Flags positions for the terminal (pure: returns rich renderables).

The table is drawn as its towers side by side, each a vertical stack from the bottom
piece up, wrapped into bands that fit the terminal width. Every piece shows its code
(``B3``: colour letter and size) as well as its colour, and its width grows with its
size (``B1``, ``[B2]``, ``[ B3 ]``), so the drawing reads the same without colour
(``NO_COLOR=1``). Below: the bank, each seat's hand size, scoring pyramids, scored
flags and points, the deck, the group moved last, the pending decision and the result;
a seat's own hand lists each card's country, flag tower and facts (PF-CARD).
Nothing here prints: callers hand the result to a rich Console.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from pyramids.cli.i18n import seat_name
from pyramids.core.bits import bits_of
from pyramids.flags.cards import CARDS, CODES, PIECES_MASK
from pyramids.flags.pieces import COLOURS, NAMES, SIZE
from pyramids.flags.scoring import win_reason
from pyramids.flags.state import FlagsState
from pyramids.flags.view import FlagsView
from pyramids.games.flags.words import tr, tree_words
from pyramids.texts import format_number

PIECE_STYLES: dict[str, str] = {
    "K": "bold bright_white on grey15",
    "W": "bold black on bright_white",
    "Y": "black on yellow",
    "B": "bold white on blue",
    "G": "black on green",
    "R": "bold white on red",
    "O": "black on dark_orange",
    "P": "bold white on magenta",
    "C": "black on cyan",
    "X": "black on grey70",
}
"""Colour of each colour letter: the six flag colours, then the four scoring colours."""

CELL = 6
"""Width of a tower column: the widest piece, ``[ B3 ]``."""
GAP = 1
LAST_MOVED_STYLE = "underline"
DIM = "dim"


def piece_style(piece: int) -> str:
    """The rich style of a piece (its colour)."""
    return PIECE_STYLES[COLOURS[piece // 3]]


def piece_body(piece: int) -> str:
    """A piece as text whose width shows its size: ``B1``, ``[B2]``, ``[ B3 ]``."""
    name = NAMES[piece]
    size = SIZE[piece]
    if size == 3:
        return f"[ {name} ]"
    if size == 2:
        return f"[{name}]"
    return name


def piece_label(piece: int) -> Text:
    """A piece as its code in its colour (``B3``), for lists."""
    return Text(NAMES[piece], style=piece_style(piece))


def pieces_line(pieces: Iterable[int], empty: str = "") -> Text:
    """Pieces side by side, each in its colour, separated by spaces."""
    out = Text()
    for i, piece in enumerate(pieces):
        if i:
            out.append(" ")
        out.append_text(piece_label(piece))
    if not out.plain and empty:
        out.append(empty, style=DIM)
    return out


def _band(towers: Sequence[Sequence[int]], moved: frozenset[int]) -> list[Text]:
    """Lines of one band of towers, top line first, then a baseline."""
    height = max(len(t) for t in towers)
    lines = []
    for level in range(height - 1, -1, -1):
        line = Text(no_wrap=True, overflow="ignore")
        for i, tower in enumerate(towers):
            if i:
                line.append(" " * GAP)
            if level >= len(tower):
                line.append(" " * CELL)
                continue
            piece = tower[level]
            body = piece_body(piece)
            pad = CELL - len(body)
            style = piece_style(piece)
            if piece in moved:
                style = f"{style} {LAST_MOVED_STYLE}"
            line.append(" " * (pad // 2))
            line.append(body, style=style)
            line.append(" " * (pad - pad // 2))
        line.rstrip()
        lines.append(line)
    base = Text(" ".join("─" * CELL for _ in towers), style=DIM, no_wrap=True)
    lines.append(base)
    return lines


def render_towers(
    towers: Sequence[Sequence[int]], last_moved: Iterable[int] = (), width: int = 80
) -> Text:
    """The table: towers side by side (bottom piece at the bottom), wrapped into bands.

    Towers keep the notation's order (by bottom piece); the group moved last is
    underlined when colour is on.
    """
    out = Text(no_wrap=True, overflow="ignore")
    if not towers:
        return out
    per_band = max(1, (width + GAP) // (CELL + GAP))
    moved = frozenset(last_moved)
    lines: list[Text] = []
    for start in range(0, len(towers), per_band):
        lines.extend(_band(towers[start : start + per_band], moved))
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        out.append_text(line)
    return out


def render_towers_text(towers: Sequence[Sequence[int]], width: int = 80) -> str:
    """The table as plain text (no colour), e.g. for tests and logs."""
    return render_towers(towers, (), width).plain


def _names(view: FlagsView, names: Sequence[str] | None, lang: str) -> list[str]:
    if names is not None:
        return list(names)
    return [seat_name(s, lang) for s in range(view.players)]


def _action_words(colour: str, lang: str) -> tuple[str, str]:
    """(action name, colour name) of a tree colour in ``lang``."""
    return tree_words(colour, lang)


def win_text(view: FlagsView, seat: int, lang: str) -> str:
    """How ``seat`` won: ``5 flags``, ``3 flags of the group EU``, ``8 points``."""
    reason = win_reason(view.scored[seat], view.scoring[seat])
    if reason is None:  # not for a valid position: a winner meets a win condition
        return tr("f_win_points", lang, n=view.points(seat))
    kind, detail = reason
    if kind == "flags":
        return tr("f_win_flags", lang, n=detail)
    if kind == "group":
        return tr("f_win_group", lang, group=detail)
    return tr("f_win_points", lang, n=detail)


def _pending_line(view: FlagsView, who: list[str], lang: str) -> Text | None:
    pending = view.pending
    kind = pending.get("kind") if pending else None
    if kind == "capture":
        card = str(pending["card"])
        shown = " ".join(NAMES[p] for p in bits_of(PIECES_MASK[CODES.index(card)]))
        text = tr(
            "f_pending_capture",
            lang,
            who=who[int(pending["player"])],
            card=f"{card} ({CARDS[CODES.index(card)].country})",
            shown=shown,
        )
        taken = list(pending.get("taken", []))
        if taken:
            text += tr("f_taken", lang, pieces=" ".join(taken))
        return Text(text, style="bold")
    if kind == "action":
        action, colour = _action_words(str(pending["colour"]), lang)
        return Text(
            tr("f_pending_action", lang, who=who[view.to_move], action=action, colour=colour),
            style="bold",
        )
    if kind == "steal":
        return Text(
            tr("f_pending_steal", lang, who=who[view.to_move], victim=who[int(pending["from"])]),
            style="bold",
        )
    if kind == "deal":
        return Text(tr("f_pending_deal", lang), style="bold")
    return None


def render_flags_status(
    view: FlagsView,
    lang: str = "en",
    names: Sequence[str] | None = None,
    *,
    turn_line: bool = True,
) -> Text:
    """Whose turn, the bank, each seat's hand size, pyramids, flags and points, the deck,
    the group moved last, the pending decision and the result."""
    who = _names(view, names, lang)
    lines: list[Text] = []
    over = view.is_terminal
    if turn_line and not over:
        lines.append(
            Text(tr("turn_line", lang, turn=view.turn, who=who[view.to_move]), style="bold")
        )
    bank = Text(tr("f_bank", lang))
    bank.append_text(pieces_line(view.bank, tr("f_none", lang)))
    lines.append(bank)
    width = max(len(w) for w in who)
    for seat in range(view.players):
        mark = "▶" if seat == view.to_move and not over else " "
        line = Text(
            tr(
                "f_seat_line",
                lang,
                mark=mark,
                who=who[seat].ljust(width),
                hand=view.hand_sizes[seat],
                flags=len(view.scored[seat]),
                points=view.points(seat),
            )
        )
        lines.append(line)
        held = bits_of(view.scoring[seat])
        if held or view.scored[seat]:  # what the seat has won, on a line of its own
            extra = Text(" " * (width + 4))
            if held:
                extra.append(tr("f_holds", lang))
                extra.append_text(pieces_line(held))
            if view.scored[seat]:
                extra.append(("  " if held else "") + tr("f_scored", lang))
                extra.append(" ".join(CODES[c] for c in view.scored[seat]))
            lines.append(extra)
    lines.append(Text(tr("f_deck", lang, n=view.deck_size)))
    moved = Text(tr("f_last_moved", lang))
    moved.append_text(pieces_line(view.last_moved, tr("f_none", lang)))
    lines.append(moved)
    pending = _pending_line(view, who, lang)
    if pending is not None:
        lines.append(pending)
    if view.tree and not over:
        action, colour = _action_words(view.tree, lang)
        lines.append(
            Text(tr("f_tree_owed", lang, who=who[view.to_move], action=action, colour=colour))
        )
    if view.winner is not None:
        lines.append(
            Text(
                tr("f_winner", lang, who=who[view.winner], how=win_text(view, view.winner, lang)),
                style="bold",
            )
        )
    elif view.ranking is not None:
        ranking = view.ranking
        order = sorted(range(view.players), key=lambda s: (ranking[s], s))
        items = [
            tr(
                "f_rank_item",
                lang,
                rank=ranking[s],
                who=who[s],
                points=view.points(s),
                flags=len(view.scored[s]),
            )
            for s in order
        ]
        cards_left = view.deck_size + sum(view.hand_sizes)
        why = tr("f_why_cards" if cards_left == 0 else "f_why_turns", lang)
        lines.append(Text(tr("f_ranking", lang, why=why), style="bold"))
        lines.extend(Text(item, style="bold") for item in items)
    out = Text()
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        out.append_text(line)
    return out


def _number(value: object, lang: str) -> str:
    """A fact's value in ``lang``'s way (``1,602`` / ``1 602``; one decimal when it has one)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    return format_number(value, lang, 0 if float(value).is_integer() else 1)


def render_card(card: int, lang: str = "en") -> Text:
    """One goal card on three lines: code, country, groups and flag tower; then its four
    facts, each after the scoring piece it rates (``O2 highest point Sněžka 1,602 m``)."""
    info = CARDS[card]
    groups = f" ({', '.join(info.groups)})" if info.groups else ""
    out = Text(tr("f_card", lang, code=info.code, country=info.country, groups=groups))
    out.append_text(pieces_line(info.tower))
    facts = info.facts
    size = {c: facts[c]["size"] for c in "OPCX"}
    text = tr(
        "f_facts",
        lang,
        o=f"O{size['O']}",
        peak=facts["O"].get("name", ""),
        height=_number(facts["O"]["value"], lang),
        p=f"P{size['P']}",
        people=_number(facts["P"]["value"], lang),
        c=f"C{size['C']}",
        temp=_number(facts["C"]["value"], lang),
        x=f"X{size['X']}",
        gdp=_number(facts["X"]["value"], lang),
    )
    # Colour each rated piece code (the first word of each fact) like the piece itself.
    for line in text.split("\n"):
        out.append("\n    ")
        for i, part in enumerate(line.split(" · ")):
            if i:
                out.append(" · ")
            code, _, rest = part.partition(" ")
            out.append(code, style=PIECE_STYLES[code[0]])
            out.append(" " + rest)
    return out


def render_flags_hand(cards: Sequence[int], label: str, lang: str = "en") -> Text:
    """``Hand of seat 0:`` then each card (see ``render_card``), or ``(empty)``."""
    out = Text()
    out.append(label, style="bold")
    if not cards:
        out.append(" " + tr("empty", lang), style=DIM)
        return out
    for card in cards:
        out.append("\n  ")
        out.append_text(render_card(card, lang))
    return out


def render_flags_position(
    view: FlagsView,
    lang: str = "en",
    names: Sequence[str] | None = None,
    *,
    width: int = 80,
    hand_label: str | None = None,
    legend: bool = True,
    turn_line: bool = True,
) -> RenderableType:
    """The towers, a legend and the status; the viewer's hand too when the view has one."""
    table = render_towers(view.towers, view.last_moved, width)
    if not view.towers:
        table = Text(tr("f_table_empty", lang), style=DIM)
    parts: list[RenderableType] = [table]
    if legend:
        parts.append(Text(tr("f_legend", lang), style=DIM))
    parts.append(render_flags_status(view, lang, names, turn_line=turn_line))
    if view.hand is not None and view.player is not None:
        who = _names(view, names, lang)[view.player]
        label = hand_label or tr("hand_of", lang, who=who)
        parts.append(render_flags_hand(view.hand, label, lang))
    return Group(*parts)


def render_flags_state(
    state: FlagsState,
    seat: int | None = None,
    lang: str = "en",
    names: Sequence[str] | None = None,
    *,
    width: int = 80,
    legend: bool = True,
    turn_line: bool = True,
) -> RenderableType:
    """A state drawn as ``seat`` sees it (None: a spectator, no hand shown)."""
    return render_flags_position(
        state.view(seat), lang, names, width=width, legend=legend, turn_line=turn_line
    )


def render_numbered(
    items: Sequence[tuple[int, str]], header: str = "", width: int = 80, digits: int = 0
) -> Text:
    """Options ``(number, label)`` as ``12) K1>K2`` laid out in columns that fit ``width``.

    The numbers are those of the whole list of legal actions, so a filtered list keeps
    them (``digits``: the width they are aligned to, default the widest here).
    """
    out = Text()
    if header:
        out.append(header + "\n", style="bold")
    if not items:
        return out
    digits = digits or len(str(max(n for n, _ in items)))
    cells = [f"{n:>{digits}}) {label}" for n, label in items]
    cell = max(len(s) for s in cells) + 2
    per_line = max(1, (width + 2) // cell)
    for i, item in enumerate(cells):
        if i and i % per_line == 0:
            out.append("\n")
        last_in_line = (i + 1) % per_line == 0 or i + 1 == len(cells)
        out.append(item if last_in_line else item.ljust(cell))
    return out


def render_flags_choices(labels: Sequence[str], header: str = "", width: int = 80) -> Text:
    """A numbered list ``1) K1>K2`` laid out in columns that fit ``width``."""
    return render_numbered([(i + 1, label) for i, label in enumerate(labels)], header, width)


def render_option_groups(
    groups: Sequence[tuple[str, Sequence[tuple[int, str]]]], header: str = "", width: int = 80
) -> Text:
    """Numbered options in titled groups (``K1 moves:`` then its moves), one block each."""
    out = Text()
    if header:
        out.append(header, style="bold")
    digits = len(str(max((n for _, items in groups for n, _ in items), default=1)))
    for title, items in groups:
        if not items:
            continue
        if out.plain:
            out.append("\n")
        if title:
            out.append(title + "\n", style="bold")
        out.append_text(render_numbered(items, "", width, digits))
    return out
