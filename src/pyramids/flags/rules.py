"""The rules of Pyramids and Flags as functions over a ``FlagsPosition``.

One function per rule of ``docs/RULES.md`` (PF-MOVE, PF-SWAP, PF-FLAG, PF-SCORE,
PF-CAPTURE, PF-WIN, PF-TREE; contract sections 3 to 6), its ID in its docstring. A turn
is a little state machine: move, then scoring seat by seat (each capture a decision of
the card's holder), then the mover's tree action (decisions and chance points), then
the end of the turn. Functions that change the position append raw event tuples
(``("move", seat, ...)``) to ``ev``; ``game.FlagsState`` adds the game protocol.

Each seat also remembers which hidden cards it knows the whereabouts of
(``FlagsPosition.known``): a card it put under the deck, a card stolen from it, a card
known to be drawn by someone; views report them (PF-VIEW-3).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pyramids.core.bits import bits_of
from pyramids.core.errors import IllegalActionError
from pyramids.core.game import Action, competition_ranking
from pyramids.flags.actions import (
    DEAL_BASE,
    DONE,
    GROW,
    MOVE_BASE,
    NEWSTART,
    PIRATE_BASE,
    SPLIT_BASE,
    STEAL_BASE,
    SWAP_BASE,
    TABLE,
    WILD_BASE,
    WILD_COLOURS,
    decode_trade,
    take_action,
    trade_action,
)
from pyramids.flags.cards import CODES, NUM_CARDS, PIECES_MASK, TOWER
from pyramids.flags.pieces import COLOUR_OF, COLOURS, NAMES, NUM_FLAG_PIECES, SIZE, TREES
from pyramids.flags.position import ACTION, CAPTURE, DEAL, NONE, STEAL, FlagsPosition
from pyramids.flags.scoring import points, win_reason

Events = list[tuple[Any, ...]]
"""Raw event tuples, appended by the functions that change a position."""

_N = NUM_FLAG_PIECES

# --- the table ----------------------------------------------------------------------------


def group(pos: FlagsPosition, p: int) -> list[int]:
    """``p`` and every piece above it, bottom to top (what a move of ``p`` takes, PF-MOVE-2)."""
    above = pos.above
    out = [p]
    while above[p] >= 0:
        p = above[p]
        out.append(p)
    return out


def towers(pos: FlagsPosition) -> list[list[int]]:
    """The towers, each bottom to top, in piece order of their bottoms (PF-NOTE-4)."""
    below = pos.below
    return [group(pos, b) for b in range(_N) if below[b] < 0]


def is_built(pos: FlagsPosition, card: int) -> bool:
    """PF-FLAG-1, PF-FLAG-2, PF-FLAG-3: the card's flag stands (anywhere in a tower).

    Built means standing: pieces below or above do not matter, and a built flag is an
    ordinary tower whose pieces may move later.
    """
    tower = TOWER[card]
    below = pos.below
    if below[tower[1]] != tower[0]:
        return False
    return len(tower) == 2 or below[tower[2]] == tower[1]


def tree_made(lowest: int, below: Sequence[int], above: Sequence[int]) -> str:
    """PF-TREE-1: the colour of the tree whose medium or small ``lowest`` now is, or ''.

    ``below``/``above`` are the table after the move (as in ``FlagsPosition``); the
    tree is the run ``C3 C2 C1`` of ``lowest``'s colour (``pieces.TREES``).
    """
    c = COLOUR_OF[lowest]
    big, mid, small = TREES[c]
    if lowest == mid:
        if below[mid] == big and above[mid] == small:
            return COLOURS[c]
    elif lowest == small and below[small] == mid and below[mid] == big:
        return COLOURS[c]
    return ""


# --- moves and exchanges (PF-MOVE, PF-SWAP) -----------------------------------------------


def move_actions(pos: FlagsPosition) -> list[Action]:
    """Every legal move, sorted: PF-MOVE-2 (top groups onto a top or the table),
    PF-MOVE-3 (never onto a smaller piece), PF-MOVE-4 (no whole tower to the table),
    PF-MOVE-5 (not the group the previous turn moved), PF-MOVE-6 (never onto itself)."""
    below = pos.below
    above = pos.above
    bottom = [0] * _N
    group_mask = [0] * _N
    tops = []
    for b in range(_N):
        if below[b] < 0:
            chain = []
            p = b
            while p >= 0:
                chain.append(p)
                bottom[p] = b
                p = above[p]
            tops.append(chain[-1])
            m = 0
            for p in reversed(chain):
                m |= 1 << p
                group_mask[p] = m
    tops.sort()
    last = pos.last_mask
    actions = []
    for p in range(_N):
        if group_mask[p] == last:
            continue
        sp = SIZE[p]
        bp = bottom[p]
        base = MOVE_BASE + p * (_N + 1)
        for t in tops:
            if bottom[t] != bp and SIZE[t] >= sp:
                actions.append(base + t)
        if below[p] >= 0:
            actions.append(base + TABLE)
    return actions


def turn_actions(pos: FlagsPosition) -> list[Action]:
    """PF-MOVE-1: the mover's choices, a move or an exchange (sorted)."""
    actions = move_actions(pos)
    if pos.deck:
        actions.extend(SWAP_BASE + c for c in sorted(pos.hands[pos.to_move]))
    return actions


