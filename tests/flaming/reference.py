"""A deliberately naive second implementation of the contract, used as a test oracle.

It works on the position JSON itself, rescans the whole pyramid for every check in
the contract's order, and shares no code with ``pyramids.flaming``. The differential
test plays thousands of random turns through both and demands identical positions,
legal actions, events, views and returns.

Call-out mode (contract section 12) is transcribed from the contract's text and the
lead's decisions where it is open, not from the engine: after a placement a check is
pending for the seat to the active player's left; a call is right when the named tile
takes part in anything the five checks of section 6 would act on; overlooked mayhem
found later in the family variant sends every tile that would go under a pile out of
the game instead.

Events are plain dicts ``{"kind": ..., **facts}`` shaped like the engine's
``event.data``; views are dicts shaped like ``FlamingView.to_json()``.
"""

from __future__ import annotations

import copy
from typing import Any

Spot = tuple[int, int]
Event = dict[str, Any]

CHECK_ORDER = ("free_air", "collapse", "explosion", "fire", "curse")
"""Contract section 6: the five checks, in the order they run."""


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


def scan(board: dict[Spot, str] | set[Spot]) -> list[Spot]:
    """Occupied spots in scan order: top row first, left to right."""
    return sorted(board, key=lambda s: (-s[0], s[1]))


def parse_at(text: str) -> tuple[str, Spot]:
    """``R40@1,1`` -> ("R40", (1, 1))."""
    tile, where = text.split("@")
    r, c = where.split(",")
    return tile, (int(r), int(c))


def spot_text(spot: Spot) -> str:
    """(1, 3) -> "1,3"."""
    return f"{spot[0]},{spot[1]}"


