"""Reading positions and records for the CLI, where records are saved, and refusing.

The readers take text or an open stream and return data; they raise ``InputError``
with a message fit for the user (which file, which line and column of bad JSON).
``fail`` turns any refusal into ``error: ...`` on stderr and exit status 2;
``load_position`` and ``apply_texts`` are the shared steps of the ``apply`` commands.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any, NoReturn, TextIO, TypeVar

import typer

from pyramids.core import GameRecord, PyramidsError, State
from pyramids.games.engine import EngineError
from pyramids.texts import describe, message, refusal

EXIT_REFUSED = 2
"""Exit status of every refusal: bad input, illegal action, bad option."""


class InputError(Exception):
    """Input the CLI cannot use: unreadable file, invalid JSON, bad record."""


def parse_json_text(text: str, source: str) -> Any:
    """JSON from ``text``; InputError names ``source`` and the line and column of a mistake."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"invalid JSON in {source}: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None


def read_text_file(path: Path) -> str:
    """A file's text; InputError says why it cannot be read."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"cannot read {path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"cannot read {path}: it is a directory") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"cannot read {path}: not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None


def load_json_arg(arg: str, stdin: TextIO) -> tuple[Any, str]:
    """(data, source name) from a path, ``-`` (read ``stdin``) or literal JSON starting with ``{``."""
    if arg == "-":
        return parse_json_text(stdin.read(), "standard input"), "standard input"
    if arg.lstrip().startswith("{"):
        return parse_json_text(arg, "the position argument"), "the position argument"
    path = Path(arg)
    return parse_json_text(read_text_file(path), str(path)), str(path)


def load_position_data(arg: str, stdin: TextIO) -> dict[str, Any]:
    """A position's JSON object from ``arg`` (see ``load_json_arg``)."""
    data, source = load_json_arg(arg, stdin)
    if not isinstance(data, dict):
        raise InputError(f"{source} holds JSON but not an object: a position is {{...}}")
    return data


def load_record(path: Path) -> GameRecord:
    """A game record from a JSON file; InputError says what is wrong with it."""
    data = parse_json_text(read_text_file(path), str(path))
    if not isinstance(data, dict):
        raise InputError(f"{path} is not a game record: expected a JSON object")
    try:
        return GameRecord.from_json(data)
    except PyramidsError as exc:
        raise InputError(f"{path} is not a valid game record: {exc}") from None


def dumps(data: Any) -> str:
    """JSON with indent 2, non-ASCII text kept readable (French event texts)."""
    return json.dumps(data, indent=2, ensure_ascii=False)


def _scalar(value: Any) -> bool:
    return not isinstance(value, (dict, list))


PACKED = 24
"""Longest item (as JSON) packed several to a line: codes and towers, not sentences."""


def _flat(value: Any) -> bool:
    """A short scalar, or a short list of scalars (a code, a tower): packed several to a line."""
    short = len(json.dumps(value, ensure_ascii=False)) <= PACKED
    return short and (_scalar(value) or all(_scalar(v) for v in value))


def _compact(value: Any, indent: int, room: int, width: int) -> str:
    """``value`` as JSON starting ``indent`` spaces in, with ``room`` characters left."""
    inline = json.dumps(value, ensure_ascii=False)
    packed = isinstance(value, list) and all(_flat(v) for v in value)
    sentences = isinstance(value, list) and not packed and all(_scalar(v) for v in value)
    if _scalar(value) or not value or (len(inline) <= room and not sentences):
        return inline
    pad = " " * (indent + 2)
    if packed:
        lines: list[str] = []
        line = ""
        for item in (json.dumps(v, ensure_ascii=False) for v in value):
            if line and len(pad) + len(line) + len(item) + 2 > width:
                lines.append(line + ",")
                line = ""
            line = f"{line}, {item}" if line else item
        lines.append(line)
        return "[\n" + "\n".join(pad + x for x in lines) + "\n" + " " * indent + "]"
    if isinstance(value, list):
        items = [_compact(v, indent + 2, width - indent - 3, width) for v in value]
        return "[\n" + ",\n".join(pad + x for x in items) + "\n" + " " * indent + "]"
    entries = []
    for key, v in value.items():
        head = f"{json.dumps(key, ensure_ascii=False)}: "
        entries.append(pad + head + _compact(v, indent + 2, width - indent - 3 - len(head), width))
    return "{\n" + ",\n".join(entries) + "\n" + " " * indent + "}"


def dumps_compact(data: Any, width: int = 100) -> str:
    """JSON like ``dumps`` but short lists and objects on one line and long lists of codes
    wrapped at ``width``, so a long position fits on one screen."""
    return _compact(data, 0, width, width)


def data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The user data directory of pyramids: $XDG_DATA_HOME/pyramids or ~/.local/share/pyramids."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_DATA_HOME") or ""
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "pyramids"


