"""The tutorial's engine answers: a staged position, one action, what happened and why.

The tutorial pages (``/learn/{game}``, static/learn.html) stage positions from the
rulebook's worked examples (docs/RULES.md FP-EX-*, the Flags examples of docs/NOTATION.md)
and let the learner make the move. They never judge a move themselves: they ask this
module, which loads the position with the game's own loader (the registry,
``pyramids.games``) on the server's engine (``Settings.engine``), applies the action with the engine and answers with the new position,
the legal actions, the events (with both sentences, as the table's log has them) and the
game's hints. Nothing is stored; a request is a pure function of its body.

Routes (docs/PROTOCOL.md "The tutorial's endpoints"):

- ``POST /api/learn/{game}/show``: body ``{"position"}``: the position as the engine reads it.
- ``POST /api/learn/{game}/apply``: body ``{"position", "action"}``: the position after it.

Refusals are the protocol's errors: 404 ``unknown_game``, 422 ``bad_position`` (the
loader's reason), 422 ``malformed`` (unreadable action text), 409 ``illegal`` (the
engine's reason) and 409 ``finished`` (the staged game is over).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse, Response
from pydantic import Field, StringConstraints

from pyramids.core.errors import ActionParseError, IllegalActionError, PyramidsError
from pyramids.core.game import CHANCE, State
from pyramids.games import GameDescriptor, descriptor, load_position, names
from pyramids.games.engine import Engine
from pyramids.server.limits import client_key
from pyramids.server.live import hints_of
from pyramids.server.pages import static_page
from pyramids.server.protocol import ProtocolError, server_refusal
from pyramids.server.schemas import ErrorOut
from pyramids.server.schemas import Request as RequestBody
from pyramids.server.schemas import Response as ResponseBody
from pyramids.server.table_log import event_json

log = logging.getLogger("pyramids.server.learn")

router = APIRouter(prefix="/api/learn", tags=["learn"])

GamePath = Annotated[
    str, Path(max_length=40, description="A registered game's short name (`flaming`, `flags`).")
]
ActionText = Annotated[str, StringConstraints(min_length=1, max_length=200)]

LOAD_ERRORS = (PyramidsError, TypeError, ValueError, KeyError, IndexError, AttributeError)
"""What a loader may raise on a hand-made position: each is the client's mistake, a 422."""

RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorOut, "description": "the body is not JSON"},
    404: {"model": ErrorOut, "description": "unknown_game"},
    409: {"model": ErrorOut, "description": "illegal (the engine's reason) or finished"},
    413: {"model": ErrorOut, "description": "too_large: the body is over the limit"},
    422: {"model": ErrorOut, "description": "malformed or bad_position (the loader's reason)"},
    429: {"model": ErrorOut, "description": "rate_limited (with Retry-After, in seconds)"},
}


class ShowIn(RequestBody):
    """A staged position, in the game's position JSON (docs/NOTATION.md)."""

    position: dict[str, Any]
    seat: Annotated[int | None, Field(ge=0, le=63)] = None
    """The learner's seat, whose view and hints come back (default: the seat to move)."""


class ApplyIn(ShowIn):
    """A staged position and the action the learner makes in it (the game's notation)."""

    action: ActionText


class EventOut(ResponseBody):
    """One event: its game, kind and facts, and its sentence in English and French."""

    game: str
    kind: str
    data: dict[str, Any]
    text_en: str
    text_fr: str


class LearnOut(ResponseBody):
    """The position after the request, and what the engine says about it."""

    game: str
    position: dict[str, Any]
    """The full position JSON (the next request sends it back)."""
    view: dict[str, Any]
    """The learner's view of it (what the table would draw for that seat)."""
    seat: int
    to_move: int
    """The seat to decide next; -1 a chance point, -4 the game is over."""
    terminal: bool
    legal: list[str]
    """The legal actions of the seat to move, as text, sorted as the engine sorts them."""
    events: list[EventOut]
    """What the action did, in order, each with its reason (empty for ``show``)."""
    hints: dict[str, Any] | None
    """The game's hints for the learner's view (Flaming Pyramids: the fit of each tile)."""


def _game(name: str) -> GameDescriptor:
    """The registered game called ``name``; 404 ``unknown_game`` naming the known ones."""
    if name not in names():
        known = ", ".join(sorted(names()))
        raise ProtocolError("unknown_game", f"there is no game {name!r} (known: {known})", 404)
    return descriptor(name)


