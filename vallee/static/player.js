/* La Vallée: a player's own phone. Its private view (api/player/TOKEN) is fetched at
   once and again after each change of the table (the public event stream says when),
   so a phone that dropped reconnects and shows where the game is. */
"use strict";
(() => {
  const ROOT = document.getElementById("player-view");
  const $ = (id) => document.getElementById(id);
  const T = (en, fr) => (Vallee.lang() === "fr" ? fr : en);
  const P = (pair) => (pair ? (pair[Vallee.lang()] || pair.en || "") : "");
  const el = (tag, text, cls) => Maamut.el(tag, text, cls);
  let me = null, seen = null;
  async function load() {
    const response = await fetch(ROOT.dataset.api, {cache: "no-store"});
    const data = await response.json();
    if (!data.ok) { $("me-turn").textContent = P({en: data.error.message, fr: data.error.message_fr}); return; }
    me = data; seen = data.etag; render();
  }
  function render() {
    const t = me.tribe;
    $("me-colour").style.background = me.colour;
    const dl = $("me"); dl.replaceChildren();
    const row = (k, v) => dl.append(el("dt", k), el("dd", String(v)));
    row(T("food", "nourriture"), t.food); row(T("warriors", "guerriers"), t.warriors); row(T("women", "femmes"), t.women);
    row(T("camps", "camps"), Object.keys(t.camps).join(" · ") || "–"); row(T("fire", "feu"), t.fire ? T("yes", "oui") : T("no", "non"));
    $("me-turn").textContent = me.pending ? (me.yours ? T("Your turn: ", "À vous : ") : T("Now: ", "Maintenant : ")) + P(me.pending) : "";
    const hand = $("hand"); hand.replaceChildren();
    if (!me.hand.length) hand.append(el("li", T("no card", "aucune carte")));
    me.hand.forEach((c) => {
      const li = el("li", null, c.now ? "now" : "later"); li.dataset.card = c.card;
      li.append(el("strong", c.title), el("span", " — " + P(c)), el("em", " (" + P(c.why) + ")"));
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
