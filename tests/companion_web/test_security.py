"""Open-Wi-Fi safety: read-only viewers, the referee PIN, CSRF, headers, escaping."""

from __future__ import annotations

import re

from companion_web import create_app
from web_fixtures import PIN, start_new_game

CONTROL_CALLS = [
    ("/api/game/new", {"players": [{"id": "A"}, {"id": "B"}]}),
    ("/api/game/place", {"player": "A", "cell": "0,-3"}),
    ("/api/game/play", {"notation": "A:E2"}),
    ("/api/game/undo", {}),
    ("/api/game/record", {}),
]


def _csrf(client, page="/referee"):
    html = client.get(page).data.decode()
    return re.search(r'name="csrf-token" content="([^"]+)"', html).group(1)


def test_control_calls_without_the_pin_are_refused_and_change_nothing(client):
    before = client.get("/api/state").json["version"]
    for url, body in CONTROL_CALLS:
        response = client.post(url, json=body)
        assert response.status_code == 401, url
        assert response.json["error"]["code"] == "referee_only"
    assert client.get("/api/state").json["version"] == before


def test_a_wrong_pin_is_refused_and_repeated_guesses_lock_the_address_out(client, referee):
    for _ in range(4):
        response = client.post("/api/game/undo", json={}, headers={"X-Referee-PIN": "000000"})
        assert response.status_code == 403 and response.json["error"]["code"] == "bad_pin"
    fifth = client.post("/api/game/undo", json={}, headers={"X-Referee-PIN": "000000"})
    assert fifth.status_code == 429 and fifth.json["error"]["code"] == "locked_out"
    locked = client.post("/api/game/new", json={"players": [{"id": "A"}, {"id": "B"}]}, headers=referee)
    assert locked.status_code == 429  # even the right PIN waits out the lockout
    other = client.post("/api/game/new", json={"players": [{"id": "A"}, {"id": "B"}]}, headers=referee,
                        environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 200


def test_browser_login_needs_the_csrf_token_and_then_every_write_needs_it_too(client):
    token = _csrf(client)
    assert client.post("/referee/login", data={"pin": PIN}).status_code == 403  # no token
    assert client.post("/referee/login", data={"pin": "111111", "csrf_token": token}).status_code == 403
    response = client.post("/referee/login", data={"pin": PIN, "csrf_token": token, "next": "setup"})
    assert response.status_code == 302 and response.headers["Location"].endswith("/setup")
    body = {"players": [{"id": "A"}, {"id": "B"}], "seed": 3}
    assert client.post("/api/game/new", json=body).json["error"]["code"] == "csrf"
    fresh = _csrf(client, "/setup")
    assert fresh != token  # the token is renewed at login
    assert client.post("/api/game/new", json=body, headers={"X-CSRF-Token": token}).status_code == 403
    assert client.post("/api/game/new", json=body, headers={"X-CSRF-Token": fresh}).status_code == 200
    logout = client.post("/referee/logout", data={"csrf_token": fresh})
    assert logout.status_code == 302
    assert client.post("/api/game/undo", json={}, headers={"X-CSRF-Token": fresh}).status_code == 401


def test_login_never_redirects_off_site(client):
    token = _csrf(client)
    response = client.post("/referee/login", data={"pin": PIN, "csrf_token": token,
                                                   "next": "https://evil.example/"})
    assert response.status_code == 302 and response.headers["Location"] == "/referee"


def test_every_response_carries_a_strict_csp_and_no_external_asset_is_referenced(client):
    for url in ["/", "/sandbox", "/setup", "/referee", "/api/state", "/static/app.css"]:
        response = client.get(url)
        csp = response.headers["Content-Security-Policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp and "unsafe" not in csp
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        text = response.data.decode()
        assert not re.search(r'(src|href)="(https?:)?//', text), url
        assert "<script>" not in text and " style=" not in text, url  # nothing inline


def test_script_tags_in_player_names_are_escaped_everywhere(client, referee):
    hostile = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'[:40]
    start_new_game(client, referee, players=[{"id": "A", "name": hostile}, {"id": "B", "name": "B&B"}])
    svg = client.get("/board.svg").data.decode()
    state = client.get("/api/state").json
    assert hostile in [p["name"] for p in state["players"]]  # kept as typed, as data
    assert "<script" not in state["svg"] and "<img" not in state["svg"]
    assert "<script" not in svg
    for page in ["/", "/setup", "/referee"]:
        assert "<script>alert" not in client.get(page).data.decode()


def test_player_ids_colours_and_names_are_validated(client, referee):
    for players, field in [
        ([{"id": "A"}], "players"),
        ([{"id": "A"}, {"id": "A"}], "players[1].id"),
        ([{"id": "A b"}, {"id": "B"}], "players[0].id"),
        ([{"id": "A", "colour": "red;}"}, {"id": "B"}], "players[0].colour"),
        ([{"id": "A", "name": "x" * 41}, {"id": "B"}], "players[0].name"),
        ("AB", "players"),
    ]:
        response = client.post("/api/game/new", json={"players": players}, headers=referee)
        assert response.status_code == 400 and response.json["error"]["field"] == field


def test_api_errors_are_json_and_never_a_traceback(client):
    response = client.get("/api/no-such-endpoint")
    assert response.status_code == 404 and response.json["ok"] is False
    response = client.put("/api/resolve", data="{}")
    assert response.status_code == 405 and response.json["ok"] is False


def test_each_start_gets_its_own_random_pin_and_secret_key():
    one, two = create_app(), create_app()
    assert one.config["REFEREE_PIN"] != two.config["REFEREE_PIN"] or one.config["SECRET_KEY"] != two.config["SECRET_KEY"]
    assert len(one.config["REFEREE_PIN"]) == 6 and one.config["REFEREE_PIN"].isdigit()


def test_a_wrong_pin_on_the_setup_page_keeps_the_next_login_on_the_setup_page(client):
    token = _csrf(client, "/setup")
    wrong = client.post("/referee/login", data={"csrf_token": token, "pin": "000000", "next": "setup"})
    assert wrong.status_code == 403
    html = wrong.data.decode()
    assert 'name="next" value="setup"' in html and "Wrong PIN" in html
    right = client.post("/referee/login", data={"csrf_token": token, "pin": PIN, "next": "setup"})
    assert right.status_code == 302 and right.headers["Location"].endswith("/setup")


def test_reading_the_record_without_the_pin_does_not_claim_it_changes_the_game(client):
    response = client.get("/api/game/record")
    assert response.status_code == 401
    assert "changes the game" not in response.json["error"]["message"]
