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

from pyramids.core.errors import ActionParseError, PositionError
from pyramids.core.fields import int_field
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

_MOVE_RE = re.compile(r"^([A-Za-z]\d)\s*>\s*([A-Za-z]\d|table)$", re.IGNORECASE)
_WORD_RE = re.compile(r"^([a-z]+)\s*:\s*(.*)$", re.IGNORECASE)
_TAKE_RE = re.compile(r"^([A-Za-z]\d)\s*(?:@\s*(\d+))?$")
_TRADE_RE = re.compile(r"^([A-Za-z]\d)\s*:\s*([A-Za-z]\d)\s*@\s*(\d+)$")
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
    raise ValueError(f"{action!r} is not an action of Pyramids and Flags")


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


def _seat(text: str, players: int, what: str) -> int:
    seat = int(text)
    if not 0 <= seat < players:
        raise ActionParseError(f"{what}: no seat {seat} in a {players}-player game")
    return seat


def _piece(text: str, what: str) -> int:
    try:
        return parse_piece(text, what)
    except PositionError as exc:
        raise ActionParseError(str(exc)) from None


def _card(text: str, what: str) -> int:
    try:
        return parse_card(text, what)
    except PositionError as exc:
        raise ActionParseError(str(exc)) from None


def parse_action(text: str, players: int = MAX_PLAYERS) -> Action:
    """An action from text; ActionParseError when it is not an action of the game at all."""
    if not isinstance(text, str):
        raise ActionParseError(f"an action must be text, not {text!r}")
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
        lowest = _piece(m.group(1), "moved piece")
        if not is_flag_piece(lowest):
            raise ActionParseError(f"{NAMES[lowest]} is a scoring piece: only flag pieces move")
        if m.group(2).lower() == "table":
            return move_action(lowest, TABLE)
        target = _piece(m.group(2), "target piece")
        if not is_flag_piece(target):
            raise ActionParseError(f"{NAMES[target]} is a scoring piece: it is never on the table")
        return move_action(lowest, target)
    m = _WORD_RE.match(raw)
    if not m:
        raise ActionParseError(
            f"cannot read action {raw!r}: expected LOWEST>TARGET (e.g. W1>R2, B3>table), "
            "swap:CARD, take:PIECE[@SEAT], done, split:PIECE, trade:MINE:THEIRS@SEAT, grow, "
            "newstart, pirate:SEAT, wild:R|B|G|Y|K, steal:CARD or deal:CARD"
        )
    kind = m.group(1).lower()
    arg = m.group(2).strip()
    if kind == "swap":
        return SWAP_BASE + _card(arg, "swapped card")
    if kind == "steal":
        return STEAL_BASE + _card(arg, "stolen card")
    if kind == "take":
        t = _TAKE_RE.match(arg)
        if not t:
            raise ActionParseError(f"{raw!r}: expected take:PIECE or take:PIECE@SEAT")
        piece = _piece(t.group(1), "taken piece")
        if not is_scoring_piece(piece):
            raise ActionParseError(f"{NAMES[piece]} is a flag piece: only scoring pieces are taken")
        seat = None if t.group(2) is None else _seat(t.group(2), players, raw)
        return take_action(piece, seat)
    if kind == "split":
        piece = _piece(arg, "split tower")
        if not is_flag_piece(piece):
            raise ActionParseError(f"{NAMES[piece]} is a scoring piece: it is never on the table")
        return SPLIT_BASE + piece
    if kind == "trade":
        t = _TRADE_RE.match(arg)
        if not t:
            raise ActionParseError(f"{raw!r}: expected trade:MINE:THEIRS@SEAT (e.g. trade:O1:P2@1)")
        mine = _piece(t.group(1), "traded piece")
        theirs = _piece(t.group(2), "traded piece")
        if not (is_scoring_piece(mine) and is_scoring_piece(theirs)):
            raise ActionParseError(f"{raw!r}: only scoring pieces (O P C X) are traded")
        return trade_action(mine, theirs, _seat(t.group(3), players, raw))
    if kind == "pirate":
        if not arg.isdigit():
            raise ActionParseError(f"{raw!r}: expected pirate:SEAT")
        return PIRATE_BASE + _seat(arg, players, raw)
    if kind == "wild":
        colour = arg.upper()
        if len(colour) != 1 or colour not in WILD_COLOURS:
            raise ActionParseError(f"{raw!r}: the wild action names R, B, G, Y or K")
        return WILD_BASE + WILD_COLOURS.index(colour)
    if kind == "deal":
        if arg == "?":
            raise ActionParseError(
                f"{raw!r} hides the card (?): a masked deal is for showing, it cannot be applied"
            )
        if "," in arg:
            raise ActionParseError(
                f"{raw!r}: a new start deals one card at a time: deal:CARD (e.g. deal:CZE)"
            )
        return deal_action(_card(arg, "dealt card"))
    raise ActionParseError(f"cannot read action {raw!r}: unknown word {kind!r}")


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


