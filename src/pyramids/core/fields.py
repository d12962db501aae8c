"""Reading the fields of a position's JSON, with refusals that say what is wrong.

Shared by every game's position notation and options. Each reader raises a
``PositionError`` whose code is one of the shared ``position.*`` codes and whose facts
name the field (``field``: the key read, ``None`` for the position itself) and, when the
engines can hold it, the refused value itself (``value``). Both engines raise the same
codes with the same facts (the native readers mirror this module).

- ``position.not_an_object`` {field}: the value is not a JSON object.
- ``position.unknown_fields`` {field, fields}: keys the notation does not know (sorted).
- ``position.missing_field`` {field}: a required field is absent (or ``null``).
- ``position.not_an_integer`` {field, value}: not a JSON integer (a ``true`` is no integer).
- ``position.integer_too_large`` {field}: an integer beyond 64 bits (signed), which the
  engines cannot hold (no value: the native engine never holds it).
- ``position.out_of_range`` {field, value, low, high}: an integer below ``low`` or above
  ``high`` (``high`` ``None`` when there is no upper bound).
- ``position.not_a_boolean`` {field, value}: not ``true`` or ``false``.
- ``position.not_a_string`` {field, value}: not a JSON string.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from pyramids.core.errors import PositionError

INT_MIN = -(2**63)
"""The smallest integer the engines hold (a signed 64-bit integer)."""
INT_MAX = 2**63 - 1
"""The largest integer the engines hold."""


def object_field(value: Any, field: str | None = None) -> Mapping[str, Any]:
    """``value`` as a JSON object; ``position.not_an_object`` otherwise (``field`` None: the position)."""
    if not isinstance(value, Mapping):
        raise PositionError("position.not_an_object", field=field)
    return value


def known_fields(data: Mapping[str, Any], known: Collection[str], field: str | None = None) -> None:
    """``position.unknown_fields`` if ``data`` has keys outside ``known`` (listed sorted)."""
    unknown = sorted(str(key) for key in data if key not in known)
    if unknown:
        raise PositionError("position.unknown_fields", field=field, fields=unknown)


def is_integer(value: Any) -> bool:
    """True for a JSON integer: an ``int`` that is not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_integer(value: Any, field: str) -> int:
    """``value`` as an integer the engines can hold; ``not_an_integer``/``integer_too_large``."""
    if not is_integer(value):
        raise PositionError("position.not_an_integer", field=field, value=json_fact(value))
    if not INT_MIN <= value <= INT_MAX:
        raise PositionError("position.integer_too_large", field=field)
    return int(value)


def json_fact(value: Any) -> Any:
    """``value`` as a refusal's fact: JSON values stay as they are (a tuple becomes a list),
    anything else is named by its type (``<bytes>``), never by its Python repr."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [json_fact(v) for v in value]
    if isinstance(value, dict):
        return {str(k): json_fact(v) for k, v in value.items()}
    return f"<{type(value).__name__}>"


def int_value(value: Any, field: str, *, low: int | None = None, high: int | None = None) -> int:
    """``value`` (read at ``field``) as an integer from ``low`` to ``high`` (None: no bound).

    Refusals, in this order: ``position.not_an_integer`` (a JSON ``true`` is no integer; a
    value that is not JSON is named by its type), ``position.integer_too_large``,
    ``position.out_of_range`` (facts ``low`` and ``high``, ``high`` may be None)."""
    number = check_integer(value, field)
    if (low is not None and number < low) or (high is not None and number > high):
        raise PositionError("position.out_of_range", field=field, value=number, low=low, high=high)
    return number


def int_field(
    data: Mapping[str, Any],
    name: str,
    default: int | None = None,
    *,
    low: int | None = None,
    high: int | None = None,
    field: str | None = None,
) -> int:
    """``data[name]`` as an integer (``default`` when absent), from ``low`` to ``high`` if given.

    Refusals, in this order: ``position.missing_field`` (absent or null with no default),
    ``position.not_an_integer``, ``position.integer_too_large``, ``position.out_of_range``
    (facts ``low`` and ``high``; a range always gives ``low``, ``high`` may be None).
    ``field`` names the field in refusals when it is not ``name`` (``pending.player``).
    """
    return int_value(present(data, name, default, field), field or name, low=low, high=high)


def present(
    data: Mapping[str, Any], name: str, default: Any = None, field: str | None = None
) -> Any:
    """``data[name]`` (``default`` when absent); ``position.missing_field`` (named ``field``,
    else ``name``) when that is null."""
    value = data.get(name, default)
    if value is None:
        raise PositionError("position.missing_field", field=field or name)
    return value


def bool_field(data: Mapping[str, Any], name: str, default: bool | None = None) -> bool:
    """``data[name]`` as ``true``/``false`` (``default`` when absent); ``position.not_a_boolean``."""
    value = present(data, name, default)
    if not isinstance(value, bool):
        raise PositionError("position.not_a_boolean", field=name, value=value)
    return value


def str_field(data: Mapping[str, Any], name: str, default: str | None = None) -> str:
    """``data[name]`` as a string (``default`` when absent); ``position.not_a_string``."""
    value = present(data, name, default)
    if not isinstance(value, str):
        raise PositionError("position.not_a_string", field=name, value=value)
    return value
