"""Names and invisible text (issue 29, items 5 and 11; docs/SECURITY.md "Names and
invisible text", ``pyramids.server.names``).

Item 5: "Cyrillic "Аnna" and "Мaria", Armenian ո for n, a combining grapheme joiner inside
a name, a trailing Hangul filler, "dеleted_player" with a Cyrillic е: all accepted".
Item 11: "invisible characters are accepted in chat and names (ZWSP, ZWJ, BOM, LRM/RLM,
tag characters, Hangul fillers, a letter with 299 combining marks; a seat named "\\u3164"
is invisible)".

Account names: NFKC, no default-ignorable character, one script (UTS #39 "highly
restrictive"), at most 4 combining marks on a character, unique by UTS #39 skeleton,
"deleted player" reserved in every script and spelling. Chat and seat names: invisible
characters inside visible text are removed (a joiner inside an emoji stays), text of only
invisible characters and stacks of marks are refused. Every refusal names the character.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from pyramids.server.accounts import check_name
from tests.server.conftest import HUMAN, bot, create, receive_until

PASSWORD = "correct horse battery"
ZWSP, ZWJ, BOM, LRM, RLM = "\u200b", "\u200d", "\ufeff", "\u200e", "\u200f"
HANGUL_FILLER, CGJ = "\u3164", "\u034f"
TAGS = "".join(chr(0xE0000 + ord(c)) for c in "hidden")
"""Tag characters spelling "hidden": invisible ASCII smuggled after a visible text."""
ZALGO = "a" + "\u0301" * 299
"""A letter with 299 combining acute accents."""


def sign_up(client: TestClient, name: str) -> Any:
    """POST /api/accounts; the response."""
    return client.post("/api/accounts", json={"name": name, "password": PASSWORD})


def refusal(response: Any) -> tuple[int, str, str]:
    """(status, code, message) of an error response."""
    error = response.json()["error"]
    return response.status_code, error["code"], error["message"]


# --- item 5: look-alike account names -----------------------------------------------------


@pytest.mark.parametrize(
    ("name", "first", "second"),
    [
        ("\u0410nna", "U+0410 CYRILLIC CAPITAL LETTER A", "U+006E LATIN SMALL LETTER N"),
        ("\u041caria", "U+041C CYRILLIC CAPITAL LETTER EM", "U+0061 LATIN SMALL LETTER A"),
        ("An\u0578a", "U+0041 LATIN CAPITAL LETTER A", "U+0578 ARMENIAN SMALL LETTER VO"),
    ],
)
def test_a_name_mixing_two_scripts_is_refused_naming_both_letters(
    client: TestClient, name: str, first: str, second: str
) -> None:
    """ "Аnna", "Мaria" (Cyrillic capital), "Anոa" (Armenian ո): 422 malformed, the message
    names both scripts and both letters."""
    status, code, message = refusal(sign_up(client, name))
    assert (status, code) == (422, "malformed")
    assert "one script" in message and first in message and second in message


def test_names_of_one_script_and_the_writing_systems_that_mix_by_design_are_accepted() -> None:
    """Any one script with Common digits and _ - .; Japanese (Han, Hiragana, Katakana),
    Korean and Latin with either (UTS #39 "highly restrictive")."""
    for name in ("Zoë", "Пётр", "李小龍", "हिन्दी", "ラーメン好き", "東京taro", "한국Kim", "Անի_2"):
        assert check_name(name) == name


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("An" + CGJ + "na", "U+034F COMBINING GRAPHEME JOINER"),
        ("Anna" + HANGUL_FILLER, "U+1160 HANGUL JUNGSEONG FILLER"),  # NFKC of U+3164
        ("An" + ZWSP + "na", "U+200B ZERO WIDTH SPACE"),
        ("An" + ZWJ + "na", "U+200D ZERO WIDTH JOINER"),
        (BOM + "Anna", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
        ("Anna" + LRM, "U+200E LEFT-TO-RIGHT MARK"),
        ("Anna" + TAGS, "U+E0068 TAG LATIN SMALL LETTER H"),
        ("Anna\ufe0f", "U+FE0F VARIATION SELECTOR-16"),
    ],
)
def test_a_name_with_an_invisible_character_is_refused_naming_it(
    client: TestClient, name: str, shown: str
) -> None:
    """ "names cannot contain invisible characters (U+200B ZERO WIDTH SPACE)": any
    default-ignorable code point, inside or at an end."""
    status, code, message = refusal(sign_up(client, name))
    assert (status, code) == (422, "malformed")
    assert message.startswith("names cannot contain invisible characters") and shown in message