class Reference:
    """The contract, transcribed as plainly as possible."""

    def __init__(self, pos: dict[str, Any]) -> None:
        pos = copy.deepcopy(pos)
        rules = pos["rules"]
        self.preset = rules.get("preset", "standard")
        self.curse = rules.get("curse", self.preset == "standard")
        self.fire_die = rules.get("fire_die", False)
        self.max_turns = rules.get("max_turns", 1000)
        self.callout = rules.get("callout", "off")
        self.players: int = pos["players"]
        self.to_move: int = pos["to_move"]
        self.turn: int = pos["turn"]
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
        self.overlooked: bool = pos.get("overlooked", False)
        # Section 10, perfect memory: the top ``hidden[s]`` tiles of seat s's pile are
        # unknown (a loaded position knows none of them); ``known[s]`` are hand tiles
        # everyone saw go under the pile before s drew them.
        self.hidden = [len(p) for p in self.piles]
        self.known: list[set[str]] = [set() for _ in range(self.players)]
        self.events: list[Event] = []
        self.p: int = self.to_move
        self.checking = False
        self.pending: tuple[str, Spot] | None = None
        if "pending" in pos:
            kind = pos["pending"]["kind"]
            if kind == "check":
                assert pos["pending"]["player"] == self.checker_seat()
                self.checking = True
            else:
                self.p = pos["pending"]["player"]
                if kind == "fall":
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

    def support_spots(self, spot: Spot) -> list[Spot]:
        """The present supports of ``spot``, left first."""
        r, c = spot
        return [s for s in ((r - 1, c - 1), (r - 1, c + 1)) if s in self.board]

    def supports(self, spot: Spot) -> list[str]:
        return [self.board[s] for s in self.support_spots(spot)]

    def too_heavy(self, spot: Spot) -> bool:
        return weight(self.board[spot]) > sum(weight(s) for s in self.supports(spot))

    def mismatch(self, spot: Spot) -> bool:
        tile = self.board[spot]
        return not any(
            colours_match(tile, s) or weight(tile) == weight(s) for s in self.supports(spot)
        )

    def fits(self, spot: Spot) -> bool:
        if spot[0] == 0 or not self.supports(spot):
            return True
        return not self.too_heavy(spot) and not self.mismatch(spot)

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
        order = scan(self.board)
        for name, check in checks:
            for spot in order:
                if check(spot):
                    return name, spot
        return None

    def ember_group(self, spot: Spot) -> set[Spot]:
        """The ember at ``spot`` and every ember connected to it through touching embers."""
        group = {spot}
        frontier = [spot]
        while frontier:
            s = frontier.pop()
            for n in neighbours(s):
                if n in self.board and material(self.board[n]) == "ember" and n not in group:
                    group.add(n)
                    frontier.append(n)
        return group

    def fire_reach(self, spot: Spot) -> set[Spot]:
        """What the ember at ``spot`` burns: every tile it ignites joined to it by such tiles."""
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
        return burnt

    def called(self) -> dict[Spot, str]:
        """Section 12: every position a call would be right about -> the first check it takes part in.

        Each check scans the whole pyramid as it stands (not only the first event).
        """
        found: dict[Spot, str] = {}
        order = scan(self.board)
        for spot in order:
            if self.is_free_air(spot):
                found.setdefault(spot, "free_air")
        for spot in order:
            if self.is_collapse(spot):
                for s in [spot, *self.support_spots(spot)]:
                    found.setdefault(s, "collapse")
        for spot in order:
            if self.is_explosion(spot):
                group = self.ember_group(spot)
                touching = {n for g in group for n in neighbours(g) if n in self.board}
                for s in group | touching:
                    found.setdefault(s, "explosion")
        for spot in order:
            if self.is_fire(spot):
                for s in {spot} | self.fire_reach(spot):
                    found.setdefault(s, "fire")
        for spot in order:
            if self.is_curse(spot):
                for s in [spot, *self.support_spots(spot)]:
                    found.setdefault(s, "curse")
        return found

    def standing(self) -> bool:
        """Whether section 6 would find an event on the pyramid as it stands."""
        return self.first_event() is not None

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

    # --- whose decision ----------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.winner is not None or self.ranking is not None

    def checker_seat(self) -> int:
        """Section 12: the checker C, the next seat to the active player's left."""
        return (self.to_move + 1) % self.players

    def current_player(self) -> int | str | None:
        """The deciding seat, "chance" for a die roll, None when the game is over."""
        if self.is_over:
            return None
        if self.checking:
            return self.checker_seat()
        if self.pending is not None and self.pending[0] == "die":
            return "chance"
        return self.p

    def legal(self) -> list[str]:
        """The legal actions as text, in the engine's order (spots in scan order, tiles in tile order)."""
        if self.is_over:
            return []
        if self.checking:
            return ["ok"] + [f"call:{spot_text(s)}" for s in scan(self.board)]
        if self.pending is None:
            hand = sorted(self.hands[self.to_move], key=_order)
            return [f"{t}@{spot_text(s)}" for s in scan(set(self.spots())) for t in hand]
        if self.pending[0] == "fall":
            return ["left", "right"]
        return [f"die:{n}" for n in range(1, 7)]

    def returns(self) -> list[float]:
        """Section 7: 1 to the winner; after max_turns, 1 shared by the seats ranked first."""
        if self.winner is not None:
            return [1.0 if s == self.winner else 0.0 for s in range(self.players)]
        if self.ranking is not None:
            firsts = self.ranking.count(1)
            return [1.0 / firsts if r == 1 else 0.0 for r in self.ranking]
        return [0.0] * self.players

    # --- actions ----------------------------------------------------------------------

    def apply(self, text: str) -> None:
        self.events = []
        assert not self.is_over, text
        if self.checking:
            self.check(text)
        elif self.pending is None:
            tile, spot = parse_at(text)
            assert tile in self.hands[self.to_move] and spot in self.spots(), text
            self.hands[self.to_move].remove(tile)
            self.known[self.to_move].discard(tile)
            self.board[spot] = tile
            self.touch(spot)
            self.emit("place", seat=self.to_move, tile=tile, at=spot_text(spot))
            if self.callout != "off":
                # Section 12: nothing is resolved; the seat to the left checks.
                # "overlooked" records overlooked mayhem on the pyramid: a placement
                # that leaves none standing (it gave a tile in free air the support it
                # lacked, as only a hand-made position can ask) leaves none overlooked.
                if not self.standing():
                    self.overlooked = False
                self.checking = True
                return
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
            self.emit(
                "fall",
                seat=self.p,
                tile=tile,
                **{"from": spot_text(spot)},
                to=spot_text(target),
                side=text,
            )
            self.resolve()
        else:
            _, spot = self.pending
            self.pending = None
            roll = int(text.split(":")[1])
            ember = self.board[spot]
            self.quenched.pop(ember, None)
            if roll <= 4:
                self.burn(spot, remove=roll == 4, roll=roll)
            elif roll == 5:
                victims = [n for n in scan(self.board) if n in neighbours(spot)]
                cells = self.cells(victims)
                out = self.penalty
                self.remove_to_out(spot)
                self.under(self.p, victims)
                self.emit(
                    "die_explosion",
                    seat=self.p,
                    ember=ember,
                    at=spot_text(spot),
                    victims=cells,
                    out=out,
                )
            else:
                self.quenched[ember] = sorted(
                    (self.board[n] for n in neighbours(spot) if n in self.board), key=_order
                )
                self.emit("quench", seat=self.p, ember=ember, at=spot_text(spot))
            self.resolve()

    def check(self, text: str) -> None:
        """Section 12: the checker says ``ok`` or calls a position."""
        seat = self.checker_seat()
        self.checking = False
        if text == "ok":
            self.emit("check_ok", seat=seat)
            self.overlooked = self.standing()
            self.end_turn()
            return
        assert text.startswith("call:"), text
        r, c = text.removeprefix("call:").split(",")
        spot = (int(r), int(c))
        assert spot in self.board, text
        found = self.called().get(spot)
        if found is None:
            self.emit("false_alarm", seat=seat, at=spot_text(spot))
            self.overlooked = self.standing()
            self.end_turn()
            return
        self.emit(
            "call",
            seat=seat,
            at=spot_text(spot),
            tile=self.board[spot],
            found=found,
            overlooked=self.overlooked,
        )
        self.p = self.to_move
        self.resolve()

    @property
    def penalty(self) -> bool:
        """Section 12, family: overlooked mayhem found later sends tiles out instead of under a pile."""
        return self.callout == "family" and self.overlooked

    def emit(self, kind: str, **facts: Any) -> None:
        self.events.append({"kind": kind, **facts})

    def cells(self, spots: list[Spot]) -> list[dict[str, str]]:
        return [{"tile": self.board[s], "at": spot_text(s)} for s in spots]

    def remove_to_out(self, spot: Spot) -> None:
        tile = self.board.pop(spot)
        self.quenched.pop(tile, None)
        self.out.append(tile)

    def under(self, seat: int, spots: list[Spot]) -> None:
        """The tiles go under ``seat``'s pile, in order (out of the game under the family penalty)."""
        for s in spots:
            tile = self.board.pop(s)
            self.quenched.pop(tile, None)
            if self.penalty:
                self.out.append(tile)
            else:
                self.piles[seat].append(tile)

    def burn(self, spot: Spot, *, remove: bool, roll: int | None) -> None:
        ember = self.board[spot]
        reach = self.fire_reach(spot)
        burnt = [s for s in scan(self.board) if s in reach]
        cells = self.cells(burnt)
        materials = [m for m in ("straw", "wood") if any(material(x["tile"]) == m for x in cells)]
        out = self.penalty
        self.under(self.p, burnt)
        if remove:
            self.remove_to_out(spot)
        self.emit(
            "fire",
            seat=self.p,
            ember=ember,
            at=spot_text(spot),
            burnt=cells,
            ember_removed=remove,
            roll=roll,
            materials=materials,
            out=out,
        )

    def resolve(self) -> None:
        while True:
            event = self.first_event()
            if event is None:
                # Section 12: after a resolution the pyramid is clean.
                self.overlooked = False
                self.end_turn()
                return
            kind, spot = event
            r, c = spot
            tile = self.board[spot]
            if kind == "free_air":
                self.emit("free_air", seat=self.p, tile=tile, at=spot_text(spot))
                self.pending = ("fall", spot)
                return
            if kind == "collapse":
                gone = self.support_spots(spot)
                heavy, mismatch = self.too_heavy(spot), self.mismatch(spot)
                reason = (
                    "too_heavy_no_match"
                    if heavy and mismatch
                    else ("too_heavy" if heavy else "no_match")
                )
                event_facts = {
                    "seat": self.p,
                    "tile": tile,
                    "at": spot_text(spot),
                    "collapsed": self.cells(gone),
                    "reason": reason,
                    "weight": weight(tile),
                    "support_weights": [weight(self.board[s]) for s in gone],
                    "out": self.penalty,
                }
                self.under(self.p, gone)
                self.emit("collapse", **event_facts)
                self.pending = ("fall", spot)
                return
            if kind == "explosion":
                group = self.ember_group(spot)
                touching = {n for g in group for n in neighbours(g) if n in self.board} - group
                embers = [g for g in scan(self.board) if g in group]
                victims = [s for s in scan(self.board) if s in touching]
                facts = {
                    "seat": self.p,
                    "embers": self.cells(embers),
                    "victims": self.cells(victims),
                    "out": self.penalty,
                }
                for g in embers:
                    self.remove_to_out(g)
                self.under(self.p, victims)
                self.emit("explosion", **facts)
            elif kind == "fire":
                if self.fire_die:
                    self.emit("fire_found", seat=self.p, ember=tile, at=spot_text(spot))
                    self.pending = ("die", spot)
                    return
                self.burn(spot, remove=True, roll=None)
            else:
                right = (self.p - 1) % self.players
                trio = [spot, (r - 1, c - 1), (r - 1, c + 1)]
                facts = {
                    "seat": self.p,
                    "target": right,
                    "tiles": self.cells(trio),
                    "weight": weight(tile),
                    "out": self.penalty,
                }
                self.under(right, trio)
                self.emit("curse", **facts)
                self.p = right

    def end_turn(self) -> None:
        a = self.to_move
        drawn = 0
        while len(self.hands[a]) < 5 and self.piles[a]:
            tile = self.piles[a].pop(0)
            if self.hidden[a]:
                self.hidden[a] -= 1
            else:
                self.known[a].add(tile)
            self.hands[a].append(tile)
            drawn += 1
        if drawn:
            self.emit("draw", seat=a, count=drawn)
        if not self.hands[a] and not self.piles[a]:
            self.winner = a
            self.emit("win", seat=a)
            return
        if self.turn >= self.max_turns:
            left = [len(h) + len(p) for h, p in zip(self.hands, self.piles, strict=True)]
            self.ranking = [1 + sum(1 for x in left if x < mine) for mine in left]
            self.emit("max_turns", ranking=self.ranking)
            return
        self.to_move = (a + 1) % self.players
        self.p = self.to_move
        self.turn += 1

    # --- output -----------------------------------------------------------------------

    def rules_json(self) -> dict[str, Any]:
        rules: dict[str, Any] = {
            "preset": self.preset,
            "curse": self.curse,
            "fire_die": self.fire_die,
            "max_turns": self.max_turns,
        }
        if self.callout != "off":
            rules["callout"] = self.callout
        return rules

    def pending_json(self) -> dict[str, Any] | None:
        if self.checking:
            return {"player": self.checker_seat(), "kind": "check"}
        if self.pending is None:
            return None
        kind, (r, c) = self.pending
        data: dict[str, Any] = {"player": self.p, "kind": kind}
        if kind == "fall":
            data["tile"] = f"{self.board[(r, c)]}@{r},{c}"
        return data

    def pyramid_json(self) -> list[str]:
        return [f"{t}@{r},{c}" for (r, c), t in sorted(self.board.items())]

    def quenched_json(self) -> dict[str, list[str]]:
        return {
            e: sorted(ts, key=_order)
            for e, ts in sorted(self.quenched.items(), key=lambda kv: _order(kv[0]))
        }

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "rules": self.rules_json(),
            "players": self.players,
            "to_move": self.to_move,
            "turn": self.turn,
            "pyramid": self.pyramid_json(),
            "hands": self.hands,
            "piles": self.piles,
            "out": self.out,
        }
        pending = self.pending_json()
        if pending is not None:
            data["pending"] = pending
        if self.quenched:
            data["quenched"] = self.quenched_json()
        if self.overlooked:
            data["overlooked"] = True
        if self.winner is not None:
            data["winner"] = self.winner
        if self.ranking is not None:
            data["ranking"] = self.ranking
        return data

    def view(self, viewer: int | None) -> dict[str, Any]:
        """Section 10: what ``viewer`` (None: a spectator) may know, shaped like the engine's view JSON.

        Section 12: nothing in it says whether mayhem stands (no ``overlooked``).
        """
        data: dict[str, Any] = {
            "viewer": viewer,
            "rules": self.rules_json(),
            "players": self.players,
            "to_move": self.to_move,
            "turn": self.turn,
            "responsible": self.to_move if self.checking else self.p,
            "pyramid": self.pyramid_json(),
            "out": list(self.out),
            "hand": None if viewer is None else list(self.hands[viewer]),
            "hand_sizes": [len(h) for h in self.hands],
            "pile_sizes": [len(p) for p in self.piles],
            "pile_known": [p[h:] for p, h in zip(self.piles, self.hidden, strict=True)],
            "hand_known": [sorted(k, key=_order) for k in self.known],
        }
        pending = self.pending_json()
        if pending is not None:
            data["pending"] = pending
        if self.quenched:
            data["quenched"] = self.quenched_json()
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
