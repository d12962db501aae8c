"""The HTTP API's request and response models (pydantic), which make ``/openapi.json``.

Requests forbid unknown fields and bound every number and string, so a request that
breaks the schema is refused with ``malformed`` before any game code sees it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
    model_validator,
)
from pydantic_core import PydanticCustomError

from pyramids.games import names
from pyramids.server import names as seat_names
from pyramids.server.clocks import MAX_BANK, MAX_INCREMENT, MAX_PER_MOVE

OptionValue = str | int | bool | None
"""A rules option's value."""

OptionName = Annotated[str, StringConstraints(min_length=1, max_length=40)]
BotName = Literal["random", "beginner", "greedy", "normal", "hard", "ismcts"]
"""The bot kinds a seat may have: the ladder (``pyramids.bots.LADDER``), random, and
``ismcts``, the old name of ``normal`` that stored tables and rematches still use."""


def registered_game(name: str) -> str:
    """``name`` if a registered game has it; otherwise the schema error a literal gives."""
    known = names()
    if name not in known:
        quoted = [repr(n) for n in known]
        expected = " or ".join([", ".join(quoted[:-1]), quoted[-1]] if len(quoted) > 1 else quoted)
        raise PydanticCustomError(
            "literal_error", "Input should be {expected}", {"expected": expected}
        )
    return name


GameName = Annotated[
    str,
    AfterValidator(registered_game),
    Field(json_schema_extra=lambda schema: schema.update(enum=list(names()))),
]
"""A registered game's short name, checked against the registry when a request arrives."""
Status = Literal["open", "running", "finished", "expired"]
Name = Annotated[str, StringConstraints(max_length=40)]
Token = Annotated[str, StringConstraints(min_length=1, max_length=64)]
MAX_SEED = 2**63 - 1


def clean_name(name: str | None) -> str | None:
    """A display name without control characters, invisible characters (``names.py``: a
    joiner inside an emoji stays) or surrounding blanks (None if empty); a name of only
    invisible characters or with a stack of combining marks is refused (a schema error
    whose message is the catalogue's)."""
    if name is None:
        return None
    # control characters and odd spaces go first; the invisible ones are names.py's
    text = "".join(c for c in name if c.isprintable() or seat_names.is_ignorable(c))
    try:
        shown = seat_names.clean_display_text(text, seat_names.SEAT).strip()
    except seat_names.TextRefusedError as exc:
        raise PydanticCustomError("invisible_name", "{reason}", {"reason": exc.message}) from None
    return shown or None


class Request(BaseModel):
    """Base of request bodies: unknown fields are an error."""

    model_config = ConfigDict(extra="forbid")


class Response(BaseModel):
    """Base of response bodies."""

    model_config = ConfigDict(extra="forbid")


# --- errors ----------------------------------------------------------------------------------


class RefusalOut(Response):
    """A refusal as a code and its facts; its words are the catalogue's ``refusal.<code>``."""

    code: str = Field(examples=["server.stale"])
    data: dict[str, Any] = Field(default_factory=dict, examples=[{"seq": 16, "at": 18}])


class ErrorBody(Response):
    """What went wrong: a stable code and a message in plain English."""

    code: str = Field(examples=["stale"])
    message: str = Field(examples=["the action was for seq 16 but the game is at seq 18"])
    refusal: RefusalOut | None = None
    """Why, as a code and facts (the rules' refusal, or the server's own ``server.*``)."""
    text_en: str | None = None
    """The refusal in English (when it has catalogue words)."""
    text_fr: str | None = None
    """The refusal in French (when it has catalogue words)."""
    seat_token: str | None = None
    """Only when the refused request used an invite (``POST …/actions``): the seat is
    bound all the same, and this is its new credential (the invite is dead)."""


class ErrorOut(Response):
    """Every error response."""

    error: ErrorBody


# --- games -----------------------------------------------------------------------------------


class OptionField(Response):
    """One rules option a game accepts in ``options``."""

    name: str
    type: Literal["str", "int", "bool"]
    default: OptionValue
    nullable: bool = False
    choices: list[str] | None = None
    minimum: int | None = None
    help: str
    """One line about the option, in English."""
    help_fr: str = ""
    """The same line in French (empty when the game gives none)."""


class Preset(Response):
    """A named set of rules options, as sent in ``options`` when creating a table."""

    name: str
    label_en: str
    label_fr: str
    options: dict[str, OptionValue]


