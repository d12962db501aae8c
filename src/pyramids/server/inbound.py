"""What a client may send on a table socket, checked before anything acts on it.

A message is a JSON object of at most ``Settings.max_message_bytes`` bytes, nested at most
``LimitSettings.max_json_depth`` deep, with a string ``type`` and an optional ``id`` (a
string of at most 64 characters or an integer) that the reply carries back. Anything else
is refused with an ``error`` saying what is wrong (``malformed``, or ``too_large``), and
the socket stays open: a message never ends a connection or reaches the log with a
traceback (issue 29, item 9). Text that is not Unicode (a lone surrogate, ``"\\ud800"``,
which JSON can spell but UTF-8 cannot carry) is refused wherever it is, keys included, so
that nothing downstream has to encode it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pyramids.server.limits import is_too_deep
from pyramids.server.live import ProtocolError

MAX_ID_CHARS = 64
"""The longest string ``id`` a message may carry."""
MESSAGE_TYPES = ("action", "sync", "ping", "chat", "chat_settings")
"""Every ``type`` a client may send on a table socket."""


class MessageRefusedError(ProtocolError):
    """A message refused before it is handled, with the ``id`` to reply to (None when the
    message had none or its id was itself what is wrong)."""

    def __init__(self, code: str, message: str, msg_id: str | int | None = None) -> None:
        super().__init__(code, message, 413 if code == "too_large" else 422)
        self.msg_id = msg_id


@dataclass(frozen=True)
class Inbound:
    """A message that passed the checks: its type, its id and all of it."""

    kind: str
    msg_id: str | int | None
    data: dict[str, Any]


def has_lone_surrogate(value: Any) -> bool:
    """Whether a parsed JSON value holds a lone surrogate in any string or key."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if any("\ud800" <= c <= "\udfff" for c in item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def is_message_id(value: Any) -> bool:
    """Whether ``value`` may be a message's ``id``: absent, a short string, an integer."""
    if value is None:
        return True
    if isinstance(value, str):
        return len(value) <= MAX_ID_CHARS
    return isinstance(value, int) and not isinstance(value, bool)


def parse_inbound(raw: str | bytes, *, max_bytes: int, max_depth: int) -> Inbound:
    """A table socket's message, checked; MessageRefusedError saying what is wrong otherwise."""
    size = len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)
    if size > max_bytes:
        raise MessageRefusedError("too_large", f"messages are at most {max_bytes} bytes")
    if max_depth and is_too_deep(raw, max_depth):
        raise MessageRefusedError("malformed", f"messages nest at most {max_depth} deep")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise MessageRefusedError("malformed", f"the message is not JSON: {exc}") from None
    except RecursionError:
        raise MessageRefusedError("malformed", "the message nests too deep") from None
    if not isinstance(data, dict):
        raise MessageRefusedError("malformed", "a message is a JSON object with a 'type'")
    if has_lone_surrogate(data):
        raise MessageRefusedError(
            "malformed",
            "the message holds a lone surrogate (\\ud800 to \\udfff), which is not text",
        )
    msg_id = data.get("id")
    if not is_message_id(msg_id):
        raise MessageRefusedError(
            "malformed", f"'id' is a string of at most {MAX_ID_CHARS} characters or an integer"
        )
    kind = data.get("type")
    if not isinstance(kind, str):
        raise MessageRefusedError(
            "malformed",
            f"'type' is a string: one of {', '.join(repr(t) for t in MESSAGE_TYPES)}",
            msg_id,
        )
    return Inbound(kind, msg_id, data)
