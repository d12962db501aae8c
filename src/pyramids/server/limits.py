"""What one client may do: its rates, caps on connections, and message nesting.

Every rate of the server is counted here, one :class:`ClientLimits` per app, each set by
a field ``rate_<name>`` of :class:`~pyramids.server.config.LimitSettings` (:class:`Rate`
names them): the per-address rates (tables, claims, actions, sockets, sign-ups, log-ins,
chat, hints, analyses), a connection's chat messages, and the failed log-ins of one
account name. They use the ``limits`` library on its in-memory storage: the server is one
process, the counts are short-lived and may be forgotten at a restart, and memory needs
no other service (a Redis would only pay off with several server processes behind one
address). Per address and per name it is the sliding-window counter (two counters per
key and rule, no burst at a window's edge); per connection the moving window, exact ("at
most 8 in any 10 seconds") for the few hits a connection may make. A refused request is
:class:`RateLimitedError` (HTTP 429 with ``Retry-After``); the caps are plain counters.
Time is the wall clock the ``limits`` library reads (``time.time``), here too, so a test
stops it for all of them at once (``tests/server/rate_clock.py``).
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import Counter
from enum import StrEnum
from typing import Any

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import (
    MovingWindowRateLimiter,
    RateLimiter,
    SlidingWindowCounterRateLimiter,
)

from pyramids.server.config import LimitSettings
from pyramids.server.protocol import ProtocolError

WS_CLOSE_POLICY = 1008
"""The WebSocket close code of a socket closed for breaking a limit (RFC 6455: policy)."""


class Rate(StrEnum):
    """Each rate a client is held to: ``LimitSettings.rate_<value>`` sets it."""

    CREATE = "create"
    CLAIM = "claim"
    ACTION = "action"
    CONNECT = "connect"
    SIGNUP = "signup"
    LOGIN = "login"
    CHAT = "chat"
    HINT = "hint"
    HINT_TABLE = "hint_table"
    """Per table (its key ``table/<id>``), whoever asks."""
    ANALYSIS = "analysis"
    CHAT_CONNECTION = "chat_connection"
    """Per connection (:meth:`ClientLimits.check_connection`), exempt addresses too."""
    LOGIN_FAILURES = "login_failures"
    """Per account name, from any address: only failures count (:meth:`ClientLimits.count`)."""


PER_CONNECTION = frozenset({Rate.CHAT_CONNECTION})
"""The rates counted per connection, on a moving window (exact; a connection hits little)."""
IPV6_PREFIX = 64
"""An IPv6 client counts by its network: one host usually holds a whole /64."""


class RateLimitedError(ProtocolError):
    """Too many requests of one kind (from one address, connection or account name): 429
    ``rate_limited``, retry ``retry_after`` seconds later."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__("rate_limited", message, 429)
        self.retry_after = retry_after


def ws_error(msg_id: Any, exc: ProtocolError) -> dict[str, Any]:
    """The WebSocket ``error`` message of a refused request: its refusal and words in
    every language when it has them (``ProtocolError.details``), ``retry_after`` in
    seconds when it was over a rate."""
    out: dict[str, Any] = {"type": "error", "id": msg_id, "code": exc.code, "message": exc.message}
    out.update(exc.details())
    if isinstance(exc, RateLimitedError):
        out["retry_after"] = exc.retry_after
    return out