def test_a_name_that_looks_like_a_taken_name_is_taken(client: TestClient) -> None:
    """Same UTS #39 skeleton, any case: "асе" (all Cyrillic) is "ace", "PayPaI" (capital I)
    is "paypal", "arnie" is "amie" (rn looks like m): 409 name_taken, saying whose."""
    for taken, look_alike in (
        ("ace", "\u0430\u0441\u0435"),
        ("paypal", "PayPaI"),
        ("amie", "arnie"),
    ):
        assert sign_up(client, taken).status_code == 201
        status, code, message = refusal(sign_up(client, look_alike))
        assert (status, code) == (409, "name_taken"), look_alike
        assert f"looks like \u201c{taken}\u201d" in message


def test_renaming_to_a_look_alike_of_another_account_is_refused(client: TestClient) -> None:
    """A rename follows the same rules; a rename to one's own name in another case is fine."""
    assert sign_up(client, "ace").status_code == 201
    client.cookies.clear()
    r = sign_up(client, "bob")
    token = r.json()["csrf"]
    headers = {"X-CSRF-Token": token}
    change = {"current_password": PASSWORD, "name": "\u0430\u0441\u0435"}  # Cyrillic асе
    status, code, message = refusal(client.patch("/api/accounts/me", json=change, headers=headers))
    assert (status, code) == (409, "name_taken") and "\u201cace\u201d" in message
    ok = client.patch(
        "/api/accounts/me", json={"current_password": PASSWORD, "name": "BOB"}, headers=headers
    )
    assert ok.status_code == 200 and ok.json()["account"]["name"] == "BOB"


@pytest.mark.parametrize(
    "name",
    [
        "d\u0435leted_player",  # Cyrillic е
        "deletedplayer",
        "DELETED-PLAYER",
        "de1eted.p1ayer",  # digit one for l
        "\u0501\u0435l\u0435t\u0435d_\u0440l\u0430\u0443\u0435r",  # ԁеlеtеd_рlауеr
    ],
)
def test_deleted_player_is_reserved_in_every_script_and_spelling(
    client: TestClient, name: str
) -> None:
    """The name deleted accounts' games show: no account may look like it."""
    status, code, message = refusal(sign_up(client, name))
    assert (status, code) == (409, "name_taken")
    assert "reserved" in message and "deleted player" in message


# --- item 11: invisible text in chat and seat names -----------------------------------------


def chat_path(table_id: str, token: str) -> str:
    """A seat's table socket."""
    return f"/ws/tables/{table_id}?token={token}"


def say(ws: WebSocketTestSession, text: str, msg_id: str) -> dict[str, Any]:
    """Send a chat line; the server's ack or error for it."""
    ws.send_json({"type": "chat", "id": msg_id, "text": text})
    return receive_until(ws, lambda m: m["type"] in ("ack", "error") and m.get("id") == msg_id)


@pytest.fixture
def seat_socket(client: TestClient) -> Any:
    """A seated player's socket at a table of two people (hello and state read)."""
    body = create(client, [HUMAN, HUMAN], options={"preset": "basic"})
    tid, token = body["table"]["id"], body["invites"][0]["token"]
    with client.websocket_connect(chat_path(tid, token)) as ws:
        token = receive_until(ws, lambda m: m["type"] == "hello")["seat_token"]  # issue 29
        receive_until(ws, lambda m: m["type"] == "state")
        yield tid, token, ws


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (ZWSP, "U+200B ZERO WIDTH SPACE"),
        (ZWJ + ZWJ, "U+200D ZERO WIDTH JOINER"),
        (BOM, "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
        (LRM + RLM, "U+200E LEFT-TO-RIGHT MARK, U+200F RIGHT-TO-LEFT MARK"),
        (TAGS, "U+E0068 TAG LATIN SMALL LETTER H"),
        (HANGUL_FILLER, "U+3164 HANGUL FILLER"),
        (" \u2800 ", "U+2800 BRAILLE PATTERN BLANK"),
    ],
)
def test_a_chat_message_of_only_invisible_characters_is_refused_naming_them(
    seat_socket: Any, text: str, shown: str
) -> None:
    """ "a chat message cannot be only invisible characters (U+200B ZERO WIDTH SPACE)"."""
    _tid, _token, ws = seat_socket
    answer = say(ws, text, "x")
    assert (answer["type"], answer["code"]) == ("error", "malformed"), answer
    assert "only invisible characters" in answer["message"] and shown in answer["message"]


