"""A table in memory: its state, seats, per-viewer logs, connections and messages.

:class:`LiveTable` holds what the runtime (``tables.TableManager``) needs to answer a
connection at once: the current state, each viewer's log, cached ``state`` messages
per seat. It starts from a :class:`~pyramids.server.rebuild.GameSoFar` (a new table's,
or one ``rebuild.rebuild`` replayed from its record after a restart). Hidden information
leaves only through ``state.view(seat)`` (and the game's hints, computed from that view
alone), ``state.action_text_for`` and ``state.events_for`` (``table_log.py``). The wire
it writes to is ``wire.py``; the refusals and ids of the protocol are ``protocol.py``;
its settings are ``table_settings.py``.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pyramids.bots.inference import Memory
from pyramids.core import Game, GameRecord, View
from pyramids.core.clock import Banks, Move, banks_at
from pyramids.games import descriptor_of
from pyramids.server.clocks import FORFEITED, Clock, SystemClock, Timer, clocks_json
from pyramids.server.protocol import ProtocolError, hash_token, invite_used, iso
from pyramids.server.rebuild import GameSoFar
from pyramids.server.standings import ranking_order
from pyramids.server.store import SeatRecord, TableRecord
from pyramids.server.table_log import forfeit_end_entry
from pyramids.server.table_settings import TableSettings, clock_of
from pyramids.server.wire import Client, Outgoing, encode, json_fragment, log_array

log = logging.getLogger("pyramids.server")


class TableStatus(StrEnum):
    """Where a table is in its life; stored and sent as the value (``"running"``)."""

    OPEN = "open"
    """Created, waiting for its human seats to be claimed."""
    RUNNING = "running"
    """Started: every human seat bound to its player (at once when it has none to hand out)."""
    FINISHED = "finished"
    """Over: by its rules, or by forfeits on time that left one seat standing."""
    EXPIRED = "expired"
    """An open table nobody started within ``LimitSettings.open_table_ttl`` (kept, not
    resumed)."""


OPEN, RUNNING, FINISHED, EXPIRED = (
    TableStatus.OPEN,
    TableStatus.RUNNING,
    TableStatus.FINISHED,
    TableStatus.EXPIRED,
)
"""The statuses under the short names the table code compares them by."""


Hints = Callable[[View], Mapping[str, Any] | None]
"""A game's ``hints(view)``: the engine's answers shown beside a decision (JSON-ready)."""


def hints_of(game: Game) -> Hints | None:
    """The game's hints function (its descriptor's ``hints``), None when it has none."""
    return descriptor_of(game).hints


@dataclass
class SeatSpec:
    """A seat as asked for when creating a table."""

    kind: str
    name: str | None = None
    bot: str | None = None


@dataclass
class Invite:
    """A human seat's invitation: its secret token and the table page's URL."""

    seat: int
    name: str
    token: str
    url: str


@dataclass
class Seat(SeatRecord):
    """A seat at a live table: the stored facts plus who is connected now."""

    connections: int = 0
    """Sockets of this seat on this instance."""
    taken_over: bool = False
    remote: int = 0
    """Sockets of this seat on the cluster's other instances (``presence.py``)."""

    def take_binding(self, stored: SeatRecord) -> None:
        """Take the seat's binding (claimed, token, name, account) as it is stored: another
        process, or instance, bound it."""
        self.claimed = stored.claimed
        self.token_hash = stored.token_hash
        self.invite_hash = stored.invite_hash
        self.name = stored.name
        self.account_id = stored.account_id

    @property
    def present(self) -> bool:
        """Whether the seat's player has a socket open on any instance."""
        return self.connections + self.remote > 0

    @property
    def is_human(self) -> bool:
        """Whether a person plays this seat."""
        return self.kind == "human"

    def summary(self) -> dict[str, Any]:
        """The seat as listed in a table summary."""
        human = self.is_human
        data: dict[str, Any] = {
            "seat": self.seat,
            "kind": self.kind,
            "name": self.name,
            "claimed": self.claimed if human else True,
            "connected": self.present if human else True,
            "taken_over": self.taken_over if human else False,
            "account": self.account_id is not None,
        }
        if not human:
            data["bot"] = self.bot
        return data


