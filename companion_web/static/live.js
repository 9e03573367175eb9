/* Live page and stand screen: follow the game over server-sent events. EventSource
   reconnects by itself and sends Last-Event-ID; the server replies with the latest
   state, so a page that was offline catches up at once.
   The move list steps through the game (click a turn, ← → Home End, Esc back to live);
   the result shows as a banner; sound cues are off until the viewer turns them on. */
"use strict";
(() => {
  const {t, el, showSvg} = Maamut;
  const $ = (id) => document.getElementById(id);
  const stand = document.body.dataset.page === "stand";
  const board = $("board");
  const conn = $("conn");
  let view = null, log = [], viewing = null, lastSeen = null, drawing = false;

  function nameOf(id) {
    if (!view) return id;
    const p = (view.players || []).find((x) => x.id === id);
    return p ? p.name : (id === "mammoth" ? t("mammoth") : id);
  }
  const isPlacement = (entry) => entry.notation.includes("@");

  /* "Ann trapped the mammoth!" / "The mammoth survives: no hunter is left." */
  function resultText(result) {
    if (!result) return "";
    if (result.winner === "mammoth") return t("survives") + (result.reason ? " " + t("r_" + result.reason) : "");
    if (result.trap_owner) return t("trapped_by").replace("{name}", nameOf(result.trap_owner));
    return t("wins").replace("{name}", nameOf(result.winner)) + (result.reason ? " " + t("r_" + result.reason) : "");
  }

  function banner() {
    const node = $("banner");
    let text = "", kind = "";
    if (view.result) { text = resultText(view.result); kind = view.result.winner === "mammoth" ? "mammoth" : "hunters"; }
    else if (view.previous && !(view.log || []).some((e) => !isPlacement(e))) {
      const prev = view.previous;
      text = t("last_game") + " " + (prev.result ? resultText(prev.result)
        : t("stopped").replace("{n}", prev.turns));
      kind = "previous";
    }
    node.hidden = !text;
    node.textContent = text;
    node.dataset.kind = kind;
  }

  /* Sentences first; the rule citations and the flight's step-by-step are one click away
     (one disclosure per turn, collapsed). */
  function explanation(lines) {
    const box = document.createDocumentFragment();
    const details = el("details", null, "why");
    details.append(el("summary", t("why")));
    (lines || []).forEach((line) => {
      if (line.startsWith(" ")) { details.append(el("span", line.trim(), "step")); return; }
      const at = line.indexOf("  [");
      box.append(el("span", at >= 0 ? line.slice(0, at) : line, "sentence"));
      if (at >= 0) details.append(el("span", line.slice(at + 3).replace(/\]\s*$/, ""), "cite"));
    });
    if (details.children.length > 1) box.append(details);
    return box;
  }

  function renderLog() {
    const list = $("log");
    if (!list) return;
    let turn = 0;
    const items = log.map((entry, i) => {
      const placement = isPlacement(entry);
      if (!placement) turn += 1;
      const li = el("li", null, viewing === i + 1 ? "current" : "");
      const button = el("button", null, "turn-btn");
      button.type = "button";
      button.dataset.turn = String(i + 1);
      button.append(el("span", placement ? "·" : String(turn), "num"), Maamut.entryLabel(entry, view && view.players));
      li.append(button, explanation(entry[Maamut.lang] || entry.en || []));
      return li;
    });
    list.replaceChildren(...items.reverse());
  }

  function whereText() {
    const turns = (entries) => entries.filter((e) => !isPlacement(e)).length;
    if (viewing > 0 && isPlacement(log[viewing - 1])) return t("setup_step");
    return t("move_of").replace("{k}", turns(log.slice(0, viewing))).replace("{n}", turns(log));
  }

  function renderSteps() {
    if (!$("step-where")) return;
    const total = log.length;
    $("step-where").textContent = viewing === null ? t("live") : whereText();
    $("step-live").hidden = viewing === null;
    $("step-prev").disabled = total === 0 || viewing === 0;
    $("step-first").disabled = total === 0 || viewing === 0;
    $("step-next").disabled = viewing === null;
    document.body.dataset.viewing = viewing === null ? "live" : String(viewing);
  }

  async function showTurn(n) {
    if (n === null || n >= log.length) { viewing = null; render(); return; }
    viewing = Math.max(0, n);
    render();
    try {
      const response = await fetch("/api/history/" + viewing);
      const data = await response.json();
      if (viewing === data.turn && data.svg) showSvg(board, data.svg);
    } catch (e) { /* keep the board shown */ }
  }

  function standExplain() {
    const box = $("stand-explain");
    if (!box) return;
    const last = log.filter((e) => !isPlacement(e)).slice(-1)[0];
    box.replaceChildren();
    $("last-turn-title").hidden = !last;  // no empty heading before the first turn
    if (!last) return;
    // The turn in words first, big; the notation (with names) small under it.
    (last[Maamut.lang] || last.en || []).forEach((line) => {
      if (line.startsWith(" ")) return;
      const at = line.indexOf("  [");
      box.append(el("p", at >= 0 ? line.slice(0, at) : line));
    });
    const label = Maamut.entryLabel(last, view && view.players);
    label.classList.add("small-notation");
    box.append(label);
  }

  function ledsAsBoard() {
    const attract = $("attract");
    if (!attract) return;
    const between = !view.position || view.phase === "no_game" || !!view.result;
    const lit = (view.leds || []).some((c) => c !== "#000000");
    attract.hidden = !(between && lit);
    if (!attract.hidden) Maamut.ledBoard(attract, view.leds, view.led_cells);
  }

  function render() {
    if (!view) return;
    document.body.dataset.version = view.version;
    if (view.svg && viewing === null) showSvg(board, view.svg);
    const players = $("players");
    // While hunters are placed, the one to place is marked (not the first to move).
    const placing = view.phase === "setup" ? view.next_to_place : null;
    if (players) players.replaceChildren(...(view.players || []).map((p) => {
      const current = placing ? p.id === placing : p.to_move && !view.winner;
      const li = el("li", null, (p.eliminated ? "out " : "") + (current ? "turn" : ""));
      const dot = el("span", null, "swatch"); dot.style.background = p.colour;
      li.append(dot, el("span", p.name));
      if (current) li.append(el("em", " · " + t(placing ? "to_place" : "to_move")));
      if (p.eliminated) li.append(el("em", " · " + t("out")));
      return li;
    }));
    let status = "";
    if (!view.position) status = t("no_game");
    else if (view.winner) status = resultText(view.result || {winner: view.winner});
    else if (view.needs) status = nameOf(view.needs.hunter) + " " + t("needs");
    else if (view.phase === "setup" && view.next_to_place) status = t("placing") + " " + nameOf(view.next_to_place);
    else { const p = (view.players || []).find((x) => x.to_move); if (p) status = p.name + " · " + t("to_move"); }
    // Crossed-out cells are explained in words too (the cross alone says nothing to a screen reader).
    (view.illegal || []).forEach((mark) => { status += " · ✗ " + mark.cell + (mark.reason ? ": " + mark.reason : ""); });
    // Looking back, the status says which moment the board shows, not the live turn.
    if (viewing !== null && $("step-where")) status = Maamut.fill(t("viewing"), {where: whereText()});
    $("status").textContent = status;
    banner();
    renderLog();
    renderSteps();
    standExplain();
    ledsAsBoard();
    const join = $("join");
    if (view.url) {
      join.hidden = false;
      $("join-url").textContent = view.url;
      const qr = $("join-qr");
      const src = "/join.svg?u=" + encodeURIComponent(view.url);
      if (qr.getAttribute("src") !== src) qr.src = src;
    } else join.hidden = true;
  }

  /* Sound: a cue on a flight, an illegal move and a win; off until turned on. */
  let audio = null;
  let soundOn = localStorage.getItem("maamut-sound") === "on";
  function beep(notes) {
    if (!soundOn) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      let at = audio.currentTime;
      notes.forEach(([freq, dur]) => {
        const osc = audio.createOscillator(), gain = audio.createGain();
        osc.frequency.value = freq; gain.gain.setValueAtTime(0.15, at); gain.gain.exponentialRampToValueAtTime(0.001, at + dur);
        osc.connect(gain).connect(audio.destination); osc.start(at); osc.stop(at + dur); at += dur * 0.9;
      });
    } catch (e) { /* no audio on this device */ }
  }
  function cues(before, after) {
    document.body.dataset.cue = "";
    if (!before) return;
    let cue = "";
    if (after.result && !before.result) { cue = "win"; beep([[523, .15], [659, .15], [784, .35]]); }
    else if ((after.illegal || []).length > (before.illegal || []).length) { cue = "illegal"; beep([[196, .25], [156, .35]]); }
    else if (after.log.length > before.logLength && (after.svg || "").includes('class="flight"')) { cue = "flight"; beep([[330, .12], [440, .12], [554, .2]]); }
    document.body.dataset.cue = cue;
  }
  function soundButton() {
    const b = $("sound");
    b.setAttribute("aria-pressed", String(soundOn));
    b.dataset.i18n = soundOn ? "sound_on" : "sound_off";
    b.textContent = t(b.dataset.i18n);
  }
  $("sound").addEventListener("click", () => {
    soundOn = !soundOn; localStorage.setItem("maamut-sound", soundOn ? "on" : "off"); soundButton();
    if (soundOn) beep([[440, .1]]);
  });
  soundButton();

  if ($("log")) {
    $("log").addEventListener("click", (event) => {
      const button = event.target.closest(".turn-btn");
      if (button) showTurn(Number(button.dataset.turn));
    });
    const step = (delta) => showTurn(viewing === null ? Math.max(0, log.length - 1 + (delta > 0 ? 1 : 0)) : viewing + delta);
    $("step-first").addEventListener("click", () => showTurn(0));
    $("step-prev").addEventListener("click", () => step(-1));
    $("step-next").addEventListener("click", () => step(1));
    $("step-live").addEventListener("click", () => showTurn(null));
    document.addEventListener("keydown", (event) => {
      if (event.target.closest("input, select, textarea")) return;
      if (event.key === "ArrowLeft") { step(-1); event.preventDefault(); }
      else if (event.key === "ArrowRight") { step(1); event.preventDefault(); }
      else if (event.key === "Home") { showTurn(0); event.preventDefault(); }
      else if (event.key === "End" || event.key === "Escape") { showTurn(null); event.preventDefault(); }
    });
  }

  function connect() {
    const source = Maamut.stream();
    source.addEventListener("open", () => { conn.dataset.state = "live"; conn.textContent = t("live"); });
    source.addEventListener("error", () => { conn.dataset.state = "offline"; conn.textContent = t("offline"); });
    source.addEventListener("state", (event) => {
      try { view = JSON.parse(event.data); } catch (e) { return; }
      // A delta carries only the log entries after log_from; a full message has log_from 0.
      log = log.slice(0, view.log_from || 0).concat(view.log || []);
      view.log = log;
      Maamut.seen(view);
      if (viewing !== null && viewing > log.length) viewing = null;
      cues(lastSeen, view);
      lastSeen = {result: view.result, illegal: view.illegal, logLength: log.length};
      // A burst of updates (a replayed game, a fast table) is drawn once per frame:
      // the page shows the latest state instead of falling behind drawing each one.
      if (!drawing) { drawing = true; requestAnimationFrame(() => { drawing = false; render(); }); }
    });
  }
  Maamut.onLang(() => { render(); soundButton(); if (conn.dataset.state !== "connecting") conn.textContent = t(conn.dataset.state); });
  connect();
})();
