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
import collections
import datetime as dt
import hashlib
import hmac
import json
import logging
import random
import secrets
import string
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

import orjson

from pyramids import texts
from pyramids.bots import ISMCTSBot, make_bot
from pyramids.bots.inference import Memory
from pyramids.core import Event, Game, GameRecord, State, View
from pyramids.core.clock import Banks, Move, banks_at
from pyramids.core.errors import PyramidsError
from pyramids.games import descriptor, descriptor_of, make_game
from pyramids.server.clocks import (
    CLOCK,
    FORFEITED,
    ClockError,
    ClockNotice,
    ClockSpec,
    Timer,
    clocks_json,
)
from pyramids.server.config import Settings
from pyramids.server.store import SeatRecord, TableRecord
from pyramids.texts import describe

log = logging.getLogger("pyramids.server")

ID_ALPHABET = string.ascii_letters + string.digits
ID_LENGTH = 10
TOKEN_BYTES = 24
"""32 URL-safe characters."""

OPEN, RUNNING, FINISHED = "open", "running", "finished"
EXPIRED = "expired"
"""An open table nobody started within ``LimitSettings.open_table_ttl`` (kept, not resumed)."""
TIMEOUT, ABSENT = "timeout", "absent"
"""Why a bot chose a human seat's action: its turn time ran out, or its player is away."""


class ProtocolError(Exception):
    """A request the server turns down: a protocol error code, a message and an HTTP status."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.seat_token: str | None = None
        """The seat's new credential when the refused request used its invite (bound it):
        the refusal still hands it over (``POST …/actions``)."""


class StartupError(RuntimeError):
    """The stored games cannot be resumed (a record that does not replay, a bad snapshot)."""


def hash_token(token: str) -> str:
    """The SHA-256 (hex) under which a seat's token is stored."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_token() -> str:
    """A fresh seat token: 32 URL-safe characters."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def invite_used() -> ProtocolError:
    """The refusal of an invite whose first use bound its seat (issue 29: used once)."""
    return ProtocolError("invite_used", texts.message("seats.invite_used", "en"), 403)


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
    return _iso(value)


@lru_cache(maxsize=4096)
def _iso(value: dt.datetime) -> str:
    # a table's summary is rebuilt after every change; its times rarely change
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


@dataclass(frozen=True)
class StandIn(Event):
    """A server notice, not a rules event: a bot chose this action for a human seat because
    the turn time ran out (``reason`` ``timeout``) or its player is away (``absent``).
    Told by the catalogue entry ``server.stand_in``: "time ran out: a bot played for Alice"."""

    kind: ClassVar[str] = "stand_in"
    game: ClassVar[str] = "server"
    seat: int
    name: str
    reason: str


def stand_in_event(reason: str | None, seat: int, seats: Sequence[SeatRecord]) -> Event | None:
    """The notice of an action a bot chose for seat ``seat`` (None: its own player did);
    a clock's (``clock``, ``forfeit``) is a :class:`~pyramids.server.clocks.ClockNotice`."""
    if reason is None or not 0 <= seat < len(seats):
        return None
    if reason in (CLOCK, FORFEITED):
        return ClockNotice(seat=seat, name=seats[seat].name, reason=reason)
    return StandIn(seat=seat, name=seats[seat].name, reason=reason)


def forfeit_end_entry(seq: int, seat: int, seats: Sequence[SeatRecord]) -> bytes:
    """The log entry (every viewer's) of a forfeit on time that ended the game: no action,
    the seq of the last one."""
    notice = ClockNotice(seat=seat, name=seats[seat].name, reason="forfeit_end")
    return encode({"seq": seq, "seat": seat, "action": "", "events": [event_json(notice)]})