def move_reason(pos: FlagsPosition, lowest: int, target: int) -> IllegalActionError | None:
    """Why moving ``lowest`` onto ``target`` breaks PF-MOVE (the reasons of ``move_actions``), or None."""
    name = NAMES[lowest]
    moved = group(pos, lowest)
    if target == TABLE:
        if pos.below[lowest] < 0:
            return IllegalActionError("flags.whole_tower_to_table", piece=name)
    else:
        tname = NAMES[target]
        if target in moved:
            return IllegalActionError("flags.lands_on_itself", piece=name, target=tname)
        if pos.above[target] >= 0:
            return IllegalActionError(
                "flags.target_not_top", target=tname, above=NAMES[pos.above[target]]
            )
        if SIZE[lowest] > SIZE[target]:
            return IllegalActionError("flags.onto_smaller_piece", piece=name, target=tname)
    mask = 0
    for p in moved:
        mask |= 1 << p
    if mask == pos.last_mask:
        return IllegalActionError("flags.same_group_again", pieces=[NAMES[p] for p in pos.last])
    return None


def apply_move(pos: FlagsPosition, lowest: int, target: int, ev: Events) -> None:
    """Move ``lowest`` and everything on it onto ``target`` (PF-MOVE-2), note a tree, score.

    Checks nothing (see ``move_reason``).
    """
    below = pos.below
    above = pos.above
    old = below[lowest]
    if old >= 0:
        above[old] = -1
    if target == TABLE:
        below[lowest] = -1
    else:
        below[lowest] = target
        above[target] = lowest
    moved = group(pos, lowest)
    mask = 0
    for p in moved:
        mask |= 1 << p
    pos.last = tuple(moved)
    pos.last_mask = mask
    seat = pos.to_move
    ev.append(("move", seat, lowest, target, pos.last, old))
    tree = tree_made(lowest, below, above) if pos.options.actions else ""
    if tree:
        ev.append(("tree", seat, tree, lowest))
    pos.tree = tree
    run_scoring(pos, seat, ev)


def swap_reason(pos: FlagsPosition, card: int) -> IllegalActionError | None:
    """PF-SWAP-2: why the mover may not exchange ``card``, or None."""
    seat = pos.to_move
    if card not in pos.hands[seat]:
        return IllegalActionError("flags.not_in_hand", card=CODES[card], seat=seat)
    if not pos.deck:
        return IllegalActionError("flags.deck_empty")
    return None


