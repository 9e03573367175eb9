// Mammut (Kristian Amundsen Østby) mode of the table companion. No inline code (CSP);
// every text shown comes from T below or from the server's lines, always as textContent.
"use strict";

const T = {
  en: {
    subtitle: "loot sharing", undo: "Undo", new_game: "New game", players_label: "Players, clockwise from the youngest:",
    players_hint: "Names separated by commas (2 to 5).", start: "Start", middle: "The middle",
    take_title: "Take from the middle", take: "Take these tiles", take_all: "Take everything left",
    steal_title: "Or take all of one player's tiles", steal: "Rob and give these back",
    cards_title: "Cards (before taking)", cards_hint: "Play any number of cards, then take.",
    evaluation_title: "Evaluation", evaluation_hint: "Turn the question tiles over, then give what each player has face up.",
    arrow_label: "Shaman arrow:", score: "Score the round", round: "Round", turn: "{p} to play",
    eval_phase: "evaluation", over: "Game over", winners: "Winner(s): {w}", shared: " (shared victory)",
    take_range: "{p} may take 1 to {n} tiles from the middle.", must_all: "{p} is the last without loot: take all {n} tiles.",
    first: "First move of the round: take from the middle.", rob: "Rob {v} ({n} tiles, give back {a} to {b}).",
    rob_stuck: "Take {v}'s single tile (nothing goes back).",
    rob_btn: "Rob {v}", lot: "lot", pool: "{n} tile(s) in the middle: {d}", unsorted: "not described",
    player: "Player", points: "Points", track: "Skins track", species: "Species", hand: "Cards", loot: "Loot",
    shaman: "shaman", to_reveal: "{n} to reveal, {t} tiles in all", card_of: "Face-down card of {p}:",
    give: "gives up", take_sp: "takes", none: "—", peek: "Look (peek)", flip_shaman: "Turn the shaman over",
    recall: "Recall {p}", eval_card: "Evaluation card, face down", flip: "Turn over", flip_where: "where",
    flip_from: "side up", flip_to: "new side", middle_word: "middle", rule: "Rule", reason: "Reason",
    round_scored: "Round {r} scored", arrow_red: "red (clockwise)", arrow_blue: "blue (counter-clockwise)",
    red: "red", blue: "blue",
    take_hint: "Tap a tile to take one more of it; − and + adjust; or take everything.",
    pin_first: "Only the referee changes the game: enter the referee PIN first. Everybody can follow the game here.",
    pin_link: "or log in on the referee page", need_pin: "Only the referee changes the game: log in with the PIN first.",
    referee_page: "Referee page", total: "Round total", ties: "Ties are settled by the shaman order: {o}.",
    shaman_first: "{p} (shaman holder)", then_arrow: "then following the {a} arrow", tile_set: "The set has {n} tiles; each animal is on one tile only, so at most one of each species can be revealed.",
    at_most: "at most {n}", less: "one less", more: "one more", live: "live", offline: "reconnecting…", connecting: "connecting…",
    rulings: "rulings",
  },
  fr: {
    subtitle: "partage du butin", undo: "Annuler", new_game: "Nouvelle partie", players_label: "Joueurs, en sens horaire depuis le plus jeune :",
    players_hint: "Noms séparés par des virgules (2 à 5).", start: "Commencer", middle: "Le milieu",
    take_title: "Prendre au milieu", take: "Prendre ces tuiles", take_all: "Prendre tout ce qui reste",
    steal_title: "Ou prendre toutes les tuiles d'un joueur", steal: "Voler et rendre celles-ci",
    cards_title: "Cartes (avant de prendre)", cards_hint: "Jouez autant de cartes que voulu, puis prenez.",
    evaluation_title: "Évaluation", evaluation_hint: "Retournez les tuiles point d'interrogation, puis indiquez ce que chacun a face visible.",
    arrow_label: "Flèche du chamane :", score: "Compter la manche", round: "Manche", turn: "À {p} de jouer",
    eval_phase: "évaluation", over: "Partie terminée", winners: "Vainqueur(s) : {w}", shared: " (victoire partagée)",
    take_range: "{p} peut prendre de 1 à {n} tuiles au milieu.", must_all: "{p} est le dernier sans butin : il prend les {n} tuiles.",
    first: "Premier coup de la manche : prendre au milieu.", rob: "Voler {v} ({n} tuiles, en rendre de {a} à {b}).",
    rob_stuck: "Prendre la tuile unique de {v} (rien ne retourne au milieu).",
    rob_btn: "Voler {v}", lot: "lot", pool: "{n} tuile(s) au milieu : {d}", unsorted: "non décrites",
    player: "Joueur", points: "Points", track: "Parcours des peaux", species: "Espèces", hand: "Cartes", loot: "Butin",
    shaman: "chamane", to_reveal: "{n} à révéler, {t} tuiles en tout", card_of: "Carte face cachée de {p} :",
    give: "donne", take_sp: "prend", none: "—", peek: "Regarder", flip_shaman: "Retourner le chamane",
    recall: "Faire rendre {p}", eval_card: "Carte d'évaluation, face cachée", flip: "Retourner", flip_where: "où",
    flip_from: "face visible", flip_to: "nouvelle face", middle_word: "milieu", rule: "Règle", reason: "Raison",
    round_scored: "Manche {r} comptée", arrow_red: "rouge (horaire)", arrow_blue: "bleue (anti-horaire)",
    red: "rouge", blue: "bleue",
    take_hint: "Touchez une tuile pour en prendre une de plus ; − et + ajustent ; ou prenez tout.",
    pin_first: "Seul l'arbitre modifie la partie : entrez d'abord le code de l'arbitre. Tout le monde peut suivre la partie ici.",
    pin_link: "ou connectez-vous sur la page de l'arbitre", need_pin: "Seul l'arbitre modifie la partie : connectez-vous d'abord avec le code.",
    referee_page: "Page de l'arbitre", total: "Total de la manche", ties: "Les égalités se règlent dans l'ordre du chamane : {o}.",
    shaman_first: "{p} (détient le chamane)", then_arrow: "puis dans le sens de la flèche {a}", tile_set: "Le jeu compte {n} tuiles ; chaque animal n'est que sur une tuile, donc au plus une de chaque espèce peut être révélée.",
    at_most: "au plus {n}", less: "une de moins", more: "une de plus", live: "en direct", offline: "reconnexion…", connecting: "connexion…",
    rulings: "arbitrages",
  },
};

