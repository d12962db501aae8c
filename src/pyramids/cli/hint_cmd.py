"""`pyramids hint POSITION`: what the ISMCTS bot thinks of each legal action of a position.

Reads a position of game ``--game`` like ``pyramids <game> apply`` (a file, ``-`` for
standard input, or literal JSON), takes the view of the seat to decide there (only
what that seat may know: a hand-made position has no history, so every other hand and
pile is unknown) and runs ``ISMCTSBot.search`` on it. Prints one line per legal action,
most visited first: the action, its share of the search's visits and the estimated
chance to win after it (the mean reward of the search), or with ``--json`` a list of
``{"action", "visits", "share", "win"}``. A chance point (a die to roll, cards to deal)
or an ended game has no decision to hint: refused with exit status 2. A decision the bot
answers without searching (a call-out check, the game's ``reflex``) is hinted with that
answer: the careful one, ``ok`` over a clean pyramid or the right call.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Annotated

import typer

from pyramids.bots import BOT_LEVELS, ISMCTSBot
from pyramids.bots.ismcts import ROLLOUTS, reflex_answer
from pyramids.cli.engine_opt import use_engine
from pyramids.cli.i18n import Lang
from pyramids.cli.io import fail
from pyramids.cli.position_cmd import LangOpt, PositionArg, load_state
from pyramids.core import CHANCE, State
from pyramids.games import GAMES, descriptor, names
from pyramids.texts import format_percent, message

DEFAULT_LEVEL = "normal"
"""The level whose budget and rollout a hint uses unless told otherwise."""


def _word(key: str, lang: str, **fields: object) -> str:
    """The hint's own words: the catalogue entry ``cli.hint.<key>``."""
    return message(f"cli.hint.{key}", lang, **fields)


def load_any_state(game: str, position: str, lang: str = "en") -> State:
    """The position of ``game`` named by POSITION; exits 2 on a problem (said in ``lang``)."""
    return load_state(descriptor(game), position, lang)[0]


def hint(
    position: PositionArg,
    *,
    game: Annotated[
        str, typer.Option("--game", "-g", help=f"Game of the position: {', '.join(names())}.")
    ] = names()[0],
    seat: Annotated[
        int | None,
        typer.Option("--seat", help="Check that this seat is the one to decide (refused if not)."),
    ] = None,
    iterations: Annotated[
        int | None,
        typer.Option("--iterations", "-i", help="Search iterations (default: the normal level's)."),
    ] = None,
    seconds: Annotated[
        float | None,
        typer.Option("--seconds", "-s", help="Search time in seconds (instead of iterations)."),
    ] = None,
    rollout: Annotated[
        str | None,
        typer.Option(
            "--rollout", help="Rollout policy: random, greedy or mixed (default: the level's)."
        ),
    ] = None,
    top: Annotated[int, typer.Option("--top", "-k", help="Show the K most visited actions.")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list.")] = False,
    seed: Annotated[int, typer.Option(help="Seed of the search's generator.")] = 0,
    lang: LangOpt = Lang.EN,
) -> None:
    """Estimate each legal action of POSITION for the seat to decide (ISMCTS on its view)."""
    if game not in GAMES:
        fail(f"--game {game}: choose {' or '.join(sorted(GAMES))}")
    if top < 1:
        fail(f"--top {top}: show at least 1 action")
    if iterations is not None and iterations < 1:
        fail(f"--iterations {iterations}: at least 1")
    if seconds is not None and not seconds > 0:
        fail(f"--seconds {seconds}: must be positive")
    if rollout is not None and rollout not in ROLLOUTS:
        fail(f"--rollout {rollout}: choose {' or '.join(ROLLOUTS)}")
    state = load_any_state(game, position, lang.value)
    player = state.current_player()
    if state.is_terminal():
        fail("the game is over: there is no decision to hint")
    if player == CHANCE:
        fail("the position is at a chance point (a die to roll or cards to deal), not a decision")
    if seat is not None and seat != player:
        fail(f"--seat {seat}: seat {player} is the one to decide in this position")
    legal = state.legal_actions()
    view = state.view(player)
    # the normal level's search of this game and player count; the options override it
    level = BOT_LEVELS[DEFAULT_LEVEL].settings_for(view.game, state.num_players)
    settings = replace(
        level,
        iterations=iterations
        if iterations is not None or seconds is not None
        else level.iterations,
        seconds=seconds,
        rollout=rollout or level.rollout,
    )
    answer = reflex_answer(view.game, view, legal, 0.0, random.Random(seed))
    if answer is not None:
        text = state.action_to_string(answer)
        if as_json:
            typer.echo(json.dumps([{"action": text, "reflex": True}], ensure_ascii=False))
        else:
            turn = getattr(view, "turn", "?")
            typer.echo(_word("reflex", lang.value, seat=player, turn=turn, action=text))
        return
    result = ISMCTSBot(settings, engine=use_engine(None)).search(view, legal, random.Random(seed))
    shown = result.stats[:top]
    if as_json:
        data = [s.to_json(state.action_to_string(s.action)) for s in shown]
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    lines = [
        _word(
            "head",
            lang.value,
            seat=player,
            turn=getattr(view, "turn", "?"),
            iterations=result.iterations,
            rollout=_word(settings.rollout, lang.value),
            seconds=result.seconds,
        )
    ]
    texts = [state.action_to_string(s.action) for s in shown]
    width = max(len(t) for t in [*texts, "action"])
    names = _word("columns", lang.value).split("|")
    lines.append(f"{names[0]:<{width}}  {names[1]:>7}  {names[2]:>6}  {names[3]:>8}")
    for text, s in zip(texts, shown, strict=True):
        share, win = format_percent(s.share, lang.value), format_percent(s.win, lang.value)
        lines.append(f"{text:<{width}}  {s.visits:>7}  {share:>6}  {win:>8}")
    if len(result.stats) > top:
        lines.append(_word("more", lang.value, n=len(result.stats) - top))
    typer.echo("\n".join(lines))