def encode(data: Any) -> bytes:
    """Compact JSON as UTF-8 (orjson; the standard library's for what orjson refuses, such
    as an integer over 64 bits): what every message leaving the server is made of. Parts
    already encoded (a log, :func:`raw`) go in as they are."""
    try:
        # a copy of exactly its length: orjson's own bytes keep the whole buffer it wrote
        # into (4 KiB at least, 8 times a long string), and logs keep entries a whole game
        return memoryview(orjson.dumps(data)).tobytes()
    except orjson.JSONEncodeError:
        # (a message with a raw part holds no such integer: logs hold seats, tiles, cards)
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, default=_raw_text)
        try:
            return text.encode()
        except UnicodeEncodeError:  # a lone surrogate: JSON spells it \udXXX, UTF-8 cannot
            return json.dumps(data, separators=(",", ":"), default=_raw_text).encode()


def raw(data: bytes) -> Any:
    """JSON already encoded, to be put in a message as it is (``orjson.Fragment``)."""
    return orjson.Fragment(data)


def _raw_text(value: Any) -> Any:
    raise TypeError(f"cannot encode {type(value).__name__} with the standard library")


def log_array(entries: Sequence[bytes]) -> Any:
    """A viewer's log (encoded entries) as one JSON array for a message."""
    return raw(b"[" + b",".join(entries) + b"]")


def dumps(data: Any) -> str:
    """Compact JSON text."""
    return encode(data).decode()


def final_order(state: State) -> list[int] | None:
    """The seats from first to last once the game is over (None before).

    From the game's ``outcome()``: by rank (1 first), seats of equal rank in seat order
    (after a win the winner first, then the others).
    """
    ranks = state.outcome().ranking if state.is_terminal() else None
    if ranks is None:
        return None
    return sorted(range(state.num_players), key=lambda s: (ranks[s], s))


def ranking_order(state: State, forfeits: Sequence[int] = ()) -> list[int] | None:
    """The seats from first to last by :func:`placements` (forfeits last), seats of equal
    place in seat order; None while the game goes on. Without forfeits: ``final_order``."""
    places = placements(state, forfeits)
    if places is None:
        return None
    return sorted(range(state.num_players), key=lambda s: (places[s], s))


def placements(state: State, forfeits: Sequence[int] = ()) -> list[int] | None:
    """Each seat's final place, 1 the best, tied seats sharing (standard competition
    ranking), or None while the game goes on and nobody forfeited it away.

    The game's ``outcome().ranking`` orders the seats that did not forfeit; every seat that
    forfeited on time (``forfeits``, in order) comes after them, the first to forfeit last.
    A game that forfeits left with one seat standing (``clocks.py`` ends it then, before
    its rules do) puts that seat first.
    """
    n = state.num_players
    out = set(forfeits)
    if state.is_terminal():
        ranks = state.outcome().ranking
        if ranks is None:
            return None
        standing = [s for s in range(n) if s not in out]
        keys = {s: ranks[s] for s in standing}
    else:
        standing = [s for s in range(n) if s not in out]
        if len(standing) != 1 or not forfeits:
            return None
        keys = {standing[0]: 1}
    places = [0] * n
    for s in standing:
        places[s] = 1 + sum(1 for o in standing if keys[o] < keys[s])
    for i, s in enumerate(reversed(list(dict.fromkeys(forfeits)))):
        places[s] = len(standing) + 1 + i
    return places


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


def default_hints(options: Mapping[str, Any]) -> bool:
    """Whether a table sends the game's hints when its creator does not say: yes, except
    at a call-out table (rules option ``callout`` other than ``off``, Flaming contract
    §12), where spotting what breaks a rule is the game: hints that tell whether a tile
    fits would do the checking for the players."""
    callout = options.get("callout")
    return callout is None or callout == "off"


def default_bot_hints(options: Mapping[str, Any], *, rated: bool) -> bool:
    """Whether a table lets its players ask the search for hints when its creator does not
    say: yes, except at a rated table (the game counts for ratings: a search's advice would
    play for the player) and at a call-out table (``default_hints``)."""
    return not rated and default_hints(options)


