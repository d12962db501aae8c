"""The terminal side every game shares: seats, the console, leaving a game, reading a choice.

``Terminal`` prints rich renderables (sentences wrapped between words at a terminal, rule
IDs left out: ``for_players``) and reads typed lines (with ``readline`` line editing and
history at a real terminal, line by line when piped); ``Seats`` says who plays
each seat (a human at the keyboard or a bot from ``pyramids.bots``). What a game
provides so that play and replay can draw it and ask a human is its ``GameUI``
(``pyramids.cli.game_ui``).
"""

from __future__ import annotations

import functools
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from rich.console import Console, RenderableType
from rich.text import Text

from pyramids.bots import BOTS, LADDER, PLAYER_BOTS, level_spec, make_bot
from pyramids.cli.i18n import tr
from pyramids.cli.io import fail
from pyramids.core import Event
from pyramids.core.game import Action, Bot, Game, GameInfo
from pyramids.texts import describe

EXIT_INPUT_ENDED = 1
EXIT_INTERRUPTED = 130
HUMAN = "human"
QUIT_WORDS = frozenset({"q", "quit", "exit", "quitter"})
HELP_WORDS = frozenset({"?", "h", "help", "aide"})
HINT_WORD = "?"
"""At a decision prompt of ``pyramids play``, the help word that adds a hint (``Terminal.hints``)."""
NO_WORDS = frozenset({"n", "no", "non"})
QUIET_EVENTS = frozenset({"draw"})
"""Events shown without the pause that follows mayhem events."""
RULE_ID_RE = re.compile(r"\s*\((?:PF|FP)-[A-Z]+(?:-\d+)?(?:,\s*(?:PF|FP)-[A-Z]+(?:-\d+)?)*\)")
"""A rule ID in parentheses, as the rules packages end some refusals: ``(PF-MOVE-3)``."""
CLEAR_SCROLLBACK = "\x1b[3J"
"""Erase the terminal's scrollback too, so a hot-seat player cannot scroll up to a hand."""


def for_players(text: str) -> str:
    """``text`` without rule IDs such as ``(PF-CAPTURE-2)``: players read words, not IDs."""
    return RULE_ID_RE.sub("", text)


@functools.cache
def _load_readline() -> bool:
    """Import ``readline`` once: ``input()`` then edits the line (arrows) and keeps a history.

    False where the module is missing (Windows without pyreadline): plain input() still works.
    """
    try:
        import readline  # noqa: F401  (importing it is what turns line editing on)
    except ImportError:
        return False
    return True


class PlayerLeftError(Exception):
    """The game stops early: a human typed ``q``, the input ended, or Ctrl-C."""

    def __init__(self, how: str) -> None:
        super().__init__(how)
        self.how = how
        """``quit``, ``eof`` or ``interrupt``."""

    @property
    def exit_code(self) -> int:
        """0 for a chosen quit, 1 when the input ended, 130 for Ctrl-C."""
        return {"quit": 0, "eof": EXIT_INPUT_ENDED}.get(self.how, EXIT_INTERRUPTED)


@dataclass(frozen=True)
class HintBudget:
    """What the hints of ``?`` search with: seeds derived from ``seed`` (the hand's) and the
    number of actions played, and ``iterations`` (None: the normal level's budget)."""

    seed: int
    iterations: int | None = None