def forget_hand(pos: FlagsPosition, seat: int, keep: tuple[int, ...]) -> None:
    """PF-VIEW-3: a card leaves ``seat``'s hand of several cards unseen, so every seat but
    those in ``keep`` forgets what it knew of that hand's cards."""
    hand = pos.hands[seat]
    if len(hand) > 1:
        hand_mask = 0
        for c in hand:
            hand_mask |= 1 << c
        known = pos.known
        for p in range(len(known)):
            if p not in keep:
                known[p] &= ~hand_mask


def apply_swap(pos: FlagsPosition, card: int, ev: Events) -> None:
    """PF-SWAP-1, PF-SWAP-3: ``card`` goes under the deck, the mover draws, no flag is checked."""
    seat = pos.to_move
    hand = pos.hands[seat]
    bit = 1 << card
    known = pos.known
    forget_hand(pos, seat, (seat,))
    hand.remove(card)
    pos.deck.append(card)
    known[seat] |= bit
    pos.last = ()
    pos.last_mask = 0
    ev.append(("swap", seat, card))
    draw(pos, seat, "swap", ev)
    end_turn(pos, ev)


# --- cards ----------------------------------------------------------------------------------


def draw(pos: FlagsPosition, seat: int, why: str, ev: Events) -> bool:
    """The top card of the deck goes to ``seat``'s hand; False when the deck is empty."""
    if not pos.deck:
        ev.append(("no_draw", seat, why))
        return False
    card = pos.deck.pop(0)
    pos.hands[seat].append(card)
    pos.known[seat] &= ~(1 << card)
    ev.append(("draw", seat, card, why))
    return True


def first_built(pos: FlagsPosition, seat: int) -> int:
    """PF-SCORE-2: the alphabetically first card in ``seat``'s hand whose flag stands (-1: none)."""
    best = NUM_CARDS
    for c in pos.hands[seat]:
        if c < best and is_built(pos, c):
            best = c
    return best if best < NUM_CARDS else -1


# --- scoring and captures (PF-SCORE, PF-CAPTURE) ---------------------------------------------


def run_scoring(pos: FlagsPosition, seat: int, ev: Events) -> None:
    """PF-SCORE-1, PF-SCORE-3, PF-SCORE-4: after a move, score built cards from ``seat`` on.

    Seat by seat in turn order up to the mover, each card goes face up, the win check
    runs, its holder captures (a decision, or none when nothing can be taken) and draws.
    Only moves start a scoring: exchanges and tree actions do not.
    """
    n = len(pos.hands)
    mover = pos.to_move
    known = pos.known
    while True:
        card = first_built(pos, seat)
        if card < 0:
            seat = (seat + 1) % n
            if seat == mover:
                break
            continue
        pos.hands[seat].remove(card)
        pos.scored[seat] = (*pos.scored[seat], card)
        bit = ~(1 << card)
        for p in range(n):
            known[p] &= bit
        ev.append(("flag", seat, card))
        if check_wins(pos, seat, ev):
            return
        if capture_choices(pos, seat, card, ()):
            pos.pending = CAPTURE
            pos.player = seat
            pos.card = card
            pos.taken = ()
            return
        ev.append(("no_capture", seat, card))
        draw(pos, seat, "flag", ev)
    after_scoring(pos, ev)


def capture_choices(pos: FlagsPosition, seat: int, card: int, taken: Sequence[int]) -> bool:
    """PF-CAPTURE-4: whether ``seat`` can still take something for ``card`` (else no decision)."""
    cm = PIECES_MASK[card]
    if cm & pos.bank:
        return True
    if taken:
        return False
    return any(q != seat and cm & held for q, held in enumerate(pos.scoring))


def capture_actions(pos: FlagsPosition) -> list[Action]:
    """PF-CAPTURE-1, PF-CAPTURE-2, PF-CAPTURE-3: ``done`` and the takes of the pending capture.

    Pieces shown on the card, from the bank or from one opponent holding it; after a
    bank take only the bank remains.
    """
    seat = pos.player
    cm = PIECES_MASK[pos.card]
    bank = pos.bank
    taken = pos.taken
    actions = [DONE]
    for piece in bits_of(cm):
        bit = 1 << piece
        if bank & bit:
            actions.append(take_action(piece, None))
        if not taken:
            for q, held in enumerate(pos.scoring):
                if q != seat and held & bit:
                    actions.append(take_action(piece, q))
    return actions


