"""AI seats at the table, hints and analysis on the page, the `ai` key of the configuration."""

import random

import pytest

import engine
from companion_web import create_app
from ai import hints_for_page
from ai.seats import AiSeats
from maamut.config import Config, ConfigError, parse_config
from session import TableSession


def _table(ai_player="B", seed=1):
    table = TableSession(players=[{"id": "A"}, {"id": "B"}])
    seats = AiSeats(table, {ai_player: "easy"}, seed=seed, background=False)
    table.new_game(seed=seed)
    cells = table.game.start_cells()
    table.place_hunter("A", engine.hexgrid.cell_name(cells[0]))
    table.place_hunter("B", engine.hexgrid.cell_name(cells[-1]))
    return table, seats


def test_an_ai_seat_waits_for_its_cards_then_shows_a_legal_move_and_asks_for_the_card_it_draws():
    table, seats = _table()
    table.play(engine.Pass("A"), source="page")
    assert seats.public()["B"]["waiting_for"] == "hand" and seats.public()["B"]["move"] is None
    seats.set_hand("B", [3, 1, 2])
    seat = seats.public()["B"]
    move = seat["move"]
    assert seat["waiting_for"] is None and seat["cards"] == 3
    action = engine.action_from_json(move["action"])
    assert action in table.game.legal_actions()
    # a person plays it on the board; the camera (here: the test) proposes it
    outcome = table.play(action, source="camera")
    while outcome.needs is not None:
        outcome = table.choose_flee(outcome.needs.options[0])
    spent = action.distance if isinstance(action, engine.Move) else action.card
    if spent is not None:
        assert len(seats.hand("B")) == 2
        table.play(engine.Pass("A"), source="page")
        assert seats.public()["B"]["waiting_for"] == "hand"  # the card drawn for it is asked for
    # what the page shows never names the cards
    assert "hand" not in str(seats.public()).replace("'waiting_for': 'hand'", "")


def test_an_ai_seat_chooses_its_own_flee_when_frightened():
    rng = random.Random(4)
    for seed in range(60):
        table, seats = _table("B", seed)
        seats.set_hand("B", [1, 2, 3])
        for _ in range(80):
            snap = table.snapshot()
            if snap.phase != "play":
                break
            if snap.needs is not None:
                if snap.needs.hunter == "B":
                    move = seats.public()["B"]["move"]
                    assert move["kind"] == "flee"
                    assert engine.hexgrid.parse_cell(move["cell"]) in snap.needs.options
                    return
                table.choose_flee(rng.choice(snap.needs.options))
                continue
            if snap.to_move == "A":
                # A heads for the mammoth whenever he can
                legal = table.game.legal_actions()
                pushes = [a for a in legal if isinstance(a, engine.Move)
                          and snap.position.mammoth in engine.hexgrid.ray(
                              snap.position.hunters["A"], engine.hexgrid.DIRECTION_INDEX[a.direction], a.distance)]
                table.play(rng.choice(pushes or legal))
            else:
                action = engine.action_from_json(seats.public()["B"]["move"]["action"])
                table.play(action)
                seats.set_hand("B", [1, 2, 3])
    pytest.fail("no game made the AI's hunter flee with a choice")


def _app(with_seats=True):
    table, seats = _table()
    app = create_app({"REFEREE_PIN": "424242"}, session=table, hints=hints_for_page_small,
                     ai_seats=seats if with_seats else None)
    return app, table, seats


#: Hints are the referee's (issue 22).
PIN = {"X-Referee-PIN": "424242"}


def hints_for_page_small(position, player, hand=None):
    from ai import hints
    return hints(position, player, hand=hand, iterations=30, seed=1)


def test_the_page_gives_hints_to_the_player_to_move_only():
    app, table, _ = _app()
    client = app.test_client()
    rows = client.get("/api/hint?player=A", headers=PIN).get_json()
    assert rows["ok"] and rows["to_move"] == "A" and rows["hints"]
    legal = {engine.action_to_json(a)["type"] + str(engine.action_to_json(a)) for a in table.game.legal_actions()}
    for row in rows["hints"]:
        assert {"action", "notation", "win_chance"} <= set(row)
        action = engine.action_from_json(row["action"])
        assert isinstance(action, (engine.Move, engine.PlaceTrap, engine.RemoveTrap, engine.Pass))
    assert client.get("/api/hint?player=B", headers=PIN).get_json()["hints"] == []
    assert legal


def test_the_sandbox_analysis_is_for_the_referee_and_lists_every_legal_action():
    app, _, _ = _app()
    client = app.test_client()
    text = "gggg/ggggg/gggggg/gggxggg/gggggg/ggggg/gggg 0,0 A@-1,0;B@0,3 A@1,0 B"
    assert client.post("/api/analyse", json={"position": text, "player": "A"}).status_code == 401
    reply = client.post("/api/analyse", json={"position": text, "player": "A", "hand": [1, 2]},
                        headers={"X-Referee-PIN": "424242"}).get_json()
    pos = engine.notation.position_from_text(text).with_(to_move="A", hands={"A": (1, 2)})
    assert reply["ok"] and len(reply["analysis"]) == len(engine.legal_actions(pos))
    best = reply["analysis"][0]
    assert best["win_chance"] == 1.0  # E1 or E2 pushes the mammoth into A's trap
    bad = client.post("/api/analyse", json={"position": text, "player": "A", "hand": [4]},
                      headers={"X-Referee-PIN": "424242"})
    assert bad.status_code == 400


