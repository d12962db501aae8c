"""Pebble Pyramid's host-side parts: terminal interface and RL encoding (its words are
``tests.thirdgame.texts``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from rich.console import RenderableType
from rich.text import Text

from pyramids.cli.game_ui import BaseUI, CommandTexts
from pyramids.cli.terminal import PlayerLeftError, Seats, Terminal
from pyramids.core.errors import PyramidsError
from pyramids.core.game import Action, State
from pyramids.games.encoding import Encoding, Obs
from tests.thirdgame.rules import HEADS, TAILS, PebblesView, spot, spot_name


def draw(view: PebblesView) -> str:
    """The pyramid, top row first, then the scores (and the viewer's secret)."""
    tiles = dict(view.tiles)
    lines = []
    for row in reversed(range(view.rows)):
        cells = [str(tiles.get(spot(row, c), ".")) for c in range(view.rows - row)]
        lines.append(" " * row + " ".join(cells))
    lines.append(f"scores: {view.scores[0]} - {view.scores[1]}; seat {view.to_move} to move")
    if view.secret is not None:
        lines.append(f"your secret number: {view.secret}")
    return "\n".join(lines)


class UI(BaseUI):
    """The terminal interface: draws the pyramid, reads ``take:r,c``."""

    commands = CommandTexts("Pebble Pyramid positions: apply actions, draw a position.")

    def render(
        self,
        state: State,
        seat: int | None,
        lang: str,
        names: Sequence[str] | None = None,
        *,
        legend: bool = True,
        turn_line: bool = True,
        width: int = 80,
    ) -> RenderableType:
        """The pyramid as ``seat`` sees it."""
        view = state.view(seat)
        assert isinstance(view, PebblesView)
        return Text(draw(view))

    def ask(self, term: Terminal, state: State, seat: int, seats: Seats) -> Action:
        """Read ``take:r,c`` until it is legal."""
        term.show(self.render(state, seat, term.lang))
        while True:
            line = term.ask("your move (take:r,c): ")
            if line is None:
                raise PlayerLeftError("eof")
            try:
                return state.parse_action(line)
            except PyramidsError as exc:
                term.show(str(exc))


class PebblesEncoding(Encoding):
    """Actions: one index per spot of a 4-row pyramid; observation: tiles, scores, secret."""

    num_actions = 10
    max_players = 2
    layout = (("tiles", (10,)), ("scores", (2,)), ("secret", (1,)))
    _SPOTS = tuple(spot(r, c) for r in range(4) for c in range(4 - r))

    def to_index(self, action: Action, seat: int) -> int:
        """The spot's index (-1 for the coin)."""
        if action in (HEADS, TAILS):
            return -1
        return self._SPOTS.index(action) if action in self._SPOTS else -1

    def observe(self, view: Any, seat: int | None = None, out: Obs | None = None) -> Obs:
        """Tile numbers by spot, both scores from the viewer's side, the viewer's secret."""
        buf = self._buffer(out)
        parts = self._parts(buf)
        tiles = dict(view.tiles)
        for i, k in enumerate(self._SPOTS):
            parts["tiles"][i] = tiles.get(k, 0)
        me = view.player if seat is None else seat
        me = 0 if me is None else me
        parts["scores"][0] = min(view.scores[me], 8)
        parts["scores"][1] = min(view.scores[1 - me], 8)
        parts["secret"][0] = view.secret or 0
        return buf.astype(np.float32, copy=False)

    def render(self, view: Any) -> str:
        """The drawing of ``draw``."""
        return draw(view)


__all__ = ["UI", "PebblesEncoding", "spot_name"]