@dataclass
class TableSettings:
    """A table's pace (bot delay, absence before takeover, turn time, the takeover bot) and
    whether its state messages carry the game's ``hints``."""

    bot_delay: float
    absent_after: float
    turn_time: float
    takeover_bot: str
    hints: bool = True
    """Send the game's hints (``hints_of``) with each state; False: ``hints`` is always null.
    When the creator does not say: ``default_hints`` of the rules options."""
    spectator_chat: bool = True
    """Whether the spectators' chat channel is open (a seated player may switch it off;
    ``chat.py``)."""
    bot_hints: bool = False
    """Whether a seated player may ask the search for a hint at their turn (``advice.py``).
    When the creator does not say: ``default_bot_hints``; False for a table stored before
    the setting existed."""
    clock: dict[str, Any] | None = None
    """The table's clock as ``clocks.py`` reads it (None: none; the old ``turn_time``
    alone applies)."""
    match_players: list[int] | None = None
    """In a series of rematches (``rematch.py``): for each seat, which player of the
    series' first game sits there (None: the first game, each seat its own)."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "bot_delay": self.bot_delay,
            "absent_after": self.absent_after,
            "turn_time": self.turn_time,
            "takeover_bot": self.takeover_bot,
            "hints": self.hints,
            "spectator_chat": self.spectator_chat,
            "bot_hints": self.bot_hints,
            "clock": self.clock,
            "match_players": self.match_players,
        }

    @classmethod
    def from_json(
        cls, data: Mapping[str, Any], defaults: Settings, *, hints: bool = True
    ) -> TableSettings:
        """Parse stored settings, falling back on the server defaults (and on ``hints`` for
        a table stored before the setting existed)."""
        return cls(
            bot_delay=float(data.get("bot_delay", defaults.bot_delay)),
            absent_after=float(data.get("absent_after", defaults.absent_after)),
            turn_time=float(data.get("turn_time", defaults.turn_time)),
            takeover_bot=str(data.get("takeover_bot", defaults.takeover_bot)),
            hints=bool(data.get("hints", hints)),
            spectator_chat=bool(data.get("spectator_chat", True)),
            bot_hints=bool(data.get("bot_hints", False)),
            clock=dict(data["clock"]) if data.get("clock") else None,
            match_players=list(data["match_players"]) if data.get("match_players") else None,
        )


def clock_of(settings: TableSettings, table_id: str = "") -> ClockSpec | None:
    """The clock of a table's settings; a stored clock that breaks the rules (written by
    hand) is logged and ignored rather than stopping the table."""
    try:
        return ClockSpec.from_json(settings.clock)
    except (ClockError, TypeError, ValueError) as exc:
        log.error("table %s: its clock %r is ignored: %s", table_id, settings.clock, exc)
        return None


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


def text_frame(data: bytes) -> bytes:
    """``data`` as one unmasked WebSocket text frame (RFC 6455 5.2: what a server sends)."""
    n = len(data)
    if n < 126:
        head = bytes((0x81, n))
    elif n < 1 << 16:
        head = bytes((0x81, 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((0x81, 127)) + n.to_bytes(8, "big")
    return head + data


class Outgoing:
    """A message as it leaves the server: its JSON text and, built on first use, its
    WebSocket frame. One object goes to every connection of a viewer, so a state is
    serialised and framed once per view, not once per socket."""

    __slots__ = ("_frame", "_text", "data")

    def __init__(self, text: str | bytes) -> None:
        self.data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
        """The message's JSON as UTF-8."""
        self._text = text if isinstance(text, str) else None
        self._frame: bytes | None = None

    @property
    def text(self) -> str:
        """The message's JSON text."""
        if self._text is None:
            self._text = self.data.decode("utf-8", "surrogatepass")
        return self._text

    @property
    def frame(self) -> bytes:
        """The text frame carrying the message (the same bytes for every socket)."""
        if self._frame is None:
            self._frame = text_frame(self.data)
        return self._frame


