"""A deliberately naive second implementation of the contract, used as a test oracle.

It works on the position JSON itself, rescans the whole pyramid for every check in
the contract's order, and shares no code with ``pyramids.flaming``. The differential
test plays thousands of random turns through both and demands identical positions.
"""

from __future__ import annotations

import copy
from typing import Any

Spot = tuple[int, int]


def colour(name: str) -> str:
    """Colour letter; W is the millstone."""
    return name[0]


def weight(name: str) -> int:
    """The printed number."""
    return int(name[1:])


def material(name: str) -> str:
    """straw, wood, stone or ember."""
    w = weight(name)
    if w in (1, 7):
        return "ember"
    if w <= 6:
        return "straw"
    if w <= 40:
        return "wood"
    return "stone"


def ignites(ember: str, other: str) -> bool:
    """Whether ``ember`` sets ``other`` on fire."""
    m = material(other)
    if weight(ember) == 1:
        return m == "straw"
    return m in ("straw", "wood")


def colours_match(a: str, b: str) -> bool:
    """Colour match with the millstone wild both ways."""
    return colour(a) == "W" or colour(b) == "W" or colour(a) == colour(b)


def neighbours(spot: Spot) -> list[Spot]:
    """The six touching spots."""
    r, c = spot
    return [(r, c - 2), (r, c + 2), (r - 1, c - 1), (r - 1, c + 1), (r + 1, c - 1), (r + 1, c + 1)]


def scan(board: dict[Spot, str]) -> list[Spot]:
    """Occupied spots in scan order: top row first, left to right."""
    return sorted(board, key=lambda s: (-s[0], s[1]))


def parse_at(text: str) -> tuple[str, Spot]:
    """``R40@1,1`` -> ("R40", (1, 1))."""
    tile, where = text.split("@")
    r, c = where.split(",")
    return tile, (int(r), int(c))