def test_a_letter_with_299_combining_marks_is_refused_in_chat(seat_socket: Any) -> None:
    """More than 4 marks on one character: refused, saying on which and how many."""
    _tid, _token, ws = seat_socket
    answer = say(ws, "look: " + ZALGO, "z")
    assert (answer["type"], answer["code"]) == ("error", "malformed"), answer
    assert "at most 4 combining marks" in answer["message"]
    assert "299 on U+0061 LATIN SMALL LETTER A" in answer["message"]
    assert say(ws, "Vi\u1ec7t Nam, \u05e9\u05b8\u0301\u05c1", "ok")["type"] == "ack"


def test_invisible_characters_inside_chat_are_removed_but_emoji_joiners_stay(
    client: TestClient, seat_socket: Any
) -> None:
    """Removed: a zero-width space, a BOM, direction marks, tag characters smuggling ASCII;
    kept: the joiners of an emoji sequence, a variation selector, a flag's tag sequence."""
    tid, token, ws = seat_socket
    family = "\U0001f468" + ZWJ + "\U0001f469" + ZWJ + "\U0001f467"
    heart_on_fire = "\u2764\ufe0f" + ZWJ + "\U0001f525"
    england = "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in "gbeng") + "\U000e007f"
    sent = [
        ("g" + ZWSP + "g " + BOM + "w" + LRM + "p" + RLM, "gg wp"),
        ("hi" + TAGS, "hi"),
        (f"{family} {heart_on_fire} {england}", f"{family} {heart_on_fire} {england}"),
        (
            "\u0645\u06cc\u200c\u062e\u0648\u0627\u0645",
            "\u0645\u06cc\u200c\u062e\u0648\u0627\u0645",
        ),
    ]
    for i, (text, _kept) in enumerate(sent):
        assert say(ws, text, f"m{i}")["type"] == "ack"
    stored = client.get(f"/api/tables/{tid}/chat", params={"token": token}).json()["messages"]
    assert [m["text"] for m in stored] == [kept for _text, kept in sent]


def test_a_seat_named_only_invisible_characters_is_refused(client: TestClient) -> None:
    """A seat named "\\u3164" (a Hangul filler) would show as nothing: 422 malformed, the
    character named; in a new table's seats and in a lobby claim alike."""
    r = client.post(
        "/api/tables",
        json={"game": "flaming", "seats": [{"kind": "human", "name": HANGUL_FILLER}, bot()]},
    )
    status, code, message = refusal(r)
    assert (status, code) == (422, "malformed")
    assert "a seat's name cannot be only invisible characters (U+3164 HANGUL FILLER)" in message
    tid = create(client, [HUMAN, bot()], public=True)["table"]["id"]
    for name in (HANGUL_FILLER, ZWSP + CGJ):
        claim = client.post(f"/api/tables/{tid}/seats/0/claim", json={"name": name})
        assert refusal(claim)[:2] == (422, "malformed"), name


def test_a_seat_name_keeps_its_emoji_and_loses_its_invisible_characters(
    client: TestClient,
) -> None:
    """ "🧑‍🚀 Ana" keeps its joiner; a zero-width space and a trailing filler go; a seat name
    with a stack of marks is refused; an empty name is the default one."""
    astronaut = "\U0001f9d1" + ZWJ + "\U0001f680 Ana"
    seats = [
        {"kind": "human", "name": astronaut},
        {"kind": "human", "name": "B" + ZWSP + "o" + HANGUL_FILLER},
        {"kind": "human", "name": "   "},
    ]
    body = create(client, seats)
    assert [s["name"] for s in body["table"]["seats"]][:2] == [astronaut, "Bo"]
    r = client.post(
        "/api/tables",
        json={"game": "flaming", "seats": [{"kind": "human", "name": ZALGO[:30]}, bot()]},
    )
    assert refusal(r)[:2] == (422, "malformed") and "combining marks" in refusal(r)[2]