def default_record_path(seed: int, now: datetime, environ: Mapping[str, str] | None = None) -> Path:
    """``<data dir>/records/<YYYYmmdd-HHMMSS>-<seed>.json``."""
    return data_dir(environ) / "records" / f"{now:%Y%m%d-%H%M%S}-{seed}.json"


def hand_record_path(path: Path, hand: int, hands: int) -> Path:
    """The record path of hand ``hand`` (0-based) of a match: ``name-hand2.json``; unchanged for one hand."""
    if hands <= 1:
        return path
    suffix = path.suffix or ".json"
    return path.with_name(f"{path.stem}-hand{hand + 1}{suffix}")


def save_record(record: GameRecord, path: Path) -> None:
    """Write ``record`` as JSON to ``path``, creating its directory."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(record.to_json()) + "\n", encoding="utf-8")


def output_problem(path: Path, *, make_folder: bool = False) -> str | None:
    """Why ``path`` cannot be written as an output file, in words (None: it can).

    Asked before any work starts, so that a long run never ends in a traceback and a lost
    result. ``make_folder``: a missing folder is created (a game record's), else refused.
    """
    if path.is_dir():
        return f"{path} is a folder: give a file name"
    parent = path.parent
    if make_folder and not parent.exists():
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return f"cannot create the folder {parent}: {exc.strerror or exc}"
    if not parent.exists():
        return f"the folder {parent} does not exist"
    if not parent.is_dir():
        return f"{parent} is not a folder"
    target, mode = (path, os.W_OK) if path.exists() else (parent, os.W_OK | os.X_OK)
    if not os.access(target, mode):
        return f"{path} cannot be written: permission denied"
    return None


def check_output(path: Path | None, option: str) -> None:
    """Exit 2 (``error: --out: the folder /x does not exist``) unless ``path`` is writable."""
    if path is None:
        return
    problem = output_problem(path)
    if problem is not None:
        fail(f"{option}: {problem}")


S = TypeVar("S", bound=State)


def said(exc: Exception, lang: str) -> str:
    """What to tell of ``exc``: a refusal (``PyramidsError``) in ``lang``'s words from the
    message catalogue, anything else as its text."""
    return refusal(exc, lang) if isinstance(exc, PyramidsError) else str(exc)


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with status 2 (every refusal of the CLI)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(EXIT_REFUSED)


def load_position(
    position: str, parse: Callable[[Mapping[str, Any]], S], stdin: TextIO, lang: str = "en"
) -> tuple[S, dict[str, Any]]:
    """The position named by a POSITION argument, parsed by ``parse``, and its raw JSON;
    exits 2 (the rules' refusal of the position said in ``lang``)."""
    try:
        data = load_position_data(position, stdin)
        return parse(data), data
    except InputError as exc:
        fail(str(exc))
    except PyramidsError as exc:
        fail(message("cli.bad_position", lang, reason=refusal(exc, lang)))
    except EngineError as exc:
        fail(str(exc))


def apply_texts(state: State, actions: list[str], lang: str) -> list[str]:
    """Apply ``actions`` (text) in order; the events' texts, or exit 2 naming the action."""
    texts: list[str] = []
    for index, text in enumerate(actions, start=1):
        try:
            state.apply(state.parse_action(text))
        except PyramidsError as exc:  # ActionParseError or IllegalActionError: say which
            reason = refusal(exc, lang)
            fail(message("cli.bad_action", lang, index=index, text=text, reason=reason))
        texts.extend(describe(event, lang) for event in state.events())
    return texts
