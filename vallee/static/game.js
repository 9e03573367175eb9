/* La Vallée: the game master's page. The state comes from the table (GET api/state, then
   server-sent events on api/stream, reconnecting by itself); every input is one entry
   POSTed to api/entry with X-Vallee: 1 and If-Match (the state this page showed).
   Text people read comes from the server in both languages, or is written here in both. */
"use strict";
(() => {
  const ROOT = document.getElementById("vallee-game");
  if (!ROOT) return;
  const API = ROOT.dataset.api;
  const $ = (id) => document.getElementById(id);
  const CAT = JSON.parse($("catalogue").textContent);
  let view = null, etag = null, picked = [];
  const L = () => Vallee.lang();
  const T = (en, fr) => (L() === "fr" ? fr : en);
  const P = (pair) => (pair ? (pair[L()] || pair.en || "") : "");
  const el = (tag, text, cls) => Maamut.el(tag, text, cls);
  function button(label, on, cls) {
    const b = el("button", label, cls); b.type = "button"; b.addEventListener("click", on); return b;
  }

  /* -- talking to the table -------------------------------------------------------- */
  function showError(status, error) {
    const box = $("game-error");
    box.replaceChildren();
    if (!error) { box.hidden = true; return; }
    if (status === 401) {
      box.append(el("span", T("This is for the referee: log in with the PIN first. ", "Réservé à l'arbitre : connectez-vous d'abord avec le code. ")));
      const a = el("a", T("Referee page", "Page arbitre")); a.href = "/referee"; box.append(a);
    } else {
      let text = (L() === "fr" && error.message_fr) ? error.message_fr : error.message;
      if (error.rule_text) text += " — " + P(error.rule_text) + " (" + error.rule_text.section + ")";
      box.textContent = text;
    }
    box.hidden = false;
  }
  async function post(path, body) {
    const headers = {"Content-Type": "application/json", "X-Vallee": "1"};
    if (etag) headers["If-Match"] = '"' + etag + '"';
    let response, data;
    try {
      response = await fetch(API + path, {method: "POST", credentials: "same-origin", headers, body: JSON.stringify(body || {})});
      data = await response.json();
    } catch (e) { showError(0, {message: T("The table does not answer.", "La table ne répond pas."), message_fr: "La table ne répond pas."}); return null; }
    if (!data.ok) {
      showError(response.status, data.error);
      if (response.status === 412) load();
      return null;
    }
    showError(0, null);
    show(data);
    return data;
  }
  const play = (entry) => post("/entry", {entry});
  async function load() {
    const response = await fetch(API + "/state", {cache: "no-store"});
    show(await response.json());
  }
  function follow() {
    const conn = $("conn");
    if (!ROOT.dataset.stream) return;
    conn.hidden = false;
    const say = (en, fr, state) => { conn.dataset.state = state; conn.textContent = T(en, fr); };
    const source = new EventSource(ROOT.dataset.stream);
    let log = [];
    source.addEventListener("open", () => say("live", "en direct", "live"));
    source.addEventListener("error", () => say("reconnecting…", "reconnexion…", "offline"));
    source.addEventListener("state", (event) => {
      let next;
      try { next = JSON.parse(event.data); } catch (e) { return; }
      if (!next.ok) return;
      // The hub sends the history from log_from on: keep what came before.
      log = log.slice(0, next.log_from || 0).concat(next.log || []);
      next.log = log;
      show(next);
    });
  }

  /* -- drawing ------------------------------------------------------------------------- */
  function show(next) {
    if (!next || !next.ok) return;
    if (next.log === undefined && view) next.log = view.log;
    view = next;
    etag = next.etag;
    ROOT.dataset.etag = etag || "";
    render();
  }
  function render() {
    const game = view.game;
    $("start-box").open = !game;
    ["tribes-box", "history-box", "trick-box", "links-box"].forEach((id) => { $(id).hidden = !game; });
    const said = $("said");
    said.hidden = !view.said;
    said.textContent = view.said ? P(view.said) : "";
    if (!game) {
      $("step-question").textContent = T("No game yet: start one below.", "Pas encore de partie : commencez-en une ci-dessous.");
      $("step-controls").replaceChildren(); $("calendar").replaceChildren();
      $("pieces").replaceChildren(); $("fight").replaceChildren(); $("ledger").replaceChildren();
      return;
    }
    if (ROOT.dataset.playing !== "1") { ROOT.dataset.playing = "1"; location.reload(); return; }  // the game's own map
    Maamut.showSvg($("pieces"), view.pieces);
    calendar(); light(); step(); fight(); ledger(); animals(); watch(); tribes(); history(); trickForm();
    Vallee.translate(document.querySelector(".vallee"));
  }
  function calendar() {
    const c = view.calendar, box = $("calendar");
    box.replaceChildren();
    const head = c.setup ? T("Setup", "Mise en place")
      : T(`Turn ${c.turn} · year ${c.year} · ${c.season.en}, turn ${c.season_turn} of 3`,
          `Tour ${c.turn} · année ${c.year} · ${c.season.fr}, tour ${c.season_turn} sur 3`);
    box.append(el("li", head, "season season-" + c.season.en));
    for (const p of c.phases) {
      const li = el("li", P(p), "phase " + p.status);
      li.dataset.phase = p.id;
      if (p.status === "now") li.setAttribute("aria-current", "step");
      box.append(li);
    }
  }
  function light() {
    const lit = new Set(view.lit || []);
    document.querySelectorAll("#valley-box svg.valley-board g.cell").forEach((g) => {
      g.classList.toggle("lit", lit.has(g.dataset.cell));
      g.classList.toggle("picked", picked.includes(g.dataset.cell));
    });
  }
  const pct = (x) => ValleeForms.pct(x);  // forms.js comes with every live page: a game may start after it loads
  let boardPick = null;
  const titles = Object.fromEntries(CAT.tricks);
  function context() {
    return {play, post, pick: (fn) => { boardPick = fn; }, fight: view.fight, reach: view.reach, rollout: true,
      cells: Array.from(document.querySelectorAll("#valley-box g.cell")).map((g) => g.dataset.cell),
      moveCards: CAT.move_cards.map((id) => [id, titles[id]]), pacs: true, players: view.game.players,
      species: CAT.species, letters: CAT.letters, events: CAT.events,
      directions: CAT.directions[(view.map && view.map.orientation) || "pointy"],
      physicalBag: view.game.random && view.game.random.bag === "physical"};
  }

  /* The question asked now, with the input it needs (forms.js). */
  function step() {
    const ask = view.game.pending, q = $("step-question"), box = $("step-controls");
    boardPick = null;
    picked = picked.filter((c) => (view.lit || []).includes(c));
    if (!ask) {
      box.replaceChildren();
      q.textContent = view.game.over ? T("The game is over.", "La partie est finie.") : "";
      return;
    }
    q.textContent = P(ask);
    q.dataset.kind = ask.kind; q.dataset.step = ask.step;
    box.replaceChildren(ValleeForms.question(ask, context()));
  }
  function fight() {
    const f = view.fight, box = $("fight");
    box.replaceChildren();
    if (!f) return;
    box.append(el("h3", T(`Combat on ${f.cell}`, `Combat en ${f.cell}`)));
    const list = el("ul", null, "sides");
    f.sides.forEach((s) => {
      const parts = s.parts.map((p) => `${P(p)} +${p.value}`).join(", ");
      list.append(el("li", `${s.side}: ${T("bonus", "bonus")} ${s.bonus} (${parts})`));
    });
    box.append(list);
    if (f.last && f.last.totals) {
      const who = (side) => (side === "animals" ? T("the animals", "les animaux") : side);
      const parts = Object.keys(f.last.totals).map((side) =>
        `${who(side)} ${f.last.dice[side]} + ${f.last.bonus[side]} = ${f.last.totals[side]}`);
      const end = f.last.tie ? T(" (tie: roll again)", " (égalité : on relance)") : "";
      box.append(el("p", T("Last roll: ", "Dernier jet : ") + parts.join(" · ") + end, "last-roll"));
    }
    if (f.odds) {
      const odds = Object.entries(f.odds).map(([who, p]) => `${who === "animals" ? T("the animals", "les animaux") : who} ${pct(p)}`).join(" · ");
      box.append(el("p", T("Who holds the cell in the end: ", "Qui garde la case à la fin : ") + odds, "odds"));
    }
  }
  /* This turn's animal phase: each walk animated on the board (not when the device asks
     for reduced motion), its stop reason, the herds formed and the fields trampled. */
  let animalsSeen;
  function animals() {
    const a = view.animals, box = $("animals-now");
    box.replaceChildren();
    if (a) {
      box.append(el("h3", T(`The animals: die ${a.face}, toward ${a.direction.en}`, `Les animaux : dé ${a.face}, vers ${a.direction.fr}`)));
      const list = el("ul", null, "animal-moves");
      a.moves.forEach((m) => { const li = el("li", P(m), "walk-" + m.stop); li.dataset.cell = m.to; list.append(li); });
      a.herds.forEach((h) => list.append(el("li", P(h), "herd-formed")));
      a.fields.forEach((f) => list.append(el("li", P(f), "field-trampled")));
      box.append(list);
    }
    const n = a ? a.n : null;
    if (animalsSeen !== undefined && n !== null && n !== animalsSeen) walk(a);
    animalsSeen = n;
  }
  function walk(a) {
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const svg = $("pieces").querySelector("svg"), NS = "http://www.w3.org/2000/svg";
    if (!svg) return;
    const centre = (c) => {
      const shape = document.querySelector(`#valley-box svg.valley-board g.cell[data-cell="${c}"] polygon`);
      if (!shape) return null;
      const b = shape.getBBox(); return [b.x + b.width / 2, b.y + b.height / 2];
    };
    a.moves.filter((m) => m.path.length).forEach((m, i) => {
      const points = [m.from, ...m.path].map(centre).filter(Boolean);
      if (points.length < 2) return;
      const g = document.createElementNS(NS, "g"); g.setAttribute("class", "walk"); g.dataset.species = m.species;
      const dot = document.createElementNS(NS, "circle"); dot.setAttribute("r", "16");
      const letter = document.createElementNS(NS, "text"); letter.setAttribute("text-anchor", "middle"); letter.setAttribute("dy", "6");
      letter.textContent = m.species[0].toUpperCase();
      g.append(dot, letter); svg.append(g);
      const frames = points.map(([x, y]) => ({transform: `translate(${x}px, ${y}px)`}));
      g.animate(frames, {duration: 700 * (points.length - 1), delay: 300 * i, fill: "both", easing: "ease-in-out"})
        .onfinish = () => g.remove();
    });
  }
  function ledger() {
    const l = view.ledger, box = $("ledger");
    box.replaceChildren();
    if (!l) return;
    box.append(el("h3", T(`${l.player}'s survival`, `Survie de ${l.player}`)));
    const table = el("table", null, "ledger");
    const row = (a, b) => { const tr = el("tr"); tr.append(el("td", a), el("td", b)); table.append(tr); };
    row(T("food before", "nourriture avant"), String(l.food_before));
    l.lines.forEach((x) => row(P(x), (x.food > 0 ? "+" : "") + x.food));
    row(T("balance", "solde"), (l.balance > 0 ? "+" : "") + l.balance);
    if (l.starve) row(T("pawns who starve", "pions qui meurent de faim"), String(l.starve));
    row(T("food after", "nourriture après"), String(l.food_after));
    box.append(table);
  }
  function watch() {
    const box = $("watch"); box.replaceChildren();
    (view.watch || []).forEach((w) => box.append(el("li", P(w))));
    if (view.game.over) {
      const who = view.game.winners.join(", ");
      box.append(el("li", who ? T(`${who} wins`, `${who} gagne`) : T("Everybody loses", "Tous ont perdu"), "over"));
    }
  }
  function tribes() {
    const box = $("tribes"); box.replaceChildren();
    const table = el("table", null, "tribes");
    const head = el("tr");
    [T("tribe", "tribu"), T("warriors", "guerriers"), T("women", "femmes"), T("camps", "camps"), T("food", "nourriture"), T("cards", "cartes"), T("fire", "feu")]
      .forEach((h) => head.append(el("th", h)));
    table.append(head);
    view.game.players.forEach((p) => {
      const t = view.game.tribes[p], tr = el("tr");
      const name = el("td"); const dot = el("span", null, "swatch"); dot.style.background = view.colours[p];
      name.append(dot, document.createTextNode(" " + p + (t.out ? T(" (out)", " (éliminé)") : "")));
      tr.append(name, el("td", t.warriors), el("td", t.women), el("td", Object.keys(t.camps).length), el("td", t.food), el("td", t.cards),
        el("td", t.fire ? T("yes", "oui") : "–"));
      tr.dataset.player = p;
      table.append(tr);
    });
    box.append(table);
  }
  function history() {
    const list = $("history"), undo = $("undo");
    const log = view.log || [];
    undo.hidden = !log.length;
    if (log.length) undo.textContent = T("Undo: ", "Annuler : ") + P(log[log.length - 1]);
    list.replaceChildren();
    log.slice(-25).reverse().forEach((h) => {
      const li = el("li"); li.value = h.n;
      const lines = (h.lines && h.lines[L()]) || [];
      if (lines.length) {
        const d = el("details"); d.append(el("summary", P(h)));
        const ul = el("ul"); lines.forEach((x) => ul.append(el("li", x))); d.append(ul); li.append(d);
      } else li.textContent = P(h);
      list.append(li);
    });
  }
  let trickBuilt = false;
  /* Player and card, then the card's own choices (the catalogue's "choices"). */
  function trickForm() {
    if (trickBuilt) return;
    trickBuilt = true;
    const box = $("trick-form");
    const who = ValleeForms.select(view.game.players.map((p) => [p, p]), "trick-player");
    const card = ValleeForms.select(CAT.tricks, "trick-card");
    const choices = el("div"); let entry = null;
    const rebuild = () => {
      const [node, read] = ValleeForms.trickChoices(card.value, who.value, CAT.choices[card.value], context());
      choices.replaceChildren(node); entry = read;
    };
    who.addEventListener("change", rebuild); card.addEventListener("change", rebuild);
    rebuild();
    box.append(ValleeForms.labelled(T("Player", "Joueur"), who), ValleeForms.labelled(T("Card", "Carte"), card), choices,
      button(T("Play the card", "Jouer la carte"), () => play(entry()), "primary"));
  }

  /* -- the forms ------------------------------------------------------------------------ */
  $("undo").addEventListener("click", () => post("/undo", {}));
  $("links-get").addEventListener("click", async () => {
    const data = await post("/links", {});
    if (!data) return;
    const list = $("links"); list.replaceChildren();
    Object.entries(data.links).forEach(([p, href]) => {
      const li = el("li"); const a = el("a", p + ": " + location.origin + href); a.href = href; li.append(a); list.append(li);
    });
  });
  $("start-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const f = event.target;
    const setup = {players: f.players.value.split(",").map((x) => x.trim()).filter(Boolean), map: f.map.value,
      seed: parseInt(f.seed.value, 10) || 0, food: parseInt(f.food.value, 10), fire_rules: f.fire_rules.checked,
      random: {}};
    ["dice", "events", "tricks", "bag"].forEach((c) => { setup.random[c] = f["random-" + c].value; });
    if (f.first.value.trim()) setup.first = f.first.value.trim();
    if (f.variants.value.trim()) {
      try { setup.variants = JSON.parse(f.variants.value); } catch (e) { showError(400, {message: T("Variants: not JSON", "Variantes : pas du JSON"), message_fr: "Variantes : pas du JSON"}); return; }
    }
    etag = null;  // a new game replaces whatever is there
    post("/new", setup).then((data) => { if (data) location.reload(); });
  });
  document.querySelector("#valley-box svg.valley-board").addEventListener("click", (event) => {
    const g = event.target.closest("g.cell");
    if (g && boardPick) boardPick(g.dataset.cell);
  });
  Maamut.onLang(() => { if (view) { trickBuilt = false; $("trick-form").replaceChildren(); render(); } });
  /* The stream's first message is the whole state: with a stream the state is not also
     fetched (it would come twice on load), unless the stream says nothing for a while. */
  if (ROOT.dataset.stream) { follow(); setTimeout(() => { if (!view) load(); }, 3000); } else load();
})();
