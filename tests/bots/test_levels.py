"""The ladder of levels people choose from (issue 28, point 1) and its sentences.

``LADDER`` is beginner < greedy < normal < hard; each level plays ``level_spec(level)``;
the search levels are iteration budgets on the native search and, where the Python search
has to run, a time cap that their sentence announces (``pyramids.bots.ladder``).
"""

from __future__ import annotations

import random

import pytest

from pyramids.bots import (
    BOT_LEVELS,
    LADDER,
    BeginnerBot,
    CappedSearchBot,
    GreedyBot,
    ISMCTSBot,
    SearchSettings,
    ladder,
    level_spec,
    make_bot,
)
from pyramids.bots.ladder import OFFERED, level_sentence, python_note
from pyramids.games import make_game


def test_the_ladder_is_beginner_greedy_normal_hard_and_each_level_names_its_bot() -> None:
    """The offered levels, weakest first, and the spec each plays."""
    assert LADDER == ("beginner", "greedy", "normal", "hard")
    assert [level_spec(level) for level in LADDER] == [
        "beginner",
        "greedy",
        "ismcts:normal",
        "ismcts:hard",
    ]
    assert isinstance(make_bot(level_spec("beginner")), BeginnerBot)
    assert type(make_bot(level_spec("greedy"))) is GreedyBot
    assert ("random", *LADDER) == OFFERED


def test_an_unknown_level_is_refused_with_the_levels_named() -> None:
    """Bad input says what is wrong."""
    with pytest.raises(
        ValueError, match=r"unknown level 'expert' .*beginner, greedy, normal, hard"
    ):
        level_spec("expert")


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_search_level_is_an_iteration_budget_per_game_with_a_python_time_cap(level: str) -> None:
    """Reproducible from a seed (iterations, no seconds) in every game and player count,
    judged guided search with greedy rollouts, inference where it helps (Pyramids and Flags),
    a cap on Python."""
    bot = make_bot(level_spec(level))
    assert isinstance(bot, CappedSearchBot)
    for game, players in [("flaming", 2), ("flaming", 4), ("flags", 2), ("flags", 4)]:
        settings = BOT_LEVELS[level].settings_for(game, players)
        assert settings.iterations is not None and settings.seconds is None
        assert (settings.rollout, settings.guided) == ("greedy", True)
        assert settings.inference == (game == "flags")
        normal = BOT_LEVELS["normal"].settings_for(game, players).iterations
        assert normal is not None and normal <= settings.iterations
    assert bot.python_seconds == BOT_LEVELS[level].python_seconds


def test_a_level_bot_searches_each_view_with_its_games_settings() -> None:
    """The same level bot plays Flaming and Flags with their own budgets; a spec's extras
    (here ``+python``) apply on top of each game's; the oracle of a level searches each game
    with the honest level's settings (equal budget)."""
    bot = make_bot("ismcts:normal+python")
    rng = random.Random(1)
    for game, players in [("flaming", 2), ("flags", 2), ("flags", 3)]:
        view = make_game(game, players).new_initial_state(1).view(0)
        expected = BOT_LEVELS["normal"].settings_for(game, players)
        got = bot.settings_of(view, rng)  # type: ignore[attr-defined]
        assert got.search == "python" and got.seconds == BOT_LEVELS["normal"].python_seconds
        assert (got.iterations, got.inference) == (expected.iterations, expected.inference)
    oracle = make_bot("oracle:normal")
    state = make_game("flags", 2).new_initial_state(1)
    oracle._settings_of(state)  # type: ignore[attr-defined]
    assert oracle.settings == BOT_LEVELS["normal"].settings_for("flags", 2)  # type: ignore[attr-defined]


def test_old_specs_still_parse() -> None:
    """Specs stored in records and databases: ismcts alone is normal; easy stays a level."""
    assert make_bot("ismcts").settings == make_bot("ismcts:normal").settings  # type: ignore[attr-defined]
    easy = make_bot("ismcts:easy")
    assert type(easy) is ISMCTSBot and easy.settings.iterations == 200
    assert "easy" not in LADDER


def test_the_python_search_of_a_level_runs_its_budget_when_the_cap_is_not_reached() -> None:
    """Capped at a generous time, the Python search of a level is the plain search:
    same statistics for the same seed (the cap only cuts a search that runs long)."""
    state = make_game("flaming", 2).new_initial_state(3)
    view, legal = state.view(0), state.legal_actions()
    settings = SearchSettings(iterations=40, search="python")
    capped = CappedSearchBot(settings, name="capped", python_seconds=3600.0)
    plain = ISMCTSBot(settings)
    assert capped.analyse(view, legal, random.Random(9)) == plain.analyse(
        view, legal, random.Random(9)
    )


def test_a_level_without_a_positive_cap_is_refused() -> None:
    """Bad input says what is wrong."""
    with pytest.raises(ValueError, match="cap must be positive"):
        CappedSearchBot(SearchSettings(), name="x", python_seconds=0.0)


@pytest.mark.parametrize("level", OFFERED)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_offered_level_has_its_sentence_in_both_languages(
    level: str, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name, what it is; for the ladder a strength line per game ("not measured yet"
    where strength.json has no figure: here none)."""
    monkeypatch.setattr(ladder, "strength", lambda: {"levels": {}})
    sentence = level_sentence(level, lang, native=True)
    assert sentence.startswith(ladder.level_name(level, lang))
    if level in LADDER:
        unmeasured = "not measured yet" if lang == "en" else "pas encore mesuré"
        assert sentence.count(unmeasured) == 2


def test_a_measured_level_says_its_rate_against_the_level_below(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The figures of strength.json: rate, games and the level below, in both languages."""
    figures = {
        "levels": {
            "normal": {
                "ms_p95": {"flaming": 41.2, "flags": None},
                "vs_below": {"flaming": {"rate": 0.93, "games": 100, "ci": [0.86, 0.97]}},
            }
        }
    }
    monkeypatch.setattr(ladder, "strength", lambda: figures)
    en = level_sentence("normal", "en", native=True)
    assert "Flaming Pyramids: wins 93% of 2-player games against Greedy (100 games), 41 ms" in en
    assert "Pyramids and Flags: not measured yet" in en
    fr = level_sentence("normal", "fr", native=True)
    assert "gagne 93 % des parties à 2 contre Glouton (100 parties), 41 ms" in fr


def test_without_the_native_core_a_search_level_says_it_runs_the_capped_python_search() -> None:
    """The sentence says so; where the core is built, or for a level that does not
    search, nothing is added."""
    cap = BOT_LEVELS["hard"].python_seconds
    assert python_note("hard", "en", native=False) == (
        f"This machine has no native core: Hard runs the slower Python search, "
        f"capped at {cap:g} s a move"
    )
    assert "recherche Python" in (python_note("normal", "fr", native=False) or "")
    assert python_note("hard", "en", native=True) is None
    assert python_note("greedy", "en", native=False) is None
    assert "This machine has no native core" in level_sentence("normal", "en", native=False)


def test_the_shipped_strength_file_names_every_level_of_the_ladder() -> None:
    """strength.json (written by scripts/strength.py) has an entry per level and game."""
    data = ladder.strength()
    assert set(data["levels"]) == set(LADDER)
    for figures in data["levels"].values():
        assert set(figures["ms_p95"]) == set(figures["vs_below"]) == {"flaming", "flags"}
