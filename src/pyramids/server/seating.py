"""Creating tables and binding their seats: invites, lobby claims, accounts.

:class:`Seating` creates a table (its seed drawn and committed to, one invite per human
seat) and binds each human seat to one credential, once: an invite's first use, a claim
from the lobby of a public table, or a binding another module authorised (``rematch.py``).
The binding is atomic across processes (a conditional update in the database: the loser
reads the winner's binding back and is refused); the table starts once every human seat
is bound. A logged-in player's seat may also be bound to the account (``link_account``),
so that the account takes the seat on another device (``check_account_seat``).

It reaches the tables held through the cache (``table_cache.py``), the database through
the gateway (``database.py``), and the rest of the runtime through :class:`SeatingRuntime`
(``TableManager`` is one).
"""

from __future__ import annotations

import hmac
import logging
import secrets
from collections import Counter
from collections.abc import Coroutine, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, TypeVar

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from pyramids import texts
from pyramids.core.errors import PyramidsError
from pyramids.core.fairness import commitment
from pyramids.games import descriptor, make_game
from pyramids.server import cluster_store, store
from pyramids.server.auth import Account
from pyramids.server.clocks import Clock
from pyramids.server.config import Settings
from pyramids.server.database import Database
from pyramids.server.follower import Resumes
from pyramids.server.limits import ClientLimits
from pyramids.server.live import EXPIRED, OPEN, RUNNING, Invite, LiveTable, SeatSpec
from pyramids.server.ownership import Ownership
from pyramids.server.protocol import ProtocolError, hash_token, invite_used, new_table_id, new_token
from pyramids.server.rebuild import GameSoFar
from pyramids.server.store import SeatRecord, TableRecord
from pyramids.server.table_cache import TableCache
from pyramids.server.table_log import viewers
from pyramids.server.table_settings import TableSettings, default_bot_hints, default_hints
from pyramids.server.timers import turn_time_of

log = logging.getLogger("pyramids.server")

T = TypeVar("T")

SALT_BYTES = 16
"""Random bytes of a table's salt (32 hex digits), hashed with the seed into its commitment."""
ID_ATTEMPTS = 5
"""Fresh ids tried for a new table before giving up (a clash is already unlikely)."""


@dataclass(frozen=True)
class SeatUse:
    """The seat a token holds, and the seat's fresh credential when this use of its invite
    bound it (handed out once, to this user only: the invite is dead from then on)."""

    seat: int
    token: str | None = None


def seat_has_account(seat: int) -> ProtocolError:
    """The refusal of a link to an account for a seat another account holds."""
    return ProtocolError(
        "seat_has_account", texts.message("seats.has_account", "en", seat=seat), 409
    )


def unavailable(what: str) -> ProtocolError:
    """The refusal (503) of a step the database did not take: ``what``, then "try again"."""
    return ProtocolError("unavailable", f"{what}; try again", 503)