/* One language for the whole site: the companion's setting ("maamut-lang", the header's
   EN/FR) when the page is framed by it, the same stored setting when it stands alone. */
const ROOT = document.querySelector(".mammut");
const framed = typeof Maamut !== "undefined";  // common.js, when the companion frames the page
const urlLang = new URLSearchParams(window.location.search).get("lang") || ROOT.dataset.urlLang;
let lang = framed ? Maamut.lang : (window.localStorage.getItem("maamut-lang") || (navigator.language || "en").slice(0, 2));
if (urlLang === "en" || urlLang === "fr") lang = urlLang;
if (lang !== "en" && lang !== "fr") lang = "en";
function setLang(value) {
  lang = value === "fr" ? "fr" : "en";
  if (framed) Maamut.setLang(lang); else window.localStorage.setItem("maamut-lang", lang);
  render();
}
const API = ROOT.dataset.api;
let view = null;
let stealChoice = null;

function t(key, vars) {
  let s = (T[lang] && T[lang][key]) || T.en[key] || key;
  for (const [k, v] of Object.entries(vars || {})) s = s.split("{" + k + "}").join(String(v));
  return s;
}
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") node.textContent = v;
    else if (k === "on") node.addEventListener("click", v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c) node.append(c);
  return node;
}
function $(id) { return document.getElementById(id); }
function kindName(kind) {
  if (lang === "fr" && view && view.kind_fr[kind]) return view.kind_fr[kind];
  return kind === "unsorted" ? t("unsorted") : kind;
}
function describe(tiles) {
  return Object.entries(tiles || {}).map(([k, n]) => n + " " + kindName(k)).join(", ");
}
/* A rule as players read it: its section in the rulebook, never a file of ours. */
function ruleName(id) {
  const rule = view && view.rules[id];
  if (!rule) return "";
  return rule.section.replace(/;?\s*docs\/[\w.-]+\.md\s*/g, "; " + t("rulings") + " ").replace(/^; /, "");
}
function showError(err) {
  const box = $("error");
  box.replaceChildren();
  if (!err) { box.hidden = true; return; }
  if (err.code === "referee_only") {
    // The PIN first, with a link (never an address written as text).
    box.append(el("span", { text: t("need_pin") + " " }), el("a", { href: "/referee", text: t("referee_page") }));
  } else {
    const msg = lang === "fr" && err.message_fr ? err.message_fr : err.message;
    const rule = err.rule && view && view.rules[err.rule] ? " — " + ruleName(err.rule) : "";
    box.textContent = msg.replace(/\s*\[[\w.]+\]/g, "") + rule;
  }
  box.hidden = false;
}

