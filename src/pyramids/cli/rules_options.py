"""Command-line options made from the registry's rules options (``OptionSpec``), for any game.

``with_options(specs)`` adds one keyword option per spec to a command: a ``bool`` option
is ``--name/--no-name``, an ``int`` or ``choice`` option ``--name VALUE``; every one
defaults to None (the game's own default). The command receives the options given as
one ``options`` dict. ``rules_specs()`` is the union of every registered game's rules
options (one per name), so ``simulate --game G --preset P`` and ``play --game G
--actions`` are spelled as before, and an option of another game is refused by
``refusal``. An option's help is each game's line from the catalogue
(``option.<game>.<option>``, ``rules_helps()``).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Annotated, Any

import typer

from pyramids.core.descriptor import GameDescriptor, OptionSpec
from pyramids.games import descriptors
from pyramids.texts import MessageError, message


def rules_specs() -> list[OptionSpec]:
    """Every registered game's rules options, one per name."""
    merged: dict[str, OptionSpec] = {}
    for desc in descriptors():
        for spec in desc.options:
            merged.setdefault(spec.name, spec)
    return list(merged.values())


def option_help(desc: GameDescriptor, option: str, lang: str = "en") -> str:
    """``desc``'s one-line help of its option ``option`` (its catalogue entry; empty when
    the game gives none)."""
    try:
        return message(desc.option_key(option), lang)
    except MessageError:
        return ""


def rules_helps() -> dict[str, str]:
    """Each rules option's ``--help``: every game's line that has it, with its default."""
    helps: dict[str, list[str]] = {}
    for desc in descriptors():
        for spec in desc.options:
            default = "" if spec.default is None else f" (default {_shown(spec.default)})"
            line = f"{desc.name}: {option_help(desc, spec.name)}{default}"
            helps.setdefault(spec.name, []).append(line)
    return {name: "; ".join(lines) for name, lines in helps.items()}


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def flag_of(spec: OptionSpec) -> str:
    """The option's spelling: ``--fire-die/--no-fire-die`` or ``--max-turns``."""
    flag = "--" + spec.name.replace("_", "-")
    return f"{flag}/--no-{flag[2:]}" if spec.kind == "bool" else flag


def _parameter(spec: OptionSpec, help_text: str) -> inspect.Parameter:
    if spec.kind == "choice" and spec.choices:
        help_text += f" [{', '.join(spec.choices)}]"
    annotation: Any
    if spec.kind == "bool":
        annotation = Annotated[bool | None, typer.Option(flag_of(spec), help=help_text)]
    elif spec.kind == "int":
        option = typer.Option(flag_of(spec), min=spec.minimum, max=spec.maximum, help=help_text)
        annotation = Annotated[int | None, option]
    else:
        annotation = Annotated[str | None, typer.Option(flag_of(spec), help=help_text)]
    return inspect.Parameter(
        spec.name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation
    )


def with_options(
    specs: Iterable[OptionSpec], into: str = "options", *, helps: Mapping[str, str] | None = None
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Give a command one option per spec; it receives the given ones as the dict ``into``.

    ``helps`` are the options' ``--help`` lines by name (default: ``rules_helps()``)."""
    specs = list(specs)
    helps = rules_helps() if helps is None else helps

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        signature = inspect.signature(func, eval_str=True)
        kept = [p for p in signature.parameters.values() if p.name != into]
        taken = {p.name for p in kept}
        added = [_parameter(s, helps.get(s.name, "")) for s in specs if s.name not in taken]
        names = {p.name for p in added}

        @functools.wraps(func)
        def command(**kwargs: Any) -> Any:
            given = {k: kwargs.pop(k) for k in names}
            kwargs[into] = {k: v for k, v in given.items() if v is not None}
            return func(**kwargs)

        command.__signature__ = signature.replace(parameters=[*kept, *added])  # type: ignore[attr-defined]
        command.__annotations__ = {}
        del command.__wrapped__
        return command

    return decorate


def owners(
    extra: Callable[[GameDescriptor], Sequence[OptionSpec]] | None = None,
) -> dict[str, tuple[OptionSpec, GameDescriptor]]:
    """Every option name with its spec and the first game that has it.

    ``extra(desc)`` adds the options a command has for one game beside its rules options.
    """
    found: dict[str, tuple[OptionSpec, GameDescriptor]] = {}
    for desc in descriptors():
        for spec in (*desc.options, *(extra(desc) if extra else ())):
            found.setdefault(spec.name, (spec, desc))
    return found


def foreign(
    given: Mapping[str, Any],
    own: Iterable[str],
    catalog: Mapping[str, tuple[OptionSpec, GameDescriptor]],
) -> tuple[str, str] | None:
    """(flag, title of the game it belongs to) of the first given option not in ``own``."""
    mine = set(own)
    for name in given:
        if name not in mine:
            spec, desc = catalog[name]
            return flag_of(spec), desc.title()
    return None