def end_capture(pos: FlagsPosition, ev: Events) -> None:
    """PF-CAPTURE-5: the capture is over; the holder draws, and scoring goes on."""
    seat = pos.player
    pos.pending = NONE
    pos.player = -1
    pos.card = -1
    pos.taken = ()
    draw(pos, seat, "flag", ev)
    run_scoring(pos, seat, ev)


def apply_take(pos: FlagsPosition, piece: int, source: int | None, ev: Events) -> None:
    """One take of the pending capture (PF-CAPTURE-1); it ends after two bank takes, one
    opponent take or when the bank has nothing more to give (PF-CAPTURE-4)."""
    seat = pos.player
    bit = 1 << piece
    if source is None:
        pos.bank &= ~bit
    else:
        pos.scoring[source] &= ~bit
    pos.scoring[seat] |= bit
    ev.append(("take", seat, piece, -1 if source is None else source))
    if check_wins(pos, seat, ev):
        return
    if source is None:
        pos.taken = (*pos.taken, piece)
        if len(pos.taken) < 2 and PIECES_MASK[pos.card] & pos.bank:
            return
    end_capture(pos, ev)


def decline_capture(pos: FlagsPosition, ev: Events) -> None:
    """PF-CAPTURE-3: ``done`` ends the capture, also before any take."""
    ev.append(("capture_done", pos.player, pos.card))
    end_capture(pos, ev)


# --- winning and the end (PF-WIN) -------------------------------------------------------------


def check_wins(pos: FlagsPosition, actor: int, ev: Events) -> bool:
    """PF-WIN-4: the actor first, then the others in turn order; the first winner ends it."""
    n = len(pos.hands)
    for i in range(n):
        s = (actor + i) % n
        reason = win_reason(pos.scored[s], pos.scoring[s])
        if reason is not None:
            pos.winner = s
            pos.pending = NONE
            pos.player = -1
            pos.card = -1
            pos.taken = ()
            pos.colour = ""
            pos.victim = -1
            pos.tree = ""
            pos.to_deal = ()
            ev.append(("win", s, reason[0], reason[1]))
            return True
    return False


def rank(pos: FlagsPosition) -> list[int]:
    """PF-WIN-5: seats ranked by points, then flags, ties sharing (competition ranking)."""
    keys = [points(m) * 64 + len(sc) for m, sc in zip(pos.scoring, pos.scored, strict=True)]
    return competition_ranking(keys)


def end_turn(pos: FlagsPosition, ev: Events) -> None:
    """PF-WIN-5, PF-WIN-6: end the game by the safeguards, or pass to the next seat (PF-SETUP-3)."""
    pos.pending = NONE
    pos.player = -1
    pos.colour = ""
    pos.victim = -1
    pos.tree = ""
    if not pos.deck and not any(pos.hands):
        pos.ranking = rank(pos)
        ev.append(("deck_out", tuple(pos.ranking)))
        return
    if pos.turn >= pos.options.max_turns:
        pos.ranking = rank(pos)
        ev.append(("max_turns", tuple(pos.ranking)))
        return
    pos.to_move = (pos.to_move + 1) % len(pos.hands)
    pos.turn += 1


# --- tree actions (PF-TREE) -------------------------------------------------------------------


def after_scoring(pos: FlagsPosition, ev: Events) -> None:
    """PF-TREE-2: after all scoring the mover uses the tree action the move earned, if any."""
    tree = pos.tree
    pos.tree = ""
    if tree and pos.options.actions:
        start_action(pos, tree, ev)
    else:
        end_turn(pos, ev)