async function post(path, body) {
  const response = await fetch(API + path, {
    method: "POST", headers: { "Content-Type": "application/json", "X-Mammut": "1" }, body: JSON.stringify(body || {}),
  });
  const data = await response.json();
  if (!data.ok) { showError(data.error); return null; }
  showError(null);
  view = data;
  render();
  return data;
}
async function load() {
  const response = await fetch(API + "/state", { cache: "no-store" });
  view = await response.json();
  render();
}
/* Live updates, as the Mâamut pages get them: server-sent events from the table, so
   every phone at the table shows each change (EventSource reconnects by itself). */
function follow() {
  const conn = $("conn");
  const say = (state) => { conn.dataset.state = state; conn.textContent = t(state); };
  if (!ROOT.dataset.stream) { conn.hidden = true; return; }
  const source = new EventSource(ROOT.dataset.stream);
  source.addEventListener("open", () => say("live"));
  source.addEventListener("error", () => say("offline"));
  source.addEventListener("state", (event) => {
    let next;
    try { next = JSON.parse(event.data); } catch (e) { return; }
    if (!next.ok) return;
    view = next;
    ROOT.dataset.version = String(next.version);
    render();
  });
}
function act(action) { return post("/action", { action }); }

/* Tiles by kind, tapped: the tile adds one, − and + adjust, the number stays typeable.
   ``limits`` (optional) is how many of each kind there are to take (or can exist). */
function counter(prefix, kinds, values, limits, showCounts = true) {
  const box = el("div", { class: "kinds" });
  for (const kind of kinds) {
    const limit = limits ? limits[kind] : undefined;
    if (limits && !limit) continue;  // none of this kind to take: no button to tap
    const input = el("input", { type: "number", min: "0", id: prefix + kind, value: String((values || {})[kind] || 0),
      inputmode: "numeric", "aria-label": kindName(kind) });
    if (limit !== undefined) input.setAttribute("max", String(limit));
    const step = (d) => {
      const n = Math.max(0, (parseInt(input.value, 10) || 0) + d);
      input.value = String(limit !== undefined ? Math.min(limit, n) : n);
    };
    const tile = el("button", { type: "button", class: "tile", id: prefix + kind + "-tile", "data-kind": kind, on: () => step(1) },
      el("span", { text: kindName(kind) }), limit !== undefined && showCounts ? el("small", { text: "×" + limit }) : null);
    box.append(el("div", { class: "kind" }, tile,
      el("div", { class: "stepper" },
        el("button", { type: "button", class: "less", "aria-label": t("less") + " · " + kindName(kind), text: "−", on: () => step(-1) }),
        input,
        el("button", { type: "button", class: "more", "aria-label": t("more") + " · " + kindName(kind), text: "+", on: () => step(1) }))));
  }
  return box;
}
function readCounts(prefix, kinds) {
  const out = {};
  for (const kind of kinds) {
    const input = $(prefix + kind);
    const n = input ? parseInt(input.value, 10) || 0 : 0;
    if (n > 0) out[kind] = n;
  }
  return out;
}

function translateStatic() {
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  for (const b of document.querySelectorAll("[data-mammut-lang]")) b.setAttribute("aria-pressed", String(b.dataset.mammutLang === lang));
  const conn = $("conn");
  if (conn && conn.dataset.state !== "alone") conn.textContent = t(conn.dataset.state);
}