def client_key(host: str | None) -> str:
    """The key an address is counted under: IPv4 as it is, IPv6 by its /64 network."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False))
    return str(address)


def parse_rate(text: str) -> list[RateLimitItem]:
    """The rules of a rate setting (``"20/minute;200/hour"``); empty: none."""
    text = text.strip()
    if not text or text.lower() in ("0", "off", "none"):
        return []
    return list(parse_many(text))


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_exempt(text: str) -> tuple[list[Network], set[str]]:
    """The ``exempt`` setting (comma-separated): its networks, and the other names as they
    are (a client without an IP address, such as the test client's ``testclient``)."""
    networks: list[Network] = []
    names: set[str] = set()
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        try:
            networks.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            names.add(part)
    return networks, names


def is_too_deep(text: str | bytes, limit: int) -> bool:
    """Whether JSON ``text`` nests arrays and objects more than ``limit`` deep.

    Checked before ``json.loads``, whose recursion would otherwise fail (RecursionError)
    on a small message; brackets inside strings do not count.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    in_string = escaped = False
    for c in text:
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > limit:
                return True
        elif c in "]}":
            depth -= 1
    return False


def _listed(key: str, networks: list[Network], names: set[str]) -> bool:
    """Whether the address (or name) ``key`` is one of ``names`` or in one of ``networks``."""
    if key in names:
        return True
    if not networks:
        return False
    try:
        network = ipaddress.ip_network(key, strict=False)
    except ValueError:
        return False
    return any(
        network.version == e.version and network.subnet_of(e)  # type: ignore[arg-type]
        for e in networks
    )


EXEMPT_CACHE_SIZE = 4096
"""Most addresses whose exemption is remembered (the cache starts again past it)."""


class ClientLimits:
    """The rates and caps of one server process: per address, per connection, per name."""

    def __init__(self, settings: LimitSettings) -> None:
        self.settings = settings
        self._storage = MemoryStorage()
        self._limiter = SlidingWindowCounterRateLimiter(self._storage)
        self._exact = MovingWindowRateLimiter(self._storage)
        self._rates: dict[str, list[RateLimitItem]] = {
            kind: parse_rate(getattr(settings, f"rate_{kind}")) for kind in Rate
        }
        self._flood = parse_rate(settings.ws_flood)
        self._exempt, self._exempt_names = parse_exempt(settings.exempt)
        self._exempt_cache: dict[str, bool] = {}
        self._proxies, self._proxy_names = parse_exempt(settings.trusted_proxies)
        self._sockets: Counter[str] = Counter()

    def is_trusted_proxy(self, key: str) -> bool:
        """Whether the peer counted as ``key`` is a reverse proxy of ``trusted_proxies`` (a
        load balancer in front of the cluster: its connections carry many clients, so no
        per-address cap of connections applies to it; the clients behind it are counted by
        their forwarded addresses)."""
        if "*" in self._proxy_names:
            return True
        return _listed(key, self._proxies, self._proxy_names)

    def is_exempt(self, key: str) -> bool:
        """Whether no per-address limit applies to the address counted as ``key`` (the answer
        is remembered per key: it is asked for every message)."""
        known = self._exempt_cache.get(key)
        if known is None:
            known = self._compute_exempt(key)
            if len(self._exempt_cache) >= EXEMPT_CACHE_SIZE:
                self._exempt_cache.clear()
            self._exempt_cache[key] = known
        return known

    def _compute_exempt(self, key: str) -> bool:
        return _listed(key, self._exempt, self._exempt_names)

    def _strategy(self, kind: str) -> RateLimiter:
        return self._exact if kind in PER_CONNECTION else self._limiter

    def _wait(self, limiter: RateLimiter, rules: list[RateLimitItem], *identifiers: str) -> int:
        """Seconds until every rule allows one more hit (0: they do now; at least 1 else)."""
        waits = [
            limiter.get_window_stats(rule, *identifiers).reset_time - time.time()
            for rule in rules
            if not limiter.test(rule, *identifiers)
        ]
        return max(1, math.ceil(max(waits))) if waits else 0

    def _hit(self, limiter: RateLimiter, rules: list[RateLimitItem], *identifiers: str) -> int:
        """Count one hit against every rule; 0 if all allow it, else seconds to wait (and
        nothing counted)."""
        wait = self._wait(limiter, rules, *identifiers)
        if wait:
            return wait
        for rule in rules:
            limiter.hit(rule, *identifiers)
        return 0

    def check(self, kind: str, key: str) -> None:
        """Count a ``kind`` request from the address ``key`` (none from an exempt one);
        RateLimitedError when it is one too many."""
        rules = self._rates[kind]
        if not rules or self.is_exempt(key):
            return
        wait = self._hit(self._limiter, rules, kind, key)
        if wait:
            allowed = ", ".join(str(r) for r in rules)
            raise RateLimitedError(
                f"too many requests ({kind}) from your address: at most {allowed}; "
                f"try again in {wait} s",
                wait,
            )

    def check_connection(self, kind: str, connection: str, what: str) -> None:
        """Count one of ``what`` (``"chat messages"``) sent on ``connection`` (a key of its
        own, whatever its address: exempt or shared ones too); RateLimitedError when it is
        one too many."""
        rules = self._rates[kind]
        if not rules:
            return
        wait = self._hit(self._strategy(kind), rules, kind, connection)
        if wait:
            allowed = ", ".join(f"{r.amount} in {r.get_expiry():g} s" for r in rules)
            raise RateLimitedError(
                f"too many {what} on this connection: at most {allowed}; try again in {wait} s",
                wait,
            )

    def wait(self, kind: str, key: str) -> int:
        """Seconds until ``key`` may make one more ``kind`` request (0: now); nothing is
        counted (with :meth:`count`: a rate of failures, counted once they failed)."""
        rules = self._rates[kind]
        return self._wait(self._strategy(kind), rules, kind, key) if rules else 0

    def count(self, kind: str, key: str) -> None:
        """Count one ``kind`` event of ``key`` (a failed log-in of a name), allowed or not."""
        limiter = self._strategy(kind)
        for rule in self._rates[kind]:
            limiter.hit(rule, kind, key)

    def forget(self, kind: str, key: str) -> None:
        """Clear ``key``'s count of ``kind`` (a name's failures, once it logged in)."""
        limiter = self._strategy(kind)
        for rule in self._rates[kind]:
            limiter.clear(rule, kind, key)

    def is_flooding(self, key: str, socket_id: str) -> bool:
        """Count one message on a WebSocket of ``key``; True once it is over ``ws_flood``."""
        if not self._flood or self.is_exempt(key):
            return False
        return self._hit(self._limiter, self._flood, "flood", socket_id) > 0

    def check_tables(self, key: str, unfinished: int) -> None:
        """Refuse a new table to an address that already has its cap of unfinished ones."""
        cap = self.settings.max_tables_per_address
        if cap and unfinished >= cap and not self.is_exempt(key):
            raise ProtocolError(
                "too_many_tables",
                f"your address already has {unfinished} unfinished tables (at most {cap}); "
                "finish or wait for one before creating another",
                429,
            )

    def open_socket(self, key: str) -> None:
        """Count one more WebSocket of the address; too_many_connections past its cap."""
        cap = self.settings.max_connections_per_address
        if cap and self._sockets[key] >= cap and not self.is_exempt(key):
            raise ProtocolError(
                "too_many_connections",
                f"your address already has {self._sockets[key]} table connections open "
                f"(at most {cap})",
                429,
            )
        self._sockets[key] += 1

    def close_socket(self, key: str) -> None:
        """Count one WebSocket of the address fewer."""
        self._sockets[key] -= 1
        if self._sockets[key] <= 0:
            del self._sockets[key]

    def check_spectators(self, spectators: int) -> None:
        """Refuse a spectator to a table that already has its cap of them."""
        cap = self.settings.max_spectators
        if cap and spectators >= cap:
            raise ProtocolError(
                "too_many_spectators",
                f"this table already has {spectators} spectators (at most {cap})",
                429,
            )