class GameOut(Response):
    """A game the server plays."""

    name: str
    title: str
    title_fr: str
    min_players: int
    max_players: int
    rules_version: str
    default_preset: str
    presets: list[Preset]
    options: list[OptionField]
    browser_module: str | None = None
    """The path of the table page's ES module for this game (under ``/static/``)."""
    hints: bool = False
    """Whether the game gives hints beside a decision (the state's ``hints``), which a table
    may turn off (``hints`` of ``POST /api/tables``)."""


class BotOut(Response):
    """A bot a seat may have."""

    name: BotName
    description_en: str
    description_fr: str


class PaceOut(Response):
    """The deadline per move of a new table (docs/PROTOCOL.md, ``turn_time``)."""

    turn_time: float
    """Seconds per decision of an unrated table that does not say."""
    rated_turn_time: float
    """Seconds per decision of a rated table that does not say."""
    rated_turn_time_min: float
    """The least a rated table may ask for."""
    rated_turn_time_max: float
    """The most a rated table may ask for."""
    forfeit_after: int
    """At a rated table, the turn times in a row a seat lets run out before it forfeits."""


class GamesOut(Response):
    """The games and the bots."""

    games: list[GameOut]
    bots: list[BotOut]
    pace: PaceOut | None = None
    """The server's deadlines per move (null: not given)."""


class HealthOut(Response):
    """Whether this instance serves, and which one it is (``GET /healthz``)."""

    ok: bool
    instance: str
    """The instance's name (``pyramids serve --instance``)."""
    cluster: bool
    """Whether it is one instance of a cluster sharing the database (docs/CLUSTER.md)."""


# --- tables ----------------------------------------------------------------------------------


class SeatIn(Request):
    """A seat of a new table: a human (who gets an invite) or a bot."""

    kind: Literal["human", "bot"]
    name: Name | None = None
    bot: BotName | None = None

    @model_validator(mode="after")
    def _check(self) -> SeatIn:
        self.name = clean_name(self.name)
        if self.kind == "bot" and self.bot is None:
            raise ValueError("a bot seat says which bot: random, beginner, greedy, normal or hard")
        if self.kind == "human" and self.bot is not None:
            raise ValueError("a human seat has no bot")
        return self


Seconds = Annotated[float, Field(allow_inf_nan=False)]


class ClockIn(Request):
    """A table's clock (docs/PLAYERS.md): each human seat's bank, the increment after each
    of its moves and the free time per move, in seconds, and what a seat whose time runs
    out gets: a stand-in bot for that decision, or a forfeit."""

    mode: Literal["realtime", "turn_based"]
    bank: Annotated[Seconds, Field(ge=0, le=MAX_BANK)] = 0.0
    """The reserve (0 to 30 days), spent once a decision's ``per_move`` is used up."""
    increment: Annotated[Seconds, Field(ge=0, le=MAX_INCREMENT)] = 0.0
    """Added to the bank after each of the seat's moves (0 to 1 day)."""
    per_move: Annotated[Seconds, Field(ge=0, le=MAX_PER_MOVE)] = 0.0
    """Free time at each decision before the bank runs (0 to 7 days)."""
    on_expiry: Literal["stand_in", "forfeit"] = "stand_in"

    @model_validator(mode="after")
    def _check(self) -> ClockIn:
        if self.bank <= 0 and self.per_move <= 0:
            raise ValueError("a clock needs time: bank or per_move above 0 seconds")
        return self

    def to_json(self) -> dict[str, Any]:
        """The clock as ``TableSettings.clock`` keeps it (``clocks.ClockSpec``: the same
        fields)."""
        return self.model_dump()


