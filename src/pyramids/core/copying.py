"""Copy functions derived from a dataclass's fields, as ``dataclasses`` derives ``__init__``.

A game's position is a dataclass of public fields; its copy must be as fast as one
written by hand (bots copy a position for every search iteration) without listing any
field by hand. ``make_clone(cls)`` reads each field's type once (``copy_plan``), writes
one line per field and compiles it: immutable values are shared, containers copied,
lists of lists copied two levels deep, dataclass fields copied in line. The source is
generated from the class, never from input.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from typing import Any, Generic, TypeVar, cast, overload


def _copy_kind(tp: Any) -> str:
    """How a copy copies a field of type ``tp``: share, copy, nested, optional or clone."""
    containers = (list, dict, set)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1 and _copy_kind(inner[0]) == "copy":
            return "optional"
        return "share"
    if origin in containers:
        if args and typing.get_origin(args[-1]) in containers:
            if origin is not list or typing.get_origin(args[-1]) is not list:
                raise TypeError(f"only lists of lists are copied two levels deep, not {tp}")
            return "nested"
        return "copy"
    if isinstance(tp, type):
        clone = getattr(tp, "clone", None)
        if callable(clone) or isinstance(clone, FieldClone):
            return "clone"
    return "share"


def copy_plan(cls: type) -> dict[str, tuple[str, ...]]:
    """The dataclass fields of ``cls`` grouped by how a copy copies them (read from their types).

    ``share``: immutable values, kept; ``copy``: lists, dicts and sets of immutable
    items, copied; ``nested``: lists of lists, copied two levels deep; ``optional``: a
    copied container or None; ``clone``: a value with its own ``clone()``. A field's
    ``metadata={"copy": kind}`` overrides its type (a list that is replaced, never
    mutated, is shared).
    """
    hints = typing.get_type_hints(cls)
    plan: dict[str, list[str]] = {k: [] for k in ("share", "copy", "nested", "optional", "clone")}
    for f in fields(cls):
        plan[f.metadata.get("copy") or _copy_kind(hints[f.name])].append(f.name)
    return {k: tuple(v) for k, v in plan.items()}


_COPY_EXPRESSIONS = {
    "share": "{name}",
    "copy": "{name}.copy()",
    "nested": "list(map(_copy_list, {name}))",
    "optional": "None if {name} is None else {name}.copy()",
    "clone": "{name}.clone()",
}


def _clone_lines(cls: type, src: str, dst: str, classes: dict[str, type]) -> list[str]:
    """Lines copying dataclass ``cls`` from ``src`` into a new ``dst``; dataclass fields inlined."""
    hints = typing.get_type_hints(cls)
    if src == "self":
        lines = [f"    {dst} = _new(type(self))"]
    else:
        classes[f"_{dst}_class"] = cls
        lines = [f"    {dst} = _new(_{dst}_class)"]
    for kind, names in copy_plan(cls).items():
        for n in names:
            tp = hints[n]
            if kind == "clone" and is_dataclass(tp):
                inner = f"{dst}_{n}"
                lines.append(f"    {src}_{n} = {src}.{n}")
                lines.extend(_clone_lines(cast(type, tp), f"{src}_{n}", inner, classes))
                lines.append(f"    {dst}.{n} = {inner}")
            else:
                lines.append(
                    f"    {dst}.{n} = {_COPY_EXPRESSIONS[kind].format(name=src + '.' + n)}"
                )
    return lines


def make_clone(cls: type) -> Callable[[Any], Any]:
    """A fast copy function for dataclass ``cls``, written from its ``copy_plan``.

    As dataclasses write ``__init__``: one line per field (fields that are dataclasses
    with a ``clone`` are copied in line the same way), so no field is listed by hand.
    """
    namespace: dict[str, Any] = {"_new": object.__new__, "_copy_list": list.copy}
    lines = ["def clone(self):", *_clone_lines(cls, "self", "new", namespace), "    return new"]
    exec("\n".join(lines), namespace)  # generated from the fields above, no input
    return cast(Callable[[Any], Any], namespace["clone"])


_T = TypeVar("_T")


class FieldClone(Generic[_T]):
    """A dataclass's ``clone`` method, written from its fields (``make_clone``) on first use.

    Declared in the class body without an annotation (so it is no dataclass field)::

        @dataclass
        class FlamingPosition:
            ...
            clone = FieldClone["FlamingPosition"]()

    The fields are known only once ``@dataclass`` has run, so the copy function is
    written at the first ``obj.clone()``; it then takes this descriptor's place on the
    class, and later calls cost what a plain method costs.
    """

    def __set_name__(self, owner: type[_T], name: str) -> None:
        self._name = name

    @overload
    def __get__(self, obj: None, owner: type[_T]) -> FieldClone[_T]: ...

    @overload
    def __get__(self, obj: _T, owner: type[_T]) -> Callable[[], _T]: ...

    def __get__(self, obj: _T | None, owner: type[_T]) -> FieldClone[_T] | Callable[[], _T]:
        if obj is None:
            return self
        function = make_clone(owner)
        function.__doc__ = (
            "An independent copy, field by field (written from the dataclass fields)."
        )
        setattr(owner, self._name, function)
        return cast(Callable[[], _T], function.__get__(obj, owner))