class Reference:
    """The contract, transcribed as plainly as possible."""

    def __init__(self, pos: dict[str, Any]) -> None:
        pos = copy.deepcopy(pos)
        rules = pos["rules"]
        self.preset = rules.get("preset", "standard")
        self.curse = rules.get("curse", self.preset == "standard")
        self.fire_die = rules.get("fire_die", False)
        self.max_turns = rules.get("max_turns", 1000)
        self.players = pos["players"]
        self.to_move = pos["to_move"]
        self.turn = pos["turn"]
        self.board: dict[Spot, str] = {}
        for entry in pos["pyramid"]:
            tile, spot = parse_at(entry)
            self.board[spot] = tile
        self.hands = pos["hands"]
        self.piles = pos["piles"]
        self.out = pos["out"]
        self.quenched: dict[str, list[str]] = pos.get("quenched", {})
        for spot in list(self.board):
            self.touch(spot)
        self.winner = pos.get("winner")
        self.ranking = pos.get("ranking")
        self.p = self.to_move
        self.pending: tuple[str, Spot] | None = None
        if "pending" in pos:
            self.p = pos["pending"]["player"]
            if pos["pending"]["kind"] == "fall":
                self.pending = ("fall", parse_at(pos["pending"]["tile"])[1])
            else:
                event = self.first_event()
                assert event is not None and event[0] == "fire"
                self.pending = ("die", event[1])

    # --- checks -----------------------------------------------------------------------

    def touch(self, spot: Spot) -> None:
        """The tile at ``spot`` now touches its neighbours: a quench it ends, ends.

        Contract section 9: a quenched ember does not ignite again until it moves or a
        tile it ignites that was not touching it at the roll comes to touch it.
        """
        tile = self.board[spot]
        for n in neighbours(spot):
            ember = self.board.get(n)
            if ember in self.quenched and ignites(ember, tile) and tile not in self.quenched[ember]:
                del self.quenched[ember]

    def supports(self, spot: Spot) -> list[str]:
        r, c = spot
        return [self.board[s] for s in ((r - 1, c - 1), (r - 1, c + 1)) if s in self.board]

    def fits(self, spot: Spot) -> bool:
        tile = self.board[spot]
        sup = self.supports(spot)
        if spot[0] == 0 or not sup:
            return True
        heavy = weight(tile) > sum(weight(s) for s in sup)
        match = any(colours_match(tile, s) or weight(tile) == weight(s) for s in sup)
        return not heavy and match

    def is_free_air(self, spot: Spot) -> bool:
        return spot[0] >= 1 and not self.supports(spot)

    def is_collapse(self, spot: Spot) -> bool:
        return spot[0] >= 1 and bool(self.supports(spot)) and not self.fits(spot)

    def is_explosion(self, spot: Spot) -> bool:
        if material(self.board[spot]) != "ember":
            return False
        return any(n in self.board and material(self.board[n]) == "ember" for n in neighbours(spot))

    def is_fire(self, spot: Spot) -> bool:
        ember = self.board[spot]
        if material(ember) != "ember":
            return False
        quench = self.quenched.get(ember, [])
        return any(
            n in self.board and ignites(ember, self.board[n]) and self.board[n] not in quench
            for n in neighbours(spot)
        )

    def is_curse(self, spot: Spot) -> bool:
        if not self.curse or spot[0] == 0:
            return False
        r, c = spot
        left, right = (r - 1, c - 1), (r - 1, c + 1)
        if left not in self.board or right not in self.board:
            return False
        w = weight(self.board[spot])
        return weight(self.board[left]) == w == weight(self.board[right])

    def first_event(self) -> tuple[str, Spot] | None:
        checks = [
            ("free_air", self.is_free_air),
            ("collapse", self.is_collapse),
            ("explosion", self.is_explosion),
            ("fire", self.is_fire),
            ("curse", self.is_curse),
        ]
        for name, check in checks:
            for spot in scan(self.board):
                if check(spot):
                    return name, spot
        return None

    # --- spots ------------------------------------------------------------------------

    def spots(self) -> list[Spot]:
        if not self.board:
            return [(0, 0)]
        forced = set()
        for r, c in self.board:
            for above in ((r + 1, c - 1), (r + 1, c + 1)):
                ar, ac = above
                if (
                    above not in self.board
                    and (ar - 1, ac - 1) in self.board
                    and (ar - 1, ac + 1) in self.board
                ):
                    forced.add(above)
        base = sorted(c for r, c in self.board if r == 0)
        if base:
            for c in range(base[0] + 2, base[-1], 2):
                if (0, c) not in self.board:
                    forced.add((0, c))
        if forced:
            return sorted(forced)
        if not base:
            return [(0, 0)]
        return [(0, base[0] - 2), (0, base[-1] + 2)]

    # --- actions ----------------------------------------------------------------------

    def apply(self, text: str) -> None:
        if self.pending is None:
            tile, spot = parse_at(text)
            assert tile in self.hands[self.to_move] and spot in self.spots(), text
            self.hands[self.to_move].remove(tile)
            self.board[spot] = tile
            self.touch(spot)
            self.resolve()
        elif self.pending[0] == "fall":
            _, spot = self.pending
            self.pending = None
            r, c = spot
            target = (r - 1, c - 1) if text == "left" else (r - 1, c + 1)
            assert text in ("left", "right") and target not in self.board
            tile = self.board.pop(spot)
            self.quenched.pop(tile, None)
            self.board[target] = tile
            self.touch(target)
            self.resolve()
        else:
            _, spot = self.pending
            self.pending = None
            roll = int(text.split(":")[1])
            ember = self.board[spot]
            self.quenched.pop(ember, None)
            if roll <= 4:
                self.burn(spot, remove=roll == 4)
            elif roll == 5:
                victims = [n for n in scan(self.board) if n in neighbours(spot)]
                self.remove_to_out(spot)
                self.under(self.p, victims)
            else:
                self.quenched[ember] = sorted(
                    (self.board[n] for n in neighbours(spot) if n in self.board), key=_order
                )
            self.resolve()

    def remove_to_out(self, spot: Spot) -> None:
        tile = self.board.pop(spot)
        self.quenched.pop(tile, None)
        self.out.append(tile)

    def under(self, seat: int, spots: list[Spot]) -> None:
        for s in spots:
            tile = self.board.pop(s)
            self.quenched.pop(tile, None)
            self.piles[seat].append(tile)

    def burn(self, spot: Spot, *, remove: bool) -> None:
        ember = self.board[spot]
        burnt: set[Spot] = set()
        frontier = [spot]
        while frontier:
            s = frontier.pop()
            for n in neighbours(s):
                if (
                    n in self.board
                    and n not in burnt
                    and n != spot
                    and ignites(ember, self.board[n])
                ):
                    burnt.add(n)
                    frontier.append(n)
        self.under(self.p, [s for s in scan(self.board) if s in burnt])
        if remove:
            self.remove_to_out(spot)

    def resolve(self) -> None:
        while True:
            event = self.first_event()
            if event is None:
                self.end_turn()
                return
            kind, spot = event
            r, c = spot
            if kind == "free_air":
                self.pending = ("fall", spot)
                return
            if kind == "collapse":
                self.under(self.p, [s for s in ((r - 1, c - 1), (r - 1, c + 1)) if s in self.board])
                self.pending = ("fall", spot)
                return
            if kind == "explosion":
                group = {spot}
                frontier = [spot]
                while frontier:
                    s = frontier.pop()
                    for n in neighbours(s):
                        if (
                            n in self.board
                            and material(self.board[n]) == "ember"
                            and n not in group
                        ):
                            group.add(n)
                            frontier.append(n)
                touching = {n for g in group for n in neighbours(g) if n in self.board} - group
                for g in scan(self.board):
                    if g in group:
                        self.remove_to_out(g)
                self.under(self.p, [s for s in scan(self.board) if s in touching])
            elif kind == "fire":
                if self.fire_die:
                    self.pending = ("die", spot)
                    return
                self.burn(spot, remove=True)
            else:
                right = (self.p - 1) % self.players
                self.under(right, [spot, (r - 1, c - 1), (r - 1, c + 1)])
                self.p = right

    def end_turn(self) -> None:
        a = self.to_move
        while len(self.hands[a]) < 5 and self.piles[a]:
            self.hands[a].append(self.piles[a].pop(0))
        if not self.hands[a] and not self.piles[a]:
            self.winner = a
            return
        if self.turn >= self.max_turns:
            left = [len(h) + len(p) for h, p in zip(self.hands, self.piles, strict=True)]
            self.ranking = [1 + sum(1 for x in left if x < mine) for mine in left]
            return
        self.to_move = (a + 1) % self.players
        self.p = self.to_move
        self.turn += 1

    # --- output -----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "rules": {
                "preset": self.preset,
                "curse": self.curse,
                "fire_die": self.fire_die,
                "max_turns": self.max_turns,
            },
            "players": self.players,
            "to_move": self.to_move,
            "turn": self.turn,
            "pyramid": [f"{t}@{r},{c}" for (r, c), t in sorted(self.board.items())],
            "hands": self.hands,
            "piles": self.piles,
            "out": self.out,
        }
        if self.pending is not None:
            kind, (r, c) = self.pending
            data["pending"] = {"player": self.p, "kind": kind}
            if kind == "fall":
                data["pending"]["tile"] = f"{self.board[(r, c)]}@{r},{c}"
        if self.quenched:
            data["quenched"] = {
                e: sorted(ts, key=_order)
                for e, ts in sorted(self.quenched.items(), key=lambda kv: _order(kv[0]))
            }
        if self.winner is not None:
            data["winner"] = self.winner
        if self.ranking is not None:
            data["ranking"] = self.ranking
        return data


_ORDER = [
    f"{c}{w}"
    for c in "YRGB"
    for w in sorted([1 if c in "YG" else 7, 2, 4, 6, 10, 20, 30, 40, 60, 100, 120])
] + ["W200"]


def _order(name: str) -> int:
    return _ORDER.index(name)
