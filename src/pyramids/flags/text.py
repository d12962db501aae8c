"""Actions and positions as text (PF-NOTE, contract section 9), over ``FlagsPosition``.

Actions: ``W1>R2`` / ``B3>table`` (move), ``swap:CZE``, ``take:O2`` / ``take:O2@1``,
``done``, ``split:B3``, ``trade:O1:P2@1``, ``grow``, ``newstart``, ``pirate:1``,
``wild:R``, and the chance outcomes ``steal:CZE`` and ``deal:CZE`` (a new start deals
one card at a time). Positions are JSON objects; ``read_position`` refuses an
inconsistent one with the reason. ``game.position_from_json`` makes game states of them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pyramids.core.errors import ActionParseError, IllegalActionError, PositionError
from pyramids.core.fields import int_field, int_value, json_fact
from pyramids.core.game import Action
from pyramids.flags.actions import (
    DEAL_BASE,
    DONE,
    GROW,
    MAX_PLAYERS,
    MOVE_BASE,
    NEWSTART,
    NUM_ACTIONS,
    PIRATE_BASE,
    SPLIT_BASE,
    STEAL_BASE,
    SWAP_BASE,
    TABLE,
    TAKE_BASE,
    TRADE_BASE,
    WILD_BASE,
    WILD_COLOURS,
    deal_action,
    decode_move,
    decode_take,
    decode_trade,
    move_action,
    take_action,
    trade_action,
)
from pyramids.flags.cards import CODES, NUM_CARDS, PIECES_MASK, parse_card
from pyramids.flags.options import FlagsOptions
from pyramids.flags.pieces import (
    NAMES,
    NUM_PIECES,
    SIZE,
    is_flag_piece,
    is_scoring_piece,
    parse_piece,
)
from pyramids.flags.position import (
    ACTION,
    CAPTURE,
    DEAL,
    STEAL,
    FlagsPosition,
)
from pyramids.flags.rules import (
    action_options,
    capture_choices,
    deal_seat,
    group,
    is_built,
    rank,
    towers,
    tree_made,
)
from pyramids.flags.scoring import win_reason

# The notation's digits are ASCII (PF-NOTE-1): ``[0-9]``, not ``\d`` (which also matches
# other scripts' digits, e.g. ``take:O1@١``).
_MOVE_RE = re.compile(r"^([A-Za-z][0-9])\s*>\s*([A-Za-z][0-9]|table)$", re.IGNORECASE)
_WORD_RE = re.compile(r"^([a-z]+)\s*:\s*(.*)$", re.IGNORECASE)
_TAKE_RE = re.compile(r"^([A-Za-z][0-9])\s*(?:@\s*([0-9]+))?$")
_TRADE_RE = re.compile(r"^([A-Za-z][0-9])\s*:\s*([A-Za-z][0-9])\s*@\s*([0-9]+)$")
_SEAT_RE = re.compile(r"[0-9]+$")
_TOP_KEYS = {
    "rules",
    "players",
    "to_move",
    "turn",
    "towers",
    "bank",
    "scoring",
    "hands",
    "scored",
    "deck",
    "last_moved",
    "pending",
    "winner",
    "ranking",
    "events",  # written by `pyramids flags apply`; ignored on input
}


def action_to_text(action: Action) -> str:
    """An action in the notation (every card named)."""
    if action == DONE:
        return "done"
    if MOVE_BASE <= action < SWAP_BASE:
        lowest, target = decode_move(action)
        return f"{NAMES[lowest]}>{'table' if target == TABLE else NAMES[target]}"
    if SWAP_BASE <= action < TAKE_BASE:
        return f"swap:{CODES[action - SWAP_BASE]}"
    if TAKE_BASE <= action < SPLIT_BASE:
        piece, seat = decode_take(action)
        return f"take:{NAMES[piece]}" + ("" if seat is None else f"@{seat}")
    if SPLIT_BASE <= action < TRADE_BASE:
        return f"split:{NAMES[action - SPLIT_BASE]}"
    if TRADE_BASE <= action < GROW:
        mine, theirs, seat = decode_trade(action)
        return f"trade:{NAMES[mine]}:{NAMES[theirs]}@{seat}"
    if action == GROW:
        return "grow"
    if action == NEWSTART:
        return "newstart"
    if PIRATE_BASE <= action < WILD_BASE:
        return f"pirate:{action - PIRATE_BASE}"
    if WILD_BASE <= action < STEAL_BASE:
        return f"wild:{WILD_COLOURS[action - WILD_BASE]}"
    if STEAL_BASE <= action < DEAL_BASE:
        return f"steal:{CODES[action - STEAL_BASE]}"
    if DEAL_BASE <= action < NUM_ACTIONS:
        return f"deal:{CODES[action - DEAL_BASE]}"
    raise IllegalActionError("flags.not_an_action", value=json_fact(action))


def masked_action_text(pos: FlagsPosition, action: Action, viewer: int | None) -> str:
    """PF-VIEW-4: ``action`` (about to be applied to ``pos``) as ``viewer`` sees it.

    Another seat's exchanged card, a card stolen from someone else (``steal:?`` for all
    but thief and victim) and a card dealt to another seat (``deal:?``) are hidden.
    """
    if SWAP_BASE <= action < TAKE_BASE and viewer != pos.to_move:
        return "swap:?"
    if STEAL_BASE <= action < DEAL_BASE and (
        viewer is None or viewer not in (pos.to_move, pos.victim)
    ):
        return "steal:?"
    if DEAL_BASE <= action < NUM_ACTIONS and pos.pending == DEAL and viewer != deal_seat(pos):
        return "deal:?"
    return action_to_text(action)


def _seat(text: str, players: int, raw: str) -> int:
    seat = int(text)
    if not 0 <= seat < players:
        raise ActionParseError("flags.action_no_seat", action=raw, seat=seat, players=players)
    return seat


def _piece(text: str, raw: str) -> int:
    try:
        return parse_piece(text)
    except PositionError:
        raise ActionParseError("flags.action_unknown_piece", action=raw, value=text) from None


def _card(text: str, raw: str) -> int:
    try:
        return parse_card(text)
    except PositionError:
        raise ActionParseError("flags.action_unknown_card", action=raw, value=text) from None


def parse_action(text: str, players: int = MAX_PLAYERS) -> Action:
    """An action from text; ActionParseError when it is not an action of the game at all."""
    if not isinstance(text, str):
        raise ActionParseError("flags.action_not_text", value=json_fact(text))
    raw = text.strip()
    word = raw.lower()
    if word == "done":
        return DONE
    if word == "grow":
        return GROW
    if word == "newstart":
        return NEWSTART
    m = _MOVE_RE.match(raw)
    if m:
        lowest = _piece(m.group(1), raw)
        if not is_flag_piece(lowest):
            raise ActionParseError("flags.scoring_piece_moved", piece=NAMES[lowest])
        if m.group(2).lower() == "table":
            return move_action(lowest, TABLE)
        target = _piece(m.group(2), raw)
        if not is_flag_piece(target):
            raise ActionParseError("flags.scoring_piece_not_on_table", piece=NAMES[target])
        return move_action(lowest, target)
    m = _WORD_RE.match(raw)
    if not m:
        raise ActionParseError("flags.unreadable_action", action=raw)
    kind = m.group(1).lower()
    arg = m.group(2).strip()
    if kind == "swap":
        return SWAP_BASE + _card(arg, raw)
    if kind == "steal":
        return STEAL_BASE + _card(arg, raw)
    if kind == "take":
        t = _TAKE_RE.match(arg)
        if not t:
            raise ActionParseError("flags.bad_take", action=raw)
        piece = _piece(t.group(1), raw)
        if not is_scoring_piece(piece):
            raise ActionParseError("flags.flag_piece_taken", piece=NAMES[piece])
        seat = None if t.group(2) is None else _seat(t.group(2), players, raw)
        return take_action(piece, seat)
    if kind == "split":
        piece = _piece(arg, raw)
        if not is_flag_piece(piece):
            raise ActionParseError("flags.scoring_piece_not_on_table", piece=NAMES[piece])
        return SPLIT_BASE + piece
    if kind == "trade":
        t = _TRADE_RE.match(arg)
        if not t:
            raise ActionParseError("flags.bad_trade", action=raw)
        mine = _piece(t.group(1), raw)
        theirs = _piece(t.group(2), raw)
        if not (is_scoring_piece(mine) and is_scoring_piece(theirs)):
            raise ActionParseError("flags.flag_piece_traded", action=raw)
        return trade_action(mine, theirs, _seat(t.group(3), players, raw))
    if kind == "pirate":
        if not _SEAT_RE.match(arg):
            raise ActionParseError("flags.bad_pirate", action=raw)
        return PIRATE_BASE + _seat(arg, players, raw)
    if kind == "wild":
        colour = arg.upper()
        if len(colour) != 1 or colour not in WILD_COLOURS:
            raise ActionParseError("flags.bad_wild", action=raw)
        return WILD_BASE + WILD_COLOURS.index(colour)
    if kind == "deal":
        if arg == "?":
            raise ActionParseError("flags.masked_deal", action=raw)
        if "," in arg:
            raise ActionParseError("flags.deal_one_card", action=raw)
        return deal_action(_card(arg, raw))
    raise ActionParseError("flags.unknown_action_word", action=raw, word=kind)


# --- positions ----------------------------------------------------------------------------


def pending_json(pos: FlagsPosition) -> dict[str, Any]:
    """PF-NOTE-2: the pending decision or chance point as the notation's ``pending`` ({} if none)."""
    kind = pos.pending
    if kind == CAPTURE:
        return {
            "player": pos.player,
            "kind": "capture",
            "card": CODES[pos.card],
            "taken": [NAMES[p] for p in pos.taken],
        }
    if kind == ACTION:
        return {"player": pos.to_move, "kind": "action", "colour": pos.colour}
    if kind == STEAL:
        return {"kind": "steal", "from": pos.victim}
    if kind == DEAL:
        return {"kind": "deal", "cards": [CODES[c] for c in pos.to_deal]}
    return {}