def start_action(pos: FlagsPosition, colour: str, ev: Events) -> None:
    """PF-TREE-3: an action with nothing to act on lapses; else it is the mover's decision."""
    seat = pos.to_move
    if not action_options(pos, colour):
        ev.append(("lapse", seat, colour))
        end_turn(pos, ev)
        return
    ev.append(("action", seat, colour))
    pos.pending = ACTION
    pos.player = seat
    pos.colour = colour


def action_options(pos: FlagsPosition, colour: str) -> list[Action]:
    """The choices (``done`` aside) of ``colour``'s tree action; empty: nothing to act on.

    Red: a tower of 2+ pieces (PF-TREE-4); blue: one of one's scoring pyramids for one
    of an opponent's (PF-TREE-5); green: a deck (PF-TREE-6); yellow: a card in some
    hand (PF-TREE-7); black: an opponent holding a card (PF-TREE-8); white: the colours
    whose action has something to act on (PF-TREE-9).
    """
    seat = pos.to_move
    if colour == "R":
        above = pos.above
        below = pos.below
        return [SPLIT_BASE + b for b in range(_N) if below[b] < 0 and above[b] >= 0]
    if colour == "B":
        mine = bits_of(pos.scoring[seat])
        if not mine:
            return []
        out = [
            trade_action(m, t, q)
            for q, held in enumerate(pos.scoring)
            if q != seat
            for t in bits_of(held)
            for m in mine
        ]
        out.sort()
        return out
    if colour == "G":
        return [GROW] if pos.deck else []
    if colour == "Y":
        return [NEWSTART] if any(pos.hands) else []
    if colour == "K":
        return [PIRATE_BASE + q for q, hand in enumerate(pos.hands) if q != seat and hand]
    if colour == "W":
        return [WILD_BASE + i for i, c in enumerate(WILD_COLOURS) if action_options(pos, c)]
    return []


def apply_split(pos: FlagsPosition, bottom: int, ev: Events) -> None:
    """PF-TREE-4: the tower on ``bottom`` becomes single pyramids; the action goes on while
    some tower has two pieces."""
    seat = pos.to_move
    below = pos.below
    above = pos.above
    pieces = group(pos, bottom)
    for p in pieces:
        below[p] = -1
        above[p] = -1
    ev.append(("split", seat, tuple(pieces)))
    if not action_options(pos, "R"):
        ev.append(("action_over", seat, "R"))
        end_turn(pos, ev)


def apply_trade(pos: FlagsPosition, action: Action, ev: Events) -> None:
    """PF-TREE-5: swap one scoring pyramid of the mover with one of an opponent; win check."""
    seat = pos.to_move
    mine, theirs, q = decode_trade(action)
    pos.scoring[seat] = (pos.scoring[seat] & ~(1 << mine)) | (1 << theirs)
    pos.scoring[q] = (pos.scoring[q] & ~(1 << theirs)) | (1 << mine)
    ev.append(("trade", seat, mine, theirs, q))
    if not check_wins(pos, seat, ev):
        end_turn(pos, ev)


def apply_grow(pos: FlagsPosition, ev: Events) -> None:
    """PF-TREE-6: the mover draws two cards (fewer from a short deck)."""
    seat = pos.to_move
    ev.append(("grow", seat))
    if draw(pos, seat, "grow", ev):
        draw(pos, seat, "grow", ev)
    end_turn(pos, ev)


def apply_newstart(pos: FlagsPosition, ev: Events) -> None:
    """PF-TREE-7: all hands are gathered, to be dealt again card by card (chance points).

    Nobody knows where a gathered card goes: every seat forgets them.
    """
    seat = pos.to_move
    gathered = sorted(c for h in pos.hands for c in h)
    pool_mask = 0
    for c in gathered:
        pool_mask |= 1 << c
    known = pos.known
    for p in range(len(known)):
        known[p] &= ~pool_mask
    pos.hands = [[] for _ in pos.hands]
    pos.to_deal = tuple(gathered)
    ev.append(("newstart", seat, len(gathered)))
    pos.pending = DEAL