class CreateTableIn(Request):
    """A new table: the game, its seats, rules options and pace."""

    game: GameName
    seats: list[SeatIn] = Field(min_length=2, max_length=6)
    options: dict[OptionName, OptionValue] = Field(default_factory=dict, max_length=16)
    seed: Annotated[StrictInt, Field(ge=0, le=MAX_SEED)] | None = None
    """Only when every other seat is a bot (422 ``seed_not_allowed`` otherwise): a "seeded"
    table, for puzzles, analysis and bug reports. Absent: drawn by the server, secret."""
    bot_delay: float | None = Field(default=None, ge=0, le=10, allow_inf_nan=False)
    absent_after: float | None = Field(default=None, ge=0, le=86400, allow_inf_nan=False)
    turn_time: float | None = Field(default=None, ge=0, le=86400, allow_inf_nan=False)
    """Seconds a human has for each decision before the takeover bot plays it; absent or 0:
    the server's default (``pace`` of ``GET /api/games``: 300 at a rated table, 600
    elsewhere). A rated table's is 30 to 1800 (422 ``bad_turn_time`` otherwise)."""
    takeover_bot: BotName | None = None
    public: StrictBool = False
    """Listed in the lobby, where anyone may take a free seat; otherwise (the default) the
    table is invite-only: its seats are reached only through their invite links."""
    hints: StrictBool | None = None
    """Whether the state messages carry the game's hints (Flaming Pyramids: whether each
    tile fits each spot). Absent: on, except in a call-out game (rules option ``callout``
    ``family`` or ``competitive``), where they are off unless this says ``true``."""
    bot_hints: StrictBool | None = None
    """Whether a seated player may ask the search for a hint at their turn (``POST
    /api/tables/{id}/hint``). Absent: on, except at a rated table and in a call-out game,
    where it is off unless this says ``true``."""
    rated: StrictBool = False
    """The game counts for ratings when it ends (docs/PLAYERS.md): between accounts, or
    against bots in the separate "vs bots" pool; seats not bound to an account make it
    unrated."""
    clock: ClockIn | None = None
    """A clock per human seat (real-time or turn-based); absent: none (``turn_time``, if
    set, limits each decision as before). With a clock ``turn_time`` is not used, and a
    turn-based table has no absence takeover (its clock decides)."""


class SeatOut(Response):
    """A seat as listed in a table summary."""

    seat: int
    kind: Literal["human", "bot"]
    name: str
    bot: str | None = None
    claimed: bool
    connected: bool
    taken_over: bool
    account: bool = False
    """Taken by a logged-in player: ``name`` is the account's (``/players/{name}``)."""


class TableSettingsOut(Response):
    """A table's pace."""

    bot_delay: float
    absent_after: float
    turn_time: float
    takeover_bot: str
    hints: bool = True
    """Whether the state messages carry the game's hints (false: ``hints`` is always null)."""
    spectator_chat: bool = True
    """Whether the spectators' chat channel is open (docs/PLAYERS.md)."""
    bot_hints: bool = False
    """Whether a seated player may ask the search for a hint at their turn."""
    clock: dict[str, Any] | None = None
    """The table's clock (docs/PLAYERS.md), null: none."""
    match_players: list[int] | None = None
    """In a series of rematches: for each seat, which player of the series' first game sits
    there (null: the first game)."""


class SeatClockOut(Response):
    """One human seat's clock in a state message or a summary."""

    seat: int
    bank: float
    """Seconds in the seat's bank at the start of the current decision."""
    per_move: float
    """Free seconds at each decision before the bank runs."""
    running: bool
    """Whether this seat's time runs now (its decision)."""
    deadline: str | None
    """The running seat's: when its time runs out (ISO, milliseconds, UTC)."""


class TableOut(Response):
    """A table summary."""

    id: str
    game: str
    players: int
    options: dict[str, OptionValue]
    status: Status
    seq: int
    created: str
    finished: str | None
    to_move: int | None
    ranking: list[int] | None
    seats: list[SeatOut]
    settings: TableSettingsOut
    public: bool
    """Listed in the lobby and claimable from it (false: invite-only)."""
    commitment: str | None = None
    """SHA-256 (hex) of the UTF-8 text ``"{seed}:{salt}"``, published at the start; seed and
    salt are revealed by the record once the game is over (null: a table stored before
    commitments existed)."""
    seeded: bool = False
    """The creator chose the seed (allowed only when every other seat is a bot)."""
    rated: bool = False
    """The game counts for ratings (docs/PLAYERS.md)."""
    match_id: str | None = None
    """The first table of this table's series of rematches (null: none yet)."""
    rematch_id: str | None = None
    """The table of this one's rematch, once someone asked for it."""
    started: str | None = None
    """When the table began running (null: open, or stored before it was kept)."""
    clocks: list[SeatClockOut] | None = None
    """Each human seat's clock (null: the table has no clock)."""
    forfeits: list[int] = Field(default_factory=list)
    """Seats that forfeited on time, in order (they rank last, the first one last)."""
    ended: str | None = None
    """``forfeit`` when a forfeit on time ended the game before its rules did."""


class InviteOut(Response):
    """A human seat's invite: the secret token and the table page's URL (shown once)."""

    seat: int
    name: str
    token: str
    url: str


class CreateTableOut(Response):
    """The new table and its invites."""

    table: TableOut
    invites: list[InviteOut]