def position_to_json(pos: FlagsPosition) -> dict[str, Any]:
    """PF-NOTE-2, PF-NOTE-4: the position as the contract's JSON object.

    Towers in piece order of their bottoms, hands in the order the cards came in.
    """
    data: dict[str, Any] = {
        "rules": pos.options.to_json(),
        "players": len(pos.hands),
        "to_move": pos.to_move,
        "turn": pos.turn,
        "towers": [[NAMES[p] for p in t] for t in towers(pos)],
        "bank": [NAMES[p] for p in range(NUM_PIECES) if (pos.bank >> p) & 1],
        "scoring": [[NAMES[p] for p in range(NUM_PIECES) if (m >> p) & 1] for m in pos.scoring],
        "hands": [[CODES[c] for c in h] for h in pos.hands],
        "scored": [[CODES[c] for c in s] for s in pos.scored],
        "deck": [CODES[c] for c in pos.deck],
        "last_moved": [NAMES[p] for p in pos.last],
    }
    pending = pending_json(pos)
    if pending:
        data["pending"] = pending
    if pos.winner >= 0:
        data["winner"] = pos.winner
    if pos.ranking is not None:
        data["ranking"] = list(pos.ranking)
    return data


def _code_list(value: Any, field: str, kind: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise PositionError("flags.not_a_code_list", field=field, kind=kind)
    return value


def _per_seat(data: Mapping[str, Any], name: str, players: int, kind: str) -> list[list[str]]:
    value = data.get(name)
    if value is None:
        raise PositionError("position.missing_field", field=name)
    if not isinstance(value, list) or len(value) != players:
        raise PositionError("flags.not_per_seat", field=name, players=players)
    return [_code_list(v, f"{name}[{s}]", kind) for s, v in enumerate(value)]


def read_position(data: Mapping[str, Any]) -> FlagsPosition:
    """PF-NOTE-2, PF-NOTE-3: a position from the contract's JSON; PositionError says what is
    inconsistent (a piece or card missing, twice or misplaced, a win not declared, a
    ``pending`` that play cannot reach ...)."""
    if not isinstance(data, Mapping):
        raise PositionError("position.not_an_object", field=None)
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise PositionError("position.unknown_fields", field=None, fields=unknown)
    options = FlagsOptions.from_json(data.get("rules", {}))
    players = int_field(data, "players", low=2, high=MAX_PLAYERS)
    pos = FlagsPosition.start(
        players, FlagsOptions(actions=options.actions, max_turns=options.max_turns)
    )
    to_move = int_field(data, "to_move", 0, low=0, high=players - 1)
    turn = int_field(data, "turn", 1, low=1, high=options.max_turns)
    pos.to_move = to_move
    pos.turn = turn

    # Pieces: every flag piece in exactly one tower, every scoring piece in the bank or a hold.
    where: dict[int, str] = {}

    def claim(piece: int, place: str) -> None:
        """Record where ``piece`` is; PositionError if it was already somewhere."""
        if piece in where:
            raise PositionError(
                "flags.piece_twice", piece=NAMES[piece], first=where[piece], second=place
            )
        where[piece] = place

    towers = data.get("towers")
    if not isinstance(towers, list):
        raise PositionError("flags.towers_not_list")
    below = pos.below
    above = pos.above
    for i, tower in enumerate(towers):
        codes = _code_list(tower, f"towers[{i}]", "piece")
        if not codes:
            raise PositionError("flags.empty_tower", field=f"towers[{i}]")
        prev = -1
        for code in codes:
            p = parse_piece(code, f"towers[{i}]")
            if not is_flag_piece(p):
                raise PositionError("flags.scoring_piece_on_table", piece=NAMES[p])
            claim(p, f"towers[{i}]")
            if prev >= 0:
                if SIZE[p] > SIZE[prev]:
                    raise PositionError("flags.on_smaller_piece", piece=NAMES[p], below=NAMES[prev])
                below[p] = prev
                above[prev] = p
            prev = p
    bank = _code_list(data.get("bank", []), "bank", "piece")
    for code in bank:
        p = parse_piece(code, "bank")
        if not is_scoring_piece(p):
            raise PositionError("flags.flag_piece_off_table", piece=NAMES[p], field="bank")
        claim(p, "bank")
    scoring = _per_seat(data, "scoring", players, "piece")
    for s, codes in enumerate(scoring):
        for code in codes:
            p = parse_piece(code, f"scoring[{s}]")
            if not is_scoring_piece(p):
                raise PositionError(
                    "flags.flag_piece_off_table", piece=NAMES[p], field=f"scoring[{s}]"
                )
            claim(p, f"scoring[{s}]")
            pos.scoring[s] |= 1 << p
    missing = [NAMES[p] for p in range(NUM_PIECES) if p not in where]
    if missing:
        raise PositionError("flags.pieces_missing", pieces=missing)
    pos.bank = 0
    for code in bank:
        pos.bank |= 1 << parse_piece(code)

    # Cards: each of the 36 exactly once, in a hand, face up, or in the deck.
    seen: dict[int, str] = {}

    def take_card(code: str, place: str) -> int:
        """Parse a card found at ``place``; PositionError if unknown or already seen."""
        c = parse_card(code, place)
        if c in seen:
            raise PositionError("flags.card_twice", card=CODES[c], first=seen[c], second=place)
        seen[c] = place
        return c

    hands = _per_seat(data, "hands", players, "card")
    scored = _per_seat(data, "scored", players, "card")
    for s in range(players):
        pos.hands[s] = [take_card(x, f"hands[{s}]") for x in hands[s]]
        pos.scored[s] = tuple(take_card(x, f"scored[{s}]") for x in scored[s])
    deck = _code_list(data.get("deck", []), "deck", "card")
    pos.deck = [take_card(x, "deck") for x in deck]
    pending = data.get("pending")
    dealing = isinstance(pending, Mapping) and pending.get("kind") == "deal"
    if isinstance(pending, Mapping) and dealing and "cards" in pending:
        left = _code_list(pending["cards"], "pending.cards", "card")
        pos.to_deal = tuple(sorted(take_card(x, "pending.cards") for x in left))
    if len(seen) != NUM_CARDS:
        gone = [CODES[c] for c in range(NUM_CARDS) if c not in seen]
        raise PositionError("flags.cards_missing", cards=gone)

    last = _code_list(data.get("last_moved", []), "last_moved", "piece")
    moved = [parse_piece(x, "last_moved") for x in last]
    if any(not is_flag_piece(p) for p in moved):
        raise PositionError("flags.last_moved_not_flag_pieces")
    if len(set(moved)) != len(moved):
        raise PositionError("flags.last_moved_twice")
    pos.last = tuple(moved)
    pos.last_mask = sum(1 << p for p in moved)

    winner = data.get("winner")
    ranking = data.get("ranking")
    if pos.to_deal and not dealing:
        raise PositionError("flags.deal_not_pending")
    if winner is not None or ranking is not None:
        _load_end(pos, winner, ranking, pending)
        return pos
    for s in range(players):
        reason = win_reason(pos.scored[s], pos.scoring[s])
        if reason is not None:
            raise PositionError("flags.win_undeclared", seat=s, **_reason_facts(reason))
    if pending is None:
        if not pos.deck and not any(pos.hands):
            raise PositionError("flags.end_undeclared")
        return pos
    _load_pending(pos, pending)
    return pos


def _reason_facts(reason: tuple[str, str | int]) -> dict[str, str | int]:
    """A win reason as facts: ``win`` (flags, group or points) and its ``detail``."""
    kind, detail = reason
    return {"win": kind, "detail": detail}


def _load_end(pos: FlagsPosition, winner: Any, ranking: Any, pending: Any) -> None:
    players = len(pos.hands)
    if pending is not None:
        raise PositionError("flags.ended_with_pending")
    if winner is not None and ranking is not None:
        raise PositionError("flags.winner_and_ranking")
    if winner is not None:
        winner = int_value(winner, "winner", low=0, high=players - 1)
        if win_reason(pos.scored[winner], pos.scoring[winner]) is None:
            raise PositionError("flags.winner_without_win", seat=winner)
        pos.winner = winner
        return
    if not isinstance(ranking, list) or len(ranking) != players:
        raise PositionError("flags.bad_ranking", value=json_fact(ranking), players=players)
    for i, r in enumerate(ranking):
        int_value(r, f"ranking[{i}]", low=1, high=players)
    for s in range(players):
        if win_reason(pos.scored[s], pos.scoring[s]) is not None:
            raise PositionError("flags.ranking_with_win", seat=s)
    expected = rank(pos)
    if ranking != expected:
        raise PositionError("flags.wrong_ranking", value=ranking, expected=expected)
    pos.ranking = list(ranking)


def _built_in_hands(pos: FlagsPosition, seats: list[int]) -> dict[str, Any] | None:
    """The first of ``seats`` holding a card whose flag stands, as facts (``seat``, ``card``)."""
    for s in seats:
        for c in pos.hands[s]:
            if is_built(pos, c):
                return {"seat": s, "card": CODES[c]}
    return None


def _load_pending(pos: FlagsPosition, pending: Any) -> None:
    players = len(pos.hands)
    to_move = pos.to_move
    if not isinstance(pending, Mapping):
        raise PositionError("position.not_an_object", field="pending")
    kind = pending.get("kind")
    allowed = {
        "capture": {"player", "kind", "card", "taken"},
        "action": {"player", "kind", "colour"},
        "steal": {"kind", "from"},
        "deal": {"kind", "cards"},
    }
    if not isinstance(kind, str) or kind not in allowed:
        raise PositionError("flags.bad_pending_kind", value=json_fact(kind))
    extra = sorted(set(pending) - allowed[kind])
    if extra:
        raise PositionError("position.unknown_fields", field="pending", fields=extra)
    if kind != "capture" and not pos.options.actions:
        raise PositionError("flags.pending_needs_actions", kind=kind)
    moved = pos.last
    made = tree_made(moved[0], pos.below, pos.above) if moved else ""
    if kind == "capture":
        player = int_field(pending, "player", low=0, high=players - 1, field="pending.player")
        card = parse_card(pending.get("card"), "pending.card")
        if not pos.scored[player] or pos.scored[player][-1] != card:
            raise PositionError("flags.capture_not_last_scored", card=CODES[card], seat=player)
        if not is_built(pos, card):
            raise PositionError("flags.capture_flag_down", card=CODES[card])
        if not moved or group(pos, moved[0]) != list(moved):
            raise PositionError("flags.capture_not_last_group")
        taken_codes = _code_list(pending.get("taken", []), "pending.taken", "piece")
        taken = [parse_piece(x, "pending.taken") for x in taken_codes]
        if len(taken) > 1:
            raise PositionError("flags.capture_two_takes")
        for p in taken:
            if not (PIECES_MASK[card] >> p) & 1:
                raise PositionError("flags.capture_not_shown", piece=NAMES[p], card=CODES[card])
            if not (pos.scoring[player] >> p) & 1:
                raise PositionError("flags.capture_taken_not_held", seat=player, piece=NAMES[p])
        if not capture_choices(pos, player, card, taken):
            raise PositionError("flags.capture_nothing_left")
        passed = []
        s = to_move
        while s != player:
            passed.append(s)
            s = (s + 1) % players
        problem = _built_in_hands(pos, passed)
        if problem:
            raise PositionError("flags.capture_scoring_over", **problem)
        pos.pending = CAPTURE
        pos.player = player
        pos.card = card
        pos.taken = tuple(taken)
        pos.tree = made if pos.options.actions else ""
        return
    problem = _built_in_hands(pos, list(range(players)))
    if problem:
        raise PositionError("flags.scoring_before_tree", kind=kind, **problem)
    if kind == "action":
        player = pending.get("player", to_move)
        if player != to_move:
            raise PositionError("flags.action_player_not_mover")
        colour = pending.get("colour")
        if not isinstance(colour, str) or colour not in ("R", "B", "G", "Y", "K", "W"):
            raise PositionError("flags.bad_colour", value=json_fact(colour))
        if colour != "R" and made not in (colour, "W"):
            raise PositionError("flags.action_no_tree", colour=colour)
        pos.colour = colour
        if not action_options(pos, colour):
            raise PositionError("flags.action_lapses", colour=colour)
        pos.pending = ACTION
        pos.player = to_move
        return
    if kind == "steal":
        victim = int_field(pending, "from", low=0, high=players - 1, field="pending.from")
        if victim == to_move:
            raise PositionError("flags.steal_from_self")
        if not pos.hands[victim]:
            raise PositionError("flags.steal_empty_hand", seat=victim)
        if made not in ("K", "W"):
            raise PositionError("flags.steal_no_tree")
        pos.pending = STEAL
        pos.victim = victim
        return
    if made not in ("Y", "W"):
        raise PositionError("flags.deal_no_tree")
    if "cards" not in pending:
        # The deal has not begun: every hand is gathered (as ``newstart`` does).
        pos.to_deal = tuple(sorted(c for h in pos.hands for c in h))
        pos.hands = [[] for _ in range(players)]
    if not pos.to_deal:
        raise PositionError("flags.deal_nothing_left")
    dealt = sum(len(h) for h in pos.hands)
    for k in range(players):
        want = dealt // players + (1 if k < dealt % players else 0)
        seat = (to_move + k) % players
        if len(pos.hands[seat]) != want:
            raise PositionError(
                "flags.deal_uneven",
                dealt=dealt,
                first=to_move,
                seat=seat,
                expected=want,
                value=len(pos.hands[seat]),
            )
    pos.pending = DEAL