def deal_seat(pos: FlagsPosition) -> int:
    """PF-TREE-7: the seat the next card of a new start goes to (one at a time from the mover)."""
    dealt = sum(len(h) for h in pos.hands)
    return (pos.to_move + dealt) % len(pos.hands)


def deal_outcomes(pos: FlagsPosition) -> list[tuple[Action, float]]:
    """PF-TREE-7: the next card of a new start: each card left to deal, equally likely."""
    cards = pos.to_deal
    p = 1.0 / len(cards)
    return [(DEAL_BASE + c, p) for c in cards]


def apply_deal(pos: FlagsPosition, card: int, ev: Events) -> None:
    """PF-TREE-7, PF-VIEW-3: ``card`` goes to the next seat served; after the last card each
    seat knows the cards of the only other seat served (if just one was)."""
    n = len(pos.hands)
    seat = deal_seat(pos)
    pos.to_deal = tuple(c for c in pos.to_deal if c != card)
    pos.hands[seat].append(card)
    if pos.to_deal:
        return
    hands = pos.hands
    known = pos.known
    masks = []
    for h in hands:
        m = 0
        for c in h:
            m |= 1 << c
        masks.append(m)
    for p in range(n):
        others = [q for q in range(n) if q != p and hands[q]]
        if len(others) == 1:
            known[p] |= masks[others[0]]
    ev.append(("deal", pos.to_move, tuple(tuple(h) for h in hands)))
    end_turn(pos, ev)


def apply_pirate(pos: FlagsPosition, victim: int, ev: Events) -> None:
    """PF-TREE-8: the pirate names an opponent holding a card; a steal (chance) follows."""
    ev.append(("pirate", pos.to_move, victim))
    pos.pending = STEAL
    pos.victim = victim


def steal_outcomes(pos: FlagsPosition) -> list[tuple[Action, float]]:
    """PF-TREE-8: each card of the victim's hand, equally likely."""
    hand = sorted(pos.hands[pos.victim])
    p = 1.0 / len(hand)
    return [(STEAL_BASE + c, p) for c in hand]


def apply_steal(pos: FlagsPosition, card: int, ev: Events) -> None:
    """PF-TREE-8, PF-VIEW-3: the thief takes ``card``; thief and victim know where it is,
    the others forget what they knew of the victim's hand (if it held several cards)."""
    thief = pos.to_move
    victim = pos.victim
    hand = pos.hands[victim]
    known = pos.known
    forget_hand(pos, victim, (thief, victim))
    hand.remove(card)
    pos.hands[thief].append(card)
    known[thief] &= ~(1 << card)
    known[victim] |= 1 << card
    ev.append(("steal", thief, victim, card))
    end_turn(pos, ev)


def apply_wild(pos: FlagsPosition, action: Action, ev: Events) -> None:
    """PF-TREE-9: a white tree stands for the chosen colour, whose action follows."""
    chosen = WILD_COLOURS[action - WILD_BASE]
    ev.append(("wild", pos.to_move, chosen))
    pos.colour = chosen


def decline_action(pos: FlagsPosition, ev: Events) -> None:
    """PF-TREE-2, PF-TREE-10: ``done`` declines (or ends) the tree action; no flag is checked."""
    ev.append(("decline", pos.to_move, pos.colour))
    end_turn(pos, ev)


def apply_tree_action(pos: FlagsPosition, action: Action, ev: Events) -> None:
    """One choice of the pending tree action (checked by the caller)."""
    colour = pos.colour
    if action == DONE:
        decline_action(pos, ev)
    elif colour == "R":
        apply_split(pos, action - SPLIT_BASE, ev)
    elif colour == "B":
        apply_trade(pos, action, ev)
    elif colour == "G":
        apply_grow(pos, ev)
    elif colour == "Y":
        apply_newstart(pos, ev)
    elif colour == "K":
        apply_pirate(pos, action - PIRATE_BASE, ev)
    else:
        apply_wild(pos, action, ev)
