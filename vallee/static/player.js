/* La Vallée: a player's own phone. Its private view (api/player/TOKEN) is fetched at
   once and again after each change of the table (the public event stream says when),
   so a phone that dropped reconnects and shows where the game is. When the question is
   this player's, its input is here (forms.js), and each card playable now has its own
   form; entries go to api/entry with the player's link (X-Vallee-Player): the table
   takes only what is this player's to give. */
"use strict";
(() => {
  const ROOT = document.getElementById("player-view");
  const $ = (id) => document.getElementById(id);
  const T = (en, fr) => (Vallee.lang() === "fr" ? fr : en);
  const P = (pair) => (pair ? (pair[Vallee.lang()] || pair.en || "") : "");
  const el = (tag, text, cls) => Maamut.el(tag, text, cls);
  let me = null, seen = null, busy = false;
  async function load() {
    const response = await fetch(ROOT.dataset.api, {cache: "no-store"});
    const data = await response.json();
    if (!data.ok) { $("me-turn").textContent = P({en: data.error.message, fr: data.error.message_fr}); return; }
    if (data.etag === seen && me) return;
    me = data; seen = data.etag; ROOT.dataset.etag = seen; render();
  }
  function showError(error) {
    const box = $("me-error");
    box.hidden = !error;
    box.textContent = error ? P({en: error.message, fr: error.message_fr || error.message}) : "";
  }
  async function play(entry) {
    if (busy) return null;
    busy = true;
    try {
      const response = await fetch(ROOT.dataset.entry, {method: "POST", credentials: "same-origin", body: JSON.stringify({entry}),
        headers: {"Content-Type": "application/json", "X-Vallee": "1", "X-Vallee-Player": ROOT.dataset.token, "If-Match": '"' + seen + '"'}});
      const data = await response.json();
      showError(data.ok ? null : data.error);
      await load();
      return data.ok ? data : null;
    } catch (e) {
      showError({message: "The table does not answer.", message_fr: "La table ne répond pas."});
      return null;
    } finally { busy = false; }
  }
  function context() {
    const playable = (via) => me.hand.filter((c) => c.now && c.via === via);
    return {play, post: () => null, pick: null, fight: null, reach: me.reach, rollout: false, cells: me.cells,
      moveCards: playable("move").map((c) => [c.card, c.title]), pacs: playable("found_camp").length > 0,
      players: me.players.filter((p) => p !== me.player), species: me.species, letters: me.letters, events: [],
      directions: me.directions, physicalBag: me.random.bag === "physical"};
  }
  function render() {
    const t = me.tribe;
    $("me-colour").style.background = me.colour;
    const dl = $("me"); dl.replaceChildren();
    const row = (k, v) => dl.append(el("dt", k), el("dd", String(v)));
    row(T("food", "nourriture"), t.food); row(T("warriors", "guerriers"), t.warriors); row(T("women", "femmes"), t.women);
    row(T("camps", "camps"), Object.keys(t.camps).join(" · ") || "–"); row(T("fire", "feu"), t.fire ? T("yes", "oui") : T("no", "non"));
    $("me-turn").textContent = me.pending ? (me.yours ? T("Your turn: ", "À vous : ") : T("Now: ", "Maintenant : ")) + P(me.pending) : "";
    const controls = $("me-controls");
    controls.replaceChildren();
    if (me.yours && me.pending) controls.append(ValleeForms.question(me.pending, context()));
    const hand = $("hand"); hand.replaceChildren();
    if (!me.hand.length) hand.append(el("li", T("no card", "aucune carte")));
    me.hand.forEach((c) => {
      const li = el("li", null, c.now ? "now" : "later"); li.dataset.card = c.card;
      li.append(el("strong", c.title), el("span", " — " + P(c)), el("em", " (" + P(c.why) + ")"));
      if (c.now && c.via) li.append(el("p", T("play it with your move, above", "jouez-la avec votre déplacement, ci-dessus"), "note"));
      else if (c.now) {
        const [form, entry] = ValleeForms.trickChoices(c.card, me.player, c.choices, context());
        li.append(form, ValleeForms.button(T(`Play ${c.title}`, `Jouer ${c.title}`), () => play(entry()), "primary play-card"));
      }
      hand.append(li);
    });
    const pawns = $("pawns"); pawns.replaceChildren();
    Object.entries(t.pawns).forEach(([cell, [w, f]]) => pawns.append(el("li", `${cell}: ${w} ${T("warrior(s)", "guerrier(s)")}, ${f} ${T("woman/women", "femme(s)")}`)));
  }
  function follow() {
    if (!ROOT.dataset.stream) return;
    const conn = $("conn"); conn.hidden = false;
    const source = new EventSource(ROOT.dataset.stream);
    source.addEventListener("open", () => { conn.textContent = T("live", "en direct"); });
    source.addEventListener("error", () => { conn.textContent = T("reconnecting…", "reconnexion…"); });
    source.addEventListener("state", (event) => {
      let next; try { next = JSON.parse(event.data); } catch (e) { return; }
      if (next.etag !== seen) load();
    });
  }
  Maamut.onLang(() => me && render());
  load().then(follow);
})();
