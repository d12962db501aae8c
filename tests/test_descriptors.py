"""The registry's descriptors are typed data (issue 32, point 1).

Every host-side part of a game is a ``Lazy`` of a module-level function (no dotted path
strings, no ``desc.load("x")``), loaded on first use and only then (the registry imports
neither ``rich``, ``numpy`` nor the native core), and a descriptor pickles to a worker
process, where its parts load again. The options' help lines and the presets' labels are
catalogue entries in both languages, for the built-in games and for the third test game,
which brings its own through its descriptor's ``messages``.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import pickle
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import pytest

from pyramids.core.descriptor import GameDescriptor, Lazy, LearnedEvaluation
from pyramids.games import descriptor, descriptors
from pyramids.games.engine import native_available
from pyramids.texts import LANGS, catalogue
from tests.thirdgame import DESCRIPTOR as PEBBLES
from tests.thirdgame import registered

ROOT = Path(__file__).resolve().parents[1]
MESSAGES = ROOT / "src" / "pyramids" / "texts" / "messages"


@pytest.fixture
def every_game() -> Iterator[list[GameDescriptor]]:
    """The built-in games and the third test game, registered for the test."""
    with registered():
        yield descriptors()


def lazy_parts(desc: GameDescriptor) -> dict[str, Lazy[object]]:
    """The descriptor's ``Lazy`` fields that the game provides, by field name."""
    found = {}
    for f in dataclasses.fields(desc):
        value = getattr(desc, f.name)
        assert not isinstance(value, str) or f.name in ("default_preset", "browser_module"), (
            f"{desc.name}.{f.name} is a string"
        )
        if isinstance(value, Lazy):
            found[f.name] = value
    return found


def test_every_host_part_is_a_lazy_of_a_module_level_function(
    every_game: list[GameDescriptor],
) -> None:
    """No dotted paths: each part is a function a type checker and import-linter can see,
    defined at module level (so that a pickled descriptor finds it again by name)."""
    for desc in every_game:
        parts = lazy_parts(desc)
        assert "policy" in parts and "terminal" in parts, desc.name
        for name, part in parts.items():
            load = part.loader
            assert "<" not in load.__qualname__, f"{desc.name}.{name}: {load.__qualname__}"
            module = importlib.import_module(load.__module__)
            assert getattr(module, load.__qualname__) is load, f"{desc.name}.{name}"


def test_the_registry_loads_no_host_part() -> None:
    """Importing the registry and the catalogue loads no terminal, RL encoding or native core:
    the parts load when a host asks for them."""
    code = (
        "import sys, pyramids.games, pyramids.texts\n"
        "heavy = ('rich', 'numpy', 'pyramids._native', 'pyramids.native.flaming',\n"
        "         'pyramids.games.flaming.terminal', 'pyramids.games.flags.policy')\n"
        "print(json.dumps([m for m in heavy if m in sys.modules]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", "import json\n" + code],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout) == []


def test_a_part_loads_once_and_a_lazy_compares_by_its_function() -> None:
    """``get()`` keeps what the function returned; two Lazies of one function are equal."""
    calls = []

    def load() -> list[int]:
        calls.append(1)
        return [1, 2]

    part = Lazy(load)
    assert part.get() is part.get() and calls == [1]
    assert part == Lazy(load) and hash(part) == hash(Lazy(load))
    assert part != Lazy(list)


def _part_names(data: bytes) -> dict[str, str]:
    """In a worker process: each unpickled descriptor's policy and terminal, loaded there."""
    descs: list[GameDescriptor] = pickle.loads(data)
    out = {}
    for desc in descs:
        assert desc.policy is not None and desc.terminal is not None
        out[desc.name] = f"{desc.policy.get().__name__}/{type(desc.terminal.get()).__name__}"
    return out


