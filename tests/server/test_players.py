"""A player's page and the leaderboards (docs/PLAYERS.md, docs/PROTOCOL.md).

``GET /api/players/{name}``: ratings, history, statistics and finished games (newest first,
paged) of real games played through the API; ``GET /api/leaderboard``: best first by the
rating shown, per game, band and pool, with clear refusals of what does not exist.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from pyramids.core import GameRecord, replay
from pyramids.core.fairness import commitment
from pyramids.games import make_game
from pyramids.server import Settings, ratings
from pyramids.server.db import normalize_url
from tests.server.conftest import HUMAN, bot
from tests.server.test_ratings import (
    PASSWORD,
    QUICK,
    Player,
    claim,
    play_out,
    query,
    rated_table,
    sign_up,
    wait_results,
)


def error_code(response: Any) -> str:
    """The protocol error code of a response (its message must say something)."""
    body = response.json()
    assert set(body) == {"error"}, body
    assert body["error"]["message"], body
    return str(body["error"]["code"])


def two_player_game(client: TestClient, settings: Settings, a: Player, b: Player, **kw: Any) -> str:
    """A finished quick 2-seat game between two accounts (``a`` at seat 0); its id."""
    tid, _ = rated_table(client, [HUMAN, HUMAN], a, options=QUICK, **kw)
    tokens = [claim(client, tid, 0, a), claim(client, tid, 1, b)]
    play_out(client, tid, [(tokens[0], a), (tokens[1], b)])
    wait_results(settings, tid)
    return tid


def test_a_players_page_shows_ratings_history_statistics_and_games(
    client: TestClient, settings: Settings
) -> None:
    """After a rated game, a game against a bot and an unrated game, alice's page has both
    pools' ratings (shown as mu - 3 sigma), one history entry per rated game, her summed
    statistics, and the three games newest first with working replay and record links."""
    alice, bob = sign_up(client, "Alice"), sign_up(client, "bob")
    rated = two_player_game(client, settings, alice, bob)
    vs_bot, _ = rated_table(client, [HUMAN, bot("greedy")], alice)
    play_out(client, vs_bot, [(claim(client, vs_bot, 0, alice), alice)])
    wait_results(settings, vs_bot)
    unrated = two_player_game(client, settings, bob, alice, rated=False)

    r = client.get("/api/players/aLiCe")  # names are looked up case-insensitively
    assert r.status_code == 200, r.text
    page = r.json()
    assert page["name"] == "Alice"
    assert dt.datetime.fromisoformat(page["created"].replace("Z", "+00:00"))
    pools = {(x["game"], x["band"], x["pool"]): x for x in page["ratings"]}
    assert set(pools) == {("flaming", "2", "rated"), ("flaming", "2", "bots")}
    for x in page["ratings"]:
        assert x["display"] == round(x["mu"] - 3 * x["sigma"], 1)
        assert x["games"] == 1
    assert [(h["table_id"], h["pool"]) for h in page["history"]] == [
        (rated, "rated"),
        (vs_bot, "bots"),
    ]
    assert page["history"][0]["mu"] == pools[("flaming", "2", "rated")]["mu"]

    results = query(
        settings,
        "SELECT r.place, r.stats FROM results r JOIN accounts a ON a.id = r.account_id "
        "WHERE a.name = 'Alice'",
    )
    stats = [r.stats if isinstance(r.stats, dict) else json.loads(r.stats) for r in results]
    flaming = page["stats"]["flaming"]
    assert flaming["played"] == 3
    assert flaming["won"] == sum(1 for r in results if r.place == 1)
    assert flaming["mean_place"] == round(sum(r.place for r in results) / 3, 3)
    assert flaming["mayhem_caused"] == sum(s["mayhem_caused"] for s in stats)
    assert flaming["mayhem_suffered"] == sum(s["mayhem_suffered"] for s in stats)
    openings = [s["opening_tile"] for s in stats if s["opening_tile"]]
    favourites = flaming["opening_tile"]
    assert sum(f["count"] for f in favourites) == len(openings)  # at most 3 distinct here
    assert favourites == sorted(favourites, key=lambda f: (-f["count"], f["value"]))

    games = page["games"]
    assert [g["table_id"] for g in games] == [unrated, vs_bot, rated]
    assert [g["pool"] for g in games] == [None, "bots", "rated"]
    assert games[1]["seats"] == ["Alice", "Greedy bot"] or games[1]["seats"][0] == "Alice"
    assert games[0]["seats"] == ["bob", "Alice"]
    assert games[0]["seat"] == 1
    assert page["more"] is False
    for g in games:
        assert g["replay"] == f"/t/{g['table_id']}/replay"
        assert client.get(g["replay"]).status_code == 200
        record = client.get(g["record"]).json()
        # the seed is revealed with its salt, and matches the table's commitment
        assert commitment(record["seed"], record["salt"]) == record["commitment"]
        parsed = GameRecord.from_json(record)
        states = list(replay(make_game("flaming", parsed.players, parsed.options), parsed))
        assert states[-1][1].is_terminal()


def test_a_players_games_are_paged_newest_first(client: TestClient, settings: Settings) -> None:
    """``limit`` and ``before`` page through the finished games; ``more`` says whether
    older ones remain."""
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    ids = [two_player_game(client, settings, alice, bob) for _ in range(3)]
    first = client.get("/api/players/alice", params={"limit": 2}).json()
    assert [g["table_id"] for g in first["games"]] == ids[::-1][:2]
    assert first["more"] is True
    rest = client.get(
        "/api/players/alice", params={"limit": 2, "before": first["games"][-1]["finished"]}
    ).json()
    assert [g["table_id"] for g in rest["games"]] == [ids[0]]
    assert rest["more"] is False


def test_player_page_refusals_say_what_is_wrong(client: TestClient) -> None:
    """404 unknown_player for a name nobody has; 422 for a bad ``before`` or ``limit``."""
    sign_up(client, "alice")
    r = client.get("/api/players/nobody")
    assert r.status_code == 404
    assert error_code(r) == "unknown_player"
    r = client.get("/api/players/alice", params={"before": "yesterday"})
    assert r.status_code == 422
    assert error_code(r) == "malformed"
    assert "ISO 8601" in r.json()["error"]["message"]
    for limit in (0, 101):
        r = client.get("/api/players/alice", params={"limit": limit})
        assert r.status_code == 422
        assert error_code(r) == "malformed"


def set_rating(
    settings: Settings, name: str, mu: float, sigma: float, *, band: str = "2", games: int = 3
) -> None:
    """Give an account a rating row (the leaderboard's order is what is tested here)."""
    engine = create_engine(normalize_url(settings.db_url))
    try:
        with engine.begin() as conn:
            aid = conn.execute(text("SELECT id FROM accounts WHERE name = :n"), {"n": name})
            conn.execute(
                text(
                    "INSERT INTO ratings (account_id, game, band, pool, mu, sigma, games, updated)"
                    " VALUES (:a, 'flaming', :b, 'rated', :m, :s, :g, :u)"
                ),
                {
                    "a": aid.scalar_one(),
                    "b": band,
                    "m": mu,
                    "s": sigma,
                    "g": games,
                    "u": dt.datetime.now(dt.UTC),
                },
            )
    finally:
        engine.dispose()


def test_the_leaderboard_ranks_by_the_rating_shown_best_first(
    client: TestClient, settings: Settings
) -> None:
    """Best first by mu - 3 sigma (not by mu): a sure 30 beats an unsure 35; equal ratings
    share a rank; the default band is the one with most rated players."""
    for name in ("ann", "ben", "cat", "dan", "eve"):
        sign_up(client, name)
    set_rating(settings, "ann", 35.0, 6.0)  # 17.0
    set_rating(settings, "ben", 30.0, 2.0)  # 24.0
    set_rating(settings, "cat", 27.0, 1.0)  # 24.0
    set_rating(settings, "dan", 20.0, 4.0, band="3-4")
    set_rating(settings, "eve", 26.0, 2.0, band="5-6")
    r = client.get("/api/leaderboard", params={"game": "flaming"})
    assert r.status_code == 200, r.text
    board = r.json()
    assert (board["game"], board["band"], board["pool"]) == ("flaming", "2", "rated")
    assert board["bands"] == ["2", "3-4", "5-6"]
    assert board["bots"] == []
    rows = [(p["rank"], p["name"], p["display"]) for p in board["players"]]
    assert rows == [(1, "ben", 24.0), (1, "cat", 24.0), (3, "ann", 17.0)]
    assert board["players"][0]["mu"] == 30.0
    assert board["players"][0]["games"] == 3
    limited = client.get("/api/leaderboard", params={"game": "flaming", "limit": 1}).json()
    assert [p["name"] for p in limited["players"]] == ["ben"]
    band = client.get("/api/leaderboard", params={"game": "flaming", "band": "5-6"}).json()
    assert [p["name"] for p in band["players"]] == ["eve"]
    empty = client.get("/api/leaderboard", params={"game": "flags"}).json()
    assert (empty["band"], empty["bands"], empty["players"]) == ("2", ["2", "3-4"], [])


def test_the_busiest_band_is_the_default(client: TestClient, settings: Settings) -> None:
    """Without ``band``: the band with most rated players."""
    for name in ("ann", "ben", "cat"):
        sign_up(client, name)
    set_rating(settings, "ann", 25.0, 8.0)
    set_rating(settings, "ben", 25.0, 8.0, band="3-4")
    set_rating(settings, "cat", 25.0, 8.0, band="3-4")
    board = client.get("/api/leaderboard", params={"game": "flaming"}).json()
    assert board["band"] == "3-4"
    assert {p["name"] for p in board["players"]} == {"ben", "cat"}


def test_the_bots_pool_leaderboard_publishes_the_bots_fixed_ratings(
    client: TestClient, settings: Settings
) -> None:
    """pool=bots lists the accounts rated against bots and the bots at their fixed
    ratings, best first (every bot the published file rates; random last)."""
    alice = sign_up(client, "alice")
    tid, _ = rated_table(client, [HUMAN, bot("random")], alice, options=QUICK)
    play_out(client, tid, [(claim(client, tid, 0, alice), alice)])
    wait_results(settings, tid)
    board = client.get("/api/leaderboard", params={"game": "flaming", "pool": "bots"}).json()
    assert [p["name"] for p in board["players"]] == ["alice"]
    names = [b["bot"] for b in board["bots"]]
    assert set(names) == set(ratings.rated_bots()) and names[-1] == "random"
    shown = [b["display"] for b in board["bots"]]
    assert shown == sorted(shown, reverse=True)
    for b in board["bots"]:
        assert b["display"] == round(b["mu"] - 3 * b["sigma"], 1)
    rated = client.get("/api/leaderboard", params={"game": "flaming"}).json()
    assert rated["players"] == []


def test_leaderboard_refusals_name_the_allowed_values(client: TestClient) -> None:
    """422 for an unknown game, band (flags has no 5-6 band) or pool, naming what exists."""
    r = client.get("/api/leaderboard", params={"game": "chess"})
    assert r.status_code == 422
    assert error_code(r) == "unknown_game"
    assert "flaming" in r.json()["error"]["message"]
    assert "flags" in r.json()["error"]["message"]
    r = client.get("/api/leaderboard", params={"game": "flags", "band": "5-6"})
    assert error_code(r) == "unknown_band"
    assert "2, 3-4" in r.json()["error"]["message"]
    r = client.get("/api/leaderboard", params={"game": "flaming", "pool": "friends"})
    assert error_code(r) == "unknown_pool"
    assert "rated, bots" in r.json()["error"]["message"]
    r = client.get("/api/leaderboard")
    assert r.status_code == 422
    assert error_code(r) == "malformed"
    r = client.get("/api/leaderboard", params={"game": "flaming", "limit": 500})
    assert error_code(r) == "malformed"


def test_a_deleted_account_leaves_the_boards_and_its_games_say_deleted_player(
    client: TestClient, settings: Settings
) -> None:
    """Deleting an account (H1's route) takes its page and ratings away; the other
    player's finished game lists it as "deleted player"."""
    alice, bob = sign_up(client, "alice"), sign_up(client, "bob")
    tid = two_player_game(client, settings, alice, bob)
    board = client.get("/api/leaderboard", params={"game": "flaming"}).json()
    assert {p["name"] for p in board["players"]} == {"alice", "bob"}
    r = client.request(
        "DELETE", "/api/accounts/me", json={"password": PASSWORD}, headers=bob.headers()
    )
    assert r.status_code == 204, r.text
    assert error_code(client.get("/api/players/bob")) == "unknown_player"
    board = client.get("/api/leaderboard", params={"game": "flaming"}).json()
    assert [p["name"] for p in board["players"]] == ["alice"]
    games = client.get("/api/players/alice").json()["games"]
    assert games[0]["table_id"] == tid
    assert games[0]["seats"] == ["alice", "deleted player"]


def test_the_pages_are_served(client: TestClient) -> None:
    """/players/{name} and /leaderboard are HTML pages (the page reads the name itself)."""
    for path in ("/players/alice", "/leaderboard"):
        r = client.get(path)
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/html")
        assert "account-chip" in r.text
