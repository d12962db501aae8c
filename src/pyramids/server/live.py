"""A table in memory: its state, seats, per-viewer logs, connections and messages.

:class:`LiveTable` holds what the runtime (``tables.TableManager``) needs to answer a
connection at once: the current state, each viewer's log, cached ``state`` messages
per seat. :func:`rebuild` replays a stored record (checking seats, seqs and snapshots)
to bring a table back after a restart. Hidden information leaves only through
``state.view(seat)`` (and the game's hints, computed from that view alone),
``state.action_text_for`` and ``state.events_for``.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import hmac
import json
import logging
import random
import secrets
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pyramids.bots import make_bot
from pyramids.core import Event, Game, GameRecord, State, View
from pyramids.core.errors import PyramidsError
from pyramids.games import descriptor, descriptor_of, make_game
from pyramids.server.config import Settings
from pyramids.server.store import SeatRecord, TableRecord
from pyramids.texts import describe

log = logging.getLogger("pyramids.server")

ID_ALPHABET = string.ascii_letters + string.digits
ID_LENGTH = 10
TOKEN_BYTES = 24
"""32 URL-safe characters."""

OPEN, RUNNING, FINISHED = "open", "running", "finished"


class ProtocolError(Exception):
    """A request the server turns down: a protocol error code, a message and an HTTP status."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


class StartupError(RuntimeError):
    """The stored games cannot be resumed (a record that does not replay, a bad snapshot)."""


def hash_token(token: str) -> str:
    """The SHA-256 (hex) under which a seat's token is stored."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    """A fresh seat token: 32 URL-safe characters."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_table_id() -> str:
    """A fresh table id: 10 letters and digits."""
    return "".join(secrets.choice(ID_ALPHABET) for _ in range(ID_LENGTH))


def is_table_id(text: str) -> bool:
    """Whether ``text`` could be a table id (checked before touching the database)."""
    return 0 < len(text) <= 16 and all(c in ID_ALPHABET for c in text)


def iso(value: dt.datetime | None) -> str | None:
    """A timestamp as ``2026-11-29T20:41:03Z``."""
    if value is None:
        return None
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def event_json(event: Event) -> dict[str, Any]:
    """An event as sent to clients: its game, kind and facts, and both sentences.

    The sentences come from the shared message catalogue (``pyramids.texts``); the browser
    formats the same catalogue from ``game``, ``kind`` and ``data`` and falls back on them.
    """
    return {
        "game": event.game,
        "kind": event.kind,
        "data": event.data,
        "text_en": describe(event, "en"),
        "text_fr": describe(event, "fr"),
    }


def dumps(data: Any) -> str:
    """Compact JSON."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def final_order(state: State) -> list[int] | None:
    """The seats from first to last once the game is over (None before).

    From the game's ``outcome()``: by rank (1 first), seats of equal rank in seat order
    (after a win the winner first, then the others).
    """
    ranks = state.outcome().ranking if state.is_terminal() else None
    if ranks is None:
        return None
    return sorted(range(state.num_players), key=lambda s: (ranks[s], s))


Hints = Callable[[View], Mapping[str, Any] | None]
"""A game's ``hints(view)``: the engine's answers shown beside a decision (JSON-ready)."""


def hints_of(game: Game) -> Hints | None:
    """The game's hints function (its descriptor's ``hints``), None when it has none."""
    desc = descriptor_of(game)
    if not desc.hints:
        return None
    try:
        fn: Hints = desc.load("hints")
    except (ImportError, AttributeError, LookupError):
        log.exception("game %s: its hints %r do not load; sending none", desc.name, desc.hints)
        return None
    return fn


def viewers(players: int) -> list[int | None]:
    """Every viewer of a table: each seat, then the spectator (None)."""
    return [*range(players), None]


@dataclass
class TableSettings:
    """A table's pace: bot delay, absence before takeover, turn time, the takeover bot."""

    bot_delay: float
    absent_after: float
    turn_time: float
    takeover_bot: str

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "bot_delay": self.bot_delay,
            "absent_after": self.absent_after,
            "turn_time": self.turn_time,
            "takeover_bot": self.takeover_bot,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any], defaults: Settings) -> TableSettings:
        """Parse stored settings, falling back on the server defaults."""
        return cls(
            bot_delay=float(data.get("bot_delay", defaults.bot_delay)),
            absent_after=float(data.get("absent_after", defaults.absent_after)),
            turn_time=float(data.get("turn_time", defaults.turn_time)),
            takeover_bot=str(data.get("takeover_bot", defaults.takeover_bot)),
        )


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
    taken_over: bool = False

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
            "connected": self.connections > 0 if human else True,
            "taken_over": self.taken_over if human else False,
        }
        if not human:
            data["bot"] = self.bot
        return data