def load_staged(
    desc: GameDescriptor, data: Mapping[str, Any], engine: Engine | None = None
) -> State:
    """The position ``data`` read by the game's loader on ``engine`` (the server's; None:
    auto); 422 ``bad_position`` with its reason."""
    try:
        return load_position(desc, data, engine=engine)
    except RecursionError:
        raise server_refusal("bad_position", "position_too_deep", 422) from None
    except PyramidsError as exc:  # the rules' refusal: its code, facts and words
        raise ProtocolError.of("bad_position", exc, 422) from None
    except LOAD_ERRORS as exc:
        error = f"{type(exc).__name__}: {exc}"
        raise server_refusal("bad_position", "position_unreadable", 422, error=error) from None


def apply_text(state: State, text: str) -> None:
    """Apply action ``text``: 422 ``malformed`` if unreadable, 409 ``illegal`` if refused."""
    if state.is_terminal():
        raise server_refusal("finished", "position_over")
    try:
        action = state.parse_action(text)
        state.apply(action)
    except ActionParseError as exc:
        raise ProtocolError.of("malformed", exc, 422) from None
    except IllegalActionError as exc:
        raise ProtocolError.of("illegal", exc, 409) from None


def answer(desc: GameDescriptor, state: State, seat: int | None, events: bool) -> dict[str, Any]:
    """The response body for ``state`` as seat ``seat`` sees it."""
    to_move = state.current_player()
    if seat is None or not 0 <= seat < state.num_players:
        seat = to_move if 0 <= to_move < state.num_players else 0
    view = state.view(seat)
    hints: Any = None
    fn = hints_of(state.game)
    if fn is not None:
        try:
            hints = fn(view)
        except Exception:  # a hint is a help, never a reason to refuse the lesson
            log.exception("learn %s: the game's hints failed; sending none", desc.name)
    legal = (
        [] if state.is_terminal() else [state.action_to_string(a) for a in state.legal_actions()]
    )
    return {
        "game": desc.name,
        "position": state.to_json(),
        "view": view.to_json(),
        "seat": seat,
        "to_move": to_move,
        "terminal": state.is_terminal(),
        "legal": legal,
        "events": [event_json(e) for e in state.events()] if events else [],
        "hints": None if hints is None else dict(hints),
    }


def _engine(request: Request) -> Engine | None:
    """The server's engine (``Settings.engine``; None when the app has no settings: auto)."""
    settings = getattr(request.app.state, "settings", None)
    return None if settings is None else settings.engine


def _check_rate(request: Request) -> None:
    """Count the request as an action of its address (the tables' action rate)."""
    limits = getattr(request.app.state, "client_limits", None)
    if limits is not None:
        client = request.client
        limits.check("action", client_key(client.host if client is not None else None))


@router.post("/{game}/show", response_model=LearnOut, responses=RESPONSES)
async def show(request: Request, game: GamePath, body: ShowIn) -> dict[str, Any]:
    """A staged position as the engine reads it: its legal actions, view and hints."""
    _check_rate(request)
    desc = _game(game)
    state = load_staged(desc, body.position, _engine(request))
    return answer(desc, state, body.seat, events=False)


@router.post("/{game}/apply", response_model=LearnOut, responses=RESPONSES)
async def apply(request: Request, game: GamePath, body: ApplyIn) -> dict[str, Any]:
    """Apply the learner's action to a staged position: the new position and its events."""
    _check_rate(request)
    desc = _game(game)
    state = load_staged(desc, body.position, _engine(request))
    seat = body.seat
    if seat is None:
        before = state.current_player()
        seat = before if before != CHANCE and 0 <= before < state.num_players else None
    apply_text(state, body.action)
    return answer(desc, state, seat, events=True)


pages = APIRouter(include_in_schema=False)
"""The tutorial page itself, one file for every game (it reads the game from the address)."""


@pages.get("/learn")
@pages.get("/learn/{game}")
async def learn_page(game: str | None = None) -> Response:
    """The tutorial: ``/learn/flaming``, ``/learn/flags`` (``/learn``: the choice of game)."""
    if game is not None and game not in names():
        body = {"error": {"code": "not_found", "message": f"there is no tutorial for {game!r}"}}
        return JSONResponse(body, status_code=404)
    return static_page("learn.html")