class LiveTable:
    """A table in memory: its game, the current state, seats, logs and connections."""

    def __init__(self, record: TableRecord, so_far: GameSoFar, settings: TableSettings) -> None:
        self.id = record.id
        self.game_name = record.game
        self.game = so_far.game
        self.players = record.players
        self.options = dict(record.options)
        self.seed = record.seed
        self.salt = record.salt
        self.commitment = record.commitment
        self.seeded = record.seeded
        self.public = record.public
        self.created_by = record.created_by
        self.started = record.started
        """When the table began running (None: open, or stored before revision 0003)."""
        self.rated = record.rated
        self.match_id = record.match_id
        self.rematch_id = record.rematch_id
        self.forfeits: list[int] = list(record.forfeits or [])
        """Seats that forfeited on time, in order (``clocks.py``)."""
        self.ended = record.ended
        self.rules_version = record.rules_version
        self.created = record.created
        self.finished = record.finished
        self.settings = settings
        self.state = so_far.state
        self.seq = len(so_far.actions)
        self.actions = so_far.actions
        self.stand_ins = dict(record.stand_ins)
        """The seqs whose action a bot chose for a human seat, and why (TIMEOUT, ABSENT,
        ``clocks.CLOCK``, ``clocks.FORFEITED``)."""
        self.action_times = [
            record.action_times.get(seq, record.updated) for seq, _, _ in record.actions
        ]
        """When each action was stored (seq 1 first): what the clocks are computed from."""
        self.logs = so_far.logs
        self.seats = [Seat(**vars(s)) for s in record.seats]
        self.status = TableStatus(record.status)
        self.ranking: list[int] | None = None
        self.clock = clock_of(settings, record.id)
        """The table's clock (None: none)."""
        self._banks: Banks | None = None
        if self.state.is_terminal():
            self.status = FINISHED
            self.ranking = ranking_order(self.state, self.forfeits)
            self.finished = self.finished or record.updated
        elif self.status == FINISHED and self.ended == FORFEITED and self.forfeits:
            self.ranking = ranking_order(self.state, self.forfeits)
            self.finished = self.finished or record.updated
            for log_ in self.logs:
                log_.append(forfeit_end_entry(self.seq, self.forfeits[-1], self.seats))
        elif self.status == FINISHED:
            self.status = RUNNING
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.bot_memory: dict[int, Memory] = {}
        """Per seat a bot decided for, what that bot remembered after its last decision (its
        ``memory``), handed to the next decision's bot
        (``bot_runner.bot_action_remembering``) so that inference reads on. In memory only:
        after a restart the bots decide without it."""
        self.bot_seen: dict[int, list[tuple[int, View]]] = {}
        """With more than two seats of a game with inference, per bot seat (or seat a bot
        decided for): its view after each action since its bot's last decision, by seq
        (``saw``): what a bot that watched the game would have seen (``WatchingBot``)."""
        self.turn_timer: Timer | None = None
        """The pending end of the current decision: its ``turn_time`` or its clock."""
        self.scheduled_seq = -1
        self.used = 0.0
        """When the table was last asked for (an instance that does not own it forgets it
        once it has had no socket for a while: ``TableManager.forget_idle``)."""
        self._messages: dict[int, Outgoing] = {}
        self._public: list[Outgoing] = []
        self._public_flush: Timer | None = None
        self.server_clock: Clock = SystemClock()
        """The server's clock (its ``call_later`` times the spectators' linger); the table
        cache and seating give each table the manager's."""
        self._views: dict[int, tuple[dict[str, Any], Any]] = {}
        self._hints = hints_of(self.game)
        self._watched = self.players > 2 and descriptor_of(self.game).inference is not None
        """Whether bot seats keep their views (``saw``): only a game whose bots infer hidden
        hands (its descriptor's ``inference``) read them, and only with more than two seats."""
        self._legal: list[str] | None = None
        self._summary: dict[str, Any] | None = None

    # --- what clients see ------------------------------------------------------------------

    def index(self, viewer: int | None) -> int:
        """The log index of a viewer (the spectator's is the last)."""
        return self.players if viewer is None else viewer

    def saw(self) -> None:
        """Keep each bot seat's view of the state just committed (``bot_seen``; only with more
        than two seats of a game with inference, which reads the other seats' turns from them)."""
        if not self._watched:
            return
        for seat in self.seats:
            if not seat.is_human or seat.taken_over or seat.seat in self.bot_memory:
                self.bot_seen.setdefault(seat.seat, []).append(
                    (self.seq, self.state.view(seat.seat))
                )

    def seen_by(self, seat: int) -> list[View]:
        """``seat``'s views since its bot's last decision (``bot_seen``), oldest first."""
        return [view for _, view in self.bot_seen.get(seat, [])]

    def decided(self, seat: int, seq: int, memory: Memory | None) -> None:
        """``seat``'s bot decided at ``seq`` and its action was stored: its ``memory`` is
        kept for its next decision (None: a bot without one), the views up to it dropped."""
        if memory is not None:
            self.bot_memory[seat] = memory
        seen = self.bot_seen.get(seat)
        if seen:
            self.bot_seen[seat] = [(k, v) for k, v in seen if k > seq]

    def changed(self, *, state: bool = False) -> None:
        """Forget cached messages after a change (of the state when ``state``)."""
        self._messages.clear()
        self._summary = None
        if state:
            self._views.clear()
            self._legal = None
            self._banks = None

    # --- the clocks ------------------------------------------------------------------------

    def banks(self) -> Banks | None:
        """Every seat's time bank at the start of the current decision (None: no clock),
        computed from the start and the actions' times once per seq."""
        if self.clock is None:
            return None
        if self._banks is None:
            clocked = [s.is_human for s in self.seats]
            moves = [
                Move(seat, created)
                for (seat, _), created in zip(self.actions, self.action_times, strict=True)
            ]
            start = self.started or self.created
            self._banks = banks_at(self.clock, clocked, start, moves, self.forfeits)
        return self._banks

    def clock_seat(self) -> int | None:
        """The seat whose clock runs now (a human's decision at a running table), or None."""
        banks = self.banks()
        to_move = self.to_move
        if banks is None or self.status != RUNNING or to_move is None or to_move < 0:
            return None
        return to_move if banks.banks[to_move] is not None else None

    def clocks_json(self) -> list[dict[str, Any]] | None:
        """The ``clocks`` of the state message and the summary (None: the table has none)."""
        banks = self.banks()
        if banks is None or self.clock is None:
            return None
        return clocks_json(self.clock, banks, self.clock_seat())

    @property
    def to_move(self) -> int | None:
        """The seat to decide (-1: the server's chance draw), None once over."""
        return None if self.state.is_terminal() else self.state.current_player()

    def seat_summaries(self) -> list[dict[str, Any]]:
        """Every seat as in the summary."""
        return [s.summary() for s in self.seats]

    def summary(self) -> dict[str, Any]:
        """The table summary of the protocol."""
        if self._summary is None:
            self._summary = {
                "id": self.id,
                "game": self.game_name,
                "players": self.players,
                "options": self.options,
                "status": self.status,
                "seq": self.seq,
                "created": iso(self.created),
                "finished": iso(self.finished),
                "to_move": self.to_move,
                "ranking": self.ranking,
                "seats": self.seat_summaries(),
                "settings": self.settings.to_json(),
                "public": self.public,
                "commitment": self.commitment,
                "seeded": self.seeded,
                "rated": self.rated,
                "match_id": self.match_id,
                "rematch_id": self.rematch_id,
                "started": iso(self.started),
                "clocks": self.clocks_json(),
                "forfeits": list(self.forfeits),
                "ended": self.ended,
            }
        return self._summary

    def legal_texts(self) -> list[str]:
        """The legal actions of the seat to move, in the engine's order."""
        if self._legal is None:
            state = self.state
            self._legal = [state.action_to_string(a) for a in state.legal_actions()]
        return self._legal

    def view_json(self, viewer: int | None) -> dict[str, Any]:
        """``state.view(viewer).to_json()``, computed once per seq."""
        return self._view_and_hints(viewer)[0]

    def hints_json(self, viewer: int | None) -> Any:
        """The game's hints for ``viewer``'s view (None when the game gives none, or the
        table's settings turn them off)."""
        return self._view_and_hints(viewer)[1]

    def _view_and_hints(self, viewer: int | None) -> tuple[dict[str, Any], Any]:
        """The view's JSON and the hints computed from that same view, once per seq."""
        i = self.index(viewer)
        cached = self._views.get(i)
        if cached is None:
            view = self.state.view(viewer)
            hints: Any = None
            if self._hints is not None and self.settings.hints:
                try:
                    hints = self._hints(view)
                except Exception:
                    log.exception("table %s: the game's hints failed; sending none", self.id)
            cached = (view.to_json(), None if hints is None else dict(hints))
            self._views[i] = cached
        return cached

    def state_message(self, viewer: int | None) -> dict[str, Any]:
        """The ``state`` message for ``viewer`` (the spectators' view while the table is
        open: ``shown_viewer``)."""
        to_move = self.to_move
        mine = self.status == RUNNING and viewer is not None and viewer == to_move
        shown = self.shown_viewer(viewer)
        log_ = self.logs[self.index(shown)]
        return {
            "type": "state",
            "seq": self.seq,
            "status": self.status,
            "view": self.view_json(shown),
            "hints": self.hints_json(shown),
            "to_move": to_move,
            "legal": list(self.legal_texts()) if mine else [],
            "last": json_fragment(log_[-1]) if log_ else None,
            "ranking": self.ranking,
            "seats": self.summary()["seats"],
            "commitment": self.commitment,
            "clocks": self.clocks_json(),
            "forfeits": list(self.forfeits),
            "ended": self.ended,
        }

    def state_text(self, viewer: int | None) -> str:
        """The ``state`` message for ``viewer`` as JSON text, serialised once per change."""
        return self.state_out(viewer).text

    def state_out(self, viewer: int | None) -> Outgoing:
        """The ``state`` message for ``viewer``, serialised (and framed) once per change and
        shared by all of that viewer's connections: each seat's, and the spectators' one."""
        i = self.index(viewer)
        out = self._messages.get(i)
        if out is None:
            out = Outgoing(encode(self.state_message(viewer)))
            self._messages[i] = out
        return out

    def outsider_summary(self) -> dict[str, Any]:
        """The summary as someone who holds no seat here sees it: an invite-only table's
        rematch (also invite-only) is not named to them (``rematch.py``)."""
        summary = self.summary()
        if self.public or self.rematch_id is None:
            return summary
        return {**summary, "rematch_id": None}

    def hello(self, viewer: int | None) -> dict[str, Any]:
        """The ``hello`` message: the summary, the seat, and the log as ``viewer`` sees it."""
        return {
            "type": "hello",
            "table": self.summary() if viewer is not None else self.outsider_summary(),
            "seat": viewer,
            "log": log_array(self.logs[self.index(self.shown_viewer(viewer))]),
        }

    def broadcast_state(self) -> None:
        """Send every connection the new state, each its own seat's view (the players'
        connections first, then the spectators')."""
        for client in list(self.clients):
            if client.seat is not None:
                client.send(self.state_out(client.seat))
        if any(c.seat is None for c in self.clients):
            self._to_spectators(self.state_out(None))

    def broadcast_table(self) -> None:
        """Send every connection the table summary (a seat came, left or was taken over)."""
        out = Outgoing(encode({"type": "table", "table": self.summary()}))
        for client in list(self.clients):
            if client.seat is not None:
                client.send(out)
        outsiders = self.outsider_summary()
        if outsiders is not self.summary():
            out = Outgoing(encode({"type": "table", "table": outsiders}))
        self._to_spectators(out)

    def attach(self, client: Client) -> None:
        """Add a connection; what the spectators have pending goes out first, so that a new
        one starts with the current state and never gets an older one after it."""
        self.flush_public()
        self.clients.add(client)

    def _to_spectators(self, out: Outgoing) -> None:
        """Send a message to every spectator: at once, or with the others of the next
        ``linger`` seconds in one write per socket (flush_public)."""
        spectators = [c for c in self.clients if c.seat is None]
        if not spectators:
            return
        linger = max(c.linger for c in spectators)
        if linger <= 0:
            for c in spectators:
                c.send(out)
            return
        self._public.append(out)
        if self._public_flush is None:
            self._public_flush = self.server_clock.call_later(linger, self.flush_public)

    def flush_public(self) -> None:
        """Write the spectators' pending messages: the same bytes, one write per socket,
        straight from here when its socket can take them, else through its outbox."""
        if self._public_flush is not None:
            self._public_flush.cancel()
            self._public_flush = None
        batch, self._public = self._public, []
        if not batch:
            return
        data: bytes | None = None
        for client in [c for c in self.clients if c.seat is None]:
            if client.can_write_now() and client.write_now is not None:
                data = data if data is not None else b"".join(out.frame for out in batch)
                if client.write_now(data):
                    continue
            for out in batch:
                client.send(out)

    def seat_for_token(self, token: str) -> int:
        """The seat whose token this is; ProtocolError(bad_token) otherwise, and
        (invite_used) for an invite whose first use bound its seat to a new credential."""
        digest = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                return s.seat
        for s in self.seats:
            if s.invite_hash is not None and hmac.compare_digest(s.invite_hash, digest):
                raise invite_used()
        raise ProtocolError("bad_token", "this token is not the token of a seat at this table", 403)

    def shown_viewer(self, viewer: int | None) -> int | None:
        """Whose view ``viewer`` gets: its own once the table has started; the spectators'
        while it is open (or expired without starting), so that nobody sees a hand of a
        deal that is not yet fixed: no creator can look at deals and hand out only the
        invite of one it likes (issue 29, deal shopping)."""
        return None if self.status in (OPEN, EXPIRED) else viewer

    def record(self) -> GameRecord:
        """The game record (rules options, seed, every action in plain notation)."""
        return GameRecord(
            game=self.game_name,
            options=dict(self.options),
            players=self.players,
            seed=self.seed,
            actions=[text for _, text in self.actions],
            rules_version=self.rules_version,
            seats=[s.name for s in self.seats],
            salt=self.salt,
            commitment=self.commitment,
            seeded=self.seeded,
            forfeits=list(self.forfeits),
            ended=self.ended,
        )


def stored_summary(record: TableRecord) -> dict[str, Any]:
    """The summary of a table that is not in memory (finished, or another process's)."""
    seats = [Seat(**vars(s)).summary() for s in record.seats]
    for s in seats:
        if s["kind"] == "human":
            s["connected"] = False
    return {
        "id": record.id,
        "game": record.game,
        "players": record.players,
        "options": record.options,
        "status": record.status,
        "seq": record.seq,
        "created": iso(record.created),
        "finished": iso(record.finished),
        "to_move": None,
        "ranking": record.ranking,
        "seats": seats,
        "settings": record.settings,
        "public": record.public,
        "commitment": record.commitment,
        "seeded": record.seeded,
        "rated": record.rated,
        "match_id": record.match_id,
        "rematch_id": record.rematch_id,
        "started": iso(record.started),
        "clocks": None,
        "forfeits": list(record.forfeits or []),
        "ended": record.ended,
    }
