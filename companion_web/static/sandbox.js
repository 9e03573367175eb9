/* Referee sandbox: edit any position, ask the engine (through the JSON API) what each
   move does, play it and watch the flight with its explanation. Nothing here touches
   the live game. */
"use strict";
(() => {
  const {t, el, call, showSvg, download, svgToPng} = Maamut;
  const FIGURE = "gggg/ggggg/gggggg/gggxggg/gggrgg/ggggg/gggg 0,2 A@-2,2;B@3,-3 - A";
  const $ = (id) => document.getElementById(id);
  const board = $("sb-board");
  let position = null, events = [], marks = [], pending = null, notation = "", svgText = "";
  const history = [];

  /* Only the variants changed from their default (the first option) go to the engine. */
  function variants() {
    const chosen = {};
    document.querySelectorAll("[data-variant]").forEach((group) => {
      const choice = group.querySelector("input:checked");
      if (choice !== group.querySelector("input")) chosen[group.dataset.variant] = JSON.parse(choice.value);
    });
    return chosen;
  }

  function error(message) { $("sb-error").textContent = message || ""; }
  function tool() { return document.querySelector('input[name="tool"]:checked').value; }

  function fillSelect(select, values, keep) {
    const old = keep ? select.value : null;
    select.replaceChildren(...values.map((v) => { const o = el("option", v); o.value = v; return o; }));
    if (old && values.includes(old)) select.value = old;
  }

  function syncControls() {
    fillSelect($("sb-player"), position.players, true);
    fillSelect($("sb-hunter"), Object.keys(position.hunters), true);
    $("sb-players").value = position.players.join(",");
  }

  function explain(lines) {
    // One numbered item per sentence; a flight's tried directions are a sub-list of it,
    // so the numbers run 1, 2, 3 (not 1, 2, 9, 10).
    const items = [];
    (lines || []).forEach((line) => {
      if (line.startsWith(" ") && items.length) {
        const last = items[items.length - 1];
        let sub = last.querySelector("ul");
        if (!sub) { sub = el("ul", null, "steps-of"); last.append(sub); }
        sub.append(el("li", line.trim(), "step"));
      } else items.push(el("li", line.trim()));
    });
    $("sb-explain").replaceChildren(...items);
  }

  let lastExplanation = null;
  async function render() {
    const {status, data} = await call("/api/render", {position, events, needs: pending ? pending.needs : null,
      marks});
    if (status !== 200) { error(data.error.message); return; }
    error("");
    svgText = data.svg; notation = data.notation;
    showSvg(board, data.svg);
    $("sb-text").value = data.notation;
    $("sb-link").href = "/board.svg?p=" + encodeURIComponent(data.notation);
    lastExplanation = data.explanation;
    explain(data.explanation[Maamut.lang]);
    $("sb-flee").hidden = !pending;
    document.body.dataset.rendered = String(Date.now());
    syncControls();
  }
  Maamut.onLang(() => { if (lastExplanation) explain(lastExplanation[Maamut.lang]); });

  function remember() { history.push(JSON.stringify(position)); if (history.length > 100) history.shift(); }

  async function resolve(request) {
    const {status, data} = await call("/api/resolve", Object.assign({}, request, {variants: variants()}));
    if (status !== 200) { error(data.error.message + (data.error.rule ? " [" + data.error.rule + "]" : "")); return; }
    if (data.needs) {
      pending = {request, needs: data.needs};
      events = data.events || []; marks = [];
      await render();
      return;
    }
    remember();
    pending = null; position = data.position; events = data.events; marks = [];
    await render();
  }

  function move(hunter, direction, distance) {
    const probe = Object.assign({}, position, {to_move: hunter});
    delete probe.hands;  // a referee's what-if: any card may be played
    return resolve({position: probe, action: {type: "move", hunter, direction, distance}, choices: []});
  }

  function edit(cell) {
    const p = position, who = $("sb-player").value;
    const kind = tool();
    if (kind === "pick") {
      const here = Object.keys(p.hunters).find((h) => p.hunters[h] === cell);
      if (here) { $("sb-hunter").value = here; destinations(); }
      return;
    }
    remember();
    if (["grass", "snow", "rock", "cross"].includes(kind)) p.tiles[cell] = kind;
    else if (kind === "mammoth") p.mammoth = cell;
    else if (kind === "hunter" && who) p.hunters[who] = cell;
    else if (kind === "trap" && who) p.traps[cell] = who;
    else if (kind === "clear") {
      Object.keys(p.hunters).forEach((h) => { if (p.hunters[h] === cell) delete p.hunters[h]; });
      delete p.traps[cell];
    }
    events = []; marks = []; pending = null;
    render();
  }

  board.addEventListener("click", (event) => {
    const target = event.target.closest("[data-cell]");
    if (!target || !position) return;
    const cell = target.dataset.cell;
    if (pending) {
      if (pending.needs.options.includes(cell)) {
        const request = Object.assign({}, pending.request);
        request.choices = (request.choices || []).concat([{hunter: pending.needs.hunter, to: cell}]);
        resolve(request);
      }
      return;
    }
    edit(cell);
  });

  async function whatif() {
    const hunter = $("sb-hunter").value;
    const {status, data} = await call("/api/whatif", {position, hunter, variants: variants()});
    if (status !== 200) { error(data.error.message); return null; }
    error("");
    return data.moves;
  }

  async function showGrid() {
    const moves = await whatif();
    if (!moves) return;
    const body = $("sb-grid").tBodies[0];
    const rows = {};
    moves.forEach((m) => {
      if (!rows[m.direction]) { rows[m.direction] = el("tr"); rows[m.direction].append(el("th", m.direction)); body.append(rows[m.direction]); }
      const td = el("td");
      td.dataset.move = m.direction + m.distance;
      if (!m.legal) { td.className = "illegal"; td.textContent = t("illegal"); td.title = m.error ? m.error.message : ""; }
      else {
        td.className = m.eliminated.length ? "danger" : (m.mammoth_to ? "flight" : "");
        td.append(el("div", "→ " + m.to));
        // A flight that waits for a frightened hunter's choice has not ended yet; a flight
        // into a trap is a win, not just a new cell.
        if (m.needs) td.append(el("div", "M: " + t("choice_pending") + " (" + m.needs.hunter + ")", "pending"));
        else if (m.winner) td.append(el("div", "M → " + (m.mammoth_to || "") + " · " + (m.winner === "mammoth" ? t("survives") : t("trapped_short") + " " + t("winner") + ": " + m.winner), "win"));
        else if (m.mammoth_to) td.append(el("div", "M → " + m.mammoth_to));
        m.eliminated.forEach((h) => td.append(el("div", h + " " + t("out"))));
        td.title = (m.explanation[Maamut.lang] || []).join("\n");
        const b = el("button", t("play_btn"));
        b.addEventListener("click", () => move($("sb-hunter").value, m.direction, m.distance));
        td.append(b);
      }
      rows[m.direction].append(td);
    });
    body.replaceChildren(...Object.values(rows));
    $("sb-grid").hidden = false;
  }

  async function destinations() {
    const moves = await whatif();
    if (!moves) return;
    const byCell = {};
    moves.filter((m) => m.legal).forEach((m) => {
      const entry = byCell[m.to] || (byCell[m.to] = {cell: m.to, text: "", kind: "legal"});
      entry.text += String(m.distance);
      if (m.eliminated.length) entry.kind = "danger"; else if (m.mammoth_to && entry.kind !== "danger") entry.kind = "flight";
    });
    marks = Object.values(byCell); events = [];
    render();
  }

  $("sb-play").addEventListener("click", () => move($("sb-hunter").value, $("sb-dir").value, Number($("sb-card").value)));
  $("sb-whatif").addEventListener("click", showGrid);
  $("sb-dest").addEventListener("click", destinations);
  $("sb-undo").addEventListener("click", () => {
    if (!history.length) return;
    position = JSON.parse(history.pop()); events = []; marks = []; pending = null; render();
  });
  $("sb-players").addEventListener("change", () => {
    const ids = $("sb-players").value.split(",").map((s) => s.trim()).filter(Boolean);
    if (ids.length < 1) return;
    remember();
    position.players = ids;
    Object.keys(position.hunters).forEach((h) => { if (!ids.includes(h)) delete position.hunters[h]; });
    Object.keys(position.traps).forEach((c) => { if (!ids.includes(position.traps[c])) delete position.traps[c]; });
    if (!ids.includes(position.to_move)) position.to_move = ids[0];
    position.eliminated = (position.eliminated || []).filter((h) => ids.includes(h));
    render();
  });

  async function load(text) {
    const {status, data} = await call("/api/notation/parse", {text});
    if (status !== 200) { error(data.error.message); return; }
    if (position) remember();
    position = data.position; events = []; marks = []; pending = null;
    await render();
  }
  $("sb-load").addEventListener("click", () => load($("sb-text").value));
  $("sb-figure").addEventListener("click", () => load(FIGURE));

  $("sb-svg").addEventListener("click", () => download("maamut-board.svg", new Blob([svgText], {type: "image/svg+xml"})));
  $("sb-png").addEventListener("click", () => svgToPng(svgText.replace(/<animateMotion[^>]*\/>/g, ""), 1200, (blob) => download("maamut-board.png", blob)));

  const fromLink = new URLSearchParams(location.search).get("p");
  load(fromLink || FIGURE);
})();