def test_the_ai_seats_on_the_page_and_their_cards_entered_by_the_referee():
    app, table, seats = _app()
    client = app.test_client()
    table.play(engine.Pass("A"))
    assert client.get("/api/ai").get_json()["seats"]["B"]["waiting_for"] == "hand"
    assert client.post("/api/ai/hand", json={"player": "B", "cards": [1, 2, 2]}).status_code == 401
    reply = client.post("/api/ai/hand", json={"player": "B", "cards": [1, 2, 2]},
                        headers={"X-Referee-PIN": "424242"}).get_json()
    assert reply["ok"] and reply["seats"]["B"]["move"]["player"] == "B"
    assert "[1, 2, 2]" not in str(client.get("/api/ai").get_json())
    assert client.post("/api/ai/hand", json={"player": "A", "cards": [1]},
                       headers={"X-Referee-PIN": "424242"}).status_code == 400


def test_without_an_ai_the_routes_say_so():
    client = create_app({"REFEREE_PIN": "424242"}).test_client()
    assert client.get("/api/hint?player=A", headers=PIN).status_code == 404
    assert client.get("/api/ai").get_json() == {"ok": True, "hints": False, "seats": {}}


def test_the_configuration_marks_seats_as_ai():
    cfg = parse_config('[game]\nplayers = [{ id = "A" }, { id = "C", name = "Bot", ai = "normal" }]')
    assert cfg.ai_seats() == {"C": "normal"}
    with pytest.raises(ConfigError, match="ai: 'genius' is not one of easy, normal, hard"):
        parse_config('[game]\nplayers = [{ id = "A" }, { id = "C", ai = "genius" }]')
    assert Config().ai_seats() == {}


def test_config_levels_are_the_ai_levels():
    from ai import LEVELS
    from maamut.config import AI_LEVELS
    assert set(AI_LEVELS) == set(LEVELS)


def test_the_companion_wires_ai_seats_to_the_page_and_their_moves_to_the_leds(tmp_path):
    """The configured AI seat is the one the page shows (kept in ``app.extensions``, with the
    page's hints), and each move it proposes pulses on the LEDs where its hunter goes."""
    from maamut.app import Companion

    cfg = Config(base_dir=str(tmp_path))
    cfg.game["players"] = [{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bot", "ai": "easy"}]
    cfg.buttons["pin_factory"] = "none"
    cfg.leds["backend"] = "simulated"
    companion = Companion(cfg)
    try:
        assert companion.app.extensions["maamut_ai_seats"] is companion.ai_seats
        assert companion.app.extensions["maamut_hints"] is hints_for_page
        assert companion.app.test_client().get("/api/ai").get_json()["seats"]["B"]["level"] == "easy"
        played = []
        companion.director.play = played.extend  # what the LEDs are asked to show
        seats = companion.ai_seats
        seats.background = False
        table = companion.table
        table.new_game(seed=5)
        cells = table.game.start_cells()
        table.place_hunter("A", engine.hexgrid.cell_name(cells[0]))
        table.place_hunter("B", engine.hexgrid.cell_name(cells[-1]))
        table.play(engine.Pass("A"))
        for _ in range(10):
            seats.set_hand("B", [1, 2, 3])
            move = seats.public()["B"]["move"]
            if move["cells"]:
                break
            table.play(engine.action_from_json(move["action"]))  # a pass or a trap: try the next turn
            table.play(engine.Pass("A"))
        assert move["cells"], "the AI never moved in ten turns"
        assert played and played[-1].name == "placement"
        assert played[-1].detail["cells"] == move["cells"][-1:]
    finally:
        companion.close()


def test_at_a_dealt_table_the_ai_seat_uses_its_own_cards_and_never_the_others():
    table = TableSession(players=[{"id": "A"}, {"id": "B"}], deal=True)
    seats = AiSeats(table, {"B": "easy"}, seed=2, background=False)
    table.new_game(seed=9)
    cells = table.game.start_cells()
    table.place_hunter("A", engine.hexgrid.cell_name(cells[0]))
    table.place_hunter("B", engine.hexgrid.cell_name(cells[-1]))
    table.play(table.game.legal_actions()[-1])  # A passes
    move = seats.public()["B"]["move"]
    assert move is not None and engine.action_from_json(move["action"]) in table.game.legal_actions()
    obs = seats._observation(table.snapshot(), "B")
    assert obs.hand == table.game.position.hands["B"] and obs.position.hands is None
