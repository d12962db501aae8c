"""What a client may send on a table socket, checked before anything acts on it.

A message is a JSON object of at most ``Settings.max_message_bytes`` bytes, nested at most
``LimitSettings.max_json_depth`` deep, with a string ``type`` and an optional ``id`` (a
string of at most 64 characters or an integer) that the reply carries back. Anything else
is refused with an ``error`` saying what is wrong (``malformed``, or ``too_large``; the
words are the catalogue's ``socket.*`` entries, ``pyramids.texts``), and
the socket stays open: a message never ends a connection or reaches the log with a
traceback (issue 29, item 9). Text that is not Unicode (a lone surrogate, ``"\\ud800"``,
which JSON can spell but UTF-8 cannot carry) is refused wherever it is, keys included, so
that nothing downstream has to encode it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pyramids import texts
from pyramids.server.limits import is_too_deep
from pyramids.server.protocol import ProtocolError

MAX_ID_CHARS = 64
"""The longest string ``id`` a message may carry."""
MESSAGE_TYPES = ("action", "sync", "ping", "chat", "chat_settings")
"""Every ``type`` a client may send on a table socket."""


class MessageRefusedError(ProtocolError):
    """A message refused before it is handled: the catalogue entry ``socket.<key>`` in
    English, and the ``id`` to reply to (None when the message had none or its id was
    itself what is wrong)."""

    def __init__(self, code: str, key: str, msg_id: str | int | None = None, **facts: Any) -> None:
        super().__init__(
            code,
            texts.message(f"socket.{key}", "en", **facts),
            413 if code == "too_large" else 422,
            key=f"socket.{key}",
            facts=facts,
        )
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
        raise MessageRefusedError("too_large", "too_large", max=max_bytes)
    if max_depth and is_too_deep(raw, max_depth):
        raise MessageRefusedError("malformed", "too_deep", max=max_depth)
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise MessageRefusedError("malformed", "not_json", error=str(exc)) from None
    except RecursionError:
        raise MessageRefusedError("malformed", "too_deep", max=max_depth) from None
    if not isinstance(data, dict):
        raise MessageRefusedError("malformed", "not_object")
    if has_lone_surrogate(data):
        raise MessageRefusedError("malformed", "lone_surrogate")
    msg_id = data.get("id")
    if not is_message_id(msg_id):
        raise MessageRefusedError("malformed", "bad_id", max=MAX_ID_CHARS)
    kind = data.get("type")
    if not isinstance(kind, str):
        raise MessageRefusedError("malformed", "bad_type", msg_id, types=", ".join(MESSAGE_TYPES))
    return Inbound(kind, msg_id, data)
