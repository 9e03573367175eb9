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
    calendar(); light(); step(); fight(); ledger(); watch(); tribes(); history(); trickForm();
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
  function option(label, entry, cls) { return button(label, () => play(entry), cls); }
  function pct(x) { return (x === null || x === undefined) ? "–" : Math.round(x * 100) + " %"; }

  /* The question asked now, with the input it needs. */
  function step() {
    const ask = view.game.pending, q = $("step-question"), box = $("step-controls");
    box.replaceChildren();
    boardPick = null;
    picked = picked.filter((c) => (view.lit || []).includes(c));
    if (!ask) {
      q.textContent = view.game.over ? T("The game is over.", "La partie est finie.") : "";
      return;
    }
    q.textContent = P(ask);
    q.dataset.kind = ask.kind; q.dataset.step = ask.step;
    const physical = ask.random === "physical";
    const k = ask.kind;
    if (k === "lot") {
      if (physical) ask.options.forEach((p) => box.append(option(p, {kind: "lot", player: p})));
      else box.append(option(T("Draw lots", "Tirer au sort"), {kind: "lot"}, "primary"));
    } else if (k === "roll") {
      if (physical) box.append(diceInput(ask.count));
      else box.append(option(ask.count > 1 ? T(`Roll the ${ask.count} dice`, `Lancer les ${ask.count} dés`) : T("Roll the die", "Lancer le dé"),
        {kind: "roll"}, "primary"));
      if (ask.step === "fight" && !physical) {
        box.append(button(T("Roll it all out (women lost first)", "Tout jouer (femmes perdues d'abord)"), () => post("/rollout", {policy: "women_first"})),
          button(T("Roll it all out (warriors lost first)", "Tout jouer (guerriers perdus d'abord)"), () => post("/rollout", {policy: "warriors_first"})));
      }
    } else if (k === "card") {
      if (physical) box.append(pickFrom(CAT.events.map((c) => [c.id, c.title]), (id) => play({kind: "card", card: id}), T("Card drawn", "Carte tirée")));
      else box.append(option(T("Draw the card", "Piocher la carte"), {kind: "card"}, "primary"));
    } else if (k === "tokens") {
      if (physical) box.append(tokensInput(ask.count));
      else box.append(option(T(`Draw ${ask.count} from the bag`, `Tirer ${ask.count} du sac`), {kind: "tokens"}, "primary"));
    } else if (k === "place_camp") {
      const field = el("label", null, "block");
      const box2 = el("input"); box2.type = "checkbox"; box2.id = "camp-field";
      field.append(box2, document.createTextNode(" " + T("sow a field at once (plain, 1 food)", "semer un champ tout de suite (plaine, 1 nourriture)")));
      box.append(field);
      box.append(cells(ask.options, (c) => play({kind: "place_camp", cell: c, field: box2.checked && ask.field_options.includes(c)})));
    } else if (k === "return" || k === "combat_cell") {
      box.append(cells(ask.options, (c) => play({kind: k, cell: c})));
    } else if (k === "lose") {
      if (ask.pawn) box.append(cells(ask.options, (c) => play({kind: "lose", cell: c})));
      else {
        const answers = (view.fight && view.fight.answers) || {};
        ask.options.forEach((pawn) => {
          const name = pawn === "warrior" ? T("a warrior", "un guerrier") : T("a woman", "une femme");
          const odds = answers[pawn] !== undefined ? " — " + T("then holds the cell: ", "garde ensuite la case : ") + pct(answers[pawn]) : "";
          box.append(option(name + odds, {kind: "lose", pawn}, "answer"));
        });
        if (ask.step === "fight") box.append(button(T("Roll it all out (women lost first)", "Tout jouer (femmes perdues d'abord)"), () => post("/rollout", {policy: "women_first"})));
      }
    } else if (k === "species_order") {
      orders(ask.options).forEach((order) => box.append(option(order.join(" → "), {kind: k, order})));
    } else if (k === "camp_taken") {
      box.append(option(T("Keep it", "Le garder"), {kind: k, choice: "keep"}), option(T("Burn it", "Le brûler"), {kind: k, choice: "burn"}));
    } else if (k === "sow") {
      const chosen = new Set();
      box.append(checks(ask.options, chosen), button(T("Sow", "Semer"), () => play({kind: "sow", cells: [...chosen]}), "primary"));
    } else if (k === "feed") {
      box.append(feedInput(ask));
    } else if (k === "pass") {
      box.append(option(T("Nobody plays a card: go on", "Personne ne joue de carte : continuer"), {kind: "pass"}, "primary"));
    } else if (k === "move") {
      box.append(moveInput(ask));
    }
  }
  function cells(options, go) {
    const row = el("div", null, "row options");
    options.forEach((c) => { const b = button(c, () => go(c), "cell-option"); b.dataset.cell = c; row.append(b); });
    boardPick = (c) => options.includes(c) && go(c);
    return row;
  }
  let boardPick = null;
  function diceInput(count) {
    const row = el("div", null, "row");
    const inputs = [];
    for (let i = 0; i < count; i++) {
      const input = el("input"); input.type = "number"; input.min = "1"; input.max = "6"; input.required = true;
      input.setAttribute("aria-label", T("die ", "dé ") + (i + 1)); input.className = "die"; inputs.push(input); row.append(input);
    }
    row.append(button(T("Enter", "Saisir"), () => play({kind: "roll", dice: inputs.map((x) => parseInt(x.value, 10))}), "primary"));
    return row;
  }
  function pickFrom(items, go, label) {
    const row = el("div", null, "row");
    const l = el("label", label + " ");
    const select = el("select");
    items.forEach(([id, text]) => { const o = el("option", text); o.value = id; select.append(o); });
    l.append(select);
    row.append(l, button(T("Enter", "Saisir"), () => go(select.value), "primary"));
    return row;
  }
  function tokensInput(count) {
    const box = el("div"), rows = [];
    for (let i = 0; i < count; i++) {
      const row = el("div", null, "row");
      const sp = el("select"), le = el("select");
      sp.setAttribute("aria-label", T("species", "espèce") + " " + (i + 1)); le.setAttribute("aria-label", T("letter", "lettre") + " " + (i + 1));
      CAT.species.forEach((s) => { const o = el("option", T(s.id, s.fr)); o.value = s.id; sp.append(o); });
      ["", ...CAT.letters].forEach((x) => { const o = el("option", x || T("no letter", "sans lettre")); o.value = x; le.append(o); });
      row.append(sp, le); rows.push([sp, le]); box.append(row);
    }
    box.append(button(T("Enter", "Saisir"), () => play({kind: "tokens", tokens: rows.map(([s, l]) => ({species: s.value, letter: l.value}))}), "primary"));
    return box;
  }
  function checks(options, chosen) {
    const row = el("div", null, "row");
    options.forEach((c) => {
      const l = el("label"); const i = el("input"); i.type = "checkbox";
      i.addEventListener("change", () => (i.checked ? chosen.add(c) : chosen.delete(c)));
      l.append(i, document.createTextNode(" " + c)); row.append(l);
    });
    return row;
  }
  function orders(items) {
    if (items.length > 3) return [items, [...items].reverse()];
    const out = [];
    const perm = (rest, acc) => { if (!rest.length) out.push(acc); rest.forEach((x, i) => perm(rest.filter((_, j) => j !== i), acc.concat([x]))); };
    perm(items, []);
    return out;
  }
  function number(label, max, value) {
    const l = el("label", label + " "); const i = el("input"); i.type = "number"; i.min = "0"; i.max = String(max); i.value = String(value);
    i.inputMode = "numeric"; l.append(i); return [l, i];
  }
  function feedInput(ask) {
    const box = el("div");
    if (!ask.starve) { box.append(option(T("Feed the tribe", "Nourrir la tribu"), {kind: "feed", starve: []}, "primary")); return box; }
    box.append(el("p", T(`Choose ${ask.starve} pawn(s) who starve:`, `Choisissez ${ask.starve} pion(s) qui meurent de faim :`)));
    const rows = [];
    Object.entries(ask.options).forEach(([cell, [w, f]]) => {
      const row = el("div", null, "row"); row.append(el("strong", cell));
      const [lw, iw] = number(T("warriors", "guerriers"), w, 0), [lf, iff] = number(T("women", "femmes"), f, 0);
      row.append(lw, lf); rows.push([cell, iw, iff]); box.append(row);
    });
    box.append(button(T("They starve", "Ils meurent de faim"), () => play({kind: "feed", starve: rows
      .map(([cell, w, f]) => ({cell, warriors: parseInt(w.value, 10) || 0, women: parseInt(f.value, 10) || 0}))
      .filter((s) => s.warriors || s.women)}), "primary"));
    return box;
  }
  function moveInput(ask) {
    const o = ask.options, box = el("div", null, "move");
    const groups = Object.keys(o.groups);
    if (groups.length) {
      const row = el("div", null, "row");
      const l = el("label", T("Group on ", "Groupe en ")); const from = el("select"); from.id = "move-from";
      groups.forEach((c) => { const x = el("option", `${c} (${o.groups[c][0]}·${o.groups[c][1]})`); x.value = c; from.append(x); });
      l.append(from);
      const [lw, w] = number(T("warriors", "guerriers"), 10, o.groups[groups[0]][0]);
      const [lf, f] = number(T("women", "femmes"), 6, 0);
      w.id = "move-warriors"; f.id = "move-women";
      from.addEventListener("change", () => { w.value = String(o.groups[from.value][0]); f.value = "0"; });
      const lp = el("label", T("Path (cells, tap them on the board) ", "Chemin (cases, touchez-les sur le plateau) "));
      const path = el("input"); path.id = "move-path"; path.placeholder = "1,0 2,0"; lp.append(path);
      boardPick = (c) => { path.value = (path.value + " " + c).trim(); };
      row.append(l, lw, lf, lp, button(T("Move", "Déplacer"), () => play({kind: "move", from: from.value,
        path: path.value.split(/[\s;]+/).filter(Boolean), warriors: parseInt(w.value, 10) || 0, women: parseInt(f.value, 10) || 0}), "primary"));
      box.append(row);
    }
    if (o.camps.length) {
      box.append(el("p", T("Found a camp (a couple on a free cell):", "Installer un camp (un couple sur une case libre) :")));
      const row = el("div", null, "row options");
      o.camps.forEach((c) => row.append(option(c, {kind: "found_camp", cell: c}, "cell-option")));
      box.append(row);
    }
    if (o.fire.length) {
      const row = el("div", null, "row options");
      row.append(el("span", T("Take fire: ", "Prendre le feu : ")));
      o.fire.forEach((c) => row.append(option(c, {kind: "take_fire", cell: c})));
      box.append(row);
    }
    box.append(option(T(`${ask.player} has finished moving`, `${ask.player} a fini de se déplacer`), {kind: "done"}, "done"));
    return box;
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
  function trickForm() {
    if (trickBuilt) return;
    trickBuilt = true;
    const box = $("trick-form");
    const mk = (label, items, id) => {
      const l = el("label", label + " "); const s = el("select"); s.id = id;
      items.forEach(([v, t]) => { const o = el("option", t); o.value = v; s.append(o); }); l.append(s); box.append(l); return s;
    };
    const who = mk(T("Player", "Joueur"), view.game.players.map((p) => [p, p]), "trick-player");
    const card = mk(T("Card", "Carte"), CAT.tricks.map((t) => [t.id, t.title]), "trick-card");
    const cellsList = [["", "–"], ...Array.from(document.querySelectorAll("#valley-box g.cell")).map((g) => [g.dataset.cell, g.dataset.cell])];
    const cell = mk(T("Cell", "Case"), cellsList, "trick-cell");
    const target = mk(T("Target cell", "Case visée"), cellsList, "trick-target");
    const pawn = mk(T("Pawn", "Pion"), [["", "–"], ["warrior", T("warrior", "guerrier")], ["woman", T("woman", "femme")]], "trick-pawn");
    box.append(button(T("Play the card", "Jouer la carte"), () => {
      const entry = {kind: "trick", player: who.value, card: card.value};
      if (cell.value) entry.cell = cell.value;
      if (target.value) entry.target = target.value;
      if (pawn.value) entry.pawn = pawn.value;
      play(entry);
    }, "primary"));
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
  load().then(follow);
})();
