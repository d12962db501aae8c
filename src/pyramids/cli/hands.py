"""Playing one hand at the terminal, for any game: the loop of ``pyramids play``.

Play drives the engine exactly as ``core.play_game`` does: chance from
``Random(f"{seed}/chance")``, bot i from ``Random(f"{seed}/seat/{i}")``, so a game
between bots only is the same game ``play_game`` plays with that seed. What is
particular to a game (drawing it, asking a human, which events a seat may see) is its
``GameUI`` (``pyramids.cli.ui_protocol``). With several humans at one terminal (hot
seat), the keyboard is handed over whenever the human to decide changes (``hand_over``:
"pass the keyboard to …, press Enter"), whatever the decision (a turn, a fall, a check
of another seat's placement), and a human's screen is wiped once they have decided.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

import typer
from rich.rule import Rule
from rich.text import Text

from pyramids.cli.i18n import tr
from pyramids.cli.io import fail, save_record
from pyramids.cli.terminal import (
    HUMAN,
    PlayerLeftError,
    Seats,
    Terminal,
    hand_over,
    screen_done,
)
from pyramids.cli.ui_protocol import GameUI
from pyramids.core import CHANCE, GameRecord
from pyramids.core.game import Game, State, observe_all


@dataclass
class HandResult:
    """How a hand ended: its final state, its record, and whether someone left early."""

    state: State
    record: GameRecord
    quit: PlayerLeftError | None = None


def play_hand(term: Terminal, game: Game, seed: int, seats: Seats, ui: GameUI) -> HandResult:
    """Play one game to its end (or until a human leaves), recording every action."""
    lang = term.lang
    names = seats.names(lang)
    width = term.console.width
    state = game.new_initial_state(seed)
    chance_rng = random.Random(f"{seed}/chance")
    bot_rngs = [random.Random(f"{seed}/seat/{i}") for i in range(game.num_players)]
    record = GameRecord(
        game=game.info.short_name,
        options=dict(game.options),
        players=game.num_players,
        seed=seed,
        rules_version=game.info.rules_version,
        seats=list(seats.kinds),
    )
    term.events(ui.events(state, seats))
    shown_turn = 0
    try:
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                action = state.sample_chance(chance_rng)
            else:
                turn = getattr(state, "turn", 0)
                if turn != shown_turn and ui.at_rest(state):
                    shown_turn = turn
                    term.show(
                        Rule(tr("turn_line", lang, turn=turn, who=names[player]), style="dim")
                    )
                    if seats.kinds[player] != HUMAN:
                        term.show(
                            ui.render(
                                state, None, lang, names, legend=False, turn_line=False, width=width
                            )
                        )
                bot = seats.bots[player]
                if bot is None:
                    hand_over(term, seats, player)
                    action = ui.ask(term, state, player, seats)
                    screen_done(term, seats)
                else:
                    action = bot.act(state.view(player), state.legal_actions(), bot_rngs[player])
            text = state.action_to_string(action)
            state.apply(action)
            observe_all(seats.bots, state)
            record.actions.append(text)
            term.events(ui.events(state, seats))
    except PlayerLeftError as exc:
        return HandResult(state, record, exc)
    except KeyboardInterrupt:
        term.show("")
        return HandResult(state, record, PlayerLeftError("interrupt"))
    term.show(Rule(style="dim"))
    term.show(ui.render(state, None, lang, names, legend=False, width=width))
    return HandResult(state, record)


def finish_hand(term: Terminal, result: HandResult, path: Path) -> None:
    """Save a hand's record and say where; leave (exit status) if a human left early."""
    try:
        save_record(result.record, path)
    except OSError as exc:
        fail(tr("e_save", term.lang, path=path, error=exc.strerror or exc))
    if result.quit is not None:
        key = "eof_saved" if result.quit.how == "eof" else "quit_saved"
        term.show(Text(tr(key, term.lang, path=path), style="bold"))
        raise typer.Exit(result.quit.exit_code)
    term.show(tr("record_saved", term.lang, path=path))
