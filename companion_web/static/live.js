/* Live page: follows the game over server-sent events. EventSource reconnects by itself
   and sends Last-Event-ID; the server replies with the latest state, so a page that was
   offline catches up at once. */
"use strict";
(() => {
  const {t, el, showSvg} = Maamut;
  const board = document.getElementById("board");
  const conn = document.getElementById("conn");
  let view = null, log = [];

  function nameOf(id) {
    const p = (view.players || []).find((x) => x.id === id);
    return p ? p.name : (id === "mammoth" ? t("mammoth") : id);
  }

  function render() {
    if (!view) return;
    document.body.dataset.version = view.version;
    if (view.svg) showSvg(board, view.svg);
    const players = document.getElementById("players");
    players.replaceChildren(...(view.players || []).map((p) => {
      const li = el("li", null, (p.eliminated ? "out " : "") + (p.to_move ? "turn" : ""));
      const dot = el("span", null, "swatch"); dot.style.background = p.colour;
      li.append(dot, el("span", p.name));
      if (p.to_move && !view.winner) li.append(el("em", " · " + t("to_move")));
      if (p.eliminated) li.append(el("em", " · " + t("out")));
      return li;
    }));
    let status = "";
    if (!view.position) status = t("no_game");
    else if (view.winner) status = t("winner") + ": " + nameOf(view.winner);
    else if (view.needs) status = nameOf(view.needs.hunter) + " " + t("needs");
    else if (view.phase === "setup" && view.next_to_place) status = t("placing") + " " + nameOf(view.next_to_place);
    else { const p = (view.players || []).find((x) => x.to_move); if (p) status = p.name + " · " + t("to_move"); }
    // Crossed-out cells are explained in words too (the cross alone says nothing to a screen reader).
    (view.illegal || []).forEach((mark) => { status += " · ✗ " + mark.cell + (mark.reason ? ": " + mark.reason : ""); });
    document.getElementById("status").textContent = status;
    const log = document.getElementById("log");
    log.replaceChildren(...(view.log || []).slice().reverse().map((entry) => {
      const li = el("li");
      li.append(el("strong", entry.notation));
      (entry[Maamut.lang] || entry.en || []).forEach((line) => li.append(el("span", line.trim(), line.startsWith(" ") ? "step" : "step main")));
      return li;
    }));
    document.getElementById("leds").replaceChildren(...(view.leds || []).map((c) => {
      const d = el("span", null, "led"); d.style.background = c; d.title = c; return d;
    }));
    const join = document.getElementById("join");
    if (view.url) {
      join.hidden = false;
      document.getElementById("join-url").textContent = view.url;
      const qr = document.getElementById("join-qr");
      const src = "/join.svg?u=" + encodeURIComponent(view.url);
      if (qr.getAttribute("src") !== src) qr.src = src;
    } else join.hidden = true;
    const cam = view.camera || {};
    const img = document.getElementById("camera-frame");
    if (cam.frame) {
      img.src = "/camera/frame?v=" + encodeURIComponent(cam.frame); img.hidden = false;
      document.getElementById("camera-none").hidden = true;
    }
    const conf = Object.entries(cam.confidence || {}).sort((a, b) => a[1] - b[1]);
    document.getElementById("confidence").replaceChildren(...conf.map(([cell, c]) => el("li", cell + ": " + Math.round(100 * c) + "%")));
  }

  function connect() {
    const source = new EventSource("/api/stream");
    source.addEventListener("open", () => { conn.dataset.state = "live"; conn.textContent = t("live"); });
    source.addEventListener("error", () => { conn.dataset.state = "offline"; conn.textContent = t("offline"); });
    source.addEventListener("state", (event) => {
      try { view = JSON.parse(event.data); } catch (e) { return; }
      // A delta carries only the log entries after log_from; a full message has log_from 0.
      log = log.slice(0, view.log_from || 0).concat(view.log || []);
      view.log = log;
      render();
    });
  }
  Maamut.onLang(() => { render(); if (conn.dataset.state !== "connecting") conn.textContent = t(conn.dataset.state); });
  connect();
})();