@dataclass
class Terminal:
    """Where the game talks and listens: a rich console, an input stream, a language, a pace."""

    console: Console
    stdin: TextIO
    lang: str = "en"
    delay: float = 0.0
    sleep: Callable[[float], None] = time.sleep
    at_keyboard: int | None = None
    """Hot seat: the human seat that last decided at this terminal (None before anyone did)."""
    confirm: bool | None = None
    """Ask "place it anyway?" before a warned move; None: only at a real terminal."""
    hints: HintBudget | None = None
    """``?`` at a decision adds the search's hint (``pyramids play``); None: help only."""

    def show(self, renderable: RenderableType | str) -> None:
        """Print one renderable (plain strings are never read as markup).

        In a terminal, long text wraps at word boundaries; piped, each line stays whole.
        """
        if isinstance(renderable, str):
            renderable = Text(renderable)
        piped = not self.console.is_terminal
        self.console.print(renderable, crop=False, soft_wrap=isinstance(renderable, Text) and piped)

    def clear(self) -> None:
        """Wipe the screen and its scrollback (a real terminal only; piped output keeps all)."""
        self.console.clear()  # flushed: what follows comes after it
        if self.console.is_terminal and not self.console.is_dumb_terminal:
            self.console.file.write(CLEAR_SCROLLBACK)
            self.console.file.flush()

    @property
    def confirms(self) -> bool:
        """Whether a warned move is confirmed first (piped input never is: it would eat lines)."""
        return self.line_editing if self.confirm is None else self.confirm

    @property
    def line_editing(self) -> bool:
        """Whether lines are read with ``input()`` and readline: the real stdin of a terminal."""
        return self.stdin is sys.stdin and self.stdin.isatty() and self.console.is_terminal

    def say(self, line: str, style: str = "") -> None:
        """One sentence: wrapped at word boundaries in a terminal (continuation lines indented
        under the first word), one line when piped (easy to search)."""
        if not self.console.is_terminal:
            self.show(Text(line, style=style))
            return
        indent = len(line) - len(line.lstrip())
        text = Text(line.lstrip(), style=style)
        for i, part in enumerate(text.wrap(self.console, max(20, self.console.width - indent - 2))):
            self.console.print(
                Text(" " * (indent + (2 if i else 0))) + part, crop=False, soft_wrap=True
            )

    def pause(self) -> None:
        """Wait ``delay`` seconds (nothing when it is 0)."""
        if self.delay > 0:
            self.sleep(self.delay)

    def ask(self, prompt: str) -> str | None:
        """Prompt and read one line; None at the end of the input.

        At a real terminal the line is read by ``input()`` with ``readline`` loaded: arrow
        keys edit it and recall earlier lines. Piped input is read line by line and echoed.
        """
        if self.line_editing:
            _load_readline()
            if self.console.color_system is not None and not self.console.no_color:
                # bold, the escapes marked invisible (\001 \002) so readline counts right
                prompt = f"\001\x1b[1m\002{prompt}\001\x1b[0m\002"
            try:
                return input(prompt).strip()
            except EOFError:
                self.console.print()
                return None
        self.console.print(Text(prompt, style="bold"), end="")
        line = self.stdin.readline()
        if not line:
            self.console.print()
            return None
        if not self.stdin.isatty():
            self.console.print(Text(line.rstrip("\n")))
        return line.strip()

    def events(self, events: Sequence[Event]) -> None:
        """Show each event with its reason, one at a time."""
        for event in events:
            self.say(f"  {for_players(describe(event, self.lang))}")
            if event.kind not in QUIET_EVENTS:
                self.pause()


@dataclass
class Seats:
    """Who sits where: ``human`` or a bot per seat, and their display names."""

    kinds: list[str]
    bots: list[Bot | None] = field(default_factory=list)

    @property
    def humans(self) -> list[int]:
        """Seats played from the keyboard."""
        return [s for s, k in enumerate(self.kinds) if k == HUMAN]

    def names(self, lang: str) -> list[str]:
        """``seat 0 (you)``, ``seat 1 (greedy)``, ...; humans are ``(human)`` when several."""
        many = len(self.humans) > 1
        out = []
        for seat, kind in enumerate(self.kinds):
            if kind == HUMAN and not many:
                out.append(tr("seat_you", lang, n=seat))
            else:
                label = tr("human", lang) if kind == HUMAN else kind
                out.append(tr("seat_kind", lang, n=seat, kind=label))
        return out


def bot_spec(kind: str) -> str:
    """The ``make_bot`` spec of a seat kind: a level of the ladder (``normal``) plays its
    spec (``ismcts:normal``); any other kind is a spec itself (``ismcts:500``)."""
    return level_spec(kind) if kind in LADDER else kind


def default_bot() -> str:
    """The default opponent: greedy when it exists, else random."""
    return "greedy" if "greedy" in BOTS else "random"


def parse_seats(
    spec: str | None, players: int | None, lang: str, info: GameInfo, engine: str | None = None
) -> Seats:
    """Seats from ``human,greedy,random``; the default is one human against the default bot.
    The bots play on ``engine`` (the command's; None: auto)."""
    if spec is None:
        count = 3 if players is None else players
        kinds = [HUMAN] + [default_bot()] * (count - 1)
    else:
        kinds = [k.strip().lower() for k in spec.split(",")]
        if players is not None and len(kinds) != players:
            fail(tr("e_seats_count", lang, count=len(kinds), players=players))
    if not info.min_players <= len(kinds) <= info.max_players:
        fail(
            tr(
                "e_players",
                lang,
                game=info.name,
                low=info.min_players,
                high=info.max_players,
                count=len(kinds),
            )
        )
    bots: list[Bot | None] = []
    for kind in kinds:
        if kind == HUMAN:
            bots.append(None)
            continue
        try:
            bot = make_bot(bot_spec(kind), engine=engine)
        except ValueError as exc:
            fail(tr("e_bot", lang, error=exc))
        if kind not in LADDER and kind.split(":")[0].split("+")[0] not in PLAYER_BOTS:
            choices = ", ".join(("random", *LADDER))
            error = f"{kind!r} is a yardstick, not an opponent (choose {choices})"
            fail(tr("e_bot", lang, error=error))
        bots.append(bot)
    return Seats(kinds, bots)