class Client:
    """One WebSocket connection's outbox: messages queue here and a sender task writes them."""

    def __init__(self, seat: int | None, limit: int = 2000) -> None:
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.limit = limit
        self.closed = False
        self.close_code = 1000

    def send(self, text: str) -> None:
        """Queue a message; a client this far behind is dropped (it resyncs on reconnect)."""
        if self.closed:
            return
        if self.queue.qsize() >= self.limit:
            self.close(1013)
            return
        self.queue.put_nowait(text)

    def close(self, code: int = 1000) -> None:
        """Ask the sender to close the connection (WebSocket ``code``) after what is queued."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.queue.put_nowait(None)


@dataclass
class Rebuilt:
    """A table rebuilt from its record: the state, the plain actions and per-viewer logs."""

    game: Game
    state: State
    actions: list[tuple[int, str]]
    logs: list[list[dict[str, Any]]]


def log_entries(state: State, seq: int, seat: int, texts: Sequence[str]) -> list[dict[str, Any]]:
    """The log entry of the action just applied to ``state``, for each viewer in order.

    Games that show every event to everyone (no ``events_for`` override) share one
    events list between the viewers' entries.
    """
    who = viewers(state.num_players)
    if type(state).events_for is State.events_for:
        shared = [event_json(e) for e in state.events()]
        return [
            {"seq": seq, "seat": seat, "action": texts[i], "events": shared}
            for i in range(len(who))
        ]
    return [log_entry(seq, seat, texts[i], state.events_for(v)) for i, v in enumerate(who)]


def log_entry(seq: int, seat: int, text: str, events: Sequence[Event]) -> dict[str, Any]:
    """One log entry: who acted, the action as the viewer sees it, and its events."""
    return {"seq": seq, "seat": seat, "action": text, "events": [event_json(e) for e in events]}


def is_older_rules(record: TableRecord) -> bool:
    """Whether ``record`` was stored under another rules version than its game's today."""
    try:
        return record.rules_version != descriptor(record.game).info.rules_version
    except PyramidsError:
        return False


def rebuild(record: TableRecord) -> Rebuilt:
    """Replay a stored table's record, checking seats, seqs and snapshots (StartupError).

    A table stored under an older rules version is replayed with today's rules; when
    that fails, the error names both versions (the game cannot be continued faithfully).
    """
    where = f"table {record.id}"
    try:
        game = make_game(record.game, record.players, record.options)
    except PyramidsError as exc:
        raise StartupError(f"{where}: its rules do not load: {exc}") from None
    if record.rules_version != game.info.rules_version:
        where += (
            f" (recorded under rules {record.rules_version}, this server plays "
            f"{game.info.rules_version})"
        )
    state = game.new_initial_state(record.seed)
    who = viewers(record.players)
    logs: list[list[dict[str, Any]]] = [[] for _ in who]
    actions: list[tuple[int, str]] = []
    for seq, seat, text in record.actions:
        if seq != len(actions) + 1:
            raise StartupError(f"{where}: action {len(actions) + 1} is missing (found seq {seq})")
        if seat != state.current_player():
            raise StartupError(
                f"{where}: action {seq} ({text!r}) is stored for seat {seat} but it was seat "
                f"{state.current_player()}'s decision"
            )
        try:
            action = state.parse_action(text)
        except PyramidsError as exc:
            raise StartupError(f"{where}: action {seq} ({text!r}) does not apply: {exc}") from None
        texts = [state.action_text_for(action, v) for v in who]
        state.apply(action)
        actions.append((seat, text))
        for i, entry in enumerate(log_entries(state, seq, seat, texts)):
            logs[i].append(entry)
        snapshot = record.snapshots.get(seq)
        if snapshot is not None and json.loads(json.dumps(state.to_json())) != snapshot:
            raise StartupError(
                f"{where}: the snapshot at seq {seq} does not match the replay of its record "
                "(the stored game is inconsistent; refusing to start)"
            )
    for seq in record.snapshots:
        if seq > len(actions) or seq < 0:
            raise StartupError(f"{where}: a snapshot at seq {seq} has no action")
    return Rebuilt(game, state, actions, logs)