function render() {
  translateStatic();
  const g = view && view.game;
  $("setup").hidden = !!g;
  $("board").hidden = !g;
  if (!g) return;
  const lootKinds = [...view.kinds, ...view.species];
  const pickKinds = [...view.kinds, "question", "shaman", ...view.species];
  // headline and legal moves
  let head = t("round") + " " + g.round + " — ";
  if (g.phase === "sharing") head += t("turn", { p: g.to_move });
  else if (g.phase === "evaluation") head += t("eval_phase");
  else head = t("over") + " — " + t("winners", { w: g.final.winners.join(", ") }) + (g.final.shared ? t("shared") : "");
  $("headline").textContent = head;
  const legal = [];
  const o = g.options;
  if (g.phase === "sharing") {
    if (o.first_move) legal.push(t("first"));
    if (o.must_take_all) legal.push(t("must_all", { p: g.to_move, n: o.take_max }));
    else if (o.can_take) legal.push(t("take_range", { p: g.to_move, n: o.take_max }));
    for (const s of o.steals) {
      legal.push(s.give_back_max === 0 ? t("rob_stuck", { v: s.victim })
        : t("rob", { v: s.victim + (g.lots_needed === 2 ? " " + t("lot") + " " + (s.lot + 1) : ""), n: s.size, a: s.give_back_min, b: s.give_back_max }));
    }
  }
  $("legal").textContent = legal.join(" ");
  // scoreboard
  const table = el("table", { id: "scoreboard" });
  table.append(el("tr", {}, ...["player", "points", "track", "species", "hand", "loot"].map(k => el("th", { text: t(k) }))));
  g.players.forEach((p, i) => {
    const tags = (p === g.to_move ? " ▶" : "") + (p === g.holder ? " ☯ " + t("shaman") : "");
    const loot = g.lots[p].map(l => "[" + describe(l) + "]").join(" ");
    const row = el("tr", { id: "player-" + i, class: p === g.to_move ? "active" : "" },
      el("td", { text: p + tags }), el("td", { text: String(g.points[p]), class: "num" }),
      el("td", { text: String(g.track[p]), class: "num" }),
      el("td", { text: g.species_owned[p].map(kindName).join(", ") }),
      el("td", { text: String(g.hands[p]), class: "num" }), el("td", { text: loot }));
    table.append(row);
  });
  $("scores").replaceChildren(table);
  // sharing
  $("sharing").hidden = g.phase !== "sharing";
  $("evaluation").hidden = g.phase !== "evaluation";
  if (g.phase === "sharing") renderSharing(g, pickKinds);
  if (g.phase === "evaluation") renderEvaluation(g, lootKinds);
  renderResults(g);
  drawnAt = g.round + ":" + g.actions + ":" + g.phase;
}

/* A live update redraws the page; what the referee has tapped but not sent stays, as
   long as the game is where it was (same round, same number of actions). */
let drawnAt = null;
function sameGame(g) { return drawnAt === g.round + ":" + g.actions + ":" + g.phase; }
function kept(prefix, kinds, g) { return sameGame(g) ? readCounts(prefix, kinds) : {}; }

