"""The mayhem loop (FP-MAYHEM): free air, collapse, explosion, fire, curse; end of turn.

Mayhem is looked for only around what changed. That is exactly the contract's full
scan: at rest no event stands anywhere, an event can only appear where a tile or one
of its neighbours changed, so the set of changed places (``_cands``) holds every
event, and the smallest key among them is the first in scan order. A position read
from JSON starts with every tile as a candidate, so standing mayhem in a hand-made
position is found by the first scan.
"""

from __future__ import annotations

from pyramids.flaming.pyramid import (
    DIE,
    FALL,
    HAND_SIZE,
    Pyramid,
)
from pyramids.flaming.tiles import (
    COLOUR,
    HALF,
    IGNITES,
    IS_EMBER,
    MATERIAL,
    NEIGHBOURS,
    SUPPORT_LEFT,
    SUPPORT_RIGHT,
    WEIGHT,
)

# Mayhem check categories, in the contract's order (FP-MAYHEM-1).
FREE_AIR, COLLAPSE, EXPLOSION, FIRE, CURSE = 1, 2, 3, 4, 5
_NO_EVENT = 9


class Mayhem(Pyramid):
    """Finding and resolving mayhem, and the end of the turn."""

    __slots__ = ()

    def _to_out(self, t: int) -> None:
        """Tile ``t`` leaves the game for good."""
        self._out.append(t)
        self._in_play &= ~(1 << t)

    def _under(self, seat: int, tiles: list[int]) -> None:
        """Tiles go under ``seat``'s draw pile, in the given order (public knowledge)."""
        self._piles[seat].extend(tiles)

    def _category(self, k: int, t: int) -> int:
        """The first check category that finds an event at ``k`` (0 for none)."""
        board = self._board
        s1 = s2 = None
        if k < -HALF:  # row >= 1
            s1 = board.get(k + SUPPORT_LEFT)
            s2 = board.get(k + SUPPORT_RIGHT)
            w = WEIGHT[t]
            if s1 is None:
                if s2 is None:
                    return FREE_AIR
                if w > WEIGHT[s2] or (COLOUR[t] & COLOUR[s2] == 0 and w != WEIGHT[s2]):
                    return COLLAPSE
            elif s2 is None:
                if w > WEIGHT[s1] or (COLOUR[t] & COLOUR[s1] == 0 and w != WEIGHT[s1]):
                    return COLLAPSE
            else:
                w1 = WEIGHT[s1]
                w2 = WEIGHT[s2]
                if w > w1 + w2 or (
                    COLOUR[t] & (COLOUR[s1] | COLOUR[s2]) == 0 and w not in (w1, w2)
                ):
                    return COLLAPSE
        if IS_EMBER[t]:
            embers = self._embers
            ignites = IGNITES[t]
            quench = self._quenched.get(t, 0)
            fire = False
            for off in NEIGHBOURS:
                n = k + off
                if n in embers:
                    return EXPLOSION
                nt = board.get(n)
                if nt is not None and MATERIAL[nt] & ignites and not (quench >> nt) & 1:
                    fire = True
            if fire:
                return FIRE
        if (
            s2 is not None
            and s1 is not None
            and self.game.curse_on
            and WEIGHT[t] == WEIGHT[s1] == WEIGHT[s2]
        ):
            return CURSE
        return 0

    def _first_event(self) -> tuple[int, int]:
        """(category, key) of the first event in check order and scan order, or (0, 0)."""
        board = self._board
        best_cat = _NO_EVENT
        best_k = 0
        live = []
        for k in self._cands:
            t = board.get(k)
            if t is None:
                continue
            cat = self._category(k, t)
            if cat:
                live.append(k)
                if cat < best_cat or (cat == best_cat and k < best_k):
                    best_cat = cat
                    best_k = k
        if best_cat == _NO_EVENT:
            self._cands = set()
            return 0, 0
        self._cands = set(live)
        return best_cat, best_k

    def _resolve(self) -> None:
        """Run the mayhem loop until a decision is needed or the turn ends (FP-MAYHEM)."""
        events = self._events
        while True:
            if self._cands:
                cat, k = self._first_event()
            else:
                cat = 0
            if cat == 0:
                self._end_turn()
                return
            board = self._board
            p = self._resp
            if cat == FREE_AIR:
                events.append(("free_air", p, board[k], k))
                self._pending = FALL
                self._pending_key = k
                return
            if cat == COLLAPSE:
                t = board[k]
                gone = []
                for s in (k + SUPPORT_LEFT, k + SUPPORT_RIGHT):
                    if s in board:
                        gone.append((self._remove(s), s))
                self._under(p, [g for g, _ in gone])
                events.append(("collapse", p, t, k, tuple(gone)))
                self._pending = FALL
                self._pending_key = k
                return
            if cat == EXPLOSION:
                self._explode(k, p)
            elif cat == FIRE:
                if self.game.options_obj.fire_die:
                    self._pending = DIE
                    self._pending_key = k
                    events.append(("fire_found", p, board[k], k))
                    return
                self._burn(k, p, remove_ember=True, roll=0)
            else:
                self._curse(k, p)

    def _explode(self, k: int, p: int) -> None:
        """FP-EXPLODE: the touching embers leave the game, their neighbours go to P."""
        board = self._board
        embers = self._embers
        group = [k]
        seen = {k}
        for e in group:
            for off in NEIGHBOURS:
                n = e + off
                if n in embers and n not in seen:
                    seen.add(n)
                    group.append(n)
        victims = sorted(
            {e + off for e in group for off in NEIGHBOURS if (e + off) in board} - seen
        )
        group.sort()
        ember_tiles = [(self._remove(e), e) for e in group]
        victim_tiles = [(self._remove(v), v) for v in victims]
        for t, _ in ember_tiles:
            self._to_out(t)
        self._under(p, [t for t, _ in victim_tiles])
        self._events.append(("explosion", p, tuple(ember_tiles), tuple(victim_tiles)))

    def _burn(self, k: int, p: int, *, remove_ember: bool, roll: int) -> None:
        """FP-FIRE: burn every tile the ember ignites that a chain of such tiles connects."""
        board = self._board
        ember = board[k]
        ignites = IGNITES[ember]
        burnt = {k}
        queue = [k]
        for q in queue:
            for off in NEIGHBOURS:
                n = q + off
                if n not in burnt:
                    nt = board.get(n)
                    if nt is not None and MATERIAL[nt] & ignites:
                        burnt.add(n)
                        queue.append(n)
        burnt.discard(k)
        victims = [(self._remove(v), v) for v in sorted(burnt)]
        self._quenched.pop(ember, None)
        self._under(p, [t for t, _ in victims])
        if remove_ember:
            self._remove(k)
            self._to_out(ember)
        self._events.append(("fire", p, ember, k, tuple(victims), remove_ember, roll))

    def _curse(self, k: int, p: int) -> None:
        """FP-CURSE: the trio goes to the player on P's right, who becomes P."""
        target = (p - 1) % len(self._hands)
        trio = [(self._remove(s), s) for s in (k, k + SUPPORT_LEFT, k + SUPPORT_RIGHT)]
        self._under(target, [t for t, _ in trio])
        self._resp = target
        self._events.append(("curse", p, target, tuple(trio)))

    def _end_turn(self) -> None:
        """FP-END: the active player draws up to 5, may win; otherwise play passes left."""
        a = self._to_move
        hand = self._hands[a]
        pile = self._piles[a]
        drawn = 0
        while len(hand) < HAND_SIZE and pile:
            t = pile.pop(0)
            if self._hidden[a]:
                self._hidden[a] -= 1
            else:
                self._known[a] |= 1 << t
            hand.append(t)
            drawn += 1
        events = self._events
        if drawn:
            events.append(("draw", a, drawn))
        if not hand and not pile:
            self._winner = a
            events.append(("win", a))
            return
        if self._turn >= self.game.options_obj.max_turns:
            left = [len(h) + len(pl) for h, pl in zip(self._hands, self._piles, strict=True)]
            self._ranking = [1 + sum(1 for x in left if x < mine) for mine in left]
            events.append(("max_turns", tuple(self._ranking)))
            return
        nxt = (a + 1) % len(self._hands)
        self._to_move = nxt
        self._resp = nxt
        self._turn += 1