def _code_list(value: Any, what: str, kind: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise PositionError(f"{what} must be a list of {kind} codes")
    return value


def _per_seat(data: Mapping[str, Any], name: str, players: int, kind: str) -> list[list[str]]:
    value = data.get(name)
    if value is None:
        raise PositionError(f"the position has no '{name}'")
    if not isinstance(value, list) or len(value) != players:
        raise PositionError(f"'{name}' must be a list of {players} lists (one per seat)")
    return [_code_list(v, f"{name}[{s}]", kind) for s, v in enumerate(value)]


def read_position(data: Mapping[str, Any]) -> FlagsPosition:
    """PF-NOTE-2, PF-NOTE-3: a position from the contract's JSON; PositionError says what is
    inconsistent (a piece or card missing, twice or misplaced, a win not declared, a
    ``pending`` that play cannot reach ...)."""
    if not isinstance(data, Mapping):
        raise PositionError("a position must be a JSON object")
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise PositionError(f"unknown position field(s): {', '.join(unknown)}")
    options = FlagsOptions.from_json(data.get("rules", {}))
    players = int_field(data, "players")
    if not 2 <= players <= MAX_PLAYERS:
        raise PositionError(f"'players' must be 2 to {MAX_PLAYERS}, not {players}")
    pos = FlagsPosition.start(
        players, FlagsOptions(actions=options.actions, max_turns=options.max_turns)
    )
    to_move = int_field(data, "to_move", 0)
    if not 0 <= to_move < players:
        raise PositionError(f"'to_move' must be a seat from 0 to {players - 1}, not {to_move}")
    turn = int_field(data, "turn", 1)
    if not 1 <= turn <= options.max_turns:
        raise PositionError(f"'turn' must be from 1 to max_turns ({options.max_turns}), not {turn}")
    pos.to_move = to_move
    pos.turn = turn

    # Pieces: every flag piece in exactly one tower, every scoring piece in the bank or a hold.
    where: dict[int, str] = {}

    def claim(piece: int, place: str) -> None:
        """Record where ``piece`` is; PositionError if it was already somewhere."""
        if piece in where:
            raise PositionError(f"{NAMES[piece]} is listed twice: in {where[piece]} and in {place}")
        where[piece] = place

    towers = data.get("towers")
    if not isinstance(towers, list):
        raise PositionError(
            "'towers' must be a list of towers, each a list of pieces bottom to top"
        )
    below = pos.below
    above = pos.above
    for i, tower in enumerate(towers):
        codes = _code_list(tower, f"towers[{i}]", "piece")
        if not codes:
            raise PositionError(f"towers[{i}] is empty: a tower has at least one piece")
        prev = -1
        for code in codes:
            p = parse_piece(code, f"towers[{i}]")
            if not is_flag_piece(p):
                raise PositionError(
                    f"{NAMES[p]} is a scoring piece: it belongs in the bank or a player's hold, "
                    "not on the table"
                )
            claim(p, "the towers")
            if prev >= 0:
                if SIZE[p] > SIZE[prev]:
                    raise PositionError(
                        f"{NAMES[p]} sits on {NAMES[prev]}, a smaller piece (PF-MOVE-3)"
                    )
                below[p] = prev
                above[prev] = p
            prev = p
    bank = _code_list(data.get("bank", []), "'bank'", "piece")
    for code in bank:
        p = parse_piece(code, "bank")
        if not is_scoring_piece(p):
            raise PositionError(
                f"{NAMES[p]} is a flag piece: it belongs on the table, not in the bank"
            )
        claim(p, "the bank")
    scoring = _per_seat(data, "scoring", players, "piece")
    for s, codes in enumerate(scoring):
        for code in codes:
            p = parse_piece(code, f"scoring[{s}]")
            if not is_scoring_piece(p):
                raise PositionError(
                    f"{NAMES[p]} is a flag piece: it belongs on the table, not in seat {s}'s hold"
                )
            claim(p, f"seat {s}'s scoring pieces")
            pos.scoring[s] |= 1 << p
    missing = [NAMES[p] for p in range(NUM_PIECES) if p not in where]
    if missing:
        raise PositionError(f"piece(s) missing from the position: {', '.join(missing)}")
    pos.bank = 0
    for code in bank:
        pos.bank |= 1 << parse_piece(code)

    # Cards: each of the 36 exactly once, in a hand, face up, or in the deck.
    seen: dict[int, str] = {}

    def take_card(code: str, place: str) -> int:
        """Parse a card found at ``place``; PositionError if unknown or already seen."""
        c = parse_card(code, place)
        if c in seen:
            raise PositionError(f"card {CODES[c]} is listed twice: in {seen[c]} and in {place}")
        seen[c] = place
        return c

    hands = _per_seat(data, "hands", players, "card")
    scored = _per_seat(data, "scored", players, "card")
    for s in range(players):
        pos.hands[s] = [take_card(x, f"seat {s}'s hand") for x in hands[s]]
        pos.scored[s] = tuple(take_card(x, f"seat {s}'s scored cards") for x in scored[s])
    deck = _code_list(data.get("deck", []), "'deck'", "card")
    pos.deck = [take_card(x, "the deck") for x in deck]
    pending = data.get("pending")
    dealing = isinstance(pending, Mapping) and pending.get("kind") == "deal"
    if isinstance(pending, Mapping) and dealing and "cards" in pending:
        left = _code_list(pending["cards"], "pending.cards", "card")
        pos.to_deal = tuple(sorted(take_card(x, "the cards left to deal") for x in left))
    if len(seen) != NUM_CARDS:
        gone = [CODES[c] for c in range(NUM_CARDS) if c not in seen]
        raise PositionError(f"card(s) missing from the position: {', '.join(gone)}")

    last = _code_list(data.get("last_moved", []), "'last_moved'", "piece")
    moved = [parse_piece(x, "last_moved") for x in last]
    if any(not is_flag_piece(p) for p in moved):
        raise PositionError("'last_moved' lists flag pieces only (the pieces a move moved)")
    if len(set(moved)) != len(moved):
        raise PositionError("'last_moved' lists a piece twice")
    pos.last = tuple(moved)
    pos.last_mask = sum(1 << p for p in moved)

    winner = data.get("winner")
    ranking = data.get("ranking")
    if pos.to_deal and not dealing:
        raise PositionError("cards are left to deal but no deal is pending")
    if winner is not None or ranking is not None:
        _load_end(pos, winner, ranking, pending)
        return pos
    for s in range(players):
        reason = win_reason(pos.scored[s], pos.scoring[s])
        if reason is not None:
            raise PositionError(
                f"seat {s} already meets a win condition ({_reason_text(reason)}) "
                "but the position has no winner"
            )
    if pending is None:
        if not pos.deck and not any(pos.hands):
            raise PositionError(
                "the deck and every hand are empty: that ends the game (PF-WIN-6); give a 'ranking'"
            )
        return pos
    _load_pending(pos, pending)
    return pos


def _reason_text(reason: tuple[str, str | int]) -> str:
    kind, detail = reason
    if kind == "flags":
        return f"{detail} flags"
    if kind == "group":
        return f"3 flags of the group {detail}"
    return f"{detail} points"


def _load_end(pos: FlagsPosition, winner: Any, ranking: Any, pending: Any) -> None:
    players = len(pos.hands)
    if pending is not None:
        raise PositionError("an ended game has no pending decision")
    if winner is not None and ranking is not None:
        raise PositionError("a position has a 'winner' or a 'ranking', not both")
    if winner is not None:
        if not isinstance(winner, int) or isinstance(winner, bool) or not 0 <= winner < players:
            raise PositionError(f"'winner' must be a seat from 0 to {players - 1}")
        if win_reason(pos.scored[winner], pos.scoring[winner]) is None:
            raise PositionError(f"seat {winner} is the winner but meets no win condition")
        pos.winner = winner
        return
    if (
        not isinstance(ranking, list)
        or len(ranking) != players
        or not all(isinstance(r, int) and not isinstance(r, bool) for r in ranking)
    ):
        raise PositionError(f"'ranking' must list a rank from 1 to {players} per seat")
    for s in range(players):
        if win_reason(pos.scored[s], pos.scoring[s]) is not None:
            raise PositionError(f"seat {s} meets a win condition: the position needs a 'winner'")
    expected = rank(pos)
    if ranking != expected:
        raise PositionError(
            f"'ranking' {ranking} does not follow points then flags (PF-WIN-5): {expected}"
        )
    pos.ranking = list(ranking)


def _built_in_hands(pos: FlagsPosition, seats: list[int]) -> str | None:
    for s in seats:
        for c in pos.hands[s]:
            if is_built(pos, c):
                return f"seat {s} holds {CODES[c]}, whose flag stands"
    return None


def _load_pending(pos: FlagsPosition, pending: Any) -> None:
    players = len(pos.hands)
    to_move = pos.to_move
    if not isinstance(pending, Mapping):
        raise PositionError("'pending' must be an object")
    kind = pending.get("kind")
    allowed = {
        "capture": {"player", "kind", "card", "taken"},
        "action": {"player", "kind", "colour"},
        "steal": {"kind", "from"},
        "deal": {"kind", "cards"},
    }
    if kind not in allowed:
        raise PositionError(f"pending.kind must be capture, action, steal or deal, not {kind!r}")
    extra = sorted(set(pending) - allowed[kind])
    if extra:
        raise PositionError(f"unknown field(s) in a pending {kind}: {', '.join(extra)}")
    if kind != "capture" and not pos.options.actions:
        raise PositionError(f"a pending {kind} needs the tree actions (rules.actions)")
    moved = pos.last
    made = tree_made(moved[0], pos.below, pos.above) if moved else ""
    if kind == "capture":
        player = pending.get("player")
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < players:
            raise PositionError(f"pending.player must be a seat from 0 to {players - 1}")
        card = parse_card(pending.get("card"), "pending.card")
        if not pos.scored[player] or pos.scored[player][-1] != card:
            raise PositionError(
                f"pending capture: {CODES[card]} must be the last card seat {player} scored"
            )
        if not is_built(pos, card):
            raise PositionError(f"pending capture: the flag of {CODES[card]} does not stand")
        if not moved or group(pos, moved[0]) != list(moved):
            raise PositionError(
                "pending capture: 'last_moved' must be the group this turn's move put on top of a tower"
            )
        taken_codes = _code_list(pending.get("taken", []), "pending.taken", "piece")
        taken = [parse_piece(x, "pending.taken") for x in taken_codes]
        if len(taken) > 1:
            raise PositionError("pending capture: after two takes the capture is over")
        for p in taken:
            if not (PIECES_MASK[card] >> p) & 1:
                raise PositionError(f"pending capture: {NAMES[p]} is not shown on {CODES[card]}")
            if not (pos.scoring[player] >> p) & 1:
                raise PositionError(
                    f"pending capture: seat {player} does not hold the taken {NAMES[p]}"
                )
        if not capture_choices(pos, player, card, taken):
            raise PositionError(
                "pending capture: nothing is left to take, so the capture would be over (PF-CAPTURE-4)"
            )
        passed = []
        s = to_move
        while s != player:
            passed.append(s)
            s = (s + 1) % players
        problem = _built_in_hands(pos, passed)
        if problem:
            raise PositionError(f"pending capture: {problem} but its scoring is over")
        pos.pending = CAPTURE
        pos.player = player
        pos.card = card
        pos.taken = tuple(taken)
        pos.tree = made if pos.options.actions else ""
        return
    problem = _built_in_hands(pos, list(range(players)))
    if problem:
        raise PositionError(f"pending {kind}: {problem}; scoring comes before the tree action")
    if kind == "action":
        player = pending.get("player", to_move)
        if player != to_move:
            raise PositionError(
                "pending action: the player is the one to move (the tree's builder)"
            )
        colour = pending.get("colour")
        if not isinstance(colour, str) or colour not in ("R", "B", "G", "Y", "K", "W"):
            raise PositionError("pending.colour must be one of R, B, G, Y, K, W")
        if colour != "R" and made not in (colour, "W"):
            raise PositionError(
                f"pending action {colour}: the last move made no tree of that colour (nor a white one)"
            )
        pos.colour = colour
        if not action_options(pos, colour):
            raise PositionError(
                f"pending action {colour}: nothing to act on, so the action would lapse (PF-TREE-3)"
            )
        pos.pending = ACTION
        pos.player = to_move
        return
    if kind == "steal":
        victim = pending.get("from")
        if not isinstance(victim, int) or isinstance(victim, bool) or not 0 <= victim < players:
            raise PositionError(f"pending.from must be a seat from 0 to {players - 1}")
        if victim == to_move:
            raise PositionError("pending steal: the pirate robs an opponent, not themself")
        if not pos.hands[victim]:
            raise PositionError(f"pending steal: seat {victim} holds no card")
        if made not in ("K", "W"):
            raise PositionError("pending steal: the last move made no black (or white) tree")
        pos.pending = STEAL
        pos.victim = victim
        return
    if made not in ("Y", "W"):
        raise PositionError("pending deal: the last move made no yellow (or white) tree")
    if "cards" not in pending:
        # The deal has not begun: every hand is gathered (as ``newstart`` does).
        pos.to_deal = tuple(sorted(c for h in pos.hands for c in h))
        pos.hands = [[] for _ in range(players)]
    if not pos.to_deal:
        raise PositionError("pending deal: no card is left to deal")
    dealt = sum(len(h) for h in pos.hands)
    for k in range(players):
        want = dealt // players + (1 if k < dealt % players else 0)
        seat = (to_move + k) % players
        if len(pos.hands[seat]) != want:
            raise PositionError(
                f"pending deal: {dealt} cards dealt one at a time from seat {to_move} give "
                f"seat {seat} {want}, not {len(pos.hands[seat])}"
            )
    pos.pending = DEAL
