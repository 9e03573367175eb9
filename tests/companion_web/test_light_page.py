"""The camera's word on the light on the referee page, and its *re-learn the light*
button (Debian's chromium through Playwright; the endpoint through Flask's client)."""

from __future__ import annotations

import cv2
import numpy as np

from companion_web import create_app
from companion_web.serve import BackgroundServer
from web_fixtures import BROWSER_TESTS, log_in, PIN, expect, shot

GLARE = {"warnings": [{"kind": "glare", "where": "south-east", "cells": ["0,3", "1,2"]},
                      {"kind": "unreadable", "seconds": 9}],
         "relearn": None}


def _jpeg():
    frame = np.full((120, 160, 3), 200, np.uint8)
    return cv2.imencode(".jpg", frame)[1].tobytes()


def test_the_relearn_endpoint_is_for_the_referee_and_reaches_the_camera():
    """Without the PIN it is refused; without a camera it says so (409); with both it
    asks the camera once and answers 202 at once (the page follows the live state)."""
    asked = []
    with_camera = create_app({"REFEREE_PIN": PIN, "TESTING": True}, camera_relearn=lambda: asked.append(1))
    client = with_camera.test_client()
    assert client.post("/api/camera/relearn", json={}).status_code == 401
    assert asked == []
    answer = client.post("/api/camera/relearn", json={}, headers={"X-Referee-PIN": PIN})
    assert answer.status_code == 202 and answer.get_json() == {"ok": True, "relearn": "waiting"}
    assert asked == [1]
    bare = create_app({"REFEREE_PIN": PIN, "TESTING": True}).test_client()
    refused = bare.post("/api/camera/relearn", json={}, headers={"X-Referee-PIN": PIN})
    assert refused.status_code == 409 and refused.get_json()["error"]["code"] == "no_camera"

    def not_ready():
        raise LookupError("the camera has not learnt the set yet")
    early = create_app({"REFEREE_PIN": PIN, "TESTING": True}, camera_relearn=not_ready).test_client()
    answer = early.post("/api/camera/relearn", json={}, headers={"X-Referee-PIN": PIN})
    assert answer.status_code == 409 and "not learnt" in answer.get_json()["error"]["message"]


@BROWSER_TESTS[0]
@BROWSER_TESTS[1]
def test_the_referee_page_tells_the_light_and_its_button_relearns(browser):
    """Lamp glare and an unreadable board are said in English and French; the button
    asks the camera, and the re-learn's progress and end show on the page."""
    asked = []
    app = create_app({"REFEREE_PIN": PIN}, camera_relearn=lambda: asked.append(1))
    hub = app.extensions["maamut_hub"]
    server = BackgroundServer(app, threads=16).start()
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        log_in(page, server.url + "/referee")
        page.wait_for_selector("#ref-board svg")
        page.evaluate("Maamut.setLang('en')")
        hub.publish_frame(_jpeg(), {"0,0": 0.99}, light=GLARE)
        warnings = page.locator("#light-warnings li")
        expect(warnings).to_have_count(2)
        expect(warnings.nth(0)).to_have_text("Too bright over the south-east: lower or move the lamp.")
        expect(warnings.nth(1)).to_contain_text("for 9 s")
        page.evaluate("Maamut.setLang('fr')")
        expect(warnings.nth(0)).to_have_text("Trop de lumière sur le côté sud-est : baissez ou déplacez la lampe.")
        expect(page.locator("#relearn-light")).to_have_text("Réapprendre la lumière")
        page.evaluate("Maamut.setLang('en')")
        page.click("#relearn-light")
        expect(page.locator("#relearn-status")).to_contain_text("waiting for a still board")
        assert asked == [1]
        hub.publish_frame(_jpeg(), light={"warnings": [], "relearn": {"by": "button", "state": "done", "reason": None}})
        expect(page.locator("#relearn-status")).to_have_text("Light re-learnt; the game goes on.")
        expect(warnings).to_have_count(0)
        shot(page, "referee-light-relearnt")
        hub.publish_frame(_jpeg(), light={"warnings": [], "relearn": {"by": "button", "state": "failed",
                                                                       "reason": "board_differs"}})
        expect(page.locator("#relearn-status")).to_contain_text("does not show the game's position")
        # Viewers are not shown the camera's light notes.
        page.goto(server.url + "/")
        page.wait_for_selector("#conn[data-state='live']")
        assert page.locator("#light-warnings, #relearn-light").count() == 0
        assert errors == []
    finally:
        context.close()
        server.stop()