function renderSharing(g, pickKinds) {
  $("pool").textContent = t("pool", { n: g.pool_size, d: describe(g.pool) });
  // Tiles the table has not described ("unsorted") may be any kind: every kind is offered.
  // (at most as many as the middle holds, and as the set can show of that kind).
  const most = (k) => Math.min(g.pool.unsorted, (g.tile_set && g.tile_set.max[k]) || g.pool.unsorted);
  const limits = g.pool.unsorted ? Object.fromEntries(pickKinds.map((k) => [k, k === "shaman" ? (g.pool.shaman || 0) : most(k)]))
    : g.pool;
  $("take-kinds").replaceChildren(counter("take-", pickKinds, kept("take-", pickKinds, g), limits, !g.pool.unsorted));
  $("take").disabled = !g.options.can_take || g.options.must_take_all;
  $("take-all").disabled = !g.options.can_take;
  const steals = $("steals");
  steals.replaceChildren();
  steals.closest(".panel").hidden = !g.options.steals.length;  // no heading over nothing
  for (const s of g.options.steals) {
    const label = t("rob_btn", { v: s.victim }) + (g.lots_needed === 2 ? " (" + t("lot") + " " + (s.lot + 1) + ")" : "");
    steals.append(el("button", { type: "button", id: "rob-" + g.players.indexOf(s.victim) + "-" + s.lot, text: label,
      on: () => { stealChoice = s; renderGiveBack(g); } }));
  }
  if (stealChoice && !g.options.steals.some(s => s.victim === stealChoice.victim && s.lot === stealChoice.lot)) stealChoice = null;
  renderGiveBack(g);
  const cards = $("cards");
  cards.replaceChildren();
  const me = g.to_move;
  cards.append(el("button", { type: "button", id: "card-eval", text: t("eval_card"), on: () => act({ type: "card", player: me, card: "hidden" }) }));
  cards.append(el("button", { type: "button", id: "card-peek", text: t("peek"), on: () => act({ type: "card", player: me, card: "peek" }) }));
  const shamanAt = g.pool.shaman ? ["middle", 0] : g.holder ? [g.holder, g.lots[g.holder].findIndex(l => l.shaman)] : null;
  if (shamanAt) cards.append(el("button", { type: "button", id: "card-flip-shaman", text: t("flip_shaman"),
    on: () => act({ type: "card", player: me, card: "flip", flips: [{ where: shamanAt[0], lot: shamanAt[1], face: "shaman", to: "shaman" }] }) }));
  g.players.forEach((p, i) => {
    g.lots[p].forEach((lot, j) => {
      if (g.lots_needed === 1 && p === me) return;
      cards.append(el("button", { type: "button", id: "card-recall-" + i + "-" + j, text: t("recall", { p: p + (g.lots_needed === 2 ? " " + (j + 1) : "") }),
        on: () => act({ type: "card", player: me, card: "recall", targets: [{ player: p, lot: g.lots_needed === 2 ? j : null }] }) }));
    });
  });
  // a generic turn-over: where, side up, new side
  const where = el("select", { id: "flip-where", "aria-label": t("flip_where") }, el("option", { value: "middle", text: t("middle_word") }),
    ...g.players.map(p => el("option", { value: p, text: p })));
  const sides = [...view.kinds, "question"];
  const from = el("select", { id: "flip-from", "aria-label": t("flip_from") }, ...sides.map(k => el("option", { value: k, text: kindName(k) })));
  const to = el("select", { id: "flip-to", "aria-label": t("flip_to") }, ...sides.map(k => el("option", { value: k, text: kindName(k) })));
  cards.append(el("div", { class: "flip" }, el("span", { text: t("flip_where") }), where, el("span", { text: t("flip_from") }), from,
    el("span", { text: t("flip_to") }), to,
    el("button", { type: "button", id: "card-flip", text: t("flip"),
      on: () => act({ type: "card", player: me, card: "flip", flips: [{ where: where.value, lot: 0, face: from.value, to: to.value }] }) })));
}

function renderGiveBack(g) {
  const box = $("give-back");
  if (!stealChoice) { box.hidden = true; return; }
  box.hidden = false;
  const lot = g.lots[stealChoice.victim][stealChoice.lot] || {};
  $("give-back-title").textContent = t("rob", { v: stealChoice.victim, n: stealChoice.size, a: stealChoice.give_back_min, b: stealChoice.give_back_max })
    + " " + describe(lot);
  $("give-kinds").replaceChildren(counter("give-", Object.keys(lot), kept("give-", Object.keys(lot), g), lot));
}

function renderEvaluation(g, lootKinds) {
  const ev = g.evaluation;
  const box = $("reveal");
  box.replaceChildren();
  $("tile-set").textContent = g.tile_set ? t("tile_set", { n: g.tile_set.tiles }) : "";
  g.players.forEach((p, i) => {
    const info = ev.tiles[p];
    box.append(el("div", { class: "reveal-player" },
      el("h4", { text: p + " — " + t("to_reveal", { n: info.to_reveal, t: info.total }) }),
      counter("reveal-" + i + "-", lootKinds, sameGame(g) ? { ...info.known, ...readCounts("reveal-" + i + "-", lootKinds) } : info.known)));
  });
  const arrow = $("arrow");
  arrow.replaceChildren(...view.arrows.map(a => el("option", { value: a, text: t("arrow_" + a) })));
  arrow.value = ev.arrow;
  const cards = $("eval-cards");
  cards.replaceChildren();
  g.players.forEach((p, i) => {
    for (let k = 0; k < ev.face_down[p]; k++) {
      const pick = el("select", { id: "evcard-" + i + "-" + k, "aria-label": t("card_of", { p }) }, ...view.evaluation_cards.map(c => el("option", { value: c, text: c })));
      const sp = (id) => el("select", { id, "aria-label": t(id.startsWith("evgive") ? "give" : "take_sp") }, el("option", { value: "", text: t("none") }), ...view.species.map(s => el("option", { value: s, text: kindName(s) })));
      cards.append(el("div", { class: "evcard" }, el("span", { text: t("card_of", { p }) }), pick,
        el("span", { text: t("give") }), sp("evgive-" + i + "-" + k), el("span", { text: t("take_sp") }), sp("evtake-" + i + "-" + k)));
    }
  });
}