class Client:
    """One WebSocket connection's outbox: messages queue here and a sender task writes
    them, every message queued since its last write at once (:meth:`take`)."""

    def __init__(self, seat: int | None, limit: int = 2000, linger: float = 0.0) -> None:
        self.seat = seat
        self.linger = linger
        """Seconds a spectator's messages wait for the next ones, to go out together in
        one write (0: at once; players' connections never wait): LiveTable.flush_public."""
        self.write_now: Callable[[bytes], bool] | None = None
        """Writes ready frames to the socket at once if it can (``fanout``), else False."""
        self.busy = False
        """Whether the sender task holds taken messages it has not finished writing."""
        self.outbox: collections.deque[Outgoing] = collections.deque()
        self.limit = limit
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""
        self._waiter: asyncio.Future[None] | None = None
        self._flush_soon = False

    def send(self, message: str | Outgoing) -> None:
        """Send a message: the messages of one turn of the event loop go to the socket in
        one write at its end (``_flush``), else through the sender task; a client too far
        behind is dropped (it resyncs on reconnect)."""
        if self.closed:
            return
        if len(self.outbox) >= self.limit:
            self.close(1013)
            return
        self.outbox.append(message if isinstance(message, Outgoing) else Outgoing(message))
        if self.write_now is not None and not self.busy:
            if not self._flush_soon:
                self._flush_soon = True
                asyncio.get_running_loop().call_soon(self._flush)
            return
        self._wake()

    def _flush(self) -> None:
        """Write what was sent during this turn of the event loop in one write, straight
        to the socket (a state and its ack go out together); when the socket cannot take
        it now, the sender task writes it once it can."""
        self._flush_soon = False
        if not self.outbox or self.busy or self.closed:
            self._wake()
            return
        write = self.write_now
        if write is not None and write(b"".join(out.frame for out in self.outbox)):
            self.outbox.clear()
            return
        self._wake()

    async def take(self) -> list[Outgoing]:
        """Wait for messages and take all that are queued; empty once closed and sent."""
        self.busy = False
        while not self.outbox and not self.closed:
            waiter = asyncio.get_running_loop().create_future()
            self._waiter = waiter
            try:
                await waiter
            finally:
                self._waiter = None
        batch = list(self.outbox)
        self.outbox.clear()
        self.busy = bool(batch)
        return batch

    def can_write_now(self) -> bool:
        """Whether a write straight to the socket keeps the order (nothing queued before)."""
        return self.write_now is not None and not self.outbox and not self.busy and not self.closed

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Ask the sender to close the connection (WebSocket ``code`` and ``reason``) after
        what is queued."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.close_reason = reason
            self._wake()


@dataclass
class Rebuilt:
    """A table rebuilt from its record: the state, the plain actions and per-viewer logs."""

    game: Game
    state: State
    actions: list[tuple[int, str]]
    logs: list[list[bytes]]
    """Each viewer's log entries, encoded (JSON as UTF-8): a table's log is kept for its
    whole game, and as bytes it costs the garbage collector nothing."""


