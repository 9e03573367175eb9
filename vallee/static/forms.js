/* La Vallée: the inputs of an entry, built from what the game asks (pending()) and from
   each trick card's choices (the catalogue's "choices", vallee.game_tricks.CHOICES), for
   the game master's page and a player's phone alike. No form is written per card: a
   choice's kind (cell, player, pawn, direction, species, steal, use, targets, tokens)
   says which input it needs.

   ctx: {play(entry), post(path, body), cells: ["q,r"...], pick(fn) (a board tap gives a
   cell; null: no board), fight (the public fight view), reach ({group: {end: path}}),
   moveCards ([[id, title]]), pacs (bool), players, species ([[id, fr]]), letters,
   directions, physicalBag (bool), rollout (bool)}. */
"use strict";
const ValleeForms = (() => {
  const T = (en, fr) => (Vallee.lang() === "fr" ? fr : en);
  const P = (pair) => (pair ? (pair[Vallee.lang()] || pair.en || "") : "");
  const el = (tag, text, cls) => Maamut.el(tag, text, cls);
  let serial = 0;
  function button(label, on, cls) {
    const b = el("button", label, cls); b.type = "button"; b.addEventListener("click", on); return b;
  }
  function select(items, id) {
    const s = el("select"); if (id) s.id = id;
    items.forEach(([v, t]) => { const o = el("option", t); o.value = v; s.append(o); });
    return s;
  }
  function labelled(text, input, cls) { const l = el("label", text + " ", cls); l.append(input); return l; }
  function number(label, max, value) {
    const i = el("input"); i.type = "number"; i.min = "0"; i.max = String(max); i.value = String(value); i.inputMode = "numeric";
    return [labelled(label, i), i];
  }
  const pct = (x) => ((x === null || x === undefined) ? "–" : Math.round(x * 100) + " %");
  const pawnName = (p) => (p === "warrior" ? T("warrior", "guerrier") : T("woman", "femme"));
  const VALUES = {
    pawn: () => [["warrior", T("warrior", "guerrier")], ["woman", T("woman", "femme")]],
    steal: () => [["food", T("food (up to 4)", "nourriture (jusqu'à 4)")], ["fire", T("fire (fire rules)", "le feu (règles du feu)")]],
    use: () => [["bonus", T("+1 in every combat this turn", "+1 dans tous les combats du tour")], ["fire", T("find fire (fire rules)", "trouver le feu (règles du feu)")]],
  };

  /* -- one input per choice of a trick card ------------------------------------------- */
  function cellSelect(ctx, id) {
    const s = select([["", "–"], ...ctx.cells.map((c) => [c, c])], id);
    return s;
  }
  function choiceInput(choice, ctx, prefix) {
    const id = `${prefix}-${choice.field}`;
    const kind = choice.kind;
    if (kind === "cell") {
      const s = cellSelect(ctx, id);
      s.addEventListener("focus", () => ctx.pick && ctx.pick((c) => { s.value = c; }));
      return [labelled(P(choice), s), () => s.value || undefined];
    }
    if (kind === "player") {
      const s = select(ctx.players.map((p) => [p, p]), id);
      return [labelled(P(choice), s), () => s.value];
    }
    if (kind === "species") {
      const s = select(ctx.species.map(([v, fr]) => [v, T(v, fr)]), id);
      return [labelled(P(choice), s), () => s.value];
    }
    if (kind === "direction") {
      const s = select(ctx.directions.map((d) => [d, d]), id);
      return [labelled(P(choice), s), () => s.value];
    }
    if (kind === "targets") {
      const box = el("fieldset"); box.append(el("legend", P(choice)));
      const rows = [0, 1].map((i) => {
        const who = select([["", "–"], ...ctx.players.map((p) => [p, p])], `${id}-${i}-player`);
        const where = cellSelect(ctx, `${id}-${i}-cell`);
        who.setAttribute("aria-label", T(`tribe ${i + 1}`, `tribu ${i + 1}`));
        where.setAttribute("aria-label", T(`cell ${i + 1}`, `case ${i + 1}`));
        const row = el("div", null, "row"); row.append(who, where); box.append(row);
        return [who, where];
      });
      return [box, () => rows.filter(([w, c]) => w.value && c.value).map(([w, c]) => ({player: w.value, cell: c.value}))];
    }
    if (kind === "tokens") {
      if (!ctx.physicalBag) return [null, () => undefined];  // the companion draws it
      const [row, read] = tokenRow(ctx, 0);
      return [labelled(P(choice), row), () => [read()]];
    }
    const s = select(VALUES[kind] ? VALUES[kind]() : [], id);
    return [labelled(P(choice), s), () => s.value];
  }
  /* A form for one card: its choices, then "Play"; entry() adds them to {kind, player, card}. */
  function trickChoices(card, player, choices, ctx) {
    const box = el("div", null, "trick-choices");
    const prefix = "choice" + (++serial);
    const reads = [];
    (choices || []).forEach((c) => {
      const [node, read] = choiceInput(c, ctx, prefix);
      if (node) box.append(node);
      reads.push([c.field, read]);
    });
    const entry = () => {
      const out = {kind: "trick", player, card};
      reads.forEach(([field, read]) => { const v = read(); if (v !== undefined && v !== "") out[field] = v; });
      return out;
    };
    return [box, entry];
  }

  /* -- the question asked now ----------------------------------------------------------- */
  function question(ask, ctx) {
    const box = el("div");
    const option = (label, entry, cls) => button(label, () => ctx.play(entry), cls);
    const physical = ask.random === "physical";
    const k = ask.kind;
    if (ctx.pick) ctx.pick(null);
    if (k === "lot") {
      if (physical) ask.options.forEach((p) => box.append(option(p, {kind: "lot", player: p})));
      else box.append(option(T("Draw lots", "Tirer au sort"), {kind: "lot"}, "primary"));
    } else if (k === "roll") {
      if (physical) box.append(diceInput(ask.count, ctx));
      else box.append(option(ask.count > 1 ? T(`Roll the ${ask.count} dice`, `Lancer les ${ask.count} dés`) : T("Roll the die", "Lancer le dé"),
        {kind: "roll"}, "primary"));
      if (ask.step === "fight" && !physical && ctx.rollout) box.append(...rollouts(ctx, true));
    } else if (k === "card") {
      if (physical) box.append(pickFrom(ctx.events, (id) => ctx.play({kind: "card", card: id}), T("Card drawn", "Carte tirée")));
      else box.append(option(T("Draw the card", "Piocher la carte"), {kind: "card"}, "primary"));
    } else if (k === "tokens") {
      if (physical) box.append(tokensInput(ask.count, ctx));
      else box.append(option(T(`Draw ${ask.count} from the bag`, `Tirer ${ask.count} du sac`), {kind: "tokens"}, "primary"));
    } else if (k === "place_camp") {
      const check = el("input"); check.type = "checkbox"; check.id = "camp-field";
      const field = el("label", null, "block");
      field.append(check, document.createTextNode(" " + T("sow a field at once (plain, 1 food)", "semer un champ tout de suite (plaine, 1 nourriture)")));
      box.append(field, cells(ask.options, (c) => ctx.play({kind: "place_camp", cell: c, field: check.checked && ask.field_options.includes(c)}), ctx));
    } else if (k === "return" || k === "combat_cell") {
      box.append(cells(ask.options, (c) => ctx.play({kind: k, cell: c}), ctx));
    } else if (k === "lose") {
      if (ask.pawn) box.append(cells(ask.options, (c) => ctx.play({kind: "lose", cell: c}), ctx));
      else {
        const answers = (ctx.fight && ctx.fight.answers) || {};
        ask.options.forEach((pawn) => {
          const name = pawn === "warrior" ? T("a warrior", "un guerrier") : T("a woman", "une femme");
          const odds = answers[pawn] !== undefined ? " — " + T("then holds the cell: ", "garde ensuite la case : ") + pct(answers[pawn]) : "";
          box.append(option(name + odds, {kind: "lose", pawn}, "answer"));
        });
        if (ask.step === "fight" && ctx.rollout) box.append(rollouts(ctx, false)[0]);
      }
    } else if (k === "species_order") {
      box.append(orderList(ask.options, (order) => ctx.play({kind: k, order})));
    } else if (k === "camp_taken") {
      box.append(option(T("Keep it", "Le garder"), {kind: k, choice: "keep"}), option(T("Burn it", "Le brûler"), {kind: k, choice: "burn"}));
    } else if (k === "sow") {
      const chosen = new Set();
      box.append(checks(ask.options, chosen), button(T("Sow", "Semer"), () => ctx.play({kind: "sow", cells: [...chosen]}), "primary"));
    } else if (k === "feed") {
      box.append(feedInput(ask, ctx));
    } else if (k === "pass") {
      box.append(option(T("Nobody plays a card: go on", "Personne ne joue de carte : continuer"), {kind: "pass"}, "primary"));
    } else if (k === "move") {
      box.append(moveInput(ask, ctx));
    }
    return box;
  }
  function rollouts(ctx, both) {
    const out = [button(T("Roll it all out (women lost first)", "Tout jouer (femmes perdues d'abord)"), () => ctx.post("/rollout", {policy: "women_first"}))];
    if (both) out.push(button(T("Roll it all out (warriors lost first)", "Tout jouer (guerriers perdus d'abord)"), () => ctx.post("/rollout", {policy: "warriors_first"})));
    return out;
  }
  function cells(options, go, ctx) {
    const row = el("div", null, "row options");
    options.forEach((c) => { const b = button(c, () => go(c), "cell-option"); b.dataset.cell = c; row.append(b); });
    if (ctx.pick) ctx.pick((c) => options.includes(c) && go(c));
    return row;
  }
  function diceInput(count, ctx) {
    const row = el("div", null, "row");
    const inputs = [];
    for (let i = 0; i < count; i++) {
      const input = el("input"); input.type = "number"; input.min = "1"; input.max = "6"; input.required = true;
      input.setAttribute("aria-label", T("die ", "dé ") + (i + 1)); input.className = "die"; inputs.push(input); row.append(input);
    }
    row.append(button(T("Enter", "Saisir"), () => ctx.play({kind: "roll", dice: inputs.map((x) => parseInt(x.value, 10))}), "primary"));
    return row;
  }
  function pickFrom(items, go, label) {
    const row = el("div", null, "row");
    const s = select(items);
    row.append(labelled(label, s), button(T("Enter", "Saisir"), () => go(s.value), "primary"));
    return row;
  }
  function tokenRow(ctx, i) {
    const row = el("div", null, "row");
    const sp = select(ctx.species.map(([v, fr]) => [v, T(v, fr)]));
    const le = select([["", T("no letter", "sans lettre")], ...ctx.letters.map((x) => [x, x])]);
    sp.setAttribute("aria-label", T("species", "espèce") + " " + (i + 1)); le.setAttribute("aria-label", T("letter", "lettre") + " " + (i + 1));
    row.append(sp, le);
    return [row, () => ({species: sp.value, letter: le.value})];
  }
  function tokensInput(count, ctx) {
    const box = el("div"), reads = [];
    for (let i = 0; i < count; i++) { const [row, read] = tokenRow(ctx, i); box.append(row); reads.push(read); }
    box.append(button(T("Enter", "Saisir"), () => ctx.play({kind: "tokens", tokens: reads.map((r) => r())}), "primary"));
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
  /* The species in fighting order: a list moved with its buttons (keyboard: Tab, Enter). */
  function orderList(items, go) {
    const box = el("div", null, "order");
    const list = el("ol", null, "order-list"); list.id = "species-order";
    let order = [...items];
    const draw = (focus) => {
      list.replaceChildren();
      order.forEach((s, i) => {
        const li = el("li"); li.dataset.species = s;
        li.append(el("span", s + " "));
        const move = (d) => { const j = i + d; [order[i], order[j]] = [order[j], order[i]]; draw([s, d]); };
        const up = button("↑", () => move(-1), "small"); up.disabled = i === 0;
        const down = button("↓", () => move(1), "small"); down.disabled = i === order.length - 1;
        up.setAttribute("aria-label", T(`${s} earlier`, `${s} plus tôt`)); down.setAttribute("aria-label", T(`${s} later`, `${s} plus tard`));
        li.append(up, down); list.append(li);
        if (focus && focus[0] === s) (focus[1] < 0 && !up.disabled ? up : down.disabled ? up : down).focus();
      });
    };
    draw(null);
    box.append(el("p", T("Order in which the species fight (first at the top):", "Ordre de combat des espèces (la première en haut) :")), list,
      button(T("This order", "Cet ordre"), () => go([...order]), "primary"));
    return box;
  }
  function feedInput(ask, ctx) {
    const box = el("div");
    if (!ask.starve) { box.append(button(T("Feed the tribe", "Nourrir la tribu"), () => ctx.play({kind: "feed", starve: []}), "primary")); return box; }
    box.append(el("p", T(`Choose ${ask.starve} pawn(s) who starve:`, `Choisissez ${ask.starve} pion(s) qui meurent de faim :`)));
    const rows = [];
    Object.entries(ask.options).forEach(([cell, [w, f]]) => {
      const row = el("div", null, "row"); row.append(el("strong", cell));
      const [lw, iw] = number(T("warriors", "guerriers"), w, 0), [lf, iff] = number(T("women", "femmes"), f, 0);
      row.append(lw, lf); rows.push([cell, iw, iff]); box.append(row);
    });
    box.append(button(T("They starve", "Ils meurent de faim"), () => ctx.play({kind: "feed", starve: rows
      .map(([cell, w, f]) => ({cell, warriors: parseInt(w.value, 10) || 0, women: parseInt(f.value, 10) || 0}))
      .filter((s) => s.warriors || s.women)}), "primary"));
    return box;
  }
  function moveInput(ask, ctx) {
    const o = ask.options, box = el("div", null, "move");
    const groups = Object.keys(o.groups);
    if (groups.length) {
      const row = el("div", null, "row");
      const from = select(groups.map((c) => [c, `${c} (${o.groups[c][0]}·${o.groups[c][1]})`]), "move-from");
      const [lw, w] = number(T("warriors", "guerriers"), 10, o.groups[groups[0]][0]);
      const [lf, f] = number(T("women", "femmes"), 6, 0);
      w.id = "move-warriors"; f.id = "move-women";
      const path = el("input"); path.id = "move-path"; path.placeholder = "1,0 2,0";
      const to = select([]); to.id = "move-to";
      const ends = () => {
        const found = (ctx.reach && ctx.reach[from.value]) || {};
        to.replaceChildren(...[["", "–"], ...Object.keys(found).map((c) => [c, c])].map(([v, t]) => { const x = el("option", t); x.value = v; return x; }));
      };
      to.addEventListener("change", () => { const found = (ctx.reach && ctx.reach[from.value]) || {}; if (found[to.value]) path.value = found[to.value].join(" "); });
      from.addEventListener("change", () => { w.value = String(o.groups[from.value][0]); f.value = "0"; path.value = ""; ends(); });
      ends();
      if (ctx.pick) ctx.pick((c) => { path.value = (path.value + " " + c).trim(); });
      const cards = el("fieldset", null, "move-cards");
      const held = new Set();
      if (ctx.moveCards.length) {
        cards.append(el("legend", T("Cards played with this move", "Cartes jouées avec ce déplacement")));
        ctx.moveCards.forEach(([id, title]) => {
          const l = el("label"); const i = el("input"); i.type = "checkbox"; i.value = id; i.name = "move-card";
          i.addEventListener("change", () => (i.checked ? held.add(id) : held.delete(id)));
          l.append(i, document.createTextNode(" " + title)); cards.append(l);
        });
      }
      row.append(labelled(T("Group on", "Groupe en"), from), lw, lf, labelled(T("To", "Vers"), to),
        labelled(ctx.pick ? T("Path (cells, tap them on the board)", "Chemin (cases, touchez-les sur le plateau)") : T("Path (cells)", "Chemin (cases)"), path),
        button(T("Move", "Déplacer"), () => {
          const entry = {kind: "move", from: from.value, path: path.value.split(/[\s;]+/).filter(Boolean),
            warriors: parseInt(w.value, 10) || 0, women: parseInt(f.value, 10) || 0};
          if (held.size) entry.cards = [...held];
          ctx.play(entry);
        }, "primary"));
      box.append(row);
      if (ctx.moveCards.length) box.append(cards);
    }
    if (o.camps.length) {
      box.append(el("p", T("Found a camp (a couple on a free cell):", "Installer un camp (un couple sur une case libre) :")));
      const row = el("div", null, "row options");
      o.camps.forEach((c) => row.append(button(c, () => ctx.play({kind: "found_camp", cell: c}), "cell-option")));
      box.append(row);
    }
    if (ctx.pacs && groups.length) {
      const row = el("div", null, "row");
      const where = select(Object.keys(o.groups).map((c) => [c, c]), "pacs-cell");
      row.append(labelled(T("Pacs: two of a kind found a camp on", "Pacs : deux de même sexe installent un camp en"), where),
        button(T("Found it with Pacs", "L'installer avec Pacs"), () => ctx.play({kind: "found_camp", cell: where.value, card: "pacs"})));
      box.append(row);
    }
    if (o.fire.length) {
      const row = el("div", null, "row options");
      row.append(el("span", T("Take fire: ", "Prendre le feu : ")));
      o.fire.forEach((c) => row.append(button(c, () => ctx.play({kind: "take_fire", cell: c}))));
      box.append(row);
    }
    box.append(button(T(`${ask.player} has finished moving`, `${ask.player} a fini de se déplacer`), () => ctx.play({kind: "done"}), "done"));
    return box;
  }
  return {question, trickChoices, button, select, labelled, pct, pawnName};
})();