def test_descriptors_pickle_and_load_their_parts_in_a_worker_process(
    every_game: list[GameDescriptor],
) -> None:
    """A descriptor travels to a spawned process (simulate's and tournament's workers) and
    loads its parts there; a loaded part is not pickled along (only its function)."""
    for desc in every_game:
        assert desc.policy is not None
        desc.policy.get()
        again = pickle.loads(pickle.dumps(desc))
        assert again == desc
    here = {
        d.name: f"{d.policy.get().__name__}/{type(d.terminal.get()).__name__}"  # type: ignore[union-attr]
        for d in every_game
    }
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        there = pool.submit(_part_names, pickle.dumps(every_game)).result(timeout=300)
    assert there == here


@pytest.mark.parametrize("name", ["flaming", "flags"])
def test_the_built_in_parts_have_their_types(name: str) -> None:
    """Each part is what its field says: a bot factory, evaluations over a state, a learned
    evaluation with its features and shipped weights, the native engine's protocol."""
    desc = descriptor(name)
    state = desc.make(desc.info.min_players).new_initial_state(1)
    assert desc.policy is not None and hasattr(desc.policy.get()(), "act")
    assert desc.evaluation is not None
    assert len(desc.evaluation.get()(state)) == desc.info.min_players
    assert desc.learned_evaluation is not None
    learned = desc.learned_evaluation.get()
    assert isinstance(learned, LearnedEvaluation)
    assert Path(learned.path).is_file() and Path(learned.path).name == "value.json"
    assert len(learned.weights().weights) == len(learned.features)
    assert len(learned.evaluate(state)) == desc.info.min_players
    assert desc.player_stats is not None and callable(desc.player_stats.get())
    assert desc.analysis is not None and desc.analysis.get() is not None
    assert desc.native is not None
    if native_available():
        game = desc.native.get().make(desc.info.min_players, {})
        assert game.new_initial_state(1).to_json() == state.to_json()
    assert (desc.reflex is None) == (name == "flags")
    assert (desc.inference is None) == (name == "flaming")
    assert (desc.hints is None) == (name == "flags")


def option_keys(desc: GameDescriptor) -> set[str]:
    """The catalogue keys a game's options, play options and presets need."""
    keys = {desc.option_key(o.name) for o in desc.options}
    keys |= {desc.preset_key(p.name) for p in desc.presets}
    if desc.terminal is not None:
        ui = desc.terminal.get()
        keys |= {desc.option_key(o.name) for o in getattr(ui, "play_options", ())}
    return keys


def test_every_option_and_preset_has_its_words_in_both_languages(
    every_game: list[GameDescriptor],
) -> None:
    """The lobby and ``--help`` read the words from the catalogue: every option's help and
    every preset's label is there in English and in French (the third game's through its
    descriptor's ``messages``), and French says it in French."""
    for desc in every_game:
        for key in sorted(option_keys(desc)):
            en, fr = catalogue("en").get(key), catalogue("fr").get(key)
            assert en and fr, f"{key}: en {en!r}, fr {fr!r}"
            assert en != fr, key


def test_the_catalogue_has_no_words_for_an_option_no_game_has() -> None:
    """``options.json`` holds the built-in games' options and presets, and nothing else."""
    wanted = set().union(*(option_keys(d) for d in descriptors() if d.name != PEBBLES.name))
    for lang in LANGS:
        data = json.loads((MESSAGES / lang / "options.json").read_text(encoding="utf-8"))
        assert set(data) == wanted, lang


def test_the_lobby_reads_the_words_from_the_catalogue() -> None:
    """``GET /api/games``'s option help and preset labels are the catalogue's, as before
    the words left the rules packages (spot checks of both games and both languages)."""
    from pyramids.server.catalog import catalog

    games = {g.name: g for g in catalog().games}
    flaming = games["flaming"]
    assert [p.label_fr for p in flaming.presets] == [
        "Base : 40 tuiles, sans braises",
        "Famille : toutes les tuiles, sans malédiction",
        "Standard : toutes les tuiles et la malédiction",
    ]
    fire = next(o for o in flaming.options if o.name == "fire_die")
    assert (fire.help, fire.help_fr) == ("Play with the fire die.", "Jouer avec le dé de feu.")
    flags = games["flags"]
    assert [p.label_en for p in flags.presets] == [
        "Advanced: with the trees' actions",
        "Basic: no tree actions",
    ]
    assert PEBBLES.name not in games
