"""What the lobby offers: each registered game's seat range, presets and rules options, and the bots
(random and the ladder of levels, ``pyramids.bots.ladder``).

Everything about a game comes from its descriptor in the registry (``pyramids.games``):
the option fields are the descriptor's ``OptionSpec`` (the same options as ``pyramids
play``), with their defaults; the games check the values when a table is created. The
options' help lines and the presets' labels, in English and French, are the catalogue's
(``option.<game>.<option>``, ``preset.<game>.<preset>``: ``pyramids.texts``).
"""

from __future__ import annotations

from pyramids.bots.ladder import OFFERED, level_sentence
from pyramids.core.descriptor import GameDescriptor, OptionSpec
from pyramids.games import descriptors
from pyramids.server.schemas import BotOut, GameOut, GamesOut, OptionField, Preset
from pyramids.texts import MessageError, message

OPTION_TYPES = {"bool": "bool", "int": "int", "choice": "str"}
"""The API's field type of each ``OptionSpec.kind`` (a choice is a string among ``choices``)."""


def words(key: str, lang: str) -> str:
    """The catalogue entry ``key`` in ``lang`` (English when not translated; empty when the
    game gives none)."""
    try:
        return message(key, lang)
    except MessageError:
        return ""


def option_field(desc: GameDescriptor, spec: OptionSpec) -> OptionField:
    """One rules option of ``desc``'s game as the lobby shows it."""
    return OptionField(
        name=spec.name,
        type=OPTION_TYPES[spec.kind],  # type: ignore[arg-type]
        default=spec.default,
        nullable=spec.nullable,
        choices=list(spec.choices) if spec.kind == "choice" else None,
        minimum=spec.minimum,
        help=words(desc.option_key(spec.name), "en"),
        help_fr=words(desc.option_key(spec.name), "fr"),
    )


def game_entry(desc: GameDescriptor) -> GameOut:
    """A game's entry: its metadata, presets and option fields, and its table module."""
    info = desc.info
    return GameOut(
        name=desc.name,
        title=desc.title("en"),
        title_fr=desc.title("fr"),
        min_players=info.min_players,
        max_players=info.max_players,
        rules_version=info.rules_version,
        default_preset=desc.default_preset,
        presets=[
            Preset(
                name=p.name,
                label_en=words(desc.preset_key(p.name), "en"),
                label_fr=words(desc.preset_key(p.name), "fr"),
                options=dict(p.options),
            )
            for p in desc.presets
        ],
        options=[option_field(desc, o) for o in desc.options],
        browser_module=f"/static/{desc.browser_module}" if desc.browser_module else None,
        hints=desc.hints is not None,
    )


def offered_bots() -> list[BotOut]:
    """The bots a seat may have, weakest first (random, then the ladder), each with its
    sentence in both languages (``pyramids.bots.ladder.level_sentence``: what it is, its
    measured strength, and whether this machine runs it on the slower Python search)."""
    return [
        BotOut(
            name=level,  # type: ignore[arg-type]
            description_en=level_sentence(level, "en"),
            description_fr=level_sentence(level, "fr"),
        )
        for level in OFFERED
    ]


def catalog() -> GamesOut:
    """Every registered game and every bot the lobby offers."""
    return GamesOut(games=[game_entry(d) for d in descriptors()], bots=offered_bots())