def bot_plays(kind: str, game: Game, engine: str | None = None) -> bool:
    """Whether bot ``kind`` (made on ``engine``) plays ``game``: a bot that lists its
    ``games`` plays only those."""
    games = getattr(make_bot(bot_spec(kind), engine=engine), "games", None)
    return games is None or game.info.short_name in games


def fit_bots(
    table: Seats, game: Game, lang: str, *, quiet: bool = False, engine: str | None = None
) -> list[str]:
    """Seat the random bot (on ``engine``) wherever the chosen bot does not play ``game``;
    the notes to show."""
    notes = []
    for seat, kind in enumerate(table.kinds):
        if kind == HUMAN or bot_plays(kind, game, engine):
            continue
        table.kinds[seat] = "random"
        table.bots[seat] = make_bot("random", engine=engine)
        if not quiet:
            who = table.names(lang)[seat]
            notes.append(
                tr(
                    "n_bot_fallback",
                    lang,
                    bot=kind,
                    game=game.info.name,
                    seat=who,
                    fallback="random",
                )
            )
    return notes


def new_seed() -> int:
    """A fresh random seed (32 bits, short enough to type back)."""
    return int.from_bytes(os.urandom(4), "big")


def hand_over(term: Terminal, seats: Seats, seat: int) -> None:
    """Hot seat: before ``seat`` decides after another human did, the keyboard is handed over.

    With several humans at one terminal, when the human to decide is not the one who
    decided last, the game asks the table to pass the keyboard and waits for Enter (``q``
    leaves, the end of the input too); nothing of the new seat's is shown before. Each
    human's decision is followed by ``screen_done``, which wipes what only they may see.
    """
    if len(seats.humans) < 2:
        return
    if term.at_keyboard is not None and term.at_keyboard != seat:
        line = term.ask(tr("pass_to", term.lang, who=seats.names(term.lang)[seat]))
        if line is None:
            raise PlayerLeftError("eof")
        if line.lower() in QUIT_WORDS:
            raise PlayerLeftError("quit")
    term.at_keyboard = seat


def screen_done(term: Terminal, seats: Seats) -> None:
    """Hot seat: once a human has decided, their screen (their hand) is wiped before the
    results are shown, so the next human at the keyboard never sees it."""
    if len(seats.humans) > 1:
        term.clear()


def ask_until_chosen(
    term: Terminal,
    prompt: str,
    choices: RenderableType,
    help_text: str,
    read: Callable[[str], tuple[Action | None, str]],
    *,
    empty_line: bool = False,
    narrow: Callable[[str], RenderableType | None] | None = None,
    hint: Callable[[], None] | None = None,
) -> Action:
    """Prompt until ``read`` accepts a line; help re-shows ``choices``; quit or EOF leave.

    An empty line is asked again, unless ``empty_line``: then it goes to ``read`` too (a
    check's Enter means ``ok``). ``narrow`` may answer a line with a shorter list of
    options (a filter, e.g. the moves of one piece) instead of an action; None: not a filter.
    ``?`` is the help followed by ``hint`` when given (the search's advice,
    ``pyramids.cli.prompt_hint``); ``h``, ``help`` or ``aide`` the help alone.
    Refusals are said without rule IDs.
    """
    while True:
        line = term.ask(prompt)
        if line is None:
            raise PlayerLeftError("eof")
        word = line.lower()
        if not word and not empty_line:
            continue
        if word in QUIT_WORDS:
            raise PlayerLeftError("quit")
        if word in HELP_WORDS:
            term.show(help_text)
            term.show(choices)
            if word == HINT_WORD and hint is not None:
                hint()
            continue
        if narrow is not None:
            found = narrow(line)
            if found is not None:
                term.show(found)
                continue
        action, why = read(line)
        if action is not None:
            return action
        term.say(for_players(why), style="bold red")