class LiveTable:
    """A table in memory: its game, the current state, seats, logs and connections."""

    def __init__(self, record: TableRecord, rebuilt: Rebuilt, settings: TableSettings) -> None:
        self.id = record.id
        self.game_name = record.game
        self.game = rebuilt.game
        self.players = record.players
        self.options = dict(record.options)
        self.seed = record.seed
        self.rules_version = record.rules_version
        self.created = record.created
        self.finished = record.finished
        self.settings = settings
        self.state = rebuilt.state
        self.seq = len(rebuilt.actions)
        self.actions = rebuilt.actions
        self.logs = rebuilt.logs
        self.seats = [Seat(**vars(s)) for s in record.seats]
        self.status = record.status
        self.ranking: list[int] | None = None
        if self.state.is_terminal():
            self.status = FINISHED
            self.ranking = final_order(self.state)
            self.finished = self.finished or record.updated
        elif self.status == FINISHED:
            self.status = RUNNING
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.absent: dict[int, asyncio.TimerHandle] = {}
        self.turn_timer: asyncio.TimerHandle | None = None
        self.scheduled_seq = -1
        self._messages: dict[int, str] = {}
        self._views: dict[int, tuple[dict[str, Any], Any]] = {}
        self._hints = hints_of(self.game)
        self._legal: list[str] | None = None
        self._summary: dict[str, Any] | None = None

    # --- what clients see ------------------------------------------------------------------

    def index(self, viewer: int | None) -> int:
        """The log index of a viewer (the spectator's is the last)."""
        return self.players if viewer is None else viewer

    def changed(self, *, state: bool = False) -> None:
        """Forget cached messages after a change (of the state when ``state``)."""
        self._messages.clear()
        self._summary = None
        if state:
            self._views.clear()
            self._legal = None

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
        """The game's hints for ``viewer``'s view (None when the game gives none)."""
        return self._view_and_hints(viewer)[1]

    def _view_and_hints(self, viewer: int | None) -> tuple[dict[str, Any], Any]:
        """The view's JSON and the hints computed from that same view, once per seq."""
        i = self.index(viewer)
        cached = self._views.get(i)
        if cached is None:
            view = self.state.view(viewer)
            hints: Any = None
            if self._hints is not None:
                try:
                    hints = self._hints(view)
                except Exception:
                    log.exception("table %s: the game's hints failed; sending none", self.id)
            cached = (view.to_json(), None if hints is None else dict(hints))
            self._views[i] = cached
        return cached

    def state_message(self, viewer: int | None) -> dict[str, Any]:
        """The ``state`` message for ``viewer``."""
        to_move = self.to_move
        mine = self.status == RUNNING and viewer is not None and viewer == to_move
        log_ = self.logs[self.index(viewer)]
        return {
            "type": "state",
            "seq": self.seq,
            "status": self.status,
            "view": self.view_json(viewer),
            "hints": self.hints_json(viewer),
            "to_move": to_move,
            "legal": list(self.legal_texts()) if mine else [],
            "last": log_[-1] if log_ else None,
            "ranking": self.ranking,
            "seats": self.seat_summaries(),
        }

    def state_text(self, viewer: int | None) -> str:
        """The ``state`` message for ``viewer`` as JSON text, serialised once per change."""
        i = self.index(viewer)
        text = self._messages.get(i)
        if text is None:
            text = dumps(self.state_message(viewer))
            self._messages[i] = text
        return text

    def hello(self, viewer: int | None) -> dict[str, Any]:
        """The ``hello`` message: the summary, the seat, and the log as ``viewer`` sees it."""
        return {
            "type": "hello",
            "table": self.summary(),
            "seat": viewer,
            "log": self.logs[self.index(viewer)],
        }

    def broadcast_state(self) -> None:
        """Send every connection the new state, each its own seat's view."""
        for client in list(self.clients):
            client.send(self.state_text(client.seat))

    def broadcast_table(self) -> None:
        """Send every connection the table summary (a seat came, left or was taken over)."""
        text = dumps({"type": "table", "table": self.summary()})
        for client in list(self.clients):
            client.send(text)

    def seat_for_token(self, token: str) -> int:
        """The seat whose token this is; ProtocolError(bad_token) otherwise."""
        digest = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                return s.seat
        raise ProtocolError("bad_token", "this token is not the token of a seat at this table", 403)

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
        )


def think(spec: str, view: View, legal: Sequence[int], rng: random.Random) -> int:
    """A bot's decision; a bot that fails or answers an illegal action is replaced by a
    random legal choice (logged) so that a table never stalls on a bot's bug."""
    try:
        action = make_bot(spec).act(view, legal, rng)
    except Exception:
        log.exception("the %s bot failed; playing a random legal action instead", spec)
        return rng.choice(list(legal))
    if action not in legal:
        log.error("the %s bot chose an illegal action %r; playing a random one", spec, action)
        return rng.choice(list(legal))
    return action


def replay_steps(table: LiveTable) -> list[dict[str, Any]]:
    """Every step of a finished game with the full position (nothing is hidden any more)."""
    state = table.game.new_initial_state(table.seed)
    steps: list[dict[str, Any]] = [
        {
            "seq": 0,
            "seat": None,
            "action": None,
            "events": [event_json(e) for e in state.events()],
            "state": state.to_json(),
        }
    ]
    for seq, (seat, text) in enumerate(table.actions, start=1):
        state.apply(state.parse_action(text))
        steps.append(
            {
                "seq": seq,
                "seat": seat,
                "action": text,
                "events": [event_json(e) for e in state.events()],
                "state": state.to_json(),
            }
        )
    return steps


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
    }
