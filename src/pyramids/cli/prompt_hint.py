"""``?`` at a human's decision in ``pyramids play``: the search's hint, from that seat's view.

A game's terminal interface hands ``ask_until_chosen`` the callable of ``prompt_hint``
(None when the terminal gives no hints: ``Terminal.hints``). It runs
``pyramids.bots.advice.hint`` on the seat's view and legal actions only, searching on the
engine the game plays on (``engine_of(state)``), with the normal level's budget for the
game and player count (or ``--hint-iterations``), what the seat saw of the hand so far
(``advice.seat_memory``, for inference) and a seed made of the hand's seed and the number
of actions played, so the same game gives the same hint. It shows the best three actions, each with its number and label from the list of
options and its estimated chance to win, the search's preferred one marked. A call-out
check gets no hint: spotting mayhem is the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text

from pyramids.bots.advice import AdviceError, advice_settings, hint, is_check, seat_memory
from pyramids.cli.terminal import HintBudget, Terminal
from pyramids.core.game import State
from pyramids.games.engine import engine_of
from pyramids.texts import message


def _word(key: str, lang: str, **fields: object) -> str:
    """The hint's own words at the prompt: the catalogue entry ``cli.prompt_hint.<key>``."""
    return message(f"cli.prompt_hint.{key}", lang, **fields)


def prompt_hint(
    term: Terminal, state: State, seat: int, who: str, labels: Sequence[str]
) -> Callable[[], None] | None:
    """What ``?`` adds at ``seat``'s decision: ``show_hint``; None when ``term`` gives no
    hints. ``labels``: the options as the prompt lists them, in legal-action order."""
    budget = term.hints
    if budget is None:
        return None
    return lambda: show_hint(term, state, seat, who=who, labels=labels, budget=budget)


def hint_seed(budget: HintBudget, state: State) -> str:
    """The seed of a hint: the hand's seed and the number of actions played so far."""
    return f"{budget.seed}/{len(state.history())}"


def show_hint(
    term: Terminal,
    state: State,
    seat: int,
    *,
    who: str,
    labels: Sequence[str],
    budget: HintBudget,
) -> None:
    """Search from ``seat``'s view and show its best actions with their chances to win."""
    lang = term.lang
    legal = state.legal_actions()
    view = state.view(seat)
    if is_check(view, legal):
        term.say(_word("check", lang), style="bold")
        return
    settings = advice_settings(view.game, state.num_players, iterations=budget.iterations)
    term.say(_word("head", lang, who=who, iterations=settings.iterations), style="bold")
    try:
        memory = None
        if settings.inference:  # what the seat saw of the hand so far (its views only)
            initial = state.game.new_initial_state(budget.seed)
            memory = seat_memory(initial, state.history(), seat)
        found = hint(
            view, legal, settings, hint_seed(budget, state), memory=memory, engine=engine_of(state)
        )
    except AdviceError:
        term.say(_word("none", lang), style="bold")
        return
    number = {action: i for i, action in enumerate(legal)}
    shown = []
    for stats in found.moves:
        i = number[stats.action]
        text = state.action_to_string(stats.action)
        label = labels[i] if i < len(labels) else text
        if not label.startswith(text):
            label = f"{label} [{text}]"
        shown.append((f"{i + 1:>3}) {label}", stats.win))
    width = max(len(option) for option, _ in shown)
    for rank, (option, chance) in enumerate(shown):
        line = f"{option:<{width}}  {_word('win', lang, chance=chance)}"
        if rank == 0:
            line += f"  {_word('preferred', lang)}"
        term.show(Text(line))