class SeatingRuntime(Protocol):
    """What seating asks of the runtime that holds the tables (``TableManager``)."""

    @property
    def ownership(self) -> Ownership:
        """Which tables this instance runs (a new table is this instance's)."""
        ...

    @property
    def moves(self) -> Resumes:
        """The scheduler of the server's own moves (a table that starts is resumed)."""
        ...

    async def critical(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` to its end even if the caller is cancelled."""
        ...

    def notify_changed(self, conn: Connection, table: LiveTable) -> None:
        """In a write's transaction: tell the other instances ``table`` changed."""
        ...


class Seating:
    """Creates tables and binds their human seats, once each."""

    def __init__(
        self,
        settings: Settings,
        clock: Clock,
        database: Database,
        cache: TableCache,
        *,
        limits: ClientLimits,
        runtime: SeatingRuntime,
    ) -> None:
        self.settings = settings
        self.clock = clock
        self.database = database
        self.cache = cache
        self.limits = limits
        self.runtime = runtime
        self._creating: Counter[str] = Counter()
        """Tables being stored, by creator: counted by the per-address cap meanwhile."""

    # --- creating ----------------------------------------------------------------------------

    async def create_table(
        self,
        game_name: str,
        seats: Sequence[SeatSpec],
        options: Mapping[str, Any],
        seed: int | None,
        settings: TableSettings,
        *,
        public: bool = False,
        created_by: str | None = None,
        hints: bool | None = None,
        rated: bool = False,
        match_id: str | None = None,
        bot_hints: bool | None = None,
    ) -> tuple[LiveTable, list[Invite]]:
        """Create and store a table; one invite per human seat. ProtocolError(bad_options) if
        refused. A ``public`` table is listed in the lobby, where anyone may take a free seat.

        The seed is drawn with ``secrets`` and committed to (:mod:`pyramids.core.fairness`);
        a client's ``seed`` makes a "seeded" table, allowed only when every seat but at most
        one is a bot (ProtocolError(seed_not_allowed) otherwise): whoever knows the seed
        knows every hidden thing. ``created_by`` is the creator's client address.
        ``hints``: whether the state messages carry the game's hints (None: on, except at a
        call-out table, ``table_settings.default_hints``); stored in ``settings``, and so is
        ``bot_hints``: whether a seat may ask the search for a hint (None:
        ``table_settings.default_bot_hints``). ``rated``: the game
        counts for ratings (``ratings.py``); ``match_id``: the series of rematches the table
        belongs to (``rematch.py``). ``settings.turn_time`` 0: the server's default for the
        table's kind; ProtocolError(bad_turn_time) outside a rated table's bounds
        (``timers.turn_time_of``)."""
        try:
            game = make_game(game_name, len(seats), options, engine=self.settings.engine)
        except PyramidsError as exc:
            raise ProtocolError.of("bad_options", exc, 422) from None
        self._check_option_caps(game_name, game.options)
        settings.hints = default_hints(game.options) if hints is None else hints
        settings.bot_hints = (
            default_bot_hints(game.options, rated=rated) if bot_hints is None else bot_hints
        )
        settings.turn_time = turn_time_of(
            settings.turn_time, rated=rated, clocked=bool(settings.clock), defaults=self.settings
        )
        if not any(spec.kind == "human" for spec in seats):
            # all-bot tables would otherwise take the search pool and the loop at full speed
            settings.bot_delay = max(settings.bot_delay, self.settings.limits.min_all_bot_delay)
        if created_by is not None:
            unfinished = sum(
                1
                for t in self.cache.tables.values()
                if t.created_by == created_by and t.status in (OPEN, RUNNING)
            )
            self.limits.check_tables(created_by, unfinished + self._creating[created_by])
        seeded = seed is not None
        if seed is None:
            seed = secrets.randbits(62)
        elif sum(spec.kind == "human" for spec in seats) > 1:
            raise ProtocolError(
                "seed_not_allowed",
                "a seed may be chosen only for a table where every other seat is a bot: "
                "whoever knows the seed knows every hidden tile and draw",
                422,
            )
        salt = secrets.token_hex(SALT_BYTES)
        seat_records: list[SeatRecord] = []
        tokens: dict[int, str] = {}
        for i, spec in enumerate(seats):
            if spec.kind == "human":
                token = new_token()
                tokens[i] = token
                name = spec.name or f"Seat {i + 1}"
                seat_records.append(SeatRecord(i, "human", None, name, hash_token(token), False))
            else:
                bot = spec.bot or "greedy"
                seat_records.append(SeatRecord(i, "bot", bot, spec.name or bot, None, True))
        now = self.clock.now()
        record = TableRecord(
            id="",
            game=game_name,
            players=len(seats),
            options=dict(game.options),
            seed=seed,
            rules_version=game.info.rules_version,
            status=RUNNING if not tokens else OPEN,
            settings=settings.to_json(),
            created=now,
            updated=now,
            finished=None,
            seq=0,
            ranking=None,
            salt=salt,
            commitment=commitment(seed, salt),
            seeded=seeded,
            public=public,
            created_by=created_by,
            started=None if tokens else now,
            rated=rated,
            match_id=match_id,
            seats=seat_records,
        )
        if created_by is not None:
            self._creating[created_by] += 1  # counted by check_tables while being stored
        try:
            await self._insert(record)
        finally:
            if created_by is not None:
                self._creating[created_by] -= 1
                if self._creating[created_by] <= 0:
                    del self._creating[created_by]
        state = game.new_initial_state(seed)
        rebuilt = GameSoFar(game, state, [], [[] for _ in viewers(len(seats))])
        table = LiveTable(record, rebuilt, settings)
        table.used = self.clock.monotonic()
        table.server_clock = self.clock
        self.cache.tables[table.id] = table
        self.runtime.ownership.took(table.id)
        invites = [
            Invite(i, table.seats[i].name, token, f"/t/{table.id}?token={token}")
            for i, token in tokens.items()
        ]
        self.runtime.moves.resume(table)
        return table, invites

    def _check_option_caps(self, game_name: str, options: Mapping[str, Any]) -> None:
        """Refuse (bad_options) an int option over its descriptor's ``maximum``, or a
        ``max_turns`` over the server's cap (``LimitSettings.max_turns``)."""
        for spec in descriptor(game_name).options:
            value = options.get(spec.name)
            if spec.kind != "int" or not isinstance(value, int):
                continue
            cap = spec.maximum
            if spec.name == "max_turns" and self.settings.limits.max_turns > 0:
                cap = min(cap or self.settings.limits.max_turns, self.settings.limits.max_turns)
            if cap is not None and value > cap:
                raise ProtocolError(
                    "bad_options", f"{spec.name} is at most {cap} on this server, not {value}", 422
                )

    async def _insert(self, record: TableRecord) -> None:
        """Store a new table under a fresh id (set in ``record``)."""
        for _attempt in range(ID_ATTEMPTS):
            record.id = new_table_id()
            if record.id in self.cache.tables:
                continue
            try:
                await self.database.write(partial(self._insert_job, record))
                return
            except IntegrityError:
                continue
            except SQLAlchemyError as exc:
                log.error("cannot store a new table: %s", exc)
                raise unavailable("the table could not be stored") from None
        raise unavailable("could not find a free table id")

    def _insert_job(self, record: TableRecord, conn: Connection) -> None:
        store.insert_table(conn, record)
        self.runtime.ownership.created(conn, record.id)

    # --- binding seats -------------------------------------------------------------------------

    async def claim(
        self, table: LiveTable, seat: int, name: str | None, account: Account | None = None
    ) -> Invite:
        """Take a free human seat of a public table from the lobby: a new token replaces the
        unused invite. ProtocolError(private_table) for an invite-only table; (seat_taken)
        once the seat is bound, by its invite or an earlier claim. A logged-in ``account``
        takes the seat under its own name and the seat is bound to it."""
        if not table.public:
            raise ProtocolError(
                "private_table",
                f"table {table.id} is invite-only: its seats are taken through their invite links",
                403,
            )
        if not 0 <= seat < table.players:
            raise ProtocolError(
                "unknown_seat", f"table {table.id} has seats 0 to {table.players - 1}", 404
            )
        s = table.seats[seat]
        if not s.is_human:
            raise ProtocolError("seat_taken", f"seat {seat} is played by the {s.bot} bot", 409)
        token = new_token()
        ok = await self.runtime.critical(
            self._mark_claimed(table, seat, hash_token(token), name, account=account)
        )
        if not ok:
            raise ProtocolError("seat_taken", f"seat {seat}'s invite has already been used", 409)
        return Invite(seat, s.name, token, f"/t/{table.id}?token={token}")

    async def bind_seat(
        self,
        table: LiveTable,
        seat: int,
        token_hash: str,
        name: str | None = None,
        account: Account | None = None,
        *,
        notices: Sequence[str] = (),
    ) -> bool:
        """Bind a free human seat to a new token (its hash), as a lobby claim does but for a
        caller another module has authorised (``rematch.py``): False when the seat was bound
        first. The table starts once every human seat is bound. ``notices``: published to
        the other instances in the binding's transaction, if it binds."""
        return await self.runtime.critical(
            self._mark_claimed(table, seat, token_hash, name, account=account, notices=notices)
        )

    async def _mark_claimed(
        self,
        table: LiveTable,
        seat: int,
        token_hash: str | None,
        name: str | None,
        *,
        invite_hash: str | None = None,
        account: Account | None = None,
        notices: Sequence[str] = (),
    ) -> bool:
        """Bind a seat to one token, atomically; start the table once every seat is bound.

        ``token_hash`` (a lobby claim, or the fresh credential of an invite's first use)
        replaces the invite; ``invite_hash`` (an invite's first use) binds only while the
        seat carries that invite, and is kept as the seat's used invite. False when the
        seat was bound first: here (the table's lock orders the two) or by another process
        (the conditional update in the database), whose binding is then read back so that
        this process refuses the loser too. A logged-in ``account`` binds the seat to
        itself, under its name.
        """
        if account is not None:
            name = account.name
        async with table.lock:
            if table.status == EXPIRED:
                raise ProtocolError(
                    "expired", "this table expired before every seat was taken", 410
                )
            s = table.seats[seat]
            if s.claimed:
                return False
            now = self.clock.now()
            try:
                claim = partial(
                    store.claim_seat,
                    table_id=table.id,
                    seat=seat,
                    token_hash=token_hash,
                    name=name,
                    invite_hash=invite_hash,
                    account_id=account.id if account is not None else None,
                    now=now,
                )

                def job(conn: Connection) -> tuple[bool, bool]:
                    ok, started = claim(conn)
                    if ok:
                        self.runtime.notify_changed(conn, table)
                        for text in notices:
                            cluster_store.notify(conn, text)
                    return ok, started

                ok, started = await self.database.write(job)
            except SQLAlchemyError as exc:
                log.error("table %s: cannot store a claim: %s", table.id, exc)
                raise unavailable("the claim could not be stored") from None
            if not ok:
                stored = await self._reload_seat(table, seat)
                self._bound(table, started=stored == RUNNING and table.status == OPEN)
                return False
            if started:
                table.started = now
            s.claimed = True
            if token_hash is not None:
                s.token_hash = token_hash
                if invite_hash is not None:
                    s.invite_hash = invite_hash  # the invite is dead from now on
            if name is not None:
                s.name = name
            if account is not None:
                s.account_id = account.id
            table.changed()
            if started:
                for other in table.seats:
                    if other.is_human and not other.claimed:  # bound by another process
                        await self._reload_seat(table, other.seat)
            self._bound(table, started=started)
            return True

    def _bound(self, table: LiveTable, *, started: bool) -> None:
        """Tell a seat's binding; when it bound the last free seat, the open table runs."""
        if started:
            table.status = RUNNING
            table.started = table.started or self.clock.now()
        table.changed()
        table.broadcast_table()
        if started:
            table.broadcast_state()
            self.runtime.moves.resume(table)

    async def _reload_seat(self, table: LiveTable, seat: int) -> str | None:
        """Take a seat's binding (token, name) as another process stored it; the table's
        stored status (None if the seat is unknown)."""
        try:
            found = await self.database.read(partial(store.load_seat, table_id=table.id, seat=seat))
        except SQLAlchemyError as exc:
            log.error("table %s: cannot read seat %d back: %s", table.id, seat, exc)
            raise unavailable("the seat could not be read") from None
        if found is None:
            return None
        stored, status = found
        table.seats[seat].take_binding(stored)
        table.changed()
        return status

    async def seat_of(
        self, table: LiveTable, token: str, account: Account | None = None
    ) -> SeatUse:
        """The seat a token holds. An invite's first use binds the seat to a fresh seat
        credential, returned here once (``SeatUse.token``) for its user alone, and kills
        the invite (issue 29: used once); ``account``, given only by a same-origin write
        with the CSRF token, binds the seat to that account too (a GET never does).

        ProtocolError(bad_token) if the token is no seat's; (invite_used) if it is an
        invite already used, here or by another process first; (seat_taken) if it is an
        invite whose seat was taken from the lobby first: a seat has one token at a time.
        """
        seat = table.seat_for_token(token)
        if table.seats[seat].claimed:
            return SeatUse(seat)
        digest = hash_token(token)
        credential = new_token()
        bound = await self.runtime.critical(
            self._mark_claimed(
                table, seat, hash_token(credential), None, invite_hash=digest, account=account
            )
        )
        if bound:
            return SeatUse(seat, credential)
        used = table.seats[seat].invite_hash
        if used is not None and hmac.compare_digest(used, digest):
            raise invite_used()
        raise ProtocolError(
            "seat_taken", f"seat {seat} was taken from the lobby before this invite was used", 409
        )

    # --- accounts --------------------------------------------------------------------------

    async def link_account(self, table: LiveTable, token: str, account: Account) -> SeatUse:
        """Bind the seat ``token`` holds to ``account`` (the player's own click: a
        same-origin write with the CSRF token, ``POST /api/tables/{id}/link``). An unused
        invite is used first (its fresh credential returned). 409 ``seat_has_account``
        when another account holds the seat; ``finished`` once the game is over."""
        use = await self.seat_of(table, token, account)
        s = table.seats[use.seat]
        if s.account_id == account.id:
            return use
        if s.account_id is not None:
            raise seat_has_account(use.seat)
        if table.status not in (OPEN, RUNNING):
            raise ProtocolError("finished", texts.message("seats.link_over", "en"), 409)
        held = s.token_hash
        assert held is not None  # the seat's token was found above
        async with table.lock:

            def job(conn: Connection) -> bool:
                ok = store.link_seat_account(
                    conn,
                    table.id,
                    use.seat,
                    token_hash=held,
                    account_id=account.id,
                    name=account.name,
                )
                if ok:
                    self.runtime.notify_changed(conn, table)
                return ok

            try:
                ok = await self.runtime.critical(self.database.write(job))
            except SQLAlchemyError as exc:
                log.error("table %s: cannot store a seat's account: %s", table.id, exc)
                raise unavailable("the seat could not be stored") from None
            if ok:
                s.account_id, s.name = account.id, account.name
        if not ok:
            await self._reload_seat(table, use.seat)
            if s.account_id != account.id:
                raise seat_has_account(use.seat)
        table.changed()
        table.broadcast_table()
        return use

    def check_account_seat(self, table: LiveTable, seat: int, account: Account | None) -> None:
        """Refuse (403 ``not_your_seat``) a seat asked for by account that is not bound to it."""
        if not 0 <= seat < table.players:
            raise ProtocolError(
                "unknown_seat", f"table {table.id} has seats 0 to {table.players - 1}", 404
            )
        if account is None:
            raise ProtocolError(
                "not_logged_in", "log in to take your seat without its invite link", 401
            )
        if table.seats[seat].account_id != account.id:
            raise ProtocolError(
                "not_your_seat",
                f"seat {seat} of table {table.id} is not bound to the account {account.name}",
                403,
            )
