"""Pyramids and Flags' RL encoding: 1044 action indices and a 951-float observation (docs/RL.md).

Named by the game's descriptor (``rl_encoding``); ``pyramids.rl.spaces.encoding_for``
finds it through the registry. See ``pyramids.games.encoding`` for what an encoding is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from pyramids.core.game import Action, Game
from pyramids.flags.actions import (
    GROW,
    MOVE_BASE,
    PIRATE_BASE,
    SPLIT_BASE,
    STEAL_BASE,
    SWAP_BASE,
    TAKE_BASE,
    TRADE_BASE,
    WILD_BASE,
    WILD_COLOURS,
)
from pyramids.flags.actions import (
    MAX_PLAYERS as FLAGS_MAX_PLAYERS,
)
from pyramids.flags.cards import BY_CODE, NUM_CARDS
from pyramids.flags.pieces import BY_NAME as PIECE_BY_NAME
from pyramids.flags.pieces import FIRST_SCORING, NUM_FLAG_PIECES, NUM_PIECES
from pyramids.flags.pieces import NAMES as PIECE_NAMES
from pyramids.flags.scoring import points
from pyramids.flags.view import FlagsView
from pyramids.games.encoding import OBS_HIGH, OBS_LOW, Encoding, Obs

FLAGS_NUM_ACTIONS = STEAL_BASE
"""1044: the engine's own numbers below the chance outcomes, with seats made relative."""
TREE_COLOURS = "RBGYKW"
_PENDING_KINDS = ("none", "capture", "action", "steal", "deal")
_NUM_SCORING = NUM_PIECES - FIRST_SCORING
_CARD_FEATURES = (
    "in_my_hand",
    *(f"scored_{j}" for j in range(FLAGS_MAX_PLAYERS)),
    *(f"known_in_hand_{j}" for j in range(FLAGS_MAX_PLAYERS)),
    "known_in_deck",
    "deck_position",
    "unknown",
    "capturing",
)
_FLAGS_SEAT_FEATURES = ("present", "hand_size", "points", "scored", "to_move", "first")
_FLAGS_GLOBAL = (
    "deck_size",
    "turn",
    *(f"pending_{k}" for k in _PENDING_KINDS),
    "my_decision",
    *(f"action_{c}" for c in TREE_COLOURS),
    *(f"tree_{c}" for c in TREE_COLOURS),
    *(f"steal_from_{j}" for j in range(FLAGS_MAX_PLAYERS)),
    "actions_option",
    "terminal",
    "players",
)


def _seat_field(action: Action) -> tuple[int, int, int] | None:
    """(base, seat, offset) of an action that names a seat, else None: action = base + offset + seat.

    Takes carry 0 for the bank and 1 + seat (offset 1); trades and pirates the seat itself.
    """
    if TAKE_BASE <= action < SPLIT_BASE:
        src = (action - TAKE_BASE) % (FLAGS_MAX_PLAYERS + 1)
        return (action - src, src - 1, 1) if src else None
    if TRADE_BASE <= action < GROW:
        seat = (action - TRADE_BASE) % FLAGS_MAX_PLAYERS
        return action - seat, seat, 0
    if PIRATE_BASE <= action < WILD_BASE:
        return PIRATE_BASE, action - PIRATE_BASE, 0
    return None


MAX_DECISIONS_PER_TURN = 1 + 3 * NUM_CARDS + 2 + 18
"""A bound on decisions in one turn: the move, at most three capture choices per scored
card (36 cards), a white tree's colour, the action itself and up to 18 splits."""