def log_entries(
    state: State, seq: int, seat: int, texts: Sequence[str], notice: Event | None = None
) -> list[dict[str, Any]]:
    """The log entry of the action just applied to ``state``, for each viewer in order.

    Each viewer gets ``state.events_for`` (a ``notice``, :class:`StandIn`, first); an
    event that several viewers see is put into words once for all of them.
    """
    first = [] if notice is None else [notice]
    made: dict[Event, dict[str, Any]] = {}

    def entry_of(event: Event) -> dict[str, Any]:
        try:
            found = made.get(event)
        except TypeError:  # an event holding an unhashable fact
            return event_json(event)
        if found is None:
            found = made[event] = event_json(event)
        return found

    return [
        {
            "seq": seq,
            "seat": seat,
            "action": texts[i],
            "events": [entry_of(e) for e in [*first, *state.events_for(v)]],
        }
        for i, v in enumerate(viewers(state.num_players))
    ]


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
    logs: list[list[bytes]] = [[] for _ in who]
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
        notice = stand_in_event(record.stand_ins.get(seq), seat, record.seats)
        for i, entry in enumerate(log_entries(state, seq, seat, texts, notice)):
            logs[i].append(encode(entry))
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
        self.state = rebuilt.state
        self.seq = len(rebuilt.actions)
        self.actions = rebuilt.actions
        self.stand_ins = dict(record.stand_ins)
        """The seqs whose action a bot chose for a human seat, and why (TIMEOUT, ABSENT,
        ``clocks.CLOCK``, ``clocks.FORFEITED``)."""
        self.action_times = [
            record.action_times.get(seq, record.updated) for seq, _, _ in record.actions
        ]
        """When each action was stored (seq 1 first): what the clocks are computed from."""
        self.logs = rebuilt.logs
        self.seats = [Seat(**vars(s)) for s in record.seats]
        self.status = record.status
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
        self.absent: dict[int, asyncio.TimerHandle] = {}
        self.bot_memory: dict[int, Memory] = {}
        """Per seat a bot decided for, what that bot remembered after its last decision (its
        ``memory``), handed to the next decision's bot (``think_on``) so that inference
        reads on. In memory only: after a restart the bots decide without it."""
        self.bot_seen: dict[int, list[tuple[int, View]]] = {}
        """With more than two seats of a game with inference, per bot seat (or seat a bot
        decided for): its view after each action since its bot's last decision, by seq
        (``saw``): what a bot that watched the game would have seen (``WatchingBot``)."""
        self.turn_timer: Timer | None = None
        """The pending end of the current decision: its ``turn_time`` or its clock."""
        self.scheduled_seq = -1
        self.used = time.monotonic()
        """When the table was last asked for (an instance that does not own it forgets it
        once it has had no socket for a while: ``TableManager.forget_idle``)."""
        self._messages: dict[int, Outgoing] = {}
        self._public: list[Outgoing] = []
        self._public_flush: asyncio.TimerHandle | None = None
        self._views: dict[int, tuple[dict[str, Any], Any]] = {}
        self._hints = hints_of(self.game)
        self._watched = self.players > 2 and bool(descriptor_of(self.game).inference)
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
            "last": raw(log_[-1]) if log_ else None,
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
            loop = asyncio.get_running_loop()
            self._public_flush = loop.call_later(linger, self.flush_public)

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


def think(spec: str, view: View, legal: Sequence[int], rng: random.Random) -> int:
    """A bot's decision; a bot that fails or answers an illegal action is replaced by a
    random legal choice (logged) so that a table never stalls on a bot's bug."""
    action, _ = think_on(spec, view, legal, rng, (None, []))
    return action


def think_on(
    spec: str,
    view: View,
    legal: Sequence[int],
    rng: random.Random,
    recall: tuple[Memory | None, Sequence[View]],
) -> tuple[int, Memory | None]:
    """``think`` for a bot that plays on from what the seat's bot remembered
    (``LiveTable.bot_memory``) having seen the views since (``LiveTable.seen_by``):
    ``recall``, as if the seat's bot had played on; the decision and what the bot
    remembers after it (None for a bot without memory)."""
    memory, seen = recall
    kept: Memory | None = None
    try:
        bot = make_bot(spec)
        if isinstance(bot, ISMCTSBot):
            bot.restore(memory, seen)
        action = bot.act(view, legal, rng)
        if isinstance(bot, ISMCTSBot):
            kept = bot.memory
    except Exception:
        log.exception("the %s bot failed; playing a random legal action instead", spec)
        return rng.choice(list(legal)), None
    if action not in legal:
        log.error("the %s bot chose an illegal action %r; playing a random one", spec, action)
        return rng.choice(list(legal)), None
    return action, kept


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