/* Each round: the lines with their reason and the rule's name, each player's total for
   the round, and how ties were settled (the shaman order, in words). */
function renderResults(g) {
  const box = $("results");
  box.replaceChildren();
  for (const r of [...g.results].reverse()) {
    const table = el("table", { class: "lines" });
    table.append(el("tr", {}, ...["player", "points", "reason", "rule"].map(k => el("th", { text: t(k) }))));
    for (const line of r.lines) {
      const pts = line.points > 0 ? "+" + line.points : String(line.points);
      const rule = view.rules[line.rule];
      table.append(el("tr", {}, el("td", { text: line.player }), el("td", { text: pts, class: "num" }),
        el("td", {}, el("span", { text: line[lang] }), el("small", { class: "rule-inline", text: ruleName(line.rule) })),
        el("td", { text: ruleName(line.rule), title: rule ? rule[lang] : "", class: "rule" })));
    }
    const totals = el("table", { class: "totals" });
    totals.append(el("tr", {}, el("th", { text: t("player") }), el("th", { text: t("total") })));
    for (const p of g.players) {
      const sum = r.lines.filter(l => l.player === p).reduce((a, l) => a + (l.points || 0), 0);
      totals.append(el("tr", { "data-player": p }, el("td", { text: p }), el("td", { text: sum > 0 ? "+" + sum : String(sum), class: "num" })));
    }
    const order = (r.order || []).slice(1);
    const ties = r.holder ? t("ties", { o: t("shaman_first", { p: r.holder }) + ", " + t("then_arrow", { a: t(r.arrow) })
      + (order.length ? " (" + order.join(", ") + ")" : "") }) : "";
    box.append(el("section", { class: "round-result" }, el("h3", { text: t("round_scored", { r: r.round }) }), totals,
      el("p", { class: "hint ties", text: ties }), el("div", { class: "wide" }, table)));
  }
}

function submitEvaluation() {
  const g = view.game;
  const lootKinds = [...view.kinds, ...view.species];
  const tiles = {};
  g.players.forEach((p, i) => { tiles[p] = readCounts("reveal-" + i + "-", lootKinds); });
  const cards = [];
  g.players.forEach((p, i) => {
    for (let k = 0; k < g.evaluation.face_down[p]; k++) {
      const entry = { card: $("evcard-" + i + "-" + k).value, player: p };
      const give = $("evgive-" + i + "-" + k).value, take = $("evtake-" + i + "-" + k).value;
      if (give) entry.give = give;
      if (take) entry.take = take;
      cards.push(entry);
    }
  });
  return act({ type: "evaluate", tiles, arrow: $("arrow").value, cards });
}

document.addEventListener("DOMContentLoaded", () => {
  for (const b of document.querySelectorAll("[data-mammut-lang]")) b.addEventListener("click", () => setLang(b.dataset.mammutLang));
  if (framed) {
    Maamut.onLang((value) => { lang = value; render(); });
    if (lang !== Maamut.lang) Maamut.setLang(lang);
  }
  $("undo").addEventListener("click", () => post("/undo", {}));
  $("show-setup").addEventListener("click", () => { $("setup").hidden = false; translateStatic(); });
  $("start").addEventListener("click", () => {
    const players = $("setup-players").value.split(",").map(s => s.trim()).filter(Boolean);
    post("/new", { players }).then(ok => { if (ok) $("setup").hidden = true; });
  });
  $("take").addEventListener("click", () => {
    const kinds = [...view.kinds, "question", "shaman", ...view.species];
    act({ type: "take", player: view.game.to_move, tiles: readCounts("take-", kinds) });
  });
  $("take-all").addEventListener("click", () => act({ type: "take", player: view.game.to_move, tiles: view.game.pool }));
  $("steal").addEventListener("click", () => {
    const s = stealChoice;
    const lot = view.game.lots[s.victim][s.lot] || {};
    act({ type: "steal", player: view.game.to_move, victim: s.victim, lot: s.lot, give_back: readCounts("give-", Object.keys(lot)) })
      .then(ok => { if (ok) stealChoice = null; });
  });
  $("score").addEventListener("click", submitEvaluation);
  load().then(follow);
});