class FlagsEncoding(Encoding):
    """Pyramids and Flags: 1044 action indices and a 951-float observation.

    The indices are the engine's numbers (``flags.actions``: done 0, moves, swaps,
    takes, splits, trades, grow, newstart, pirate, wild), except that every seat an
    action names (``take:P@S``, ``trade:M:T@S``, ``pirate:S``) is counted from the
    deciding seat: 1 = the next seat in turn order. Steals and deals are chance.
    """

    num_actions = FLAGS_NUM_ACTIONS
    max_players = FLAGS_MAX_PLAYERS
    layout = (
        ("below", (NUM_FLAG_PIECES, NUM_FLAG_PIECES + 1)),
        ("moved", (NUM_FLAG_PIECES,)),
        ("scoring", (_NUM_SCORING, 1 + FLAGS_MAX_PLAYERS)),
        ("taken", (_NUM_SCORING,)),
        ("cards", (NUM_CARDS, len(_CARD_FEATURES))),
        ("seats", (FLAGS_MAX_PLAYERS, len(_FLAGS_SEAT_FEATURES))),
        ("global", (len(_FLAGS_GLOBAL),)),
    )
    card_features = _CARD_FEATURES
    seat_features = _FLAGS_SEAT_FEATURES
    global_features = _FLAGS_GLOBAL

    max_chance_outcomes = NUM_CARDS
    """The most outcomes one chance point lists (a card dealt or stolen: 36 cards)."""

    @staticmethod
    def max_game_length(game: Game) -> int:
        """A bound on player decisions: max_turns turns of at most ``MAX_DECISIONS_PER_TURN``."""
        return int(game.options["max_turns"]) * MAX_DECISIONS_PER_TURN

    def to_index(self, action: Action, seat: int) -> int:
        """The index of ``action``: the engine number, its seat made relative to ``seat``."""
        if not 0 <= action < STEAL_BASE:
            return -1
        field = _seat_field(action)
        if field is None:
            return action
        base, s, offset = field
        return base + offset + (s - seat) % self.players

    def render(self, view: Any) -> str:
        """The public towers (bottom first), then whose turn it is, points, flags and deck."""
        towers = " | ".join(" ".join(PIECE_NAMES[p] for p in t) for t in view.towers)
        lines = [f"towers (bottom first): {towers}"]
        lines.append(
            f"turn {view.turn}  to move: player_{view.to_move}  "
            f"points {[view.points(s) for s in range(view.players)]}  "
            f"flags {[len(s) for s in view.scored]}  deck {view.deck_size}"
        )
        return "\n".join(lines)

    def observe(self, view: Any, seat: int | None = None, out: Obs | None = None) -> Obs:
        """The vector of a FlagsView (see docs/RL.md for every feature)."""
        if not isinstance(view, FlagsView):
            raise TypeError("FlagsEncoding observes FlagsView objects")
        me = seat if seat is not None else (view.player if view.player is not None else 0)
        n = view.players
        buf = self._buffer(out)
        parts = self._parts(buf)

        def rel(s: int) -> int:
            return (s - me) % n

        below = parts["below"]
        for tower in view.towers:
            under = NUM_FLAG_PIECES
            for p in tower:
                below[p, under] = 1.0
                under = p
        for p in view.last_moved:
            parts["moved"][p] = 1.0
        scoring = parts["scoring"]
        for p in view.bank:
            scoring[p - FIRST_SCORING, 0] = 1.0
        for s in range(n):
            mask = view.scoring[s]
            for i in range(_NUM_SCORING):
                if (mask >> (FIRST_SCORING + i)) & 1:
                    scoring[i, 1 + rel(s)] = 1.0
        pending = view.pending
        kind = str(pending.get("kind", "none")) if pending else "none"
        if kind == "capture":
            for name in pending.get("taken", ()):
                parts["taken"][PIECE_BY_NAME[name] - FIRST_SCORING] = 1.0
        cards = parts["cards"]
        c = {name: i for i, name in enumerate(_CARD_FEATURES)}
        located = np.zeros(NUM_CARDS, dtype=bool)
        if view.hand is not None:
            for card in view.hand:
                cards[card, c["in_my_hand"]] = 1.0
                located[card] = True
        for s in range(n):
            for card in view.scored[s]:
                cards[card, c[f"scored_{rel(s)}"]] = 1.0
                located[card] = True
            for card in view.known_hands[s]:
                cards[card, c[f"known_in_hand_{rel(s)}"]] = 1.0
                located[card] = True
        for i, card in view.known_deck:
            cards[card, c["known_in_deck"]] = 1.0
            cards[card, c["deck_position"]] = (i + 1) / NUM_CARDS
            located[card] = True
        cards[~located, c["unknown"]] = 1.0
        if kind == "capture":
            cards[BY_CODE[pending["card"]], c["capturing"]] = 1.0
        seats = parts["seats"]
        g = {name: i for i, name in enumerate(_FLAGS_SEAT_FEATURES)}
        for s in range(n):
            j = rel(s)
            seats[j, g["present"]] = 1.0
            seats[j, g["hand_size"]] = view.hand_sizes[s] / 8.0
            seats[j, g["points"]] = points(view.scoring[s]) / 28.0
            seats[j, g["scored"]] = len(view.scored[s]) / 5.0
            seats[j, g["to_move"]] = float(view.to_move == s)
            first = view.winner == s or (view.ranking is not None and view.ranking[s] == 1)
            seats[j, g["first"]] = float(first)
        glob = parts["global"]
        h = {name: i for i, name in enumerate(_FLAGS_GLOBAL)}
        options: Mapping[str, Any] = view.options
        glob[h["deck_size"]] = view.deck_size / NUM_CARDS
        glob[h["turn"]] = view.turn / max(1, int(options.get("max_turns", 3000)))
        glob[h[f"pending_{kind}"]] = 1.0
        decider = (
            int(pending["player"])
            if kind == "capture"
            else view.to_move
            if kind in ("none", "action")
            else -1
        )
        glob[h["my_decision"]] = float(decider == me and not view.is_terminal)
        if kind == "action":
            glob[h[f"action_{pending['colour']}"]] = 1.0
        if view.tree:
            glob[h[f"tree_{view.tree}"]] = 1.0
        if kind == "steal":
            glob[h[f"steal_from_{rel(int(pending['from']))}"]] = 1.0
        glob[h["actions_option"]] = float(bool(options.get("actions", True)))
        glob[h["terminal"]] = float(view.is_terminal)
        glob[h["players"]] = n / FLAGS_MAX_PLAYERS
        np.clip(buf, OBS_LOW, OBS_HIGH, out=buf)
        return buf


def flags_index_name(index: int) -> str:
    """A short description of a Pyramids and Flags index's kind (for docs and debugging)."""
    for base, name in (
        (WILD_BASE, "wild"),
        (PIRATE_BASE, "pirate"),
        (GROW + 1, "newstart"),
        (GROW, "grow"),
        (TRADE_BASE, "trade"),
        (SPLIT_BASE, "split"),
        (TAKE_BASE, "take"),
        (SWAP_BASE, "swap"),
        (MOVE_BASE, "move"),
    ):
        if index >= base:
            return name
    return "done"


__all__ = [
    "FLAGS_MAX_PLAYERS",
    "FLAGS_NUM_ACTIONS",
    "TREE_COLOURS",
    "WILD_COLOURS",
    "FlagsEncoding",
    "flags_index_name",
]