class TablesOut(Response):
    """Tables, newest first."""

    tables: list[TableOut]


class ClaimIn(Request):
    """Taking a free human seat from the lobby."""

    name: Name | None = None

    @model_validator(mode="after")
    def _check(self) -> ClaimIn:
        self.name = clean_name(self.name)
        return self


class ClaimOut(Response):
    """The claimed seat's new token and URL."""

    seat: int
    token: str
    url: str


# --- playing ---------------------------------------------------------------------------------


class EventOut(Response):
    """Something an action caused: game, kind, facts, and its one-line reason in English
    and French (from the shared message catalogue, ``pyramids.texts``)."""

    game: str
    kind: str
    data: dict[str, Any]
    text_en: str
    text_fr: str


class LogEntryOut(Response):
    """One applied action as a viewer may see it (seat -1: the server's chance draw)."""

    seq: int
    seat: int
    action: str
    events: list[EventOut]


class StateOut(Response):
    """The ``state`` message: one seat's (or the spectator's) view of the game at ``seq``."""

    type: Literal["state"]
    seq: int
    status: Status
    view: dict[str, Any]
    hints: dict[str, Any] | None = None
    """The engine's hints for this view (its descriptor's ``hints``, e.g. whether each tile in
    hand fits each legal spot); null when the game gives none."""
    to_move: int | None
    legal: list[str]
    last: LogEntryOut | None
    ranking: list[int] | None
    seats: list[SeatOut]
    commitment: str | None = None
    """The table's commitment to its seed (as in the summary)."""
    clocks: list[SeatClockOut] | None = None
    """Each human seat's clock (null: the table has no clock)."""
    forfeits: list[int] = Field(default_factory=list)
    """Seats that forfeited on time, in order."""
    ended: str | None = None
    """``forfeit`` when a forfeit on time ended the game."""
    seat_token: str | None = None
    """Over HTTP only: the seat's new credential when this request used its invite (the
    invite is dead from then on: keep this instead); null otherwise."""


class ActionIn(Request):
    """An action sent over HTTP."""

    token: Token
    seq: Annotated[StrictInt, Field(ge=0, le=10**9)]
    action: Annotated[str, StringConstraints(min_length=1, max_length=200)]


class ActionOut(Response):
    """The seq the committed action produced."""

    seq: int
    seat_token: str | None = None
    """The seat's new credential when this request used its invite (the invite is dead
    from then on: keep this instead); null otherwise."""


class LinkIn(Request):
    """Binding the seat a token holds to the logged-in account (the player's own click)."""

    token: Token


class LinkOut(Response):
    """The seat now bound to the account, and its new credential when the token was an
    unused invite (null otherwise)."""

    seat: int
    seat_token: str | None = None


class RecordOut(Response):
    """A finished game's record: replaying ``actions`` from ``seed`` reproduces it."""

    format: int
    game: str
    rules_version: str
    options: dict[str, Any]
    players: int
    seed: int
    seats: list[str]
    actions: list[str]
    salt: str | None = None
    """Revealed with the seed: ``commitment`` is SHA-256 of ``"{seed}:{salt}"``."""
    commitment: str | None = None
    """The commitment published at the start (``pyramids verify`` checks it)."""
    seeded: bool | None = None
    """The creator chose the seed."""
    forfeits: list[int] | None = None
    """Seats that forfeited on time, in order (absent: none)."""
    ended: Literal["forfeit"] | None = None
    """``forfeit``: forfeits left one seat standing and the table ended the game there."""
    forfeited_at: list[int] | None = None
    """For each forfeit, the seq at which the seat's time ran out (absent: no forfeit)."""
    clock: dict[str, Any] | None = None
    """The table's clock (``settings.clock``; absent: none)."""
    started: str | None = None
    """When the table began running (ISO UTC, microseconds): the first decision's start."""
    times: list[str] | None = None
    """When each action was stored (ISO UTC, microseconds), one per action."""
    finished: str | None = None
    """When the game ended (ISO UTC, microseconds)."""
    turn_time: float | None = None
    """Without a clock: the seconds each decision had before a bot played it."""
    forfeit_after: int | None = None
    """A rated table without a clock: the turn times in a row that forfeit a seat."""
    played_by: list[str | None] | None = None
    """Why a bot chose each action for a human seat (null: its player), one per action."""


class ReplayStepOut(Response):
    """One step of a finished game with the full position (seq 0: the deal)."""

    seq: int
    seat: int | None
    action: str | None
    events: list[EventOut]
    state: dict[str, Any]
