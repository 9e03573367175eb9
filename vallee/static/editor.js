/* The map editor: the map is edited here as its file's JSON; after each change the
   server checks it (the validator's findings, each naming its cells) and draws it. */
"use strict";
(() => {
  const root = document.getElementById("editor");
  const base = root.dataset.base;  // "/vallee/"
  const $ = (id) => document.getElementById(id);
  const MSG = {
    saved: {en: "Saved on the table as {name}.", fr: "Enregistrée sur la table sous le nom {name}."},
    saved_problems: {en: "Saved as {name}, with {n} problem(s) left to fix.", fr: "Enregistrée sous le nom {name}, avec {n} problème(s) à corriger."},
    imported: {en: "Map imported.", fr: "Carte importée."},
    loaded: {en: "Map loaded.", fr: "Carte chargée."},
    no_volcano: {en: "no volcano", fr: "aucun volcan"},
    show: {en: "show", fr: "montrer"},
    nothing: {en: "Choose a file or paste a map's text first.", fr: "Choisissez un fichier ou collez d'abord le texte d'une carte."},
  };
  let map = null;        // the map file's JSON being edited
  let selected = null;   // "q,r" of the cell in the inspector
  let lit = [];          // cells lit by a clicked finding
  let checks = 0;        // answers of the server shown so far (data-checks, for tests and tools)

  const say = (key, vars) => {
    const pair = {};
    ["en", "fr"].forEach((l) => { pair[l] = MSG[key][l].replace(/\{(\w+)\}/g, (_, k) => String((vars || {})[k])); });
    const status = $("ed-status"); status.dataset.en = pair.en; status.dataset.fr = pair.fr; status.textContent = pair[Vallee.lang()];
  };
  const fail = (error) => {
    const box = $("ed-error");
    if (!error) { box.hidden = true; box.textContent = ""; return; }
    const en = error.message || "error", fr = error.message_fr || en;
    box.dataset.en = en + (error.field ? " [" + error.field + "]" : "");
    box.dataset.fr = fr + (error.field ? " [" + error.field + "]" : "");
    box.textContent = box.dataset[Vallee.lang()];
    box.hidden = false;
  };

  async function send(path, body) {
    const csrf = document.querySelector('meta[name="csrf-token"]').content;
    const response = await fetch(base + path, {method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-Vallee": "1", "X-CSRF-Token": csrf}, body: JSON.stringify(body)});
    let data;
    try { data = await response.json(); } catch (e) { data = {ok: false, error: {message: response.statusText}}; }
    return {status: response.status, data};
  }

  const cellOf = (name) => map.cells.find((c) => c.at === name);
  const key = (a, b) => [a, b].sort().join("|");
  const parse = (name) => name.split(",").map(Number);
  const STEPS = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]];
  const neighbours = (name) => { const [q, r] = parse(name); return STEPS.map(([dq, dr]) => (q + dq) + "," + (r + dr)); };

  /* joins_lake follows the geometry: a river reaches the lake when one of its edges ends
     at a corner a lake cell shares (the validator's rule). */
  function touchesLake(river) {
    const lake = new Set(map.cells.filter((c) => c.terrain === "lake").map((c) => c.at));
    return river.edges.some(([a, b]) => neighbours(a).filter((n) => neighbours(b).includes(n)).some((n) => lake.has(n)));
  }

  async function refresh() {
    const {status, data} = await send("maps/check", {map});
    if (status !== 200) { fail(data.error); return; }
    fail(null);
    lit = [];  // a changed map: the finding once clicked may be gone
    Maamut.showSvg($("ed-board"), data.svg);
    Vallee.translate($("ed-board"));
    showProblems(data.problems);
    mark();
    root.dataset.checks = String(++checks);
  }

  function showProblems(problems) {
    const list = $("ed-problems");
    list.replaceChildren();
    $("ed-valid").hidden = problems.length > 0;
    problems.forEach((p) => {
      const item = document.createElement("li");
      item.dataset.code = p.code; item.dataset.where = p.where; item.dataset.cells = p.cells.join(" ");
      const button = Vallee.text("button", {en: p.en, fr: p.fr}, "finding");
      button.type = "button";
      button.addEventListener("click", () => { lit = p.cells; mark(); });
      item.append(button);
      list.append(item);
    });
  }

  /* Highlight the selected cell and the cells of the last finding clicked. */
  function mark() {
    document.querySelectorAll("#ed-board g.cell").forEach((g) => {
      g.classList.toggle("selected", g.dataset.cell === selected);
      g.classList.toggle("lit", lit.includes(g.dataset.cell));
    });
  }

  function fillForm() {
    $("ed-name").value = map.name || "";
    $("ed-title-en").value = (map.title || {}).en || "";
    $("ed-title-fr").value = (map.title || {}).fr || "";
    $("ed-sample").checked = map.sample === true;
    const p = map.provenance || {};
    $("ed-edition").value = p.edition || ""; $("ed-source-text").value = p.source || "";
    $("ed-by").value = p.captured_by || ""; $("ed-date").value = p.date || "";
    const orientation = (map.grid || {}).orientation === "flat" ? "flat" : "pointy";
    const names = orientation === "flat" ? ["SE", "S", "SW", "NW", "N", "NE"] : ["E", "SE", "SW", "W", "NW", "NE"];
    $("ed-compass").querySelectorAll("select").forEach((select) => {
      select.replaceChildren(...names.map((n) => { const o = Maamut.el("option", n); o.value = n; return o; }));
      select.value = (map.compass || {})[select.dataset.face] || names[0];
    });
    const pick = $("ed-cell-pick");
    pick.replaceChildren(Maamut.el("option", "–"), ...map.cells.map((c) => { const o = Maamut.el("option", c.at); o.value = c.at; return o; }));
    pick.options[0].value = "";
    fillVolcanoes();
    fillCell();
  }

  function fillVolcanoes() {
    const select = $("ed-volcano"), before = select.value;
    const volcanoes = map.cells.filter((c) => c.terrain === "volcano").map((c) => c.at);
    select.replaceChildren(...volcanoes.map((v) => { const o = Maamut.el("option", v); o.value = v; return o; }));
    if (!volcanoes.length) select.append(Vallee.text("option", MSG.no_volcano));
    if (volcanoes.includes(before)) select.value = before;
  }

  function fillCell() {
    const cell = selected && cellOf(selected);
    $("ed-cell").disabled = !cell;
    $("ed-cell-pick").value = cell ? cell.at : "";
    $("ed-cell-name").textContent = cell ? cell.at : "–";
    if (!cell) return;
    $("ed-terrain").value = cell.terrain;
    $("ed-region").value = cell.region == null ? "" : String(cell.region);
    $("ed-letter").value = cell.letter || "";
    // the edges a river may follow from this cell: to each land neighbour on the board
    const land = (name) => { const c = cellOf(name); return c && c.terrain !== "lake"; };
    const sides = cell.terrain === "lake" ? [] : neighbours(cell.at).filter(land);
    $("ed-edge-to").replaceChildren(...sides.map((n) => { const o = Maamut.el("option", n); o.value = n; return o; }));
    $("ed-edge-toggle").disabled = !sides.length;
  }

  function setTerrain(cell, terrain) {
    if (cell.terrain === terrain) return;
    if (cell.terrain === "volcano") map.volcanoes = map.volcanoes.filter((v) => v.at !== cell.at);
    cell.terrain = terrain;
    if (terrain === "lake") { delete cell.region; delete cell.letter; }
    if (terrain === "volcano" && !map.volcanoes.some((v) => v.at === cell.at)) map.volcanoes.push({at: cell.at, lava: []});
    map.rivers.forEach((r) => { r.joins_lake = touchesLake(r); });
    fillVolcanoes();
  }

  function toggleRiver(a, b) {
    const number = Number($("ed-river").value), k = key(a, b);
    let river = map.rivers.find((r) => r.number === number);
    const had = river && river.edges.some(([x, y]) => key(x, y) === k);
    map.rivers.forEach((r) => { r.edges = r.edges.filter(([x, y]) => key(x, y) !== k); });
    if (!had) {
      if (!river) { river = {number, joins_lake: false, edges: []}; map.rivers.push(river); map.rivers.sort((x, y) => x.number - y.number); }
      river.edges.push([a, b]);
    }
    map.rivers = map.rivers.filter((r) => r.edges.length);
    map.rivers.forEach((r) => { r.joins_lake = touchesLake(r); });
  }

  function toggleLava(name) {
    const volcano = map.volcanoes.find((v) => v.at === $("ed-volcano").value);
    if (!volcano || volcano.at === name) return false;
    volcano.lava = volcano.lava.includes(name) ? volcano.lava.filter((c) => c !== name) : volcano.lava.concat([name]);
    return true;
  }

  const tool = () => document.querySelector('input[name="tool"]:checked').value;

  $("ed-board").addEventListener("click", (event) => {
    if (!map) return;
    const edgeHit = event.target.closest("line.edge-hit");
    if (tool() === "river") {
      if (!edgeHit) return;
      const [a, b] = edgeHit.dataset.edge.split("|");
      toggleRiver(a, b);
      refresh();
      return;
    }
    const g = event.target.closest("g.cell");
    if (!g) return;
    const cell = cellOf(g.dataset.cell);
    if (!cell) return;
    selected = cell.at;
    if (tool() === "terrain") setTerrain(cell, $("ed-brush").value);
    else if (tool() === "lava" && !toggleLava(cell.at)) { fillCell(); mark(); return; }
    else if (tool() === "cell") { fillCell(); mark(); return; }
    fillCell();
    refresh();
  });

  $("ed-cell-pick").addEventListener("change", () => { selected = $("ed-cell-pick").value || null; fillCell(); mark(); });
  $("ed-edge-toggle").addEventListener("click", () => {
    if (!selected || !$("ed-edge-to").value) return;
    toggleRiver(selected, $("ed-edge-to").value);
    refresh();
  });
  $("ed-terrain").addEventListener("change", () => { setTerrain(cellOf(selected), $("ed-terrain").value); fillCell(); refresh(); });
  $("ed-region").addEventListener("change", () => {
    const cell = cellOf(selected), v = $("ed-region").value;
    if (v) cell.region = Number(v); else delete cell.region;
    refresh();
  });
  $("ed-letter").addEventListener("change", () => {
    const cell = cellOf(selected), v = $("ed-letter").value;
    if (v) cell.letter = v; else delete cell.letter;
    refresh();
  });
  $("ed-compass").addEventListener("change", (event) => {
    const face = event.target.dataset.face;
    if (!face) return;
    map.compass[face] = event.target.value;
    refresh();
  });
  const meta = [["ed-name", (v) => { map.name = v; }], ["ed-title-en", (v) => { map.title = {...(map.title || {}), en: v}; }],
    ["ed-title-fr", (v) => { map.title = {...(map.title || {}), fr: v}; }],
    ["ed-edition", (v) => { map.provenance.edition = v; }], ["ed-source-text", (v) => { map.provenance.source = v; }],
    ["ed-by", (v) => { map.provenance.captured_by = v; }], ["ed-date", (v) => { map.provenance.date = v; }]];
  meta.forEach(([id, set]) => $(id).addEventListener("change", () => { set($(id).value); refresh(); }));
  $("ed-sample").addEventListener("change", () => { map.sample = $("ed-sample").checked; refresh(); });

  async function adopt(newMap, message) {
    map = newMap; selected = null; lit = [];
    map.rivers = map.rivers || []; map.volcanoes = map.volcanoes || []; map.compass = map.compass || {};
    map.provenance = map.provenance || {};
    fillForm();
    await refresh();
    say(message);
  }

  async function load(name) {
    const response = await fetch(base + "maps/" + encodeURIComponent(name) + ".json", {credentials: "same-origin"});
    const data = await response.json();
    if (!response.ok) { fail(data.error); return; }
    await adopt(data, "loaded");
  }
  $("ed-load").addEventListener("click", () => load($("ed-source").value));
  $("ed-blank").addEventListener("click", async () => {
    const response = await fetch(base + "maps/blank.json?A=" + $("ed-half-a").value + "&B=" + $("ed-half-b").value, {credentials: "same-origin"});
    const data = await response.json();
    if (!response.ok) { fail(data.error); return; }
    await adopt(data.map, "loaded");
  });

  $("ed-save").addEventListener("click", async () => {
    const {status, data} = await send("maps/save", {map});
    if (status !== 200) { fail(data.error); return; }
    fail(null);
    showProblems(data.problems);
    const source = $("ed-source");
    if (![...source.options].some((o) => o.value === data.saved)) {
      const o = Maamut.el("option", data.saved); o.value = data.saved; source.append(o);
    }
    say(data.valid ? "saved" : "saved_problems", {name: data.saved, n: data.problems.length});
  });

  $("ed-export").addEventListener("click", () => {
    const name = (map.name || "map").replace(/[^a-z0-9-]+/gi, "-");
    Maamut.download("vallee-" + name + ".json", new Blob([JSON.stringify(map, null, 1) + "\n"], {type: "application/json"}));
  });

  $("ed-import").addEventListener("click", async () => {
    const file = $("ed-file").files[0];
    const text = file ? await file.text() : $("ed-paste").value;
    if (!text.trim()) { fail({message: MSG.nothing.en, message_fr: MSG.nothing.fr}); return; }
    const {status, data} = await send("maps/check", {text});
    if (status !== 200) { fail(data.error); return; }
    $("ed-file").value = ""; $("ed-paste").value = "";
    await adopt(data.map, "imported");
  });

  document.addEventListener("DOMContentLoaded", () => load(root.dataset.start));
})();
